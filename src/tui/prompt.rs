//! The `<knowledge>` section as the TUI holds it: laid out, not held.
//!
//! A large knowledge base pre-loads megabytes (4,000 files, ~40 MB at
//! 100k subjects in the bench corpus). Holding that text for the Prompt tab, and a
//! second copy while the next load renders, was most of the TUI's memory.
//! The worker ([`RenderedPrompt::render`]) therefore reads the pre-loaded
//! subjects one at a time, counts the tokens as it goes
//! ([`TokenTally`]) and keeps only where each piece starts
//! ([`PromptLayout`]); the Prompt tab then reads the pieces its visible
//! lines need ([`PromptHead`], fetched by the driver like any preview).

use jp_kb_core::internal::content::Root;
use jp_kb_core::internal::kb::{KnowledgeBase, SubjectAt};
use jp_kb_core::internal::render::Piece;
use jp_kb_core::internal::tokens::TokenTally;

/// A piece of the section and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaidPiece {
    pub piece: Piece<SubjectAt>,
    /// Newlines before the piece: the 0-based line it starts on.
    pub first_line: usize,
}

/// Where every piece of the section starts, and its size.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PromptLayout {
    pub pieces: Vec<LaidPiece>,
    /// Newlines in the whole section.
    pub newlines: usize,
    pub bytes: usize,
}

impl PromptLayout {
    /// How many leading pieces hold the first `lines` lines whole.
    pub fn pieces_for(&self, lines: usize) -> usize {
        self.pieces.partition_point(|p| p.first_line < lines)
    }
}

/// The section of one load as the worker rendered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedPrompt {
    pub generation: u64,
    /// `None`: the section is absent.
    pub layout: Option<PromptLayout>,
    pub tokens: Option<usize>,
}

impl RenderedPrompt {
    /// Reads every pre-loaded subject of `kb` once, one at a time: counts
    /// the section's tokens and lays it out, holding no more than one
    /// subject's text.
    pub fn render(kb: &KnowledgeBase, generation: u64) -> Self {
        let Some(pieces) = kb.knowledge_pieces() else {
            return Self {
                generation,
                layout: None,
                tokens: None,
            };
        };
        let mut tally = TokenTally::new();
        let mut layout = PromptLayout::default();
        // One piece's text at a time (reused).
        let mut text = String::new();
        let root = Root::new(kb.root());
        for piece in pieces {
            let first_line = layout.newlines;
            text.clear();
            kb.push_piece_in(&root, &piece, &mut text);
            tally.push(&text);
            layout.newlines += bytecount_newlines(&text);
            layout.bytes += text.len();
            layout.pieces.push(LaidPiece { piece, first_line });
        }
        Self {
            generation,
            layout: Some(layout),
            tokens: Some(tally.total()),
        }
    }
}

fn bytecount_newlines(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

/// The leading pieces of the section read so far, as text: what the
/// Prompt tab draws its visible lines from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptHead {
    /// How many pieces `text` holds.
    pub pieces: usize,
    pub text: String,
}

/// Pieces `from..to` of a load's section, read for the Prompt tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadPart {
    pub generation: u64,
    pub from: usize,
    pub to: usize,
    pub text: String,
}

impl PromptHead {
    /// Appends a part that continues this head; false (nothing changes)
    /// when it does not.
    pub fn extend(&mut self, part: HeadPart) -> bool {
        if part.from != self.pieces || part.to < part.from {
            return false;
        }
        if self.text.is_empty() {
            self.text = part.text;
        } else {
            self.text.push_str(&part.text);
        }
        self.pieces = part.to;
        true
    }
}

/// Reads pieces `from..to` of `layout` (the pre-loaded subjects among
/// them from disk).
pub fn read_part(
    kb: &KnowledgeBase,
    layout: &[LaidPiece],
    generation: u64,
    from: usize,
) -> HeadPart {
    let mut text = String::new();
    let root = Root::new(kb.root());
    for laid in layout {
        kb.push_piece_in(&root, &laid.piece, &mut text);
    }
    HeadPart {
        generation,
        from,
        to: from + layout.len(),
        text,
    }
}
