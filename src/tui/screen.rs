//! The terminal's side of the session: its size and colours, the banner
//! above the panes, the layout the last frame was drawn with (mouse
//! events map through it), and the two settings of the session as a
//! whole: `--read-only`, and that the person quit.

use super::layout::Drawn;
use super::theme::Theme;

/// The screen and the session's settings.
#[derive(Debug)]
pub struct Screen {
    pub theme: Theme,
    /// (columns, rows).
    pub size: (u16, u16),
    /// A note shown at the top (the demo says it is a demo).
    pub banner: Option<String>,
    /// The layout the last frame was drawn with.
    pub drawn: Drawn,
    /// `--read-only`: browsing only, every edit refused.
    pub read_only: bool,
    /// `q` was pressed: the loop ends.
    pub quit: bool,
}

impl Screen {
    pub fn new(theme: Theme, size: (u16, u16)) -> Self {
        Self {
            theme,
            size,
            banner: None,
            drawn: Drawn::default(),
            read_only: false,
            quit: false,
        }
    }
}
