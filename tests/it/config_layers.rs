#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Contract §2: workspace discovery, layered files, `extends`,
//! `config_load_paths`, `--cfg` in all its forms, `-k`, origins.

use super::common;

use common::{Sandbox, jp_kb};
use predicates::prelude::*;
use serde_json::Value;

/// A workspace with one topic `t` holding `a.md`, `b.md`, `sub/c.md`.
fn basic(config: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("ws/.jp/config.toml", config);
    sb.write("ws/kb/a.md", "A");
    sb.write("ws/kb/b.md", "B");
    sb.write("ws/kb/sub/c.md", "C");
    sb
}

fn topics_json(sb: &Sandbox, args: &[&str]) -> Value {
    let out = sb
        .cmd()
        .args(args)
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn learned_of(sb: &Sandbox, args: &[&str], topic: &str) -> Vec<String> {
    let v = topics_json(sb, args);
    let t = v
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == topic)
        .unwrap();
    t["origin"]["learned"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["value"].as_str().unwrap().to_owned())
        .collect()
}

const T: &str = "[kb.topic.t]\nsubjects = \"kb\"\n";

#[test]
fn root_is_found_from_a_subdirectory() {
    let sb = basic(T);
    std::fs::create_dir_all(sb.ws().join("deep/er")).unwrap();
    jp_kb(sb.path(), &sb.ws().join("deep/er"))
        .args(["learn", "t"])
        .assert()
        .success()
        .stdout(predicate::str::contains("- sub/c"));
}

#[test]
fn no_workspace_is_an_error_naming_the_start() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path().join("empty")).unwrap();
    jp_kb(sb.path(), &sb.path().join("empty"))
        .arg("prompt")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no JP workspace found from"))
        // The core says what is missing; the CLI adds its own ways out.
        .stderr(predicate::str::contains(
            "(a workspace is a directory containing `.jp/`); pass --workspace DIR, or run `jp-kb init`",
        ));
}

#[test]
fn global_layer_is_lowest_and_topics_keep_first_appearance_order() {
    let sb = basic("[kb.topic.t]\nsubjects = \"kb\"\ntitle = \"From workspace\"\n");
    sb.write(
        "global/config.toml",
        "[kb.topic.g]\nsubjects = \"kb\"\n[kb.topic.t]\ntitle = \"From global\"\nlearned = [\"a\"]\n",
    );
    let v = topics_json(&sb, &[]);
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["g", "t"]);
    let t = &v[1];
    assert_eq!(t["title"], "From workspace");
    assert_eq!(t["origin"]["title"], ".jp/config.toml:3");
    // Arrays append across layers: the global `learned` stays.
    assert_eq!(t["counts"]["learned"], 1);
}

