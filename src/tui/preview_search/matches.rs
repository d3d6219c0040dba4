//! The matches of a preview search in the text the tab shows (found once
//! per change of the text, the query or the geometry, each with the screen
//! row it lands on, so a match becomes a scroll position without wrapping
//! the text again). Read by the keys (`n`/`N` scroll to a match) and by
//! the view (highlighting): the text and its rows come from the leaf
//! [`crate::tui::text_layout`].

use crate::tui::app::App;
use crate::tui::pane::Tab;
use crate::tui::preview_search::state::{Hit, Hits, HitsStamp, Search, find_in};
use crate::tui::text_layout::char_rows::{Geometry, char_rows, gutter_of};
use crate::tui::text_layout::text_window::{self, Body};
use crate::tui::text_layout::word_rows::{body_width, word_rows};
use jp_kb_core::display::clean_text;
use ratatui::text::Text;
use std::borrow::Cow;
use std::rc::Rc;

/// The search shown on the current tab, if any.
pub fn active(app: &App) -> Option<&Search> {
    app.preview
        .search
        .as_ref()
        .filter(|s| s.tab == app.preview.tab && !s.query.is_empty())
}

/// The matches of the active search in the shown tab's whole text.
pub fn hits(app: &App) -> Option<Rc<Hits>> {
    let search = active(app)?;
    let model = app.loaded.model.as_ref()?;
    let width = body_width(app);
    Some(search.memo.get(stamp(app, search, width), || {
        // A byte-exact tab (a 4.4 MiB section has 182k lines) is searched
        // in its raw text: only the lines that match are drawn.
        let in_body = text_window::body(app, model)
            .and_then(|body| find_in_body(&body, &search.query, width, app.preview.wrap));
        let hits = in_body.unwrap_or_else(|| {
            let text = crate::tui::text_layout::tab_text::tab_text(app, model, usize::MAX);
            let gutter = crate::tui::text_layout::tab_text::char_gutter(app, &text);
            find(&text, &search.query, width, gutter, app.preview.wrap)
        });
        Hits {
            hits,
            complete: complete(app),
        }
    }))
}

/// The matches of `query` in a byte-exact tab's text, as [`find`] finds
/// them in the text as drawn (head lines, then the numbered lines), without
/// drawing it: the raw text is searched at once, a line is cleaned and
/// numbered only when it holds a match, and the rows above a match are
/// counted as the row index counts them. Building and searching the drawn
/// text of a 4.4 MiB section took ~145 ms. `None` for a query of digits
/// and spaces, which may match a line's number: that one is searched in
/// the drawn text.
fn find_in_body(body: &Body, query: &str, width: usize, wrap: bool) -> Option<Vec<Hit>> {
    if query.chars().all(|c| c.is_ascii_digit() || c == ' ') {
        return None;
    }
    let gutter = if body.numbered {
        gutter_of(body.text)
    } else {
        0
    };
    let head = Text::from(body.head.clone());
    let mut out = find(&head, query, width, Some(gutter), wrap);
    let mut row: usize = head
        .lines
        .iter()
        .map(|l| {
            let joined: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            char_rows(&joined, width, gutter, wrap)
        })
        .sum();
    // Smart case, as `find_in`: ASCII lower-casing keeps every offset.
    let sensitive = query.chars().any(char::is_uppercase);
    let (hay, needle) = if sensitive {
        (Cow::Borrowed(body.text), Cow::Borrowed(query))
    } else {
        (
            Cow::Owned(body.text.to_ascii_lowercase()),
            Cow::Owned(query.to_ascii_lowercase()),
        )
    };
    let mut at = hay
        .match_indices(needle.as_ref())
        .map(|(at, _)| at)
        .peekable();
    let geometry = Geometry {
        width,
        gutter,
        wrap,
    };
    let digits = gutter.saturating_sub(1);
    let mut start = 0;
    for (k, piece) in body.text.split_inclusive('\n').enumerate() {
        let line = piece.strip_suffix('\n').unwrap_or(piece);
        let end = start + piece.len();
        if at.peek().is_some_and(|&a| a < end) {
            while at.peek().is_some_and(|&a| a < end) {
                at.next();
            }
            let cleaned = clean_text(line, true);
            let joined = if body.numbered {
                format!("{:>digits$} {cleaned}", k + 1)
            } else {
                cleaned.into_owned()
            };
            for (nth, (s, _)) in find_in(&joined, query).into_iter().enumerate() {
                let first = joined[s..].chars().next().map_or(0, char::len_utf8);
                let within = char_rows(&joined[..s + first], width, gutter, wrap).saturating_sub(1);
                out.push(Hit {
                    line: body.head.len() + k,
                    nth,
                    row: row + within,
                });
            }
        }
        row += geometry.rows(line);
        start = end;
    }
    Some(out)
}

