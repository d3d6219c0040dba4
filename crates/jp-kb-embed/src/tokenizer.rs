//! A model's `tokenizer.json`, read as input from a stranger: only the
//! parts of a BERT tokenizer whose output is bounded by its input are
//! accepted, checked in the JSON before the `tokenizers` crate builds
//! anything from it (building normalises the added tokens already).
//!
//! - The normaliser may grow a text at most [`MAX_GROWTH`] times (each
//!   step's worst case multiplied: lowercasing ×3 in UTF-8, NFKC ×11, a
//!   replacement by its length); a `Replace` by a regular expression, a
//!   precompiled map or anything unknown is refused.
//! - The pre-tokeniser splits on whitespace, punctuation or digits; the
//!   model is `WordPiece` (BERT's), with words of at most
//!   [`MAX_WORD_CHARS`] characters tried (its search is quadratic in
//!   them); the post-processor adds at most [`MAX_SPECIAL`] tokens.
//! - Its own truncation, padding and decoder are dropped: texts are cut
//!   to the model's length here, and nothing is decoded.
//! - Every text's pieces are checked after encoding: at most the model's
//!   length, every id inside the word table.

use serde_json::{Map, Value};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// How many times longer the normaliser may make a text.
const MAX_GROWTH: u64 = 1024;
/// The longest word `WordPiece` may try to split.
const MAX_WORD_CHARS: u64 = 200;
/// The most special tokens the post-processor may add to a text.
const MAX_SPECIAL: usize = 8;
/// Nested sequences of normalisers or pre-tokenisers.
const MAX_DEPTH: usize = 8;

/// A checked tokenizer, cutting texts to `max_tokens` pieces.
#[derive(Debug)]
pub(crate) struct Bounded {
    inner: Tokenizer,
    max_tokens: usize,
    vocab: usize,
}

/// One text's word pieces and attention mask.
#[derive(Debug)]
pub(crate) struct Pieces {
    pub ids: Vec<u32>,
    pub mask: Vec<u32>,
}

impl Bounded {
    /// The tokenizer in `json` (the bytes of `tokenizer.json`), cutting to
    /// `max_tokens`, padding with `pad`, for a word table of `vocab` rows;
    /// `Err` says what part is refused.
    pub(crate) fn new(
        json: &[u8],
        max_tokens: usize,
        vocab: usize,
        pad: u32,
    ) -> Result<Self, String> {
        let value: Value = serde_json::from_slice(json)
            .map_err(|e| format!("not JSON (line {}, column {})", e.line(), e.column()))?;
        let Value::Object(mut fields) = value else {
            return Err("not a JSON object".to_owned());
        };
        let growth = normalizer_growth(fields.get("normalizer").unwrap_or(&Value::Null), 0)?;
        if growth > MAX_GROWTH {
            return Err(format!(
                "its `normalizer` can make a text {growth} times longer (at most {MAX_GROWTH} accepted)"
            ));
        }
        check_pre_tokenizer(fields.get("pre_tokenizer").unwrap_or(&Value::Null), 0)?;
        check_model(fields.get("model").unwrap_or(&Value::Null))?;
        check_post_processor(fields.get("post_processor").unwrap_or(&Value::Null))?;
        for dropped in ["truncation", "padding", "decoder"] {
            fields.insert(dropped.to_owned(), Value::Null);
        }
        let mut inner: Tokenizer = serde_json::from_value(Value::Object(fields))
            .map_err(|_| "not a tokenizer the `tokenizers` library reads".to_owned())?;
        inner
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| e.to_string())?;
        inner.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            pad_id: pad,
            ..PaddingParams::default()
        }));
        Ok(Self {
            inner,
            max_tokens,
            vocab,
        })
    }

    /// The pieces of each of `texts`, padded to the longest of them.
    pub(crate) fn encode(&self, texts: &[&str]) -> Result<Vec<Pieces>, String> {
        let encodings = self
            .inner
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| format!("cannot split a text into word pieces ({e})"))?;
        encodings
            .into_iter()
            .map(|e| {
                let ids = e.get_ids();
                if ids.len() > self.max_tokens {
                    return Err(format!(
                        "it made {} word pieces of a text, more than the {} the model reads",
                        ids.len(),
                        self.max_tokens
                    ));
                }
                if ids.iter().any(|&id| id as usize >= self.vocab) {
                    return Err("it gives a word piece beyond config.json's vocab_size".to_owned());
                }
                Ok(Pieces {
                    ids: ids.to_vec(),
                    mask: e.get_attention_mask().to_vec(),
                })
            })
            .collect()
    }
}

