//! The status line and the message log behind it (`M`): every message
//! the status line said, whole, oldest first (a status line cuts a long
//! one).

/// How many status messages the message log keeps.
pub const MESSAGE_LOG: usize = 200;

/// The status line's last message, and the log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusLog {
    message: String,
    error: bool,
    messages: Vec<String>,
}

impl StatusLog {
    /// Says `message` (an error when `error`), and logs it unless it
    /// repeats the last one.
    pub fn set(&mut self, message: impl Into<String>, error: bool) {
        let message = message.into();
        if !message.is_empty() && self.messages.last() != Some(&message) {
            // Bounded: a long session keeps its recent messages.
            if self.messages.len() >= MESSAGE_LOG {
                self.messages.remove(0);
            }
            self.messages.push(message.clone());
        }
        self.message = message;
        self.error = error;
    }

    /// Empties the status line (the log keeps what it said).
    pub fn clear(&mut self) {
        self.message.clear();
        self.error = false;
    }

    /// The status line's message, whole (the screen may cut it).
    pub fn line(&self) -> &str {
        &self.message
    }

    /// The status line says an error.
    pub fn is_error(&self) -> bool {
        self.error
    }

    /// Every message, oldest first.
    pub fn messages(&self) -> &[String] {
        &self.messages
    }
}
