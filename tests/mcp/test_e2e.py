"""End-to-end test of `jp-kb mcp` with a real MCP client: the official Python
SDK (`mcp`, pinned in requirements.txt).

    python test_e2e.py PATH/TO/jp-kb

Starts `jp-kb mcp` over stdio on a temporary copy of the RFD's example
workspace (tests/golden/rfd-exact, plus a disabled subject), and checks every
answer against what the CLI prints for the same question, running the binary
as a subprocess each time. Prints `mcp e2e: ok (N checks)` and exits 0 when
everything holds; exits 1 with the failures otherwise. Run by
tests/mcp_e2e.rs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

import anyio
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent / "golden" / "rfd-exact"
TIMEOUT = 30


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed: list[str] = []

    def eq(self, what: str, got: object, want: object) -> None:
        if got == want:
            self.passed += 1
        else:
            self.failed.append(f"{what}:\n  got:  {got!r}\n  want: {want!r}")

    def true(self, what: str, cond: bool) -> None:
        self.eq(what, bool(cond), True)


class Cli:
    """The jp-kb binary run as the CLI, in the same sandbox as the server."""

    def __init__(self, binary: str, workspace: Path, env: dict[str, str]) -> None:
        self.binary = binary
        self.workspace = workspace
        self.env = env

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.binary, *args],
            cwd=self.workspace,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    def text(self, *args: str) -> str:
        """stdout of a successful command, without its final newline."""
        done = self.run(*args)
        assert done.returncode == 0, f"jp-kb {args}: {done.returncode} {done.stderr}"
        out = done.stdout
        return out[:-1] if out.endswith("\n") else out

    def learn(self, topic: str, *patterns: str) -> tuple[bool, str]:
        """(is_error, text) as the tool should return them."""
        done = self.run("learn", topic, *patterns)
        if done.returncode == 0:
            return False, done.stdout.removesuffix("\n")
        assert done.returncode == 1, f"learn {topic} {patterns}: {done.returncode}"
        return True, done.stderr.removesuffix("\n")


def make_workspace(root: Path) -> tuple[Path, dict[str, str]]:
    ws = root / "ws"
    shutil.copytree(FIXTURE, ws, ignore=shutil.ignore_patterns("cases.toml", "expected"))
    # One disabled subject, to check it is refused.
    (ws / ".jp/kb/project/old-notes.md").write_text("Outdated: do not use.\n")
    config = ws / ".jp/config.toml"
    text = config.read_text()
    assert "disabled = []" in text
    config.write_text(text.replace("disabled = []", 'disabled = ["old-notes"]'))
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


def tool_text(result) -> tuple[bool, str]:
    assert len(result.content) == 1, result.content
    block = result.content[0]
    assert block.type == "text", block
    return bool(result.is_error), block.text


def expected_uri(topic: str, slug: str) -> str:
    return "kb://" + urllib.parse.quote(topic, safe="~") + "/" + urllib.parse.quote(slug, safe="/~")


class Notifications:
    def __init__(self) -> None:
        self.methods: list[str] = []

    async def __call__(self, message) -> None:
        method = getattr(message, "method", None)
        if method is None:
            root = getattr(message, "root", None)
            method = getattr(root, "method", None)
        if method:
            self.methods.append(method)


async def check_tools(c: Checks, session: ClientSession, cli: Cli) -> None:
    schema = json.loads(cli.text("schema"))
    tools = (await session.list_tools()).tools
    c.eq("tool names", [t.name for t in tools], ["learn"])
    learn = tools[0]
    c.eq("tool description", learn.description, schema["description"])
    # Key order too: the schema is the RFD's, byte for byte.
    c.eq(
        "tool input schema",
        json.dumps(learn.input_schema),
        json.dumps(schema["parameters"]),
    )


LEARN_CASES: list[tuple[str, dict, tuple[str, ...]]] = [
    ("listing", {"topic": "project"}, ("project",)),
    ("listing, subjects null", {"topic": "project", "subjects": None}, ("project",)),
    ("listing, subjects []", {"topic": "project", "subjects": []}, ("project",)),
    ("listing of skills", {"topic": "skills"}, ("skills",)),
    ("glob load", {"topic": "project", "subjects": ["maintainers/*"]}, ("project", "maintainers/*")),
    ("globstar load", {"topic": "skills", "subjects": ["**"]}, ("skills", "**")),
    ("globstar load, string", {"topic": "project", "subjects": "**"}, ("project", "**")),
    ("single load", {"topic": "project", "subjects": ["code-quality"]}, ("project", "code-quality")),
    ("single load, string", {"topic": "project", "subjects": "code-quality"}, ("project", "code-quality")),
    (
        "two exact slugs",
        {"topic": "project", "subjects": ["code-quality", "maintainers/jean"]},
        ("project", "code-quality", "maintainers/jean"),
    ),
    ("title resolution", {"topic": "general project knowledge"}, ("general project knowledge",)),
    (
        "title resolution, load",
        {"topic": "Learnable Assistant Skills", "subjects": "ast-grep"},
        ("Learnable Assistant Skills", "ast-grep"),
    ),
    ("hidden by exact slug", {"topic": "project", "subjects": "internal-notes"}, ("project", "internal-notes")),
    ("hidden by dotted slug", {"topic": "project", "subjects": ".internal-notes"}, ("project", ".internal-notes")),
    ("hidden nested", {"topic": "skills", "subjects": "ast-grep/rules"}, ("skills", "ast-grep/rules")),
    ("hidden not by glob", {"topic": "project", "subjects": "internal-*"}, ("project", "internal-*")),
    ("disabled refused", {"topic": "project", "subjects": "old-notes"}, ("project", "old-notes")),
    ("disabled not by glob", {"topic": "project", "subjects": "old-*"}, ("project", "old-*")),
    ("unknown topic", {"topic": "nope"}, ("nope",)),
    ("unknown topic, load", {"topic": "nope", "subjects": "x"}, ("nope", "x")),
    ("nothing selected", {"topic": "project", "subjects": "zzz*"}, ("project", "zzz*")),
    ("../ exact", {"topic": "project", "subjects": "../skills/ast-grep"}, ("project", "../skills/ast-grep")),
    ("../ glob", {"topic": "project", "subjects": "../**"}, ("project", "../**")),
    ("../ config", {"topic": "project", "subjects": "../../config"}, ("project", "../../config")),
    (
        "../../ to config.toml",
        {"topic": "project", "subjects": ["../../config.toml", "../../../.jp/config"]},
        ("project", "../../config.toml", "../../../.jp/config"),
    ),
]


async def check_learn(c: Checks, session: ClientSession, cli: Cli) -> None:
    for name, arguments, cli_args in LEARN_CASES:
        got = tool_text(await session.call_tool("learn", arguments))
        want = cli.learn(*cli_args)
        c.eq(f"learn {name}", got, want)
    # Expected shapes, so a CLI regression cannot make both sides wrong alike.
    is_error, text = tool_text(await session.call_tool("learn", {"topic": "project", "subjects": "old-notes"}))
    c.true("disabled is an error", is_error and "disabled" in text)
    is_error, text = tool_text(await session.call_tool("learn", {"topic": "nope"}))
    c.true("unknown topic lists valid ones", is_error and "project (General Project Knowledge)" in text)
    for pattern in ("../skills/ast-grep", "../**", "../../config"):
        is_error, text = tool_text(await session.call_tool("learn", {"topic": "project", "subjects": pattern}))
        c.true(
            f"{pattern} reads nothing",
            is_error and text.startswith('No subject of topic "project" matches') and "[kb." not in text,
        )
    is_error, text = tool_text(await session.call_tool("learn", {"topic": "project", "subjects": "internal-notes"}))
    c.eq("hidden subject text", (is_error, text), (False, "Internal notes."))
    # Arguments the schema refuses: a tool error, never a crash.
    for bad in ({}, {"topic": 3}, {"topic": "project", "subjects": 3}, {"topic": "project", "extra": 1}):
        is_error, _ = tool_text(await session.call_tool("learn", bad))
        c.true(f"bad arguments {bad} is a tool error", is_error)
    is_error, _ = tool_text(await session.call_tool("learn", {"topic": "project", "subjects": ["x" * 200_000]}))
    c.true("huge pattern is a tool error", is_error)
    try:
        await session.call_tool("forget", {"topic": "project"})
        c.true("unknown tool is a protocol error", False)
    except MCPError as e:
        c.eq("unknown tool error code", e.code, -32602)


async def check_prompt(c: Checks, session: ClientSession, cli: Cli, instructions: str | None) -> None:
    want = cli.text("prompt")
    c.eq("instructions", instructions, want)
    prompts = (await session.list_prompts()).prompts
    c.eq("prompt names", [p.name for p in prompts], ["knowledge"])
    got = await session.get_prompt("knowledge")
    c.eq("knowledge prompt messages", len(got.messages), 1)
    c.eq("knowledge prompt text", got.messages[0].content.text, want)
    c.eq("knowledge prompt role", got.messages[0].role, "user")


async def check_resources(c: Checks, session: ClientSession, cli: Cli, ws: Path) -> None:
    want = []
    for topic in json.loads(cli.text("list", "--json")):
        if not topic["enabled"]:
            continue
        subjects_dir = ws / topic["subjects_dir"]
        for s in json.loads(cli.text("list", topic["id"], "--json")):
            if s["hidden"] and not s["learned"]:
                continue
            want.append(
                {
                    "uri": expected_uri(topic["id"], s["slug"]),
                    "name": f"{topic['id']}/{s['slug']}",
                    "title": s["slug"],
                    "mime": "text/markdown",
                    "size": s["bytes"],
                    "path": subjects_dir / s["path"],
                }
            )
    listed = (await session.list_resources()).resources
    c.eq(
        "resource list",
        [(r.uri, r.name, r.title, r.mime_type, r.size) for r in listed],
        [(w["uri"], w["name"], w["title"], w["mime"], w["size"]) for w in want],
    )
    c.true("resources listed", len(listed) >= 4)
    listed_uris = {r.uri for r in listed}
    c.true("hidden not listed", "kb://project/internal-notes" not in listed_uris)
    c.true("disabled not listed", "kb://project/old-notes" not in listed_uris)
    for w in want:
        got = (await session.read_resource(w["uri"])).contents
        c.eq(f"read {w['uri']}", [(x.uri, x.mime_type, x.text) for x in got], [(w["uri"], w["mime"], w["path"].read_text())])
    hidden = (await session.read_resource("kb://project/internal-notes")).contents
    c.eq(
        "hidden read by exact URI",
        hidden[0].text,
        (ws / ".jp/kb/project/.internal-notes.md").read_text(),
    )
    nested = (await session.read_resource("kb://skills/ast-grep/rules")).contents
    c.eq("hidden nested read", nested[0].text, (ws / ".jp/kb/skills/ast-grep/.rules.md").read_text())
    for uri in (
        "kb://project/old-notes",
        "kb://project/../skills/ast-grep",
        "kb://project/..%2Fskills%2Fast-grep",
        "kb://project/../../config",
        "kb://project/..%2F..%2Fconfig.toml",
        "kb://project/internal-*",
        "kb://nope/x",
        "file:///etc/passwd",
        "kb://project",
    ):
        try:
            got = await session.read_resource(uri)
            c.true(f"read {uri} refused (got {got})", False)
        except MCPError:
            c.passed += 1
    templates = (await session.list_resource_templates()).resource_templates
    c.eq("resource templates", [t.uri_template for t in templates], ["kb://{topic}/{+slug}"])


async def wait_for(notes: Notifications, methods: set[str]) -> bool:
    with anyio.move_on_after(10):
        while not methods <= set(notes.methods):
            await anyio.sleep(0.05)
    return methods <= set(notes.methods)


async def check_live_changes(c: Checks, session: ClientSession, cli: Cli, ws: Path, notes: Notifications) -> None:
    # A new subject file: seen by the very next call.
    (ws / ".jp/kb/project/maintainers/zoe.md").write_text("# Zoe\n")
    c.eq("new file seen", tool_text(await session.call_tool("learn", {"topic": "project"})), cli.learn("project"))
    c.true("new file listed", "maintainers/zoe" in tool_text(await session.call_tool("learn", {"topic": "project"}))[1])

    # A config change while the server runs: seen by the next call, announced.
    notes.methods.clear()
    config = ws / ".jp/config.toml"
    config.write_text(config.read_text().replace("learned = []", 'learned = ["maintainers/*"]'))
    got = tool_text(await session.call_tool("learn", {"topic": "project"}))
    c.eq("config change seen by the next call", got, cli.learn("project"))
    c.true("now learned", "Already learned" in got[1])
    prompt = await session.get_prompt("knowledge")
    c.eq("config change seen by the prompt", prompt.messages[0].content.text, cli.text("prompt"))
    c.true(
        "list_changed notifications",
        await wait_for(notes, {"notifications/tools/list_changed", "notifications/resources/list_changed"}),
    )
    listed = {r.uri for r in (await session.list_resources()).resources}
    c.true("learned subjects stay listed", "kb://project/maintainers/jean" in listed)

    # Nothing learnable any more: the tool is not listed (as `jp-kb schema` says).
    notes.methods.clear()
    text = config.read_text().replace("enable = true", "enable = false")
    text = text.replace('subjects = ".jp/kb/skills"', 'subjects = ".jp/kb/skills"\nenable = false')
    config.write_text(text)
    c.eq("schema prints nothing", cli.run("schema").stdout, "")
    c.eq("no tool listed", [t.name for t in (await session.list_tools()).tools], [])
    c.eq("no resources listed", (await session.list_resources()).resources, [])
    c.eq("empty knowledge prompt", len((await session.get_prompt("knowledge")).messages), 0)
    c.true("tools list_changed again", await wait_for(notes, {"notifications/tools/list_changed"}))

    # A broken config: an error answer naming file:line, `learn` listed
    # saying so, other lists empty, the server stays up, and recovers
    # (contract §8).
    config.write_text("[kb.topic.project\n")
    is_error, text = tool_text(await session.call_tool("learn", {"topic": "project"}))
    c.true("broken config is a tool error", is_error and "config.toml:1:" in text)
    # `learn` stays listed, its description saying what is wrong (contract
    # §8, degraded start; issue 24, item 16).
    tools = (await session.list_tools()).tools
    c.eq("broken config: only learn listed", [t.name for t in tools], ["learn"])
    c.true("broken config: the description names file:line", "config.toml:1:" in (tools[0].description or ""))
    c.eq("broken config: no resources listed", (await session.list_resources()).resources, [])
    config.write_text('[kb.topic.project]\nsubjects = ".jp/kb/project"\n')
    c.eq("recovered", tool_text(await session.call_tool("learn", {"topic": "project"})), cli.learn("project"))


async def main(binary: str) -> int:
    c = Checks()
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    with tempfile.TemporaryDirectory(prefix="jp-kb-mcp-e2e-") as tmp:
        ws, env = make_workspace(Path(tmp))
        cli = Cli(binary, ws, env)
        params = StdioServerParameters(command=binary, args=["mcp"], cwd=str(ws), env=env)
        notes = Notifications()
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, message_handler=notes) as session:
                    init = await session.initialize()
                    c.eq("server name", init.server_info.name, "jp-kb")
                    c.eq("server version", init.server_info.version, version)
                    c.true("tools capability", init.capabilities.tools is not None)
                    await check_tools(c, session, cli)
                    await check_learn(c, session, cli)
                    await check_prompt(c, session, cli, init.instructions)
                    await check_resources(c, session, cli, ws)
                    await check_live_changes(c, session, cli, ws, notes)
        # Nothing is written by the server but its usage ledger (contract §9,
        # test_usage.py): the sandbox holds exactly the files this script
        # made, and the ledger in the user data directory.
        all_files = sorted(str(p.relative_to(tmp)) for p in Path(tmp).rglob("*") if not p.is_dir())
        ledgers = [f for f in all_files if f.startswith("data/jp-kb/usage/")]
        c.eq("one usage ledger", len(ledgers), 1)
        files = [f for f in all_files if f not in ledgers]
        fixture = sorted(
            str(Path("ws") / p.relative_to(FIXTURE))
            for p in FIXTURE.rglob("*")
            if not p.is_dir() and p.name != "cases.toml" and "expected" not in p.relative_to(FIXTURE).parts
        )
        made = ["ws/.jp/kb/project/maintainers/zoe.md", "ws/.jp/kb/project/old-notes.md"]
        c.eq("nothing written", files, sorted(fixture + made))
    for failure in c.failed:
        print(f"FAIL {failure}", file=sys.stderr)
    if c.failed:
        print(f"mcp e2e: {len(c.failed)} failed, {c.passed} passed")
        return 1
    print(f"mcp e2e: ok ({c.passed} checks)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(anyio.run(main, sys.argv[1]))
