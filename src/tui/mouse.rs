//! Mouse events as commands: a pure function of the event and the layout
//! the last frame was drawn with ([`Drawn`]), so what a click means is
//! what the person saw, and it is tested without a terminal.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

use super::command::Command;
use super::layout::Drawn;
use super::pane::Focus;

/// The command a mouse event asks for on the screen `drawn` (None: the
/// event means nothing there).
pub fn command(event: &MouseEvent, drawn: &Drawn) -> Option<Command> {
    let (x, y) = (event.column, event.row);
    let pane = drawn.areas.pane_at(Position { x, y });
    match event.kind {
        MouseEventKind::Down(MouseButton::Left) => click(drawn, pane?, x, y),
        MouseEventKind::ScrollUp => Some(Command::Scroll {
            pane: pane?,
            down: false,
        }),
        MouseEventKind::ScrollDown => Some(Command::Scroll {
            pane: pane?,
            down: true,
        }),
        _ => None,
    }
}

fn click(drawn: &Drawn, pane: Focus, x: u16, y: u16) -> Option<Command> {
    let a = &drawn.areas;
    Some(match pane {
        Focus::Topics => Command::PickTopic(drawn.topics.row_at(y)),
        Focus::Subjects => Command::PickRow(drawn.subjects.row_at(y)),
        // The tab labels are on the preview's first inner row.
        Focus::Preview => Command::PickTab(
            (y == a.preview.y + 1)
                .then(|| super::layout::tab_at(a.preview, x))
                .flatten(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::layout::{DrawnList, areas};
    use crate::tui::pane::Tab;
    use ratatui::crossterm::event::KeyModifiers;
    use ratatui::layout::Rect;

    fn at(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
        MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }
    }

    /// Rows inside a bordered pane.
    fn inner(r: Rect) -> Rect {
        Rect::new(r.x + 1, r.y + 1, r.width - 2, r.height - 2)
    }

    fn drawn() -> Drawn {
        let areas = areas(Rect::new(0, 0, 80, 24), false, 3);
        Drawn {
            areas,
            topics: DrawnList {
                rows: inner(areas.topics),
                offset: 0,
                len: 3,
            },
            subjects: DrawnList {
                rows: inner(areas.subjects),
                offset: 4,
                len: 30,
            },
            preview_max_scroll: None,
        }
    }

    #[test]
    fn clicks_map_through_the_drawn_layout() {
        let d = drawn();
        let left = MouseEventKind::Down(MouseButton::Left);
        let (t, s, p) = (d.areas.topics, d.areas.subjects, d.areas.preview);
        let cases = [
            // The topics' border, then their rows, then below the last.
            (at(left, t.x + 2, t.y), Some(Command::PickTopic(None))),
            (
                at(left, t.x + 2, t.y + 1),
                Some(Command::PickTopic(Some(0))),
            ),
            (
                at(left, t.x + 2, t.y + 3),
                Some(Command::PickTopic(Some(2))),
            ),
            // The subjects list is scrolled by 4: its first row is row 4.
            (at(left, s.x + 2, s.y + 1), Some(Command::PickRow(Some(4)))),
            (at(left, s.x + 2, s.y + 3), Some(Command::PickRow(Some(6)))),
            (
                at(left, s.x + 2, s.y + s.height - 1),
                Some(Command::PickRow(None)),
            ),
            // The first tab's label, then the preview's text.
            (
                at(left, p.x + 2, p.y + 1),
                Some(Command::PickTab(Some(Tab::Subject))),
            ),
            (at(left, p.x + 2, p.y + 3), Some(Command::PickTab(None))),
            // The status line is no pane.
            (at(left, 1, d.areas.status.y), None),
            (
                at(MouseEventKind::ScrollDown, p.x + 5, p.y + 5),
                Some(Command::Scroll {
                    pane: Focus::Preview,
                    down: true,
                }),
            ),
            (
                at(MouseEventKind::ScrollUp, s.x + 1, s.y + 2),
                Some(Command::Scroll {
                    pane: Focus::Subjects,
                    down: false,
                }),
            ),
            (at(MouseEventKind::Moved, s.x + 1, s.y + 2), None),
        ];
        for (event, expected) in cases {
            assert_eq!(command(&event, &d), expected, "{event:?}");
        }
    }

    #[test]
    fn a_short_list_ends_at_its_last_row() {
        let mut d = drawn();
        d.subjects = DrawnList {
            rows: inner(d.areas.subjects),
            offset: 0,
            len: 2,
        };
        let s = d.areas.subjects;
        let left = MouseEventKind::Down(MouseButton::Left);
        assert_eq!(
            command(&at(left, s.x + 1, s.y + 2), &d),
            Some(Command::PickRow(Some(1)))
        );
        assert_eq!(
            command(&at(left, s.x + 1, s.y + 3), &d),
            Some(Command::PickRow(None))
        );
    }
}
