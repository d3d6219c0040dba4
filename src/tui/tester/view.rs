//! The pattern tester (`g`): a popup over the subjects pane, widened over
//! the preview when its lines need more room than the pane has, and
//! every line of what Enter would do shown, wrapped rather than cut
//! (issue 16, item 7).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::layout::Areas;
use crate::tui::tester::state::Tester;
use crate::tui::text_layout::word_rows::word_rows;
use crate::tui::view::subjects::marks;
use jp_kb_core::display::clean_name;
use jp_kb_core::subjects::Resolution;

/// What the tester shows under its input: the subjects the pattern
/// selects (indices into the resolution) and the line saying so.
fn selection(res: &Resolution, tester: &Tester) -> (Vec<usize>, String) {
    let pattern = tester.pattern();
    if pattern.is_empty() {
        (
            Vec::new(),
            "selects 0 subjects (hidden: exact slug only)".to_owned(),
        )
    } else if tester.to_disabled {
        // Count what the entry newly disables by the engine's rules (a
        // disabled glob reaches hidden subjects too), so the count shown
        // is the count Enter then makes.
        let effect =
            jp_kb_core::subjects::DisableEffect::of_entries(res, std::slice::from_ref(&pattern));
        let info = effect.summary();
        (effect.newly, info)
    } else {
        let selected = res.selected_by_pattern(&pattern);
        let info = format!(
            "selects {} (hidden: exact slug only)",
            jp_kb_core::internal::plural::count(selected.len(), "subject", "subjects")
        );
        (selected, info)
    }
}

/// `line` cleaned for the screen, cut after about `most` bytes (at a
/// character) with `…`.
fn cut(line: &str, most: usize) -> String {
    let end = jp_kb_toml::text::floor_char_boundary(line, most);
    let mut out = clean_name(&line[..end]).into_owned();
    if end < line.len() {
        out.push('…');
    }
    out
}

/// Where the popup goes, and how many rows its lines take: the subjects
/// pane's place, widened for the longest line (up to two thirds of the
/// screen, so the live learn output beside it stays in view; longer
/// lines wrap), and taller over the topics pane when the subjects pane
/// is too short for the input, the lines and one row of the list.
pub fn area(areas: &Areas, screen: Rect, lines: &[&str]) -> (Rect, u16) {
    let pane = areas.subjects;
    let longest = lines
        .iter()
        .map(|l| Span::raw(*l).width())
        .max()
        .unwrap_or(0);
    let wanted = u16::try_from(longest).unwrap_or(u16::MAX).saturating_add(2);
    // Below 100 columns the preview has no column to spare (at 80 the
    // widened popup hid the start of every preview line): the popup keeps
    // the subjects pane's width and wraps its lines instead.
    let cap = if screen.width < NARROW {
        pane.width
    } else {
        (screen.width / 3 * 2).max(pane.width)
    };
    let width = wanted.clamp(pane.width, cap).min(screen.width);
    let x = pane.x.min(screen.right().saturating_sub(width));
    let inner = usize::from(width.saturating_sub(2));
    let rows: usize = lines.iter().map(|l| word_rows(l, inner, true)).sum();
    let info = u16::try_from(rows).unwrap_or(u16::MAX);
    let needed = info.saturating_add(4);
    let bottom = pane.bottom();
    let top = if pane.height >= needed {
        pane.y
    } else {
        bottom.saturating_sub(needed).max(areas.topics.y)
    };
    let area = Rect {
        x,
        y: top,
        width,
        height: bottom - top,
    };
    (area, info)
}

/// Screens narrower than this keep the preview whole (see [`area`]).
const NARROW: u16 = 100;