#[test]
fn xdg_config_home_is_used_without_jp_global_config_dir() {
    let sb = basic(T);
    sb.write(
        "xdg-config/jp/config.toml",
        "[kb.topic.t]\ntitle = \"XDG\"\n",
    );
    let out = sb
        .cmd()
        .env_remove("JP_GLOBAL_CONFIG_DIR")
        .args(["list", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["title"], "XDG");
}

#[test]
fn nearer_jp_toml_wins() {
    let sb = basic(T);
    sb.write("ws/.jp.toml", "[kb.topic.t]\ntitle = \"root\"\n");
    sb.write("ws/sub/.jp.toml", "[kb.topic.t]\ntitle = \"sub\"\n");
    let title = |cwd: &std::path::Path| {
        let out = jp_kb(sb.path(), cwd)
            .args(["list", "--json"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v[0]["title"].as_str().unwrap().to_owned()
    };
    assert_eq!(title(&sb.ws()), "root");
    assert_eq!(title(&sb.ws().join("sub")), "sub");
}

#[test]
fn user_workspace_layer_is_found_by_id() {
    let sb = basic(T);
    sb.write("ws/.jp/.id", "ignored\nabc123\n");
    sb.write(
        "data/workspace/ws-abc123/config.toml",
        "[kb.topic.t]\nlearned = [\"a\"]\n",
    );
    sb.cmd()
        .arg("prompt")
        .assert()
        .success()
        .stdout(predicate::str::contains("<subject \"a\">\nA\n</subject>"));
}

#[test]
fn extends_order_and_after_strategy() {
    let sb = basic(
        "extends = [\"base.toml\", { path = \"late.toml\", strategy = \"after\" }]\n[kb.topic.t]\nsubjects = \"kb\"\ntitle = \"self\"\nintroduction = \"self\"\nlearned = [\"b\"]\n",
    );
    sb.write(
        "ws/.jp/base.toml",
        "[kb.topic.t]\ntitle = \"base\"\nlearned = [\"a\"]\n",
    );
    sb.write(
        "ws/.jp/late.toml",
        "[kb.topic.t]\nintroduction = \"late\"\nlearned = [\"sub/c\"]\n",
    );
    let v = topics_json(&sb, &[]);
    assert_eq!(
        v[0]["title"], "self",
        "the declaring file wins over `extends`"
    );
    assert_eq!(
        v[0]["introduction"], "late",
        "`strategy = \"after\"` wins over the file"
    );
    assert_eq!(learned_of(&sb, &[], "t"), ["a", "b", "sub/c"]);
}

#[test]
fn extends_globs_recursion_and_cycles() {
    let sb = basic("extends = [\"parts/**/*.toml\"]\n[kb.topic.t]\nsubjects = \"kb\"\n");
    sb.write(
        "ws/.jp/parts/x/one.toml",
        "extends = [\"../two.toml\"]\n[kb.topic.t]\nlearned = [\"a\"]\n",
    );
    sb.write("ws/.jp/parts/two.toml", "[kb.topic.t]\nlearned = [\"b\"]\n");
    // two.toml is matched by the glob and extended by one.toml: it is one
    // layer, at its first place (before one.toml, which extends it).
    assert_eq!(learned_of(&sb, &[], "t"), ["b", "a"]);

    sb.write("ws/.jp/parts/two.toml", "extends = [\"x/one.toml\"]\n");
    sb.cmd()
        .arg("prompt")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("`extends` cycle"))
        .stderr(predicate::str::contains("one.toml -> "));
}

#[test]
fn extends_missing_file_names_declaring_line() {
    let sb = basic("# c\nextends = [\"nope.toml\"]\n[kb.topic.t]\nsubjects = \"kb\"\n");
    sb.cmd()
        .arg("prompt")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(".jp/config.toml:2"))
        .stderr(predicate::str::contains("nope.toml, which does not exist"));
}

#[test]
fn cfg_name_is_searched_in_config_load_paths() {
    let sb = basic("config_load_paths = [\".jp/config.d\"]\n[kb.topic.t]\nsubjects = \"kb\"\n");
    sb.write(
        "ws/.jp/config.d/kb/maintainers.toml",
        "[kb.topic.t]\nlearned = [\"sub/*\"]\n",
    );
    sb.cmd()
        .args(["--cfg", "kb/maintainers", "prompt"])
        .assert()
        .success()
        .stdout(predicate::str::contains("<subject \"sub/c\">"));
    sb.cmd()
        .args(["--cfg", "kb/missing", "prompt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no config named `kb/missing`"));
}

#[test]
fn cfg_file_path_is_a_layer() {
    let sb = basic(T);
    let file = sb.write("extra.json", r#"{"kb":{"topic":{"t":{"learned":["a"]}}}}"#);
    sb.cmd()
        .args(["--cfg", file.to_str().unwrap(), "prompt"])
        .assert()
        .success()
        .stdout(predicate::str::contains("<subject \"a\">"));
}

#[test]
fn cfg_append_replace_set() {
    let sb = basic("[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"a\"]\n");
    assert_eq!(
        learned_of(&sb, &["--cfg", "kb.topic.t.learned+=b"], "t"),
        ["a", "b"]
    );
    assert_eq!(
        learned_of(&sb, &["--cfg", "kb.topic.t.learned:=[\"sub/*\"]"], "t"),
        ["sub/*"]
    );
    let v = topics_json(
        &sb,
        &[
            "--cfg",
            "kb.topic.t.title=Hello = World",
            "--cfg",
            "assistant.model=x",
        ],
    );
    assert_eq!(v[0]["title"], "Hello = World");
    assert_eq!(
        v[0]["origin"]["title"],
        "--cfg kb.topic.t.title=Hello = World"
    );
    let v = topics_json(&sb, &["--cfg", "kb.topic.t.enable=false"]);
    assert_eq!(v[0]["enabled"], false);
    sb.cmd()
        .args(["--cfg", "kb.topic.t.learned=b", "prompt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use `+=`"));
    sb.cmd()
        .args(["--cfg", "kb.topic.t.enable=maybe", "prompt"])
        .assert()
        .code(2);
    sb.cmd()
        .args(["--cfg", "kb.topic.t.learned:=[oops", "prompt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not valid JSON"));
}

#[test]
fn k_appends_to_learned_and_validates() {
    let sb = basic("[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\"a\"]\n");
    let v = topics_json(&sb, &["-k", "t/sub/*"]);
    let learned = &v[0]["origin"]["learned"];
    assert_eq!(learned[1]["value"], "sub/*");
    assert_eq!(learned[1]["origin"], "-k t/sub/*");
    sb.cmd()
        .args(["-k", "t", "prompt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("t/**"));
    sb.cmd()
        .args(["-k", "nope/*", "prompt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown topic `nope`"));
}

#[test]
fn json_and_yaml_layers_are_read() {
    let sb = Sandbox::new();
    sb.write(
        "ws/.jp/config.yaml",
        "kb:\n  topic:\n    t:\n      subjects: kb\n      title: From YAML\n",
    );
    sb.write("ws/kb/a.md", "A");
    sb.write(
        "global/config.json",
        r#"{"kb": {"topic": {"t": {"learned": ["a"]}}}}"#,
    );
    let v = topics_json(&sb, &[]);
    assert_eq!(v[0]["title"], "From YAML");
    assert_eq!(v[0]["counts"]["learned"], 1);
    assert_eq!(v[0]["origin"]["title"], ".jp/config.yaml");
}

#[test]
fn array_table_form_strategies() {
    let sb = basic(
        "[kb.topic.t]\nsubjects = \"kb\"\nlearned = { value = [\"b\", \"a\"], strategy = \"prepend\", dedup = true }\n",
    );
    sb.write(
        "global/config.toml",
        "[kb.topic.t]\nlearned = [\"a\", \"sub/c\"]\n",
    );
    assert_eq!(learned_of(&sb, &[], "t"), ["b", "a", "sub/c"]);
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.t]\nsubjects = \"kb\"\nlearned = { value = [\"b\"], strategy = \"replace\" }\n",
    );
    assert_eq!(learned_of(&sb, &[], "t"), ["b"]);
}

#[test]
fn unknown_kb_keys_are_warnings_with_file_and_line() {
    let sb = basic(
        "[kb]\ncolour = 1\n[kb.topic.t]\nsubjects = \"kb\"\nlearnd = [\"a\"]\n[other]\nx = 1\n",
    );
    sb.cmd()
        .arg("prompt")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: .jp/config.toml:2: unknown key `kb.colour`",
        ))
        .stderr(predicate::str::contains(
            "warning: .jp/config.toml:5: unknown key `kb.topic.t.learnd`",
        ))
        .stderr(predicate::str::contains("other").not());
}

#[test]
fn wrong_types_and_bad_toml_name_file_and_line() {
    let sb = basic("[kb.topic.t]\nsubjects = \"kb\"\nlearned = \"a\"\n");
    sb.cmd()
        .arg("prompt")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(".jp/config.toml:3"))
        .stderr(predicate::str::contains(
            "`kb.topic.t.learned` must be an array of strings",
        ));
    sb.write(
        "ws/.jp/config.toml",
        "[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\n",
    );
    sb.cmd()
        .arg("prompt")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "config.toml:3:12: invalid TOML: unclosed array",
        ));
}

#[test]
fn origins_are_reported_per_value() {
    let sb = basic("# topics\n[kb.topic.t]\nsubjects = \"kb\"\nlearned = [\n  \"a\",\n]\n");
    let v = topics_json(&sb, &["--cfg", "kb.topic.t.learned+=b"]);
    let o = &v[0]["origin"];
    assert_eq!(o["topic"], ".jp/config.toml:2");
    assert_eq!(o["subjects"], ".jp/config.toml:3");
    assert_eq!(o["learned"][0]["origin"], ".jp/config.toml:5");
    assert_eq!(o["learned"][1]["origin"], "--cfg kb.topic.t.learned+=b");
}
