"""End-to-end test of the usage ledger (contract §9) with a real MCP client:
the official Python SDK, as test_e2e.py uses it.

    python test_usage.py PATH/TO/jp-kb

- Two clients load hidden, learned, available and disabled subjects;
  `jp-kb usage --json` reports exactly those loads, with each client's
  name and version; the ledger holds no subject text, is mode 0600 and
  lies outside the workspace.
- Four servers at once, 250 calls each: 1,000 loads recorded, the ledger
  parses line by line.
- A ledger directory that cannot be written: every `learn` answer is
  byte-identical to `jp-kb learn`, the server keeps answering and says so
  once on stderr.
- `--no-usage`, `kb.usage = false` in a file and `--cfg kb.usage=false`:
  nothing is written.

Prints `mcp usage: ok (N checks)` and exits 0 when everything holds. Run by
tests/mcp_usage.rs.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp import types

from test_e2e import FIXTURE, Checks, Cli, tool_text

CALLS_PER_SERVER = 250
SERVERS = 4


def make_workspace(root: Path) -> tuple[Path, dict[str, str]]:
    """The RFD's example with a learned, a hidden and a disabled subject."""
    ws = root / "ws"
    shutil.copytree(FIXTURE, ws, ignore=shutil.ignore_patterns("cases.toml", "expected"))
    (ws / ".jp/kb/project/old-notes.md").write_text("Outdated: do not use.\n")
    config = ws / ".jp/config.toml"
    text = config.read_text()
    text = text.replace("disabled = []", 'disabled = ["old-notes"]')
    text = text.replace("learned = []", 'learned = ["maintainers/jean"]')
    config.write_text(text)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(root / "home"),
        "XDG_CONFIG_HOME": str(root / "xdg-config"),
        "XDG_DATA_HOME": str(root / "xdg-data"),
        "JP_GLOBAL_CONFIG_DIR": str(root / "global"),
        "JP_USER_DATA_DIR": str(root / "data"),
        "NO_COLOR": "1",
    }
    return ws, env


def ledgers(env: dict[str, str]) -> list[Path]:
    usage = Path(env["JP_USER_DATA_DIR"]) / "jp-kb" / "usage"
    return sorted(usage.glob("*.jsonl")) if usage.is_dir() else []


async def run_client(binary, ws, env, name, version, calls, args=("mcp",), errlog=sys.stderr):
    """Runs one server, makes `calls(session)`, and closes it (the server
    writes what it queued before exiting)."""
    params = StdioServerParameters(command=binary, args=list(args), cwd=str(ws), env=env)
    info = types.Implementation(name=name, version=version)
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            return await calls(session)


LOADS = [
    {"topic": "project", "subjects": "code-quality"},
    {"topic": "project", "subjects": "internal-notes"},  # hidden
    {"topic": "project", "subjects": "maintainers/*"},  # jean learned, ryan served
    {"topic": "project", "subjects": "old-notes"},  # disabled: an error
    {"topic": "project"},  # the listing
    {"topic": "Learnable Assistant Skills", "subjects": ["**"]},  # by title
    {"topic": "project", "subjects": "code-quality"},
    {"topic": "nope"},  # an error
]


def cli_args(arguments: dict) -> tuple[str, ...]:
    subjects = arguments.get("subjects") or []
    if isinstance(subjects, str):
        subjects = [subjects]
    return (arguments["topic"], *subjects)


async def check_reported_loads(c: Checks, binary: str, root: Path) -> None:
    ws, env = make_workspace(root / "loads")
    cli = Cli(binary, ws, env)

    async def first(session):
        for arguments in LOADS:
            got = tool_text(await session.call_tool("learn", arguments))
            c.eq(f"answer {arguments}", got, cli.learn(*cli_args(arguments)))

    async def second(session):
        await session.read_resource("kb://project/.internal-notes")
        await session.get_prompt("knowledge")

    await run_client(binary, ws, env, "usage-e2e", "1.2.3", first)
    await run_client(binary, ws, env, "other-client", "0.1", second)

    rows = json.loads(cli.text("usage", "--json"))
    got = {
        (r["topic"], r["slug"]): (r["state"], r["loads"], r["sessions"], r["clients"])
        for r in rows
    }
    one = ["usage-e2e 1.2.3"]
    other = ["other-client 0.1"]
    want = {
        ("project", "code-quality"): ("available", 2, 1, one),
        ("project", "internal-notes"): ("hidden", 2, 2, sorted(other + one)),
        ("project", "maintainers/jean"): ("learned", 1, 1, other),
        ("project", "maintainers/ryan"): ("available", 1, 1, one),
        ("project", "old-notes"): ("disabled", 0, 0, []),
        ("skills", "ast-grep"): ("available", 1, 1, one),
        ("skills", "ast-grep/rules"): ("hidden", 0, 0, []),
    }
    c.eq("usage --json rows", got, want)
    c.eq(
        "usage --json in list order",
        [(r["topic"], r["slug"]) for r in rows],
        list(want),
    )
    c.eq("usage --json keys", list(rows[0]), ["topic", "slug", "state", "loads", "sessions", "last", "clients", "tokens"])
    for r in rows:
        loaded = r["loads"] > 0
        c.eq(f"{r['slug']} last set when loaded", r["last"] is not None, loaded)
        c.eq(f"{r['slug']} tokens when loaded", r["tokens"] > 0, loaded)
        if loaded:
            c.true(f"{r['slug']} last is RFC 3339", r["last"].endswith("Z") and "T" in r["last"])
    c.eq("usage TOPIC", [r["slug"] for r in json.loads(cli.text("usage", "skills", "--json"))], ["ast-grep", "ast-grep/rules"])

    files = ledgers(env)
    c.eq("one ledger", len(files), 1)
    ledger = files[0]
    c.eq("ledger mode", stat.S_IMODE(ledger.stat().st_mode), 0o600)
    c.true("ledger outside the workspace", not ledger.resolve().is_relative_to(ws.resolve()))
    text = ledger.read_text()
    for f in (ws / ".jp/kb").rglob("*.md"):
        body = f.read_text().strip()
        c.true(f"no text of {f.name} in the ledger", body not in text)
    c.eq("records", len(text.splitlines()), 8)
    human = cli.text("usage")
    c.true("human output ends with what it means", "never loaded" in human or "pre-loaded but asked" in human)


