//! Usage-ledger benchmarks (issue 27): the two speed figures of contract
//! §9, each against a baseline measured in the same run.
//!
//! - `jp-kb usage` on the largest ledger it reads (350,000 records, just
//!   under the 64 MiB bound; target ≤ 0.5 s), beside `wc -l` and `cat` of
//!   the same file (the I/O floor).
//! - A `learn` answer over MCP with recording on, against a server started
//!   with `--no-usage` (target: ≤ 1 ms more, median): two servers, calls
//!   alternating between them, each timed from the request line written
//!   to the response line read.
//!
//! `cargo bench --bench usage` (release). Prints Markdown rows; the
//! figures in docs/perf.md come from it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::many_single_char_names
)]

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use jp_kb_core::usage::{Entry, Kind, ledger_path, time};

use jp_kb_core::internal::usage::Limits;

#[path = "bench_support/process.rs"]
mod process;
use process::{median, time};

/// About 182 bytes a record: the most a ledger may hold (64 MiB; a larger
/// one is refused, not read).
const RECORDS: usize = 350_000;
const SUBJECTS: usize = 500;
const RUNS: usize = 7;
const CALLS: usize = 400;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A workspace with one topic of `SUBJECTS` small subjects.
fn workspace(base: &Path) -> PathBuf {
    let root = base.join("usage-ws");
    let topic = root.join(".jp/kb/big");
    if !topic.exists() {
        for i in 0..SUBJECTS {
            let dir = topic.join(format!("area-{:02}", i % 20));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join(format!("subject-{i:03}.md")),
                format!("# Subject {i}\n\nA line of knowledge, about sixty bytes long, twice.\n"),
            )
            .unwrap();
        }
        std::fs::write(
            root.join(".jp/config.toml"),
            "[kb.topic.big]\ntitle = \"Big\"\nsubjects = \".jp/kb/big\"\n",
        )
        .unwrap();
    }
    root
}

fn slug(i: usize) -> String {
    format!("area-{:02}/subject-{i:03}", i % 20)
}

/// Writes a ledger of `RECORDS` records over 60 days: 2,000 sessions,
/// four clients, one to three subjects a record, skewed towards a few.
fn ledger(data: &Path, root: &Path) -> PathBuf {
    let path = ledger_path(data, &root.canonicalize().unwrap());
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let now = time::now();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let clients = [
        ("jp", "0.1.0"),
        ("claude-code", "2.0.31"),
        ("codex-mcp-client", "0.50.0"),
        ("fast-agent", "0.3.1"),
    ];
    let mut out = String::with_capacity(RECORDS * 190);
    for r in 0..RECORDS {
        let t = now - 60 * 86_400 + (r as u64 * 60 * 86_400 / RECORDS as u64);
        let per_session = RECORDS / 2_000;
        let session = format!("{:016x}", (r / per_session) as u64 * 0x9e37_79b9 + 7);
        let (name, version) = clients[(r / per_session) % 4];
        let mut e = Entry::record(
            t,
            Kind::Learn,
            "big".into(),
            session,
            (name.into(), version.into()),
        );
        let n = 1 + next() % 3;
        for _ in 0..n {
            // Squared: a few subjects are loaded far more than the rest.
            let u = (next() % 1000) as usize;
            let i = u * u / 1000 * SUBJECTS / 1000;
            e.slugs.push(slug(i).into());
        }
        // Asked by exact slug: no `patterns` written (as the server does).
        e.tokens = 40 * n;
        out.push_str(&e.to_line());
    }
    std::fs::write(&path, out).unwrap();
    path
}

fn usage_rows(base: &Path) {
    let root = workspace(base);
    // Named by its size: a ledger left by another size is not reused.
    let data = base.join(format!("usage-data-{RECORDS}"));
    let path = ledger(&data, &root);
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert!(
        bytes <= Limits::default().max_bytes,
        "the bench's ledger ({bytes} bytes) must be one `usage` reads"
    );
    let jp = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_jp-kb"));
        c.env("JP_USER_DATA_DIR", &data)
            .env("JP_GLOBAL_CONFIG_DIR", base.join(".no-global"))
            .args(["--workspace"])
            .arg(&root)
            .args(["usage", "--since", "all", "--json"]);
        c
    };
    let wc = || {
        let mut c = Command::new("wc");
        c.arg("-l").arg(&path);
        c
    };
    let cat = || {
        let mut c = Command::new("cat");
        c.arg(&path);
        c
    };
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    time(&mut jp());
    time(&mut wc());
    time(&mut cat());
    for _ in 0..RUNS {
        a.push(time(&mut jp()));
        b.push(time(&mut wc()));
        c.push(time(&mut cat()));
    }
    let (a, b, c) = (median(a), median(b), median(c));
    println!(
        "| `usage --since all --json` | {RECORDS} records, {:.0} MB | {:.0} ms | `wc -l` {:.0} ms, `cat` {:.0} ms | {:.1}x of `wc -l` | ≤ 500 ms: {} |",
        bytes as f64 / 1e6,
        ms(a),
        ms(b),
        ms(c),
        a.as_secs_f64() / b.as_secs_f64(),
        if a <= Duration::from_millis(500) {
            "met"
        } else {
            "NOT met"
        }
    );
}

