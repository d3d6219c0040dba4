//! Merging layers: scalars from the higher layer win, arrays follow their
//! strategy (plain arrays append), topics keep first-appearance order; then
//! the merged result is normalised once, so no reader has to.

use super::model::{ArrayPatch, KbConfig, PartialConfig, PartialTopic, Strategy, Topic};
use super::origin::Valued;

/// Applies one layer on top of `config`.
pub fn merge_layer(config: &mut KbConfig, layer: &PartialConfig) {
    for (id, partial) in &layer.topics {
        merge_topic(config, id, partial);
    }
    set(&mut config.usage, layer.usage.as_ref());
    set(&mut config.search_model, layer.search_model.as_ref());
}

/// Applies one topic's partial on top of `config`.
pub fn merge_topic(config: &mut KbConfig, id: &str, partial: &PartialTopic) {
    let topic = config.topics.entry(id.to_owned()).or_insert_with(|| {
        let origin = partial
            .origin
            .clone()
            .unwrap_or_else(|| super::origin::Origin::Cfg(format!("kb.topic.{id}")));
        Topic::new(id.to_owned(), origin)
    });
    set(&mut topic.enable, partial.enable.as_ref());
    set(&mut topic.title, partial.title.as_ref());
    set(&mut topic.introduction, partial.introduction.as_ref());
    set(&mut topic.description, partial.description.as_ref());
    set(&mut topic.subjects, partial.subjects.as_ref());
    if let Some(patch) = &partial.learned {
        apply_patch(&mut topic.learned, patch);
    }
    if let Some(patch) = &partial.disabled {
        apply_patch(&mut topic.disabled, patch);
    }
}

fn set<T: Clone>(slot: &mut Option<T>, value: Option<&T>) {
    if let Some(v) = value {
        *slot = Some(v.clone());
    }
}

/// The one place metadata is cleaned (docs/decisions.md, "Empty
/// metadata"): trailing line breaks of `title`, `introduction` and
/// `description` go (TOML multi-line strings end with one), and a value
/// left empty or blank counts as unset. Runs on the merged result: a
/// higher layer's `title = ""` still overrides a lower layer's title, and
/// the topic then has none.
pub fn normalise(config: &mut KbConfig) {
    for topic in config.topics.values_mut() {
        for slot in [
            &mut topic.title,
            &mut topic.introduction,
            &mut topic.description,
        ] {
            if let Some(v) = slot {
                let kept = v.value.trim_end_matches(['\n', '\r']).len();
                v.value.truncate(kept);
                if v.value.trim().is_empty() {
                    *slot = None;
                }
            }
        }
    }
}

/// Combines an array with the patch of a higher layer.
pub fn apply_patch(current: &mut Vec<Valued<String>>, patch: &ArrayPatch) {
    match patch.strategy {
        Strategy::Append => current.extend(patch.items.iter().cloned()),
        Strategy::Prepend => {
            let mut merged = patch.items.clone();
            merged.append(current);
            *current = merged;
        }
        Strategy::Replace => current.clone_from(&patch.items),
    }
    if patch.dedup {
        crate::unique::retain_first_by(current, |v| v.value.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::origin::Origin;

    fn patch(items: &[&str], strategy: Strategy, dedup: bool) -> ArrayPatch {
        ArrayPatch {
            items: items
                .iter()
                .map(|s| Valued::new((*s).to_owned(), Origin::Cfg("t".into())))
                .collect(),
            strategy,
            dedup,
        }
    }

    fn values(v: &[Valued<String>]) -> Vec<&str> {
        v.iter().map(|v| v.value.as_str()).collect()
    }

    #[test]
    fn strategies() {
        let mut cur = Vec::new();
        apply_patch(&mut cur, &patch(&["a", "b"], Strategy::Append, false));
        apply_patch(&mut cur, &patch(&["c"], Strategy::Append, false));
        assert_eq!(values(&cur), ["a", "b", "c"]);
        apply_patch(&mut cur, &patch(&["z", "a"], Strategy::Prepend, false));
        assert_eq!(values(&cur), ["z", "a", "a", "b", "c"]);
        apply_patch(&mut cur, &patch(&["b"], Strategy::Append, true));
        assert_eq!(values(&cur), ["z", "a", "b", "c"]);
        apply_patch(&mut cur, &patch(&["q"], Strategy::Replace, false));
        assert_eq!(values(&cur), ["q"]);
    }

    #[test]
    fn normalise_unsets_blank_metadata_and_trims_trailing_breaks() {
        let text = |s: &str| Some(Valued::new(s.to_owned(), Origin::Cfg("t".into())));
        let mut config = KbConfig::default();
        let mut topic = Topic::new("t".into(), Origin::Cfg("t".into()));
        topic.title = text("");
        topic.introduction = text(" \t\r\n");
        topic.description = text("  Two lines\r\nkept.  \n\n");
        config.topics.insert("t".into(), topic);
        normalise(&mut config);
        let t = &config.topics["t"];
        assert_eq!((t.title(), t.introduction()), (None, None));
        assert_eq!(t.name(), "t");
        assert_eq!(t.description(), Some("  Two lines\r\nkept.  "));
    }
}
