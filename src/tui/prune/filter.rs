//! The `A` filter on the subjects pane: the tree's rows with only the
//! subjects whose age mark it keeps, and the directories that still hold
//! one (a collapsed directory stays: what it hides is not known). Made
//! once per change of the rows, the filter or the ages, not per frame.

use std::rc::Rc;

use super::state::{AgeFilter, FilterKey, PruneState};
use crate::tui::tree::{Row, RowKind};
use jp_kb_core::subjects::Resolution;

/// `rows` of `topic` as the filter shows them.
pub fn filtered(
    prune: &PruneState,
    topic: &str,
    resolution: &Resolution,
    rows: Rc<Vec<Row>>,
) -> Rc<Vec<Row>> {
    if prune.filter == AgeFilter::All {
        return rows;
    }
    let key = FilterKey {
        // The rows' address: a new build is a new allocation.
        rows: Rc::as_ptr(&rows) as usize,
        filter: prune.filter,
        generation: prune.filter_generation,
        topic: topic.to_owned(),
    };
    let mut memo = prune.rows_memo.borrow_mut();
    if let Some((k, kept)) = memo.as_ref()
        && *k == key
    {
        return Rc::clone(kept);
    }
    let kept = Rc::new(keep(prune, topic, resolution, &rows));
    // The source is kept too, so its address is not reused meanwhile.
    *memo = Some((key, Rc::clone(&kept)));
    prune.rows_source.replace(Some(rows));
    kept
}

fn keep(prune: &PruneState, topic: &str, resolution: &Resolution, rows: &[Row]) -> Vec<Row> {
    let mut keep = vec![false; rows.len()];
    // The directories above the row being looked at.
    let mut open: Vec<usize> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        while open.last().is_some_and(|&d| rows[d].depth >= row.depth) {
            open.pop();
        }
        match &row.kind {
            RowKind::Dir(dir) => {
                keep[i] = dir.collapsed;
                open.push(i);
            }
            RowKind::Subject(s) => {
                let slug = resolution.subjects().get(*s).map_or("", |s| s.slug());
                if prune.filter.keeps(prune.ages.of(topic, slug)) {
                    keep[i] = true;
                    for &d in &open {
                        keep[d] = true;
                    }
                }
            }
        }
    }
    rows.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(row, _)| row.clone())
        .collect()
}
