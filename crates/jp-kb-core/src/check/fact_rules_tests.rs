use super::*;
use crate::facts::read_facts;

fn issues(name: &str, ext: &str, text: &str) -> Vec<(Code, String)> {
    let file = read_facts(name, Some(ext), text).expect("a Facts file");
    let cx = Context {
        today: Day::parse("2026-05-01").expect("day"),
        preloaded: false,
        name,
    };
    file_issues(&file, &cx)
        .into_iter()
        .map(|i| (i.code, text[i.span].to_owned()))
        .collect()
}

const HEADER: &str = "---\ndomain: global\ncategory: pitfall\nversion: 1\nlast_updated: \"2026-04-13\"\n---\n\n# Pitfalls\n\n";

#[test]
fn a_valid_file_has_no_issue() {
    let text = format!(
        "{HEADER}- id: global:pitfall:001\n  fact: \"Never trust the clock.\"\n  confidence: 0.95\n  tags: [time]\n  source_count: 3\n  first_seen: \"2026-03-27\"\n  last_confirmed: \"2026-04-10\"\n  expires: \"2026-12-31\"\n  related: [global:pitfall:002]\n"
    );
    assert_eq!(issues("global/pitfalls.yaml", "yaml", &text), []);
}

#[test]
fn each_rule_points_at_its_value() {
    // `quirk` is no category: KB019 alone, the id is not also wrong.
    let text = format!(
        "{HEADER}- id: global:pitfall\n  fact: a\n  confidence: 0.5\n- id: repo:pitfall:002\n  fact: b\n  confidence: 1.2\n- id: global:pitfall:003\n  category: quirk\n  fact: c\n  confidence: 0.5\n- id: global:pitfall:004\n  fact: d\n  confidence: 0.5\n  expires: \"2026-04-30\"\n  first_seen: \"yesterday\"\n- id: global:pitfall:005\n  confidence: 0.5\n  tags: tag\n"
    );
    assert_eq!(
        issues("global/pitfalls.yaml", "yaml", &text),
        [
            (Code::FactIdMalformed, "global:pitfall".to_owned()),
            (Code::FactIdMismatch, "repo:pitfall:002".to_owned()),
            (Code::FactConfidenceRange, "1.2".to_owned()),
            (Code::FactCategoryUnknown, "quirk".to_owned()),
            (Code::FactExpired, "\"2026-04-30\"".to_owned()),
            (Code::FactDateInvalid, "\"yesterday\"".to_owned()),
            (Code::FactsMalformed, "- id: global:pitfall:005".to_owned()),
            (Code::FactsMalformed, "tag".to_owned()),
        ]
    );
}

#[test]
fn the_index_header_is_checked() {
    let text = "{\n  \"version\": 1,\n  \"last_updated\": \"13 April\",\n  \"total_facts\": 3,\n  \"facts\": [\n    {\"id\": \"global:fact:001\", \"fact\": \"a\", \"category\": \"fact\", \"domain\": \"global\", \"confidence\": 0.9}\n  ]\n}";
    assert_eq!(
        issues("index.json", "json", text),
        [
            (Code::FactDateInvalid, "\"13 April\"".to_owned()),
            (Code::FactsTotalMismatch, "3".to_owned()),
        ]
    );
    let missing =
        "{\"facts\": [{\"id\": \"global:fact:001\", \"fact\": \"a\", \"confidence\": 0.9}]}";
    let found = issues("index.json", "json", missing);
    let codes: Vec<Code> = found.iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, [Code::FactsMalformed; 5], "{found:?}");
}

#[test]
fn ids_are_three_parts() {
    assert_eq!(
        id_parts("global:tool-quirk:001"),
        Some(("global", "tool-quirk", "001"))
    );
    for bad in [
        "",
        "a:b",
        "a:b:c",
        "a:b:1:2",
        ":fact:1",
        "a b:fact:1",
        "a:Fact:1",
        "a:fact:",
    ] {
        assert_eq!(id_parts(bad), None, "{bad}");
    }
}