/// The node's `type`, when it is an object with one.
fn kind(node: &Value) -> Option<&str> {
    node.get("type").and_then(Value::as_str)
}

/// A node's list field `name` (a sequence's parts), refused past
/// [`MAX_DEPTH`] levels.
fn parts<'a>(node: &'a Value, name: &str, depth: usize, what: &str) -> Result<&'a [Value], String> {
    if depth >= MAX_DEPTH {
        return Err(format!(
            "its `{what}` nests sequences more than {MAX_DEPTH} deep"
        ));
    }
    node.get(name)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| format!("its `{what}` sequence has no `{name}` list"))
}

/// The most times longer the normaliser `node` can make a text, in UTF-8
/// bytes; `Err` for one that cannot be bounded.
fn normalizer_growth(node: &Value, depth: usize) -> Result<u64, String> {
    if node.is_null() {
        return Ok(1);
    }
    let text = |name: &str| node.get(name).and_then(Value::as_str);
    let growth = match kind(node) {
        Some("Strip" | "StripAccents" | "Nmt") => 1,
        // Lowercasing: ×3 in UTF-8 at most, as NFC and NFD.
        Some("NFC" | "NFD" | "Lowercase") => 3,
        Some("NFKC" | "NFKD") => 11,
        Some("ByteLevel") => 2,
        // Chinese characters spaced (×2), accents stripped through NFD
        // (×3), lowercased (×3).
        Some("BertNormalizer") => 18,
        Some("Prepend") => 1 + text("prepend").map_or(0, str::len) as u64,
        Some("Replace") => {
            let content = text("content").ok_or("its `normalizer` Replace has no `content`")?;
            match node.get("pattern").and_then(|p| p.get("String")).and_then(Value::as_str) {
                Some(pattern) if !pattern.is_empty() => {
                    (content.len() as u64).div_ceil(pattern.len() as u64).max(1)
                }
                _ => {
                    return Err(
                        "its `normalizer` Replace must replace a plain, non-empty string".to_owned(),
                    );
                }
            }
        }
        Some("Sequence") => {
            let mut product = 1u64;
            for part in parts(node, "normalizers", depth, "normalizer")? {
                product = product.saturating_mul(normalizer_growth(part, depth + 1)?);
            }
            product
        }
        _ => return Err("its `normalizer` is not one jp-kb can bound (BertNormalizer, Lowercase, NFC/NFD/NFKC/NFKD, StripAccents, Strip, Replace of a string, or a Sequence of them)".to_owned()),
    };
    Ok(growth)
}

/// Refuses a pre-tokeniser that is not a plain split.
fn check_pre_tokenizer(node: &Value, depth: usize) -> Result<(), String> {
    match kind(node) {
        _ if node.is_null() => Ok(()),
        Some("BertPreTokenizer" | "Whitespace" | "WhitespaceSplit" | "Punctuation" | "Digits") => {
            Ok(())
        }
        Some("Sequence") => parts(node, "pretokenizers", depth, "pre_tokenizer")?
            .iter()
            .try_for_each(|p| check_pre_tokenizer(p, depth + 1)),
        _ => Err("its `pre_tokenizer` is not one jp-kb reads (BertPreTokenizer, Whitespace, WhitespaceSplit, Punctuation, Digits, or a Sequence of them)".to_owned()),
    }
}

/// Refuses a model other than `WordPiece`, or one trying long words.
fn check_model(node: &Value) -> Result<(), String> {
    if kind(node) != Some("WordPiece") {
        return Err("its `model` is not WordPiece (BERT's), the one jp-kb reads".to_owned());
    }
    match node.get("max_input_chars_per_word") {
        None => Ok(()),
        Some(n) if n.as_u64().is_some_and(|n| n <= MAX_WORD_CHARS) => Ok(()),
        Some(_) => Err(format!(
            "its `model`'s `max_input_chars_per_word` must be a whole number up to {MAX_WORD_CHARS}"
        )),
    }
}

