//! The visible window of a long text in a wrapped, scrolled preview.
//!
//! A `Paragraph` scrolled by `n` rows wraps every line above row `n` on
//! every frame: near the end of a 3 MB prompt that was 70–120 ms a key
//! (issue 16). Wrapping is per line, so the same rows come from the lines
//! that reach into view alone, drawn with the scroll left inside the
//! first of them. Where each line starts (in wrapped rows) is kept in a
//! [`WrapMemo`], a checkpoint every [`EVERY`] lines, extended only as far
//! as a frame scrolls, so each key costs a few lines' wrapping.

use std::cell::RefCell;

use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::display::clean_text;

/// Lines between two checkpoints.
const EVERY: usize = 64;

/// What a text's checkpoints were made for: the caller's name for the
/// text (it changes whenever the text does) and the width.
type Key = (u64, usize, u16);

/// Where lines start in wrapped rows, for one text and width.
#[derive(Debug, Default)]
struct Index {
    key: Option<Key>,
    /// (byte offset of line `k * EVERY`, rows above it), for `k` = 0, 1, …
    checkpoints: Vec<(usize, usize)>,
    /// The first line not indexed yet: its byte offset and rows above it
    /// (`None` once the whole text is).
    next: Option<(usize, usize)>,
    /// Lines indexed.
    lines: usize,
}

/// Kept between frames (a cache: it never changes what is drawn).
#[derive(Debug, Default)]
pub struct WrapMemo(RefCell<Index>);

/// The lines of a text as a preview shows them: split at `\n`, no line
/// after a final `\n` (as [`str::lines`]).
fn line_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let rest = text.get(at..).filter(|r| !r.is_empty())?;
    Some(match rest.find('\n') {
        Some(n) => (&rest[..n], at + n + 1),
        None => (rest, text.len()),
    })
}

/// Rows a line takes in a preview `width` columns wide, wrapped at words
/// as [`Paragraph`] wraps (untrimmed).
fn rows_of(line: &str, width: u16) -> usize {
    let clean = clean_text(line, true);
    // A column takes at least a byte: a short line is one row.
    if clean.len() <= usize::from(width) {
        return 1;
    }
    Paragraph::new(Line::raw(clean))
        .wrap(Wrap { trim: false })
        .line_count(width)
        .max(1)
}

impl WrapMemo {
    /// The lines of `text` a wrapped preview `width` × `height` scrolled by
    /// `scroll` rows shows, cleaned for the terminal, and the rows of the
    /// first of them to scroll past. `key` names the text: a new key (or
    /// width) starts a new index.
    pub fn window(
        &self,
        key: (u64, usize),
        text: &str,
        width: u16,
        scroll: usize,
        height: usize,
    ) -> (String, u16) {
        if width == 0 {
            return (String::new(), 0);
        }
        let mut index = self.0.borrow_mut();
        let key = Some((key.0, key.1, width));
        if index.key != key {
            *index = Index {
                key,
                next: Some((0, 0)),
                ..Index::default()
            };
        }
        index.extend(text, width, scroll);
        // The last checkpoint at or above the scroll, then line by line.
        let k = index
            .checkpoints
            .partition_point(|&(_, rows)| rows <= scroll)
            .saturating_sub(1);
        let Some(&(mut at, mut above)) = index.checkpoints.get(k) else {
            return (String::new(), 0);
        };
        drop(index);
        while let Some((line, next)) = line_at(text, at) {
            let rows = rows_of(line, width);
            if above + rows > scroll {
                break;
            }
            above += rows;
            at = next;
        }
        let skip = u16::try_from(scroll - above).unwrap_or(u16::MAX);
        // The lines from there until the area is full.
        let mut shown = String::new();
        let mut rows = 0;
        while rows < height + usize::from(skip)
            && let Some((line, next)) = line_at(text, at)
        {
            if !shown.is_empty() || rows > 0 {
                shown.push('\n');
            }
            shown.push_str(&clean_text(line, true));
            rows += rows_of(line, width);
            at = next;
        }
        (shown, skip)
    }
}

impl Index {
    /// Indexes lines until one starts below row `scroll` (or the text
    /// ends).
    fn extend(&mut self, text: &str, width: u16, scroll: usize) {
        while let Some((at, above)) = self.next
            && above <= scroll
        {
            if self.lines.is_multiple_of(EVERY) {
                self.checkpoints.push((at, above));
            }
            self.next = line_at(text, at).map(|(line, next)| (next, above + rows_of(line, width)));
            self.lines += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::text::Text;

    use super::*;

    /// What the whole text drawn by a scrolled `Paragraph` shows.
    fn whole(text: &str, width: u16, height: u16, scroll: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        terminal
            .draw(|f| {
                let p = Paragraph::new(Text::raw(clean_text(text, true).into_owned()))
                    .wrap(Wrap { trim: false })
                    .scroll((scroll, 0));
                f.render_widget(p, f.area());
            })
            .expect("draw");
        crate::tui::harness::buffer_text(terminal.backend().buffer())
    }

    fn windowed(memo: &WrapMemo, text: &str, width: u16, height: u16, scroll: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        let (shown, skip) = memo.window((1, text.len()), text, width, scroll.into(), height.into());
        terminal
            .draw(|f| {
                let p = Paragraph::new(Text::raw(shown))
                    .wrap(Wrap { trim: false })
                    .scroll((skip, 0));
                f.render_widget(p, f.area());
            })
            .expect("draw");
        crate::tui::harness::buffer_text(terminal.backend().buffer())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// The window draws what the whole text draws, at any scroll,
        /// whatever the memo indexed before.
        #[test]
        fn the_window_draws_what_the_whole_text_draws(
            text in "([a-z]{1,9}[ \n\t]{0,2}|日本語 |\u{1b}|\r\n| {3}){0,200}",
            width in 1u16..30,
            height in 1u16..8,
            scrolls in proptest::collection::vec(0u16..400, 1..6),
        ) {
            let memo = WrapMemo::default();
            for scroll in scrolls {
                proptest::prop_assert_eq!(
                    windowed(&memo, &text, width, height, scroll),
                    whole(&text, width, height, scroll),
                    "scroll {}", scroll
                );
            }
        }
    }
}
