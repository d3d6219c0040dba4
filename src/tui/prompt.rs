//! The `<knowledge>` section as the TUI holds it: laid out, not held.
//!
//! A large knowledge base pre-loads megabytes (4,000 files, ~40 MB at
//! 100k subjects in the bench corpus). Holding that text for the Prompt tab, and a
//! second copy while the next load renders, was most of the TUI's memory.
//! The worker therefore first counts the section's tokens with the
//! TUI's one [`SectionCounter`] (whose memo the plan counts filled: the
//! section a confirmed change produces was counted when the change was
//! shown, issue 37 item 4), reports the count ([`PromptCount`]: the
//! status line needs nothing more), then reads the pre-loaded subjects
//! one at a time and keeps only where each piece starts
//! ([`PromptLayout`]); the Prompt tab then reads the pieces its visible
//! lines need ([`PromptHead`], fetched by the driver like any preview).

use jp_kb_core::KnowledgeBase;
use jp_kb_core::internal::content::Root;
use jp_kb_core::internal::render::Piece;
use jp_kb_core::internal::section_tokens::SectionCounter;
use jp_kb_core::subjects::SubjectAt;

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

/// The token count of one load's section, reported before its layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptCount {
    pub generation: u64,
    /// `None`: the section is absent.
    pub tokens: Option<usize>,
}

impl PromptCount {
    /// Counts `kb`'s section with `counter` (from its memo what it
    /// counted before: a planned state's count, an earlier load's).
    pub fn count(kb: &KnowledgeBase, generation: u64, counter: &SectionCounter) -> Self {
        // A present section is never empty: 0 tokens means absent.
        let tokens = Some(counter.count(kb)).filter(|&n| n > 0);
        Self { generation, tokens }
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
    /// Counts the section (see [`PromptCount::count`]) and lays it out.
    pub fn render(kb: &KnowledgeBase, generation: u64, counter: &SectionCounter) -> Self {
        Self::lay_out(kb, PromptCount::count(kb, generation, counter))
    }

    /// Reads every pre-loaded subject of `kb` once, one at a time, and
    /// lays the section out, holding no more than one subject's text;
    /// `count` is its count, made before.
    pub fn lay_out(kb: &KnowledgeBase, count: PromptCount) -> Self {
        let PromptCount { generation, tokens } = count;
        let Some(pieces) = kb.knowledge_pieces() else {
            return Self {
                generation,
                layout: None,
                tokens: None,
            };
        };
        let mut layout = PromptLayout::default();
        // One piece's text at a time (reused).
        let mut text = String::new();
        let root = Root::new(kb.root());
        for piece in pieces {
            let first_line = layout.newlines;
            text.clear();
            kb.push_piece_in(&root, &piece, &mut text);
            layout.newlines += bytecount_newlines(&text);
            layout.bytes += text.len();
            layout.pieces.push(LaidPiece { piece, first_line });
        }
        Self {
            generation,
            layout: Some(layout),
            tokens,
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