/// Refuses a post-processor that adds more than [`MAX_SPECIAL`] tokens.
fn check_post_processor(node: &Value) -> Result<(), String> {
    let too_many = || {
        Err(format!(
            "its `post_processor` adds more than {MAX_SPECIAL} special tokens to a text"
        ))
    };
    match kind(node) {
        _ if node.is_null() => Ok(()),
        Some("BertProcessing") => Ok(()),
        Some("TemplateProcessing") => {
            let pieces = node
                .get("single")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let empty = Map::new();
            let specials = node
                .get("special_tokens")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            let widest = specials
                .values()
                .map(|s| s.get("ids").and_then(Value::as_array).map_or(0, Vec::len))
                .max()
                .unwrap_or(0);
            if pieces.saturating_mul(widest.max(1)) > MAX_SPECIAL {
                return too_many();
            }
            Ok(())
        }
        _ => Err("its `post_processor` is not BertProcessing or TemplateProcessing".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tokenizer(normalizer: &Value) -> Value {
        json!({
            "version": "1.0",
            "added_tokens": [],
            "normalizer": normalizer,
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": null,
            "decoder": null,
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100,
                      "vocab": {"[UNK]": 0, "[PAD]": 1, "a": 2, "##a": 3}}
        })
    }

    fn open(v: &Value) -> Result<Bounded, String> {
        Bounded::new(&serde_json::to_vec(v).unwrap(), 16, 4, 1)
    }

    #[test]
    fn a_normalizer_that_multiplies_text_is_refused_before_it_is_built() {
        let step = json!({"type": "Replace", "pattern": {"String": "a"}, "content": "aaaaaaaaaa"});
        let many = json!({"type": "Sequence", "normalizers": [step, step, step, step]});
        let err = open(&tokenizer(&many)).unwrap_err();
        assert!(err.contains("10000 times longer"), "{err}");
        let regex = json!({"type": "Replace", "pattern": {"Regex": ""}, "content": "a"});
        assert!(open(&tokenizer(&regex)).unwrap_err().contains("plain"));
        let precompiled = json!({"type": "Precompiled", "precompiled_charsmap": ""});
        assert!(open(&tokenizer(&precompiled)).is_err());
        // Nesting is bounded too.
        let mut deep = json!({"type": "Lowercase"});
        for _ in 0..20 {
            deep = json!({"type": "Sequence", "normalizers": [deep]});
        }
        assert!(open(&tokenizer(&deep)).unwrap_err().contains("deep"));
    }

    #[test]
    fn pieces_are_cut_to_the_model_s_length_and_checked_against_its_table() {
        let plain = open(&tokenizer(&json!({"type": "Lowercase"}))).unwrap();
        let pieces = plain
            .encode(&["a a a a a a a a a a a a a a a a a a a a", "A"])
            .unwrap();
        assert_eq!(pieces[0].ids.len(), 16);
        assert_eq!(pieces[1].ids.len(), 16, "padded to the longest");
        assert_eq!(pieces[1].mask.iter().sum::<u32>(), 1);
        // A word table smaller than the tokenizer's vocabulary.
        let small = Bounded::new(
            &serde_json::to_vec(&tokenizer(&Value::Null)).unwrap(),
            16,
            3,
            1,
        )
        .unwrap();
        assert!(small.encode(&["aa"]).unwrap_err().contains("vocab_size"));
    }

    #[test]
    fn other_models_pre_tokenizers_and_processors_are_refused() {
        let mut v = tokenizer(&Value::Null);
        v["model"]["max_input_chars_per_word"] = json!(1_000_000);
        assert!(open(&v).unwrap_err().contains("max_input_chars_per_word"));
        let mut v = tokenizer(&Value::Null);
        v["model"]["type"] = json!("BPE");
        assert!(open(&v).unwrap_err().contains("WordPiece"));
        let mut v = tokenizer(&Value::Null);
        v["pre_tokenizer"] = json!({"type": "Split", "pattern": {"Regex": "(a+)+$"}, "behavior": "Isolated", "invert": false});
        assert!(open(&v).unwrap_err().contains("pre_tokenizer"));
        let mut v = tokenizer(&Value::Null);
        let ids: Vec<u32> = vec![0; 100];
        v["post_processor"] = json!({"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "X", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [], "special_tokens": {"X": {"id": "X", "ids": ids, "tokens": []}}});
        assert!(open(&v).unwrap_err().contains("special tokens"));
    }
}