/// A `jp-kb mcp` process spoken to line by line.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    id: u64,
}

impl Server {
    fn start(root: &Path, data: &Path, extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jp-kb"))
            .env("JP_USER_DATA_DIR", data)
            .env("JP_GLOBAL_CONFIG_DIR", data.join(".no-global"))
            .arg("--workspace")
            .arg(root)
            .arg("mcp")
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Self {
            child,
            stdin,
            stdout,
            id: 0,
        };
        s.call(
            "initialize",
            r#"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}"#,
        );
        writeln!(
            s.stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .unwrap();
        s
    }

    /// Sends one request and reads lines until its response.
    fn call(&mut self, method: &str, params: &str) -> (Duration, String) {
        self.id += 1;
        let mut line = String::new();
        let _ = write!(
            line,
            r#"{{"jsonrpc":"2.0","id":{},"method":"{method}","params":{params}}}"#,
            self.id
        );
        line.push('\n');
        let start = Instant::now();
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        let want = format!(r#""id":{}"#, self.id);
        loop {
            let mut response = String::new();
            assert!(
                self.stdout.read_line(&mut response).unwrap() > 0,
                "server closed"
            );
            if response.contains(&want) {
                return (start.elapsed(), response);
            }
        }
    }

    fn finish(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

fn learn_rows(base: &Path) {
    let root = workspace(base);
    let data = base.join("usage-learn-data");
    let _ = std::fs::remove_dir_all(&data);
    for (what, args) in [
        (
            "`learn` one subject",
            r#"{"name":"learn","arguments":{"topic":"big","subjects":"area-03/subject-003"}}"#,
        ),
        (
            "`learn` listing (500 subjects)",
            r#"{"name":"learn","arguments":{"topic":"big"}}"#,
        ),
        (
            "`learn` 25 subjects (glob)",
            r#"{"name":"learn","arguments":{"topic":"big","subjects":"area-03/*"}}"#,
        ),
    ] {
        let mut on = Server::start(&root, &data, &[]);
        let mut off = Server::start(&root, &data, &["--no-usage"]);
        let (a, b) = (
            on.call("tools/call", args).1,
            off.call("tools/call", args).1,
        );
        assert_eq!(a.replace(r#""id":1"#, ""), b.replace(r#""id":1"#, ""));
        let (mut ta, mut tb, mut diffs) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..CALLS {
            let x = on.call("tools/call", args).0;
            let y = off.call("tools/call", args).0;
            ta.push(x);
            tb.push(y);
            diffs.push(x.as_secs_f64() - y.as_secs_f64());
        }
        on.finish();
        off.finish();
        diffs.sort_by(f64::total_cmp);
        let d = diffs[diffs.len() / 2] * 1e3;
        println!(
            "| {what} | {CALLS} calls each | {:.3} ms | `--no-usage` {:.3} ms | {d:+.3} ms | ≤ +1 ms: {} |",
            ms(median(ta)),
            ms(median(tb)),
            if d <= 1.0 { "met" } else { "NOT met" }
        );
    }
    let ledger = ledger_path(&data, &root.canonicalize().unwrap());
    let records = std::fs::read_to_string(ledger).unwrap().lines().count();
    assert_eq!(records, 3 * (CALLS + 1), "every call recorded");
}

/// The cost of one append (lock, open, size check, one write, close), as
/// the recorder thread pays it; compared in docs/decisions.md with
/// `SQLite`'s insert (`benches/usage_sqlite.py`).
fn append_row(base: &Path) {
    let dir = base.join("usage-append");
    let _ = std::fs::remove_dir_all(&dir);
    let ledger = jp_kb_core::usage::Ledger::new(dir.join("l.jsonl"));
    let now = time::now();
    let mut e = Entry::record(
        now,
        Kind::Learn,
        "big".into(),
        "0123456789abcdef".into(),
        ("claude-code".into(), "2.0.31".into()),
    );
    e.slugs = vec![slug(3).into(), slug(40).into()];
    e.tokens = 80;
    let mut times = Vec::new();
    for _ in 0..10_000 {
        let start = Instant::now();
        ledger.append(&e, now).unwrap();
        times.push(start.elapsed());
    }
    println!(
        "| one append (locked, O_APPEND) | 10000 records | {:.1} µs | | | |",
        median(times).as_secs_f64() * 1e6
    );
}

fn main() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&base).unwrap();
    println!("| what | size | jp-kb | baseline | difference | target |");
    println!("| --- | --- | --- | --- | --- | --- |");
    append_row(&base);
    learn_rows(&base);
    usage_rows(&base);
}
