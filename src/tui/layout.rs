//! The screen's geometry as data: where each pane goes ([`areas`]), which
//! rows a list shows ([`list_offset`]), how the tab labels fit
//! ([`tab_labels`]), and [`Drawn`], the layout a frame was drawn with.
//! Pure functions of sizes: the views draw with them, the state asks them
//! how much fits (paging, which token counts to read), and mouse events
//! are mapped through the recorded [`Drawn`] — none of these imports
//! another for it.

use ratatui::layout::{Constraint, Layout, Position, Rect};

use super::pane::{Focus, Tab};

/// Where each pane goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    pub banner: Option<Rect>,
    pub topics: Rect,
    pub subjects: Rect,
    pub preview: Rect,
    pub status: Rect,
}

impl Areas {
    /// The pane under a screen cell.
    pub fn pane_at(&self, pos: Position) -> Option<Focus> {
        if self.topics.contains(pos) {
            Some(Focus::Topics)
        } else if self.subjects.contains(pos) {
            Some(Focus::Subjects)
        } else if self.preview.contains(pos) {
            Some(Focus::Preview)
        } else {
            None
        }
    }

    /// A pane's rectangle.
    pub fn of(&self, pane: Focus) -> Rect {
        match pane {
            Focus::Topics => self.topics,
            Focus::Subjects => self.subjects,
            Focus::Preview => self.preview,
        }
    }
}

/// Lays the screen out.
pub fn areas(area: Rect, banner: bool, topics: usize) -> Areas {
    let [banner_area, main, status] = Layout::vertical([
        Constraint::Length(u16::from(banner)),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .areas(area);
    let left_pct = if area.width >= 120 { 34 } else { 42 };
    let [left, preview] =
        Layout::horizontal([Constraint::Percentage(left_pct), Constraint::Fill(1)]).areas(main);
    let wanted = u16::try_from(topics)
        .unwrap_or(u16::MAX)
        .saturating_add(2)
        .max(3);
    let max = (left.height * 2 / 5).max(3);
    let [topics_area, subjects] =
        Layout::vertical([Constraint::Length(wanted.min(max)), Constraint::Fill(1)]).areas(left);
    Areas {
        banner: banner.then_some(banner_area),
        topics: topics_area,
        subjects,
        preview,
        status,
    }
}

/// The first visible row of a list of `len` rows, `height` tall, that
/// keeps `selected` in view (stateless: the drawn offset follows from the
/// selection alone).
pub fn list_offset(selected: usize, height: usize, len: usize) -> usize {
    if height == 0 || len <= height {
        return 0;
    }
    selected
        .saturating_add(1)
        .saturating_sub(height)
        .min(len - height)
}

/// Tab labels as drawn in a row `width` cells wide: ` 1 Subject `, else
/// `1 Subject`, else `1Subj`, else `1Sub`.
pub fn tab_labels(width: u16) -> Vec<String> {
    let label = |i: usize, t: &Tab, form: usize| -> String {
        let n = i + 1;
        match form {
            0 => format!(" {n} {} ", t.label()),
            1 => format!("{n} {}", t.label()),
            f => format!("{n}{}", &t.label()[..6 - f]),
        }
    };
    let all = |form| -> Vec<String> {
        Tab::ALL
            .iter()
            .enumerate()
            .map(|(i, t)| label(i, t, form))
            .collect()
    };
    for form in 0..3 {
        let labels = all(form);
        let needed: usize = labels.iter().map(|l| l.chars().count() + 1).sum();
        if needed <= usize::from(width) {
            return labels;
        }
    }
    all(3)
}

/// The tab whose label is drawn at column `x` of the preview `area`'s tab
/// row.
pub fn tab_at(area: Rect, x: u16) -> Option<Tab> {
    let mut left = area.x + 1;
    for (label, tab) in tab_labels(area.width.saturating_sub(2))
        .iter()
        .zip(Tab::ALL)
    {
        let w = u16::try_from(label.chars().count()).unwrap_or(0);
        if x >= left && x < left + w {
            return Some(tab);
        }
        left += w + 1;
    }
    None
}

/// A list as drawn: where its rows went, its first visible row and its
/// length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawnList {
    pub rows: Rect,
    pub offset: usize,
    pub len: usize,
}

impl DrawnList {
    /// The list row drawn on screen row `y`.
    pub fn row_at(self, y: u16) -> Option<usize> {
        let top = self.rows.y;
        if y < top || y >= top + self.rows.height {
            return None;
        }
        let i = self.offset + usize::from(y - top);
        (i < self.len).then_some(i)
    }
}

/// The layout a frame was drawn with, recorded by the view and kept in
/// the state until the next frame: mouse events refer to what was on
/// screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Drawn {
    pub areas: Areas,
    pub topics: DrawnList,
    pub subjects: DrawnList,
    /// The last scroll that still fills the preview, when its tab knows
    /// it (the byte-exact tabs and a client view): a key scrolls from
    /// what was on screen, not from past the end.
    pub preview_max_scroll: Option<usize>,
}
/// A centered rectangle of at most `w`×`h` cells. Kept instead of
/// ratatui's `Rect::centered`, which rounds an odd leftover the other way
/// (measured: see `an_odd_leftover_goes_below_unlike_rect_centered`), so
/// the dialogs and their snapshots stay where they are.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

#[cfg(test)]
mod centered_tests {
    use ratatui::layout::{Constraint, Rect};

    /// Why `centered` is not ratatui's `Rect::centered`: with an odd
    /// leftover ratatui's layout solver puts the extra cell above and to
    /// the left of the box, ours below and to the right, so every dialog
    /// would move one row and the snapshots change. When this test fails
    /// on a ratatui upgrade, `Rect::centered` can replace ours.
    #[test]
    fn an_odd_leftover_goes_below_unlike_rect_centered() {
        let area = Rect::new(0, 0, 81, 24);
        assert_eq!(super::centered(area, 70, 3), Rect::new(5, 10, 70, 3));
        assert_eq!(
            area.centered(Constraint::Length(70), Constraint::Length(3)),
            Rect::new(6, 11, 70, 3)
        );
        assert_eq!(super::centered(area, 100, 30), area);
    }
}