/// Draws the tester over the screen laid out as `areas`.
pub fn render(app: &App, tester: &Tester, areas: &Areas, frame: &mut Frame) {
    let t = app.screen.theme;
    let Some(res) = app.resolution() else { return };
    let (selected, mut info) = selection(res, tester);
    // How often what Enter would change was loaded (the usage ledger).
    if let Some(topic) = app.topic_state()
        && let Some(note) = app.features.usage.change_note(
            topic.id(),
            selected.iter().map(|&i| res.subjects()[i].slug()),
        )
    {
        info = format!("{info} · {note}");
    }
    // The cost of Enter (token line, subjects entering/leaving), shown
    // before it is pressed.
    // A line is cut where no screen could show more of it: the disabled
    // mode's lines name every subject leaving (up to 100k at the bench's
    // largest tree), and the popup measures each line's wrap every frame
    // (a bound on that work; its share of a key was not measured alone).
    let most = usize::from(frame.area().width) * usize::from(frame.area().height);
    let info = cut(&info, most);
    // `--read-only`: Enter adds nothing, so it has no cost to show.
    let cost: Vec<String> = if app.screen.read_only {
        Vec::new()
    } else {
        tester.cost.iter().map(|l| cut(l, most)).collect()
    };
    let mut lines: Vec<&str> = vec![&info];
    lines.extend(cost.iter().map(String::as_str));
    let (popup, info_height) = area(areas, frame.area(), &lines);
    let dest = if tester.to_disabled {
        "disabled"
    } else {
        "learned"
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.border(true))
        .title(Line::styled(" Pattern tester ", t.title()))
        // The keys are in the footer (whole at any width); the border
        // keeps where Enter adds.
        .title_bottom(Line::styled(
            if app.screen.read_only {
                " read-only: nothing is added ".to_owned()
            } else {
                format!(" Enter adds to {dest} ")
            },
            t.muted(),
        ));
    let inner = block.inner(popup);
    frame.render_widget(Clear, popup);
    frame.render_widget(block, popup);
    let [input_area, info_area, list_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(info_height),
        Constraint::Fill(1),
    ])
    .areas(inner);
    let [label, field] =
        Layout::horizontal([Constraint::Length(6), Constraint::Fill(1)]).areas(input_area);
    frame.render_widget(Paragraph::new("glob: ").style(t.key()), label);
    frame.render_widget(&tester.input, field);
    let mut text = vec![Line::styled(info, t.muted())];
    text.extend(cost.into_iter().map(|l| Line::styled(l, t.key())));
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), info_area);
    let lines: Vec<Line> = selected
        .iter()
        .take(usize::from(list_area.height))
        .map(|&i| {
            let s = &res.subjects()[i];
            let mut spans: Vec<Span> = marks(res, i, app.loaded.cache.tokens_of(s))
                .into_iter()
                .map(|m| Span::styled(m.glyph(), t.mark(m)))
                .collect();
            spans.push(Span::raw(format!(" {}", clean_name(s.slug()))));
            if let Some(fig) = app
                .topic_state()
                .and_then(|topic| app.features.usage.figure(topic.id(), s.slug()))
            {
                spans.push(Span::styled(format!("  {fig}"), t.muted()));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
}

#[cfg(test)]
mod tests {
    use super::area;
    use crate::tui::layout::areas;
    use ratatui::layout::Rect;

    #[test]
    fn the_popup_takes_the_subjects_pane_when_its_lines_fit() {
        let screen = Rect::new(0, 0, 120, 40);
        let a = areas(screen, false, 3);
        assert_eq!(area(&a, screen, &["short", "lines"]), (a.subjects, 2));
    }

    #[test]
    fn the_popup_widens_for_a_line_that_would_be_cut_and_wraps_past_two_thirds() {
        let screen = Rect::new(0, 0, 120, 40);
        let a = areas(screen, false, 3);
        let long = "selects 12,345 subjects (hidden: exact slug only)";
        let (popup, rows) = area(&a, screen, &[long]);
        assert_eq!(usize::from(popup.width), long.chars().count() + 2);
        assert!(popup.width > a.subjects.width);
        assert_eq!(rows, 1);
        let longer = "word ".repeat(40);
        let (popup, rows) = area(&a, screen, &[longer.trim_end()]);
        assert_eq!(popup.width, 80, "two thirds of 120");
        assert_eq!(rows, 3, "199 columns wrap to 3 rows of 78");
        let narrow = Rect::new(0, 0, 30, 12);
        let a = areas(narrow, false, 3);
        let (popup, _) = area(&a, narrow, &[long]);
        assert!(popup.right() <= narrow.right());
    }

    #[test]
    fn a_line_no_screen_could_show_is_cut_at_a_character() {
        assert_eq!(super::cut("short", 10), "short");
        assert_eq!(super::cut("日本語", 4), "日…");
        assert_eq!(super::cut(&"a, ".repeat(100_000), 30).chars().count(), 31);
    }

    #[test]
    fn a_short_subjects_pane_grows_over_the_topics_to_fit_the_input() {
        let screen = Rect::new(0, 0, 40, 12);
        let a = areas(screen, false, 5);
        let (popup, rows) = area(&a, screen, &["x", "y", "z"]);
        assert_eq!(rows, 3);
        assert_eq!(popup.bottom(), a.subjects.bottom());
        assert!(
            popup.height >= 7 || popup.y == a.topics.y,
            "{popup:?} {a:?}"
        );
    }
}
