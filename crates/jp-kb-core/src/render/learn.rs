//! The `learn` tool's outputs (contract §5.2, §5.3).

/// `learn(topic)`: the listing. Both slug lists must be in slug byte order.
pub fn render_listing(
    name: &str,
    description: Option<&str>,
    available: &[&str],
    learned: &[&str],
) -> String {
    let mut out = format!("# Topic: {name}\n\n");
    if let Some(description) = description {
        out.push_str(description);
        out.push_str("\n\n");
    }
    out.push_str("## Available subjects:\n\n");
    if available.is_empty() {
        out.push_str("(none)\n");
    } else {
        for slug in available {
            out.push_str("- ");
            out.push_str(slug);
            out.push('\n');
        }
    }
    out.push_str("\nUse the `learn` tool with the `subjects` argument to learn specific subjects.");
    if !learned.is_empty() {
        out.push_str("\n\n## Already learned (in system prompt):\n");
        for slug in learned {
            out.push_str("\n- ");
            out.push_str(slug);
        }
    }
    out
}

/// `learn(topic, subjects)`: the loaded subjects. `single_exact` is true
/// when one pattern, used as an exact slug, selected one subject: its
/// formatted content is returned alone.
pub fn render_loaded(single_exact: bool, subjects: &[(&str, String)]) -> String {
    if single_exact && subjects.len() == 1 {
        return subjects[0].1.clone();
    }
    let size: usize = subjects.iter().map(|(s, t)| s.len() + t.len() + 32).sum();
    let mut out = String::with_capacity(size);
    for (i, (slug, text)) in subjects.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        super::knowledge::push_subject(&mut out, slug, text);
    }
    out
}

/// The note returned when the only subjects asked for are already in the
/// system prompt.
pub fn render_already_learned(slugs: &[&str]) -> String {
    match slugs {
        [one] => format!(
            "Subject \"{one}\" is already in your system prompt (learned); no need to load it again."
        ),
        many => format!(
            "Subjects {} are already in your system prompt (learned); no need to load them again.",
            many.iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_with_learned() {
        let text = render_listing(
            "General Project Knowledge",
            None,
            &["code-quality"],
            &["maintainers/jean", "maintainers/ryan"],
        );
        assert_eq!(
            text,
            "# Topic: General Project Knowledge

## Available subjects:

- code-quality

Use the `learn` tool with the `subjects` argument to learn specific subjects.

## Already learned (in system prompt):

- maintainers/jean
- maintainers/ryan"
        );
    }

    #[test]
    fn listing_none_available() {
        let text = render_listing("S", Some("Desc"), &[], &[]);
        assert_eq!(
            text,
            "# Topic: S\n\nDesc\n\n## Available subjects:\n\n(none)\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects."
        );
    }

    #[test]
    fn loaded_forms() {
        let one = [("a", "A".to_owned())];
        assert_eq!(render_loaded(true, &one), "A");
        assert_eq!(render_loaded(false, &one), "<subject \"a\">\nA\n</subject>");
        let two = [("a", "A".to_owned()), ("b", "B".to_owned())];
        assert_eq!(
            render_loaded(false, &two),
            "<subject \"a\">\nA\n</subject>\n\n<subject \"b\">\nB\n</subject>"
        );
    }
}
