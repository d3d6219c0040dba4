#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The model server of one-off searches (`jp_kb_embed::resident`): a
//! search that finds none starts one, the next searches ask it and rank
//! exactly as without it; a server that lies, hangs or serves another
//! model is never believed; a socket directory others can enter is never
//! used; a server goes when idle, stopped, or its socket is removed.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::common::{Sandbox, jp_kb_std};
use super::semantic_search::workspace;
use crate::needs::{Need, require};

/// Questions whose answers are clear in the workspace's pages.
const QUESTIONS: [&str; 3] = [
    "is that computer answering on the network",
    "how much room is left on my disks",
    "unpack a bundle of files",
];

fn command(sb: &Sandbox, server: bool, args: &[&str]) -> Command {
    let mut cmd = jp_kb_std(sb.path(), &sb.ws());
    cmd.env("XDG_CACHE_HOME", sb.path().join("cache"))
        .env("JP_KB_MODEL_SERVER", if server { "on" } else { "off" })
        .args(args);
    cmd
}

fn run(sb: &Sandbox, server: bool, args: &[&str]) -> Output {
    let out = command(sb, server, args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The hits of a hybrid search: (slug, score).
fn search(sb: &Sandbox, server: bool, model: &Path, query: &str) -> Vec<(String, f64)> {
    let model = model.to_str().unwrap();
    let out = run(sb, server, &["search", "--json", "--model", model, query]);
    let hits: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    hits.iter()
        .map(|h| {
            (
                h["slug"].as_str().unwrap().to_owned(),
                h["score"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The same slugs in the same order, the scores equal but for the last
/// float digits (a server's encoder and a one-off one sum in other
/// orders).
fn assert_same(a: &[(String, f64)], b: &[(String, f64)], what: &str) {
    let slugs = |h: &[(String, f64)]| h.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>();
    assert_eq!(slugs(a), slugs(b), "{what}");
    for ((_, x), (_, y)) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-4, "{what}: {x} against {y}");
    }
}

fn sockets_dir(sb: &Sandbox) -> PathBuf {
    sb.path().join("run/jp-kb")
}

fn sockets(sb: &Sandbox) -> Vec<PathBuf> {
    std::fs::read_dir(sockets_dir(sb))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "sock"))
                .collect()
        })
        .unwrap_or_default()
}

fn status(sb: &Sandbox) -> String {
    String::from_utf8(run(sb, true, &["model", "status"]).stdout).unwrap()
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_one_off_search_starts_a_server_and_the_next_ones_ask_it() {
    let sb = workspace();
    let model = require(Need::Model);
    let alone: Vec<_> = QUESTIONS
        .iter()
        .map(|q| search(&sb, false, &model, q))
        .collect();
    assert!(sockets(&sb).is_empty(), "off: no server started");
    assert_eq!(alone[1][0].0, "df");
    // The first search finds no server: it embeds its query itself, the
    // same as without one, and starts one.
    assert_same(&search(&sb, true, &model, QUESTIONS[0]), &alone[0], "first");
    wait_for("the server", Duration::from_secs(60), || {
        status(&sb).contains("0 queries served")
    });
    // The next ones are answered by it, ranked the same.
    for (q, expected) in QUESTIONS.iter().zip(&alone).skip(1) {
        assert_same(&search(&sb, true, &model, q), expected, q);
    }
    let said = status(&sb);
    assert!(said.contains("2 queries served"), "{said}");
    // A page saved (as editors do, renamed over) after the server read
    // the vectors: the next search sees it, as one without a server.
    let new = sb.write(
        "ws/cli/fsck.new",
        "# fsck\n\n> Check and repair a damaged filesystem.\n\n`fsck /dev/sdX`\n",
    );
    std::fs::rename(&new, sb.ws().join("cli/fsck.md")).unwrap();
    let question = "my disk is corrupted, how do I fix it";
    let served = search(&sb, true, &model, question);
    assert_eq!(served[0].0, "fsck");
    assert_same(
        &served,
        &search(&sb, false, &model, question),
        "after a save",
    );
    assert_same(&search(&sb, true, &model, question), &served, "again");
    let said = status(&sb);
    assert!(said.contains("4 queries served"), "{said}");
    assert!(
        said.contains(&std::fs::canonicalize(&model).unwrap().display().to_string()),
        "{said}"
    );
    let stopped = String::from_utf8(run(&sb, true, &["model", "stop"]).stdout).unwrap();
    assert!(stopped.starts_with("stopped 1 model server"), "{stopped}");
    wait_for("the socket to go", Duration::from_secs(10), || {
        sockets(&sb).is_empty()
    });
    assert!(status(&sb).starts_with("no model server is running"));
}

/// What a fake server at the real one's socket does.
#[derive(Debug, Clone, Copy)]
enum Fake {
    /// Greets as the server of another model.
    OtherModel,
    /// Answers with a vector of NaNs.
    NotANumber,
    /// Answers with a vector of the wrong length.
    ShortVector,
    /// Greets with a vector length one short, and answers with it.
    OtherLength,
    /// Greets, then says nothing.
    Silent,
    /// Ranks the files worst first.
    Unordered,
}

/// Serves `fake` at `socket` (greeting with `hello` changed as it says)
/// until the socket is removed.
fn serve_fake(socket: &Path, hello: &Value, fake: Fake, ws: &Path) -> std::thread::JoinHandle<()> {
    let listener = UnixListener::bind(socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let (socket, mut hello) = (socket.to_owned(), hello.clone());
    // The index's keys: the pages' paths.
    let key = |page: &str| ws.join("cli").join(page).display().to_string();
    let (tar, df) = (key("tar.md"), key("df.md"));
    if let Fake::OtherModel = fake {
        // Another stamp: the same directory's files as they were before
        // a change.
        let stamp = hello["stamp"].as_str().unwrap();
        let other = if stamp.starts_with('a') { "b" } else { "a" };
        let stamp = format!("{other}{}", &stamp[1..]);
        hello["stamp"] = Value::from(stamp);
    }
    if let Fake::OtherLength = fake {
        hello["dims"] = Value::from(hello["dims"].as_u64().unwrap() - 1);
    }
    let dims = usize::try_from(hello["dims"].as_u64().unwrap()).unwrap();
    std::thread::spawn(move || {
        while socket.exists() {
            let Ok((mut stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            };
            stream.set_nonblocking(false).unwrap();
            let _ = writeln!(stream, "{hello}");
            let mut request = String::new();
            let _ = BufReader::new(&stream).read_line(&mut request);
            let bits: Vec<u32> = match fake {
                Fake::NotANumber => vec![f32::NAN.to_bits(); dims],
                Fake::ShortVector => vec![0.5f32.to_bits(); dims - 1],
                Fake::Silent => {
                    std::thread::sleep(Duration::from_secs(5));
                    continue;
                }
                Fake::OtherModel | Fake::OtherLength | Fake::Unordered => {
                    vec![0.05f32.to_bits(); dims]
                }
            };
            // Asked to rank the saved vectors, or to embed a text.
            let reply = if request.contains("\"rank\"") {
                let ranked = match fake {
                    Fake::Unordered => vec![(&tar, 0.1f32), (&df, 0.9)],
                    _ => vec![(&df, 0.9f32)],
                };
                let ranked: Vec<(&String, u32)> =
                    ranked.into_iter().map(|(k, s)| (k, s.to_bits())).collect();
                serde_json::json!({ "ranked": { "vector": bits, "ranked": ranked, "complete": true } })
            } else if let Fake::Unordered = fake {
                // Its lie is the ranking: a plausible vector, from a
                // server of this user, could not be told from a true one.
                serde_json::json!({ "error": "no" })
            } else {
                serde_json::json!({ "vector": bits })
            };
            let _ = writeln!(stream, "{reply}");
        }
    })
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_server_that_lies_hangs_or_serves_another_model_is_never_believed() {
    let sb = workspace();
    let model = require(Need::Model);
    let alone = search(&sb, false, &model, QUESTIONS[1]);
    search(&sb, true, &model, QUESTIONS[0]);
    wait_for("the server", Duration::from_secs(60), || {
        sockets(&sb).len() == 1
    });
    let socket = sockets(&sb).remove(0);
    // The real server's greeting, for the fakes to copy.
    let hello: Value = {
        let stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
        let mut line = String::new();
        BufReader::new(&stream).read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    run(&sb, true, &["model", "stop"]);
    wait_for("the socket to go", Duration::from_secs(10), || {
        !socket.exists()
    });
    for fake in [
        Fake::OtherModel,
        Fake::NotANumber,
        Fake::ShortVector,
        Fake::OtherLength,
        Fake::Silent,
        Fake::Unordered,
    ] {
        let server = serve_fake(&socket, &hello, fake, &sb.ws());
        let start = Instant::now();
        assert_same(
            &search(&sb, true, &model, QUESTIONS[1]),
            &alone,
            &format!("{fake:?}"),
        );
        // A silent server costs its timeout (2 s), not the search.
        assert!(start.elapsed() < Duration::from_secs(30), "{fake:?}");
        std::fs::remove_file(&socket).unwrap();
        server.join().unwrap();
    }
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_socket_directory_others_can_enter_is_never_used() {
    type Make<'a> = &'a dyn Fn(&Path);
    use std::os::unix::fs::PermissionsExt;
    let sb = workspace();
    let model = require(Need::Model);
    let dir = sockets_dir(&sb);
    let elsewhere = sb.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    let open_dir = |dir: &Path| {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    let link = |dir: &Path| std::os::unix::fs::symlink(&elsewhere, dir).unwrap();
    let cases: [(&str, Make<'_>); 2] = [("mode 755", &open_dir), ("a symbolic link", &link)];
    for (what, make) in cases {
        make(&dir);
        let out = command(
            &sb,
            true,
            &["model", "serve", "--model", model.to_str().unwrap()],
        )
        .output()
        .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what}: {err}");
        assert!(err.contains("not a private directory"), "{what}: {err}");
        // A search still answers, and starts nothing there.
        assert_eq!(search(&sb, true, &model, QUESTIONS[1])[0].0, "df", "{what}");
        std::thread::sleep(Duration::from_secs(1));
        assert!(sockets(&sb).is_empty(), "{what}");
        assert!(
            std::fs::read_dir(&elsewhere).unwrap().next().is_none(),
            "{what}"
        );
        if std::fs::symlink_metadata(&dir).unwrap().is_dir() {
            std::fs::remove_dir(&dir).unwrap();
        } else {
            std::fs::remove_file(&dir).unwrap();
        }
    }
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_server_exits_when_idle_or_its_socket_is_removed() {
    let sb = workspace();
    let model = require(Need::Model);
    let model = model.to_str().unwrap();
    let serve = |idle: &str| {
        command(
            &sb,
            true,
            &["model", "serve", "--model", model, "--idle", idle],
        )
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
    };
    let exits = |child: &mut std::process::Child, within: Duration| {
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                assert!(status.success());
                return;
            }
            assert!(start.elapsed() < within, "still serving after {within:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let mut idle = serve("1");
    wait_for("the server", Duration::from_secs(60), || {
        sockets(&sb).len() == 1
    });
    exits(&mut idle, Duration::from_secs(10));
    assert!(sockets(&sb).is_empty(), "its socket goes with it");
    let mut removed = serve("600");
    wait_for("the server", Duration::from_secs(60), || {
        sockets(&sb).len() == 1
    });
    // A second server for the same model leaves at once.
    let mut second = serve("600");
    exits(&mut second, Duration::from_secs(60));
    std::fs::remove_file(sockets(&sb).remove(0)).unwrap();
    exits(&mut removed, Duration::from_secs(10));
}

#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_socket_path_too_long_for_an_address_starts_nothing() {
    let sb = workspace();
    let model = require(Need::Model);
    let long = sb.path().join("r".repeat(100));
    let with_long = |args: &[&str]| {
        let mut cmd = command(&sb, true, args);
        cmd.env("XDG_RUNTIME_DIR", &long);
        cmd.output().unwrap()
    };
    let model = model.to_str().unwrap();
    let out = with_long(&["model", "serve", "--model", model]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("too long"), "{err}");
    let out = with_long(&["search", "--json", "--model", model, QUESTIONS[1]]);
    assert!(out.status.success());
    let hits: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits[0]["slug"], "df");
    // No server was started to fail at its address (it would have made
    // its lock file first).
    std::thread::sleep(Duration::from_secs(3));
    let dir = long.join("jp-kb");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().collect())
        .unwrap_or_default();
    assert!(files.is_empty(), "{files:?}");
}

/// A search finds its server by the stamp of the model's files, without
/// loading the model: a file written since the server read it (the same
/// bytes again, or a broken one) is another model, never asked of the
/// old server.
#[test]
#[cfg_attr(
    lacks = "model",
    ignore = "needs the all-MiniLM-L6-v2 model (run bash tests/semantic/setup.sh, or .ci/run)"
)]
fn a_model_file_written_since_the_server_read_it_is_never_asked_of_it() {
    let sb = workspace();
    let model = sb.path().join("model");
    super::common::copy_tree(&require(Need::Model), &model);
    let alone = search(&sb, false, &model, QUESTIONS[1]);
    search(&sb, true, &model, QUESTIONS[0]);
    wait_for("the server", Duration::from_secs(60), || {
        status(&sb).contains("0 queries served")
    });
    assert_same(&search(&sb, true, &model, QUESTIONS[1]), &alone, "served");
    let said = status(&sb);
    assert!(said.contains("1 query served"), "{said}");
    // The same configuration written again: another stamp, so another
    // server, and the same answers.
    let config = std::fs::read(model.join("config.json")).unwrap();
    std::fs::write(model.join("config.json"), &config).unwrap();
    assert_same(
        &search(&sb, true, &model, QUESTIONS[1]),
        &alone,
        "rewritten",
    );
    wait_for("a second server", Duration::from_secs(60), || {
        sockets(&sb).len() == 2
    });
    let said = status(&sb);
    assert!(said.contains("1 query served"), "{said}");
    // A broken configuration: the search loads the model itself and says
    // what is wrong, though two servers of that directory are up.
    std::fs::write(model.join("config.json"), b"{\"not\": \"bert\"}").unwrap();
    let out = command(
        &sb,
        true,
        &["search", "--model", model.to_str().unwrap(), QUESTIONS[1]],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("not a BERT config"), "{err}");
    let said = status(&sb);
    assert!(!said.contains("2 queries served"), "{said}");
    run(&sb, true, &["model", "stop"]);
}
