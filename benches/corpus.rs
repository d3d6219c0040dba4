#![allow(
    clippy::cast_possible_truncation,
    clippy::should_implement_trait,
    clippy::unwrap_used
)]
//! A deterministic generator of synthetic JP workspaces for benchmarks:
//! N subjects in nested directories of realistic shape (depth 1–6, names
//! with dashes and dots, ~5% hidden, ~2% disabled, a few `learned` globs),
//! file sizes from 200 B to 20 KB.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A small xorshift generator: deterministic, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const WORDS: &[&str] = &[
    "api", "build", "cache", "config", "deploy", "docs", "error", "guide", "http", "index", "json",
    "kernel", "layout", "model", "notes", "parser", "query", "review", "schema", "test", "tokens",
    "update", "vault", "widget", "yaml", "zone",
];

fn name(rng: &mut Rng) -> String {
    let mut s = WORDS[rng.below(WORDS.len() as u64) as usize].to_owned();
    for _ in 0..rng.below(3) {
        s.push(if rng.below(4) == 0 { '.' } else { '-' });
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    s
}

/// A generated workspace: its root and the topic's subjects directory.
pub struct Generated {
    pub root: PathBuf,
    pub topic_dir: PathBuf,
    pub files: Vec<PathBuf>,
}

/// Generates (or reuses, when already complete) a workspace with `n`
/// subjects under `base/ws-{n}`. The topic `bench` has `learned` globs and
/// a `disabled` list; the topic `all` points at the same directory with
/// `learned = ["**"]`.
pub fn generate(base: &Path, n: usize) -> std::io::Result<Generated> {
    let root = base.join(format!("ws-{n}"));
    let topic_dir = root.join("kb");
    let marker = root.join(".complete");
    let mut rng = Rng::new(0x5eed_0000 + n as u64);
    // Contents draw from their own generator so the layout is the same
    // whether the files are written now or were written by an earlier run.
    let mut text_rng = Rng::new(0xc0ff_ee00 + n as u64);
    let mut files = Vec::with_capacity(n);
    let mut disabled = Vec::new();
    let mut dirs: Vec<PathBuf> = vec![PathBuf::new()];
    let fresh = !marker.exists();
    if fresh {
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join(".jp"))?;
    }
    for i in 0..n {
        // Reuse directories so each holds ~20 files; new ones nest 1–6 deep.
        if i % 20 == 0 {
            let depth = 1 + rng.below(6) as usize;
            let mut d = PathBuf::new();
            for level in 0..depth {
                let mut part = name(&mut rng);
                if level > 0 && rng.below(100) < 2 {
                    part.insert(0, '.');
                }
                d.push(part);
            }
            dirs.push(d);
        }
        let dir = &dirs[1 + rng.below((dirs.len() - 1) as u64) as usize];
        let mut file = format!("{}-{i}", name(&mut rng));
        if rng.below(100) < 3 {
            file.insert(0, '.');
        }
        let ext = ["md", "md", "md", "txt", "toml", "rs"][rng.below(6) as usize];
        let rel = dir.join(format!("{file}.{ext}"));
        let size = 200 + rng.below(20_000 - 200) as usize;
        if rng.below(100) < 2 {
            let slug = rel.with_extension("");
            disabled.push(
                slug.to_string_lossy()
                    .replace("/.", "/")
                    .trim_start_matches('.')
                    .to_owned(),
            );
        }
        let path = topic_dir.join(&rel);
        if fresh {
            std::fs::create_dir_all(path.parent().unwrap_or(&topic_dir))?;
            let mut text = String::with_capacity(size + 64);
            let _ = writeln!(text, "# {file}\n");
            while text.len() < size {
                text.push_str(WORDS[text_rng.below(WORDS.len() as u64) as usize]);
                text.push(if text_rng.below(12) == 0 { '\n' } else { ' ' });
            }
            std::fs::write(&path, text)?;
        }
        files.push(path);
    }
    if fresh {
        let disabled: Vec<String> = disabled.iter().map(|d| format!("{d:?}")).collect();
        let config = format!(
            "[kb.topic.bench]\ntitle = \"Synthetic\"\nintroduction = \"Generated subjects.\"\nsubjects = \"kb\"\nlearned = [\"api*/**\", \"docs/*\", \"guide*\"]\ndisabled = [{}]\n\n[kb.topic.all]\nsubjects = \"kb\"\nlearned = [\"**\"]\nenable = false\n",
            disabled.join(", ")
        );
        std::fs::write(root.join(".jp/config.toml"), config)?;
        std::fs::write(&marker, "")?;
    }
    Ok(Generated {
        root,
        topic_dir,
        files,
    })
}
