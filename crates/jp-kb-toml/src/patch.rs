//! A text replacement: the edit layer's only way to change a document,
//! so every byte outside `range` is kept by construction.

use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub range: Range<usize>,
    pub text: String,
}

impl Patch {
    pub fn apply(&self, src: &str) -> String {
        let mut out = String::with_capacity(src.len() + self.text.len());
        out.push_str(&src[..self.range.start]);
        out.push_str(&self.text);
        out.push_str(&src[self.range.end..]);
        out
    }
}
