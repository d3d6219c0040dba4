"""Latency of `learn` over MCP (`jp-kb mcp`) against the same CLI command, on a
generated 10,000-subject topic. Standard library only.

    cargo build --release
    python3 tests/mcp/bench.py target/release/jp-kb [--runs N] [--write docs/perf.md]

Method: a workspace with one topic of 10,000 Markdown subjects (100
directories of 100 files, about 600 bytes each), its directories last
modified a minute ago (a knowledge base nobody is editing right now).

- CLI: `jp-kb learn big` and `jp-kb learn big '**'` started as a process,
  timed from spawn until stdout is fully read and the process exited.
- MCP: one `jp-kb mcp` process, initialized once; each call writes the
  `tools/call` request line to its stdin and is timed until the response
  line is fully read (a raw JSON-RPC client, so no SDK parsing is counted).
  Calls reuse the server's walk while no directory changed; the "fresh
  walk" column touches the topic directory before each call (untimed), so
  each call walks all 10,000 files again.

Both sides are checked to return the same text before timing. Medians of
`--runs` runs (after one warm-up run each).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DIRS = 100
FILES_PER_DIR = 100
BODY = ("Knowledge line for benchmarking purposes, about sixty bytes.\n" * 10)[:600]


def make_workspace(root: Path) -> tuple[Path, dict[str, str]]:
    ws = root / "ws"
    topic = ws / ".jp" / "kb" / "big"
    for d in range(DIRS):
        sub = topic / f"area-{d:03}"
        sub.mkdir(parents=True)
        for f in range(FILES_PER_DIR):
            (sub / f"subject-{f:03}.md").write_text(f"# Subject {d}/{f}\n\n{BODY}")
    (ws / ".jp" / "config.toml").write_text(
        '[kb.topic.big]\ntitle = "Big"\nsubjects = ".jp/kb/big"\n'
    )
    settle(ws)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(root / "home"),
        "XDG_CONFIG_HOME": str(root / "xdg-config"),
        "XDG_DATA_HOME": str(root / "xdg-data"),
        "JP_GLOBAL_CONFIG_DIR": str(root / "global"),
        "JP_USER_DATA_DIR": str(root / "data"),
    }
    return ws, env


class Mcp:
    def __init__(self, binary: str, ws: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [binary, "mcp"],
            cwd=ws,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0
        self.call_raw(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def call_raw(self, method: str, params: dict) -> bytes:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            if b'"id":%d,' % self.next_id in line[:64]:
                return line

    def learn(self, arguments: dict) -> bytes:
        return self.call_raw("tools/call", {"name": "learn", "arguments": arguments})

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def settle(ws: Path) -> None:
    """Dates the topic's directories a minute back: nobody is editing it."""
    topic = ws / ".jp" / "kb" / "big"
    past = time.time() - 60
    for path in [topic, *topic.iterdir()]:
        os.utime(path, (past, past))


def fresh_walk(server: Mcp, ws: Path, arguments: dict) -> float:
    """One call timed after touching the topic directory (a walk is due)."""
    os.utime(ws / ".jp" / "kb" / "big")
    return timed(lambda: server.learn(arguments))


def cli(binary: str, ws: Path, env: dict[str, str], args: list[str]) -> bytes:
    done = subprocess.run([binary, *args], cwd=ws, env=env, capture_output=True, check=True)
    return done.stdout


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--write", type=Path, help="update the MCP section of this Markdown file")
    opts = parser.parse_args()
    opts.binary = str(Path(opts.binary).resolve())

    cases = [("listing", ["learn", "big"], {"topic": "big"}), ("load `**`", ["learn", "big", "**"], {"topic": "big", "subjects": "**"})]
    rows = []
    with tempfile.TemporaryDirectory(prefix="jp-kb-bench-") as tmp:
        ws, env = make_workspace(Path(tmp))
        server = Mcp(opts.binary, ws, env)
        try:
            for name, args, arguments in cases:
                response = json.loads(server.learn(arguments))
                text = response["result"]["content"][0]["text"]
                want = cli(opts.binary, ws, env, args).decode()
                assert text + "\n" == want, f"{name}: MCP and CLI differ"
                cli_ms = statistics.median(timed(lambda: cli(opts.binary, ws, env, args)) for _ in range(opts.runs))
                mcp_ms = statistics.median(timed(lambda: server.learn(arguments)) for _ in range(opts.runs))
                fresh = statistics.median(fresh_walk(server, ws, arguments) for _ in range(opts.runs))
                settle(ws)
                server.learn(arguments)
                rows.append((name, len(want), cli_ms, mcp_ms, fresh))
        finally:
            server.close()

    lines = [
        "## MCP",
        "",
        "Median latency of `learn` over MCP (`jp-kb mcp`) against the same CLI",
        f"command, on a generated topic of {DIRS * FILES_PER_DIR:,} Markdown subjects ({DIRS} directories",
        f"of {FILES_PER_DIR}, ~650 bytes each), {opts.runs} runs each after a warm-up run.",
        "",
        "| call | output | CLI | MCP | MCP / CLI | MCP, fresh walk | fresh / CLI |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, size, cli_ms, mcp_ms, fresh in rows:
        lines.append(
            f"| {name} | {size / 1024:,.0f} KiB | {cli_ms:.1f} ms | {mcp_ms:.1f} ms | {mcp_ms / cli_ms:.2f}"
            f" | {fresh:.1f} ms | {fresh / cli_ms:.2f} |"
        )
    lines += [
        "",
        "Method (`tests/mcp/bench.py`, release build): the CLI is timed from spawn",
        "until its stdout is read and it exited; MCP is one server process, each",
        "`tools/call` timed from writing the request line to reading the whole",
        "response line with a raw JSON-RPC client (no SDK parsing counted). Both",
        "return the same text (checked). The topic's directories were last modified",
        "a minute before, so the server reuses its walk of the topic",
        "(`subjects::cache::WalkCache`: one `stat` per directory instead of a walk)",
        "and only reloads the configuration and reads the files it returns.",
        "\"MCP, fresh walk\" touches the topic directory before each call (untimed),",
        "as an edit would, so every call walks the 10,000 files again: the cost",
        "while someone is editing the knowledge base.",
        "",
        f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores shared with other builds",
        f"(repeated runs of this script varied by up to 30%), Python {platform.python_version()}. Re-run:",
        "`cargo build --release && python3 tests/mcp/bench.py target/release/jp-kb --write docs/perf.md`.",
        "",
    ]
    section = "\n".join(lines)
    print(section)
    if opts.write:
        update(opts.write, section)
    return 0


def update(path: Path, section: str) -> None:
    """Replaces the `## MCP` section of `path` (or appends it)."""
    text = path.read_text() if path.exists() else "# Performance\n"
    start = text.find("\n## MCP\n")
    if start == -1:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + 1)
        tail = "" if end == -1 else "\n" + text[end + 1 :]
        text = text[: start + 1] + section + tail
    path.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
