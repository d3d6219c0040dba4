//! Colors and markers. Every state has a glyph *and* a color, so the
//! screen reads the same without color; `NO_COLOR` drops every color
//! (modifiers such as bold and dim stay).

use ratatui::style::{Color, Modifier, Style};

/// The palette in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

/// What a marker stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Available,
    LearnedExact,
    LearnedGlob,
    Disabled,
    Hidden,
    Binary,
    Unreadable,
    TopicError,
    TopicOff,
    TopicOn,
    /// Expired (its front matter, or a fact of it).
    Stale,
    /// Confidence below 0.5 (its own, or a fact's).
    LowConfidence,
}

impl Mark {
    /// The glyph drawn for the state.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Available => "○",
            Mark::LearnedExact => "●",
            Mark::LearnedGlob => "◉",
            Mark::Disabled => "⊘",
            Mark::Hidden => "◌",
            Mark::Binary => "▣",
            Mark::Unreadable => "!",
            Mark::TopicError => "✗",
            Mark::TopicOff => "◇",
            Mark::TopicOn => "◆",
            Mark::Stale => "⧗",
            Mark::LowConfidence => "?",
        }
    }

    /// What the glyph means (legend and help).
    pub fn meaning(self) -> &'static str {
        match self {
            Mark::Available => "available (learn lists it)",
            Mark::LearnedExact => "learned by exact slug",
            Mark::LearnedGlob => "learned by a glob",
            Mark::Disabled => "disabled",
            Mark::Hidden => "hidden (exact slug only)",
            Mark::Binary => "binary (skipped)",
            Mark::Unreadable => "unreadable / not UTF-8 (skipped)",
            Mark::TopicError => "topic error",
            Mark::TopicOff => "topic disabled",
            Mark::TopicOn => "topic enabled",
            Mark::Stale => "stale: expired (front matter), or a fact of it",
            Mark::LowConfidence => "low confidence (below 0.5)",
        }
    }

    fn color(self) -> Option<Color> {
        match self {
            Mark::Available | Mark::TopicOn => None,
            Mark::LearnedExact | Mark::LearnedGlob => Some(Color::Green),
            Mark::Disabled | Mark::TopicError | Mark::Unreadable => Some(Color::Red),
            Mark::Hidden | Mark::TopicOff => Some(Color::DarkGray),
            Mark::Binary => Some(Color::Magenta),
            Mark::Stale | Mark::LowConfidence => Some(Color::Yellow),
        }
    }
}

impl Theme {
    /// Colors unless `NO_COLOR` is set to a non-empty value.
    pub fn from_env() -> Self {
        Self {
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    pub fn mark(self, mark: Mark) -> Style {
        mark.color().map_or_else(Style::new, |c| self.fg(c))
    }

    /// Hidden and disabled rows are dimmed (a modifier, kept without color).
    pub fn dimmed(self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    pub fn selected(self, focused: bool) -> Style {
        let base = Style::new().add_modifier(Modifier::REVERSED);
        if focused {
            base.add_modifier(Modifier::BOLD)
        } else {
            base
        }
    }

    pub fn border(self, focused: bool) -> Style {
        if focused {
            self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        }
    }

    pub fn title(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn error(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn warning(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    pub fn ok(self) -> Style {
        self.fg(Color::Green)
    }

    pub fn muted(self) -> Style {
        self.fg(Color::DarkGray)
    }

    /// Lines an edit changed, in the Config tab.
    pub fn changed_line(self) -> Style {
        if self.color {
            Style::new().fg(Color::Black).bg(Color::Yellow)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    pub fn key(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// Marked rows (`Space`): the `+` glyph says it without color.
    pub fn marked(self) -> Style {
        // No marker uses light blue: a mark never reads as a state.
        self.fg(Color::LightBlue).add_modifier(Modifier::BOLD)
    }

    /// Characters the filter matched (underlined, kept without color).
    pub fn matched(self) -> Style {
        self.fg(Color::Yellow)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }
}