async def check_concurrent_servers(c: Checks, binary: str, root: Path) -> None:
    ws, env = make_workspace(root / "concurrent")
    cli = Cli(binary, ws, env)

    async def calls(session):
        for _ in range(CALLS_PER_SERVER):
            is_error, _ = tool_text(await session.call_tool("learn", {"topic": "project", "subjects": "code-quality"}))
            assert not is_error

    async with anyio.create_task_group() as tg:
        for i in range(SERVERS):
            tg.start_soon(run_client, binary, ws, env, f"client-{i}", "1", calls)

    rows = {r["slug"]: r for r in json.loads(cli.text("usage", "project", "--json"))}
    c.eq("concurrent loads", rows["code-quality"]["loads"], SERVERS * CALLS_PER_SERVER)
    c.eq("concurrent sessions", rows["code-quality"]["sessions"], SERVERS)
    c.eq("concurrent clients", len(rows["code-quality"]["clients"]), SERVERS)
    lines = ledgers(env)[0].read_text().splitlines()
    c.eq("concurrent records", len(lines), SERVERS * CALLS_PER_SERVER)
    parsed = 0
    for line in lines:
        try:
            json.loads(line)
            parsed += 1
        except ValueError:
            pass
    c.eq("every line parses", parsed, len(lines))


async def check_unwritable(c: Checks, binary: str, root: Path, how: str) -> None:
    ws, env = make_workspace(root / f"unwritable-{how}")
    cli = Cli(binary, ws, env)
    usage = Path(env["JP_USER_DATA_DIR"]) / "jp-kb" / "usage"
    usage.parent.mkdir(parents=True)
    if how == "file":
        # Something in the way: refused even to root.
        usage.write_text("not a directory\n")
    else:
        usage.mkdir()
        usage.chmod(0o500)
    log = root / f"stderr-{how}.log"

    async def calls(session):
        for arguments in LOADS * 3:
            got = tool_text(await session.call_tool("learn", arguments))
            c.eq(f"{how}: answer {arguments}", got, cli.learn(*cli_args(arguments)))

    with log.open("w") as errlog:
        await run_client(binary, ws, env, "c", "1", calls, errlog=errlog)
    said = [l for l in log.read_text().splitlines() if "usage not recorded" in l]
    c.eq(f"{how}: one line in the server's log", len(said), 1)
    if how == "readonly":
        c.eq(f"{how}: nothing written", list(usage.iterdir()), [])
        usage.chmod(0o700)


async def check_off(c: Checks, binary: str, root: Path, how: str) -> None:
    ws, env = make_workspace(root / f"off-{how}")
    args = ["mcp"]
    if how == "--no-usage":
        args.append("--no-usage")
    elif how == "--cfg":
        args = ["--cfg", "kb.usage=false", "mcp"]
    else:
        (ws / ".jp/kb.toml").write_text("[kb]\nusage = false\n")

    async def calls(session):
        for arguments in LOADS:
            await session.call_tool("learn", arguments)
        await session.get_prompt("knowledge")

    await run_client(binary, ws, env, "c", "1", calls, args=args)
    c.eq(f"{how}: nothing written", (Path(env["JP_USER_DATA_DIR"]) / "jp-kb").exists(), False)


async def main(binary: str) -> int:
    c = Checks()
    with tempfile.TemporaryDirectory(prefix="jp-kb-mcp-usage-") as tmp:
        root = Path(tmp)
        with anyio.fail_after(300):
            await check_reported_loads(c, binary, root)
            await check_concurrent_servers(c, binary, root)
            await check_unwritable(c, binary, root, "file")
            if os.geteuid() != 0:
                await check_unwritable(c, binary, root, "readonly")
            for how in ("--no-usage", "kb.toml", "--cfg"):
                await check_off(c, binary, root, how)
    for failure in c.failed:
        print(f"FAIL {failure}", file=sys.stderr)
    if c.failed:
        print(f"mcp usage: {len(c.failed)} failed, {c.passed} passed")
        return 1
    print(f"mcp usage: ok ({c.passed} checks)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(anyio.run(main, sys.argv[1]))