/// What the matches depend on: the query, the geometry and the
/// generations of what the tab's text is made from.
fn stamp(app: &App, search: &Search, width: usize) -> HitsStamp {
    let config_file = app
        .preview
        .config
        .jump
        .as_ref()
        .map(|(f, line)| (f.clone(), Some(*line)))
        .or_else(|| app.shown_target().map(|f| (f, None)));
    let model = app.loaded.model.as_ref();
    HitsStamp {
        tab: search.tab,
        query: search.query.clone(),
        width,
        wrap: app.preview.wrap,
        selection: (
            app.topics.selected,
            app.subjects.row,
            app.preview.prompt_client.clone(),
        ),
        load: model.map(|m| {
            (
                m.generation,
                m.prompt_ready,
                m.prompt_head.pieces,
                app.preview
                    .prompt_client
                    .as_deref()
                    .is_some_and(|c| m.client_prompt(c).is_some()),
            )
        }),
        cache: app.loaded.cache.generation,
        config_len: model.and_then(|m| {
            let (file, _) = config_file.as_ref()?;
            m.config_texts.get(file).map(String::len)
        }),
        config_file,
    }
}

/// Whether the tab's text is whole (not waiting for a read).
fn complete(app: &App) -> bool {
    let Some(model) = &app.loaded.model else {
        return false;
    };
    match app.preview.tab {
        Tab::Prompt => match app.preview.prompt_client.as_deref() {
            Some(c) => model.client_prompt(c).is_some(),
            None => {
                model.prompt_ready
                    && model
                        .prompt
                        .as_ref()
                        .is_none_or(|l| model.prompt_head.pieces >= l.pieces.len())
            }
        },
        Tab::Learn => app
            .learn_key()
            .is_some_and(|k| app.loaded.cache.learn.contains_key(&k)),
        Tab::Subject => app
            .selected_subject()
            .and_then(|i| app.subject(i))
            .is_none_or(|s| app.loaded.cache.subjects.contains_key(s.path())),
        _ => true,
    }
}

/// The matches of `query` in `text`, each with its screen row at `width`
/// columns: `gutter` is the character wrap's (Prompt, Learn), `None` the
/// word wrap's.
pub fn find(text: &Text, query: &str, width: usize, gutter: Option<usize>, wrap: bool) -> Vec<Hit> {
    let mut out = Vec::new();
    let mut row = 0;
    for (n, line) in text.lines.iter().enumerate() {
        let joined: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        for (nth, (start, _)) in find_in(&joined, query).into_iter().enumerate() {
            let before = &joined[..start];
            let within = match gutter {
                // The rows up to the match's first character.
                Some(g) => {
                    let first = joined[start..].chars().next().map_or(0, char::len_utf8);
                    char_rows(&joined[..start + first], width, g, wrap).saturating_sub(1)
                }
                None => word_rows(before, width, wrap).saturating_sub(1),
            };
            out.push(Hit {
                line: n,
                nth,
                row: row + within,
            });
        }
        row += match gutter {
            Some(g) => char_rows(&joined, width, g, wrap),
            None => word_rows(&joined, width, wrap),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::Line;

    #[test]
    fn rows_count_the_wrapped_lines_above() {
        // Gutter 5, width 10: line 1 takes 2 rows, so line 2 starts at row 2.
        let text = Text::from(vec![
            Line::raw("   1 abcdefghij"),
            Line::raw("   2 tar"),
            Line::raw("   3 xx tar"),
        ]);
        let hits = find(&text, "tar", 10, Some(5), true);
        let rows: Vec<(usize, usize, usize)> =
            hits.iter().map(|h| (h.line, h.nth, h.row)).collect();
        assert_eq!(rows, [(1, 0, 2), (2, 0, 3)]);
        // Cut lines: one row each.
        let hits = find(&text, "tar", 10, Some(5), false);
        assert_eq!(hits[0].row, 1);
        // A match on a continuation row lands on that row.
        let text = Text::from(vec![Line::raw("   1 abcdefghtar")]);
        assert_eq!(find(&text, "tar", 10, Some(5), true)[0].row, 1);
    }

    /// The raw-text search finds what searching the drawn text finds:
    /// the same lines, the same matches in a line, the same rows (long
    /// lines wrapping, a tab, a head line, either case).
    #[test]
    fn a_byte_exact_text_is_searched_as_drawn() {
        use crate::tui::app::App;
        use crate::tui::panes::TextStamp;
        use crate::tui::theme::Theme;
        use std::fmt::Write as _;
        let app = App::new(Theme { color: false }, (80, 24));
        let mut text = String::new();
        for n in 0..150 {
            let long = "word ".repeat(n % 23);
            let _ = writeln!(text, "line {n}\t{long}Tar and tar {long}TAR");
        }
        let body = Body {
            head: vec![Line::raw("a head with tar in it"), Line::default()],
            text: &text,
            numbered: true,
            stamp: TextStamp::Empty,
        };
        let drawn = body.whole(&app, usize::MAX);
        let gutter = gutter_of(&text);
        for query in ["tar", "Tar", "and tar", "word TAR"] {
            for (width, wrap) in [(40, true), (17, true), (40, false)] {
                let slow = find(&drawn, query, width, Some(gutter), wrap);
                let fast = find_in_body(&body, query, width, wrap).unwrap();
                assert_eq!(fast, slow, "{query:?} at {width} wrap {wrap}");
            }
        }
        assert!(find_in_body(&body, "12", 40, true).is_none());
    }
}
