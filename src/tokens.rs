//! Token counts with a real tokenizer (`o200k_base`, offline). The tables
//! take about a third of a second to load, so they are loaded once, on the
//! first count, and only when a count is asked for.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

/// The tokenizer's name, for reports.
pub const TOKENIZER: &str = "o200k_base";

fn bpe() -> Option<&'static CoreBPE> {
    static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().ok()).as_ref()
}

/// The number of tokens of `text`; `None` if the tokenizer failed to load.
pub fn count_tokens(text: &str) -> Option<usize> {
    bpe().map(|b| b.encode_ordinary(text).len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_real_tokens() {
        assert_eq!(count_tokens(""), Some(0));
        let n = count_tokens("Hello, world!").unwrap_or(0);
        assert!((2..=5).contains(&n), "{n}");
    }
}
