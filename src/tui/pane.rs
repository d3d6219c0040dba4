//! The names of the screen's places: the three panes ([`Focus`]) and the
//! preview's tabs ([`Tab`]). Plain names shared by the state, the
//! commands, the layout and the views, so none of them imports another
//! for them.

/// The pane with the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Topics,
    Subjects,
    Preview,
}

/// Which preview tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Subject,
    Prompt,
    Learn,
    Tool,
    Config,
    /// What `jp-kb check` finds in the workspace.
    Findings,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Subject,
        Tab::Prompt,
        Tab::Learn,
        Tab::Tool,
        Tab::Config,
        Tab::Findings,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Tab::Subject => "Subject",
            Tab::Prompt => "Prompt",
            Tab::Learn => "Learn",
            Tab::Tool => "Tool",
            Tab::Config => "Config",
            Tab::Findings => "Findings",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}
