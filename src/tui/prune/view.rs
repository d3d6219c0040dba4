//! The prune view (`P`): one row per subject worth pruning (selected or
//! not, its topic and slug, state, why, loads and tokens), then what
//! disabling the selection does to the `<knowledge>` section — the
//! planner's exact count once made, "counting" until then — and the keys.

use std::fmt::Write as _;

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::state::PruneState;
use crate::tui::app::App;
use crate::tui::cost::BUDGET;
use crate::tui::layout::centered;
use jp_kb_core::display::clean_name;
use jp_kb_core::internal::plural::{count, thousands};
use jp_kb_core::usage::State;

/// The rows, from `first`, at most `height` (tested without a terminal).
pub fn rows(app: &App, p: &PruneState, first: usize, height: usize) -> Vec<Line<'static>> {
    let t = app.screen.theme;
    let Some(listed) = &p.listed else {
        return vec![Line::styled(
            "  reading the ledger and the subjects…",
            t.muted(),
        )];
    };
    if listed.candidates.is_empty() {
        let mut text = "  nothing to prune: no subject expired, none never loaded".to_owned();
        if let Some(days) = p.idle_days() {
            let _ = write!(text, ", none idle for {days} days");
        }
        return vec![Line::styled(text, t.muted())];
    }
    let names: Vec<String> = listed
        .candidates
        .iter()
        .map(|c| clean_name(&c.name()).into_owned())
        .collect();
    let name_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let whys: Vec<String> = listed
        .candidates
        .iter()
        .map(|c| {
            c.reasons
                .iter()
                .map(|r| r.text(listed.now))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let why_width = whys.iter().map(|w| w.chars().count()).max().unwrap_or(0);
    let mut out = Vec::new();
    for (i, c) in listed
        .candidates
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
    {
        let on = p.selected.get(i).copied().unwrap_or(false);
        let style = if i == p.cursor {
            t.selected(true)
        } else {
            ratatui::style::Style::new()
        };
        let tokens = c
            .tokens
            .map_or_else(|| "·".to_owned(), |n| format!("{n} tok"));
        let state = if c.state == State::Learned {
            "pre-loaded"
        } else {
            c.state.as_str()
        };
        out.push(Line::from(vec![
            Span::styled(if on { "[x] " } else { "[ ] " }, t.key()),
            Span::styled(format!("{:<name_width$}", names[i]), style),
            Span::styled(format!("  {state:<10}"), t.muted()),
            Span::raw(format!("  {:<why_width$}", whys[i])),
            Span::styled(format!("  {:>5} loads  {tokens:>9}", c.loads), t.muted()),
        ]));
    }
    out
}

/// The lines under the rows: the selection and its cost.
pub fn summary(app: &App, p: &PruneState) -> Vec<Line<'static>> {
    let t = app.screen.theme;
    let Some(listed) = &p.listed else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if !listed.recorded {
        out.push(Line::styled(
            "the usage ledger is empty: only expired subjects are listed",
            t.muted(),
        ));
    }
    let chosen: Vec<_> = listed
        .candidates
        .iter()
        .zip(&p.selected)
        .filter(|(_, on)| **on)
        .map(|(c, _)| c)
        .collect();
    let preloaded: usize = chosen.iter().map(|c| c.prompt_tokens()).sum();
    out.push(Line::raw(format!(
        "{} of {} selected ({} pre-loaded: {} tokens in every request)",
        chosen.len(),
        listed.candidates.len(),
        chosen.iter().filter(|c| c.state == State::Learned).count(),
        thousands(preloaded)
    )));
    match &p.plan {
        Some(plan) => {
            for (k, line) in plan.effect.lines(BUDGET).into_iter().enumerate() {
                let line = if k == 0 {
                    format!("disabling them: {line}")
                } else {
                    line
                };
                out.push(Line::styled(
                    clean_name(&line).into_owned(),
                    if k == 0 { t.key() } else { t.muted() },
                ));
            }
        }
        None if !listed.candidates.is_empty() => {
            out.push(Line::styled(
                "select subjects to disable (space, a)",
                t.muted(),
            ));
        }
        None => {}
    }
    out
}

pub fn render(app: &App, frame: &mut Frame) {
    let t = app.screen.theme;
    let p = &app.features.prune;
    let screen = frame.area();
    let total = p.listed.as_ref().map_or(1, |l| l.candidates.len().max(1));
    let below = summary(app, p);
    let room = usize::from(screen.height.saturating_sub(4)).saturating_sub(below.len() + 1);
    let height = total.min(room.max(1));
    let first = p
        .cursor
        .saturating_add(1)
        .saturating_sub(height)
        .min(total.saturating_sub(height));
    let mut lines = rows(app, p, first, height);
    lines.push(Line::raw(""));
    lines.extend(below);
    let widest = lines.iter().map(Line::width).max().unwrap_or(0);
    let width = u16::try_from(widest.saturating_add(2))
        .unwrap_or(u16::MAX)
        .max(72);
    let box_height = u16::try_from(lines.len().saturating_add(2)).unwrap_or(u16::MAX);
    let area = centered(screen, width, box_height);
    let idle = p
        .idle_days()
        .map_or_else(String::new, |d| format!(", not loaded for {d} days"));
    let title = format!(" Prune: expired, never loaded{idle} ");
    let counted = p.listed.as_ref().map_or_else(String::new, |l| {
        format!(" {} ", count(l.candidates.len(), "subject", "subjects"))
    });
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .border_style(t.border(true))
                .title(Line::styled(title, t.title()))
                .title(Line::styled(counted, t.key()).right_aligned())
                .title_bottom(Line::styled(
                    " space select · a all · s not loaded for · Enter disable (u undoes) · Esc close ",
                    t.muted(),
                )),
        ),
        area,
    );
}
