//! The copy of jp-kb's texts JP read when it started a server (issue 36,
//! "nothing stale without a word"). JP builds its request from the
//! configuration it read *before* it starts `jp-kb mcp`: when the
//! generated layer was stale then (the knowledge base changed outside
//! jp-kb), the server's rewrite at start helps only the next query, and
//! the model of this one got the older section. The server reads the
//! layer before it rewrites it, so it knows; it says so at the top of the
//! `learn` answers while the two differ ([`OLDER_SECTION_NOTE`]), which
//! JP also prints in its terminal. A server JP starts also keeps listing
//! `learn` when no topic is learnable now ([`NOTHING_TO_LEARN`]): JP
//! aborts a query whose declared tool the server does not list, and its
//! copy, or a conversation's own configuration, may still declare it.

use crate::KnowledgeBase;
use crate::clients::connect::Texts;
use crate::clients::profile::Profile;
use crate::clients::setup::read_setup;

/// What JP read of the generated layer: the section and the tool's
/// description (its `summary`), each `None` when absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JpCopy {
    /// The `<knowledge>` section JP sends.
    pub section: Option<String>,
    /// The `learn` description JP sends (`None`: JP declares no `learn`).
    pub summary: Option<String>,
}

/// What the generated layer of `kb`'s workspace holds now, for JP:
/// `None` when JP does not load one (not connected, or its `extends` does
/// not reach it), or it cannot be read.
pub fn read(kb: &KnowledgeBase, profile: &Profile) -> Option<JpCopy> {
    let setup = read_setup(kb.root(), profile).ok()?;
    if !setup.configured || setup.not_loaded.is_some() {
        return None;
    }
    let section = setup
        .sections
        .into_iter()
        .find(|s| s.contains("<knowledge>"));
    Some(JpCopy {
        section,
        summary: setup.summary,
    })
}

impl JpCopy {
    /// Whether JP's copy says what `kb` says now.
    pub fn is_current(&self, kb: &KnowledgeBase) -> bool {
        let now = Texts::of(kb);
        self.section == now.section && self.summary == now.tool_description
    }
}

/// What a `learn` answer starts with while JP's copy of the section is
/// older than the knowledge base: for the model, and for the person, who
/// sees the answer's first lines in JP's terminal.
pub const OLDER_SECTION_NOTE: &str = "Note from jp-kb: the <knowledge> section and the `learn` description in this \
conversation are older than the knowledge base, which changed after JP read its \
configuration. This answer is current. A new JP conversation (`jp query --new`) gets \
the current section.";

/// The description of `learn` while no topic is learnable, listed for JP
/// only: its configuration may still declare the tool.
pub const NOTHING_TO_LEARN: &str = "Learn about knowledge base topics and subjects. No topic has \
a subject to learn now.";
