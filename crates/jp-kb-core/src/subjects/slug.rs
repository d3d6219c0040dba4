//! Slugs and hidden-ness (contract §1).
//!
//! A slug is the subject's relative path, `/`-separated, with the last
//! extension removed and the leading `.` of every component removed (unless
//! that would leave nothing: `..md` → `.`). Hidden-ness comes from the
//! *path*, never from the slug.

/// Splits a file name into stem and last extension the way `Path` does: a
/// name whose only dot is the first character has no extension.
pub fn split_extension(name: &str) -> (&str, Option<&str>) {
    match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], Some(&name[i + 1..])),
        _ => (name, None),
    }
}

/// Removes one leading `.`, unless nothing would be left.
fn strip_leading_dot(component: &str) -> &str {
    match component.strip_prefix('.') {
        Some(rest) if !rest.is_empty() => rest,
        _ => component,
    }
}

/// The slug of a relative path given as its components (directories first,
/// the file name last).
pub fn slug_of(components: &[&str]) -> String {
    let mut slug = String::new();
    let last = components.len().saturating_sub(1);
    for (i, component) in components.iter().enumerate() {
        if i > 0 {
            slug.push('/');
        }
        if i == last {
            let (stem, _) = split_extension(component);
            slug.push_str(strip_leading_dot(stem));
        } else {
            slug.push_str(strip_leading_dot(component));
        }
    }
    slug
}

/// [`slug_of`] for a `/`-separated relative path.
pub fn slug_of_rel(rel: &str) -> String {
    let mut slug = String::with_capacity(rel.len());
    let mut parts = rel.split('/').peekable();
    while let Some(component) = parts.next() {
        if parts.peek().is_some() {
            slug.push_str(strip_leading_dot(component));
            slug.push('/');
        } else {
            let (stem, _) = split_extension(component);
            slug.push_str(strip_leading_dot(stem));
        }
    }
    slug
}

/// [`is_hidden_path`] for a `/`-separated relative path.
pub fn is_hidden_rel(rel: &str) -> bool {
    rel.starts_with('.') || rel.contains("/.")
}

/// The relative path without its extension, dots kept
/// (`.internal-notes.md` → `.internal-notes`): one of the spellings an
/// exact selection accepts.
pub fn dotted_slug(rel_path: &str) -> &str {
    let name_start = rel_path.rfind('/').map_or(0, |i| i + 1);
    let (stem, ext) = split_extension(&rel_path[name_start..]);
    match ext {
        Some(_) => &rel_path[..name_start + stem.len()],
        None => rel_path,
    }
}

/// A path is hidden when any of its components starts with `.`.
pub fn is_hidden_path(components: &[&str]) -> bool {
    components.iter().any(|c| c.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slug(path: &str) -> String {
        let parts: Vec<&str> = path.split('/').collect();
        slug_of(&parts)
    }

    #[test]
    fn contract_examples() {
        assert_eq!(slug("maintainers/jean.md"), "maintainers/jean");
        assert_eq!(slug("ast-grep/.rules.md"), "ast-grep/rules");
        assert_eq!(slug(".hidden-dir/visible.md"), "hidden-dir/visible");
        assert_eq!(slug(".internal-notes.md"), "internal-notes");
        assert_eq!(slug("notes.v2.md"), "notes.v2");
        assert_eq!(slug("Makefile"), "Makefile");
        assert_eq!(slug(".rules"), "rules");
        assert_eq!(slug("..md"), ".");
        assert_eq!(slug("common/..md"), "common/.");
        assert_eq!(slug("gnu[.md"), "gnu[");
        assert_eq!(slug("[[.md"), "[[");
    }

    #[test]
    fn string_forms_agree_with_component_forms() {
        for path in [
            "maintainers/jean.md",
            "ast-grep/.rules.md",
            ".hidden-dir/visible.md",
            "..md",
            "common/..md",
            "a.b/c.d/e.f.g",
            ".x/.y/.z",
            "Makefile",
        ] {
            let parts: Vec<&str> = path.split('/').collect();
            assert_eq!(slug_of_rel(path), slug_of(&parts), "{path}");
            assert_eq!(is_hidden_rel(path), is_hidden_path(&parts), "{path}");
        }
    }

    #[test]
    fn hidden_from_path_not_slug() {
        assert!(is_hidden_path(&[".hidden-dir", "visible.md"]));
        assert!(is_hidden_path(&["ast-grep", ".rules.md"]));
        assert!(is_hidden_path(&["common", "..md"]));
        assert!(!is_hidden_path(&["maintainers", "jean.md"]));
    }

    #[test]
    fn dotted_forms() {
        assert_eq!(dotted_slug(".internal-notes.md"), ".internal-notes");
        assert_eq!(dotted_slug("ast-grep/.rules.md"), "ast-grep/.rules");
        assert_eq!(dotted_slug("a.b/Makefile"), "a.b/Makefile");
        assert_eq!(dotted_slug(".rules"), ".rules");
    }
}
