#!/usr/bin/env python3
"""Writes the golden fixtures, manifests and expected outputs.

Hand-derived from /work/shared/spec/contract.md and the RFD (seed 001). This
script is NOT the tool and never runs it: it does no directory walking and no
globbing. For every case the selected subjects, their order and their format
are written out by hand below; the script only pastes them into the contract's
byte-exact templates (§5) so that every byte is controlled.

Re-running it rewrites tests/golden/{rfd,rfd-exact}/ from scratch.
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------
# Templates (contract §5)
# --------------------------------------------------------------------------

NOTE = (
    "(note: some topics may contain hidden subjects that are not listed via `learn`\n"
    "by default, but can be loaded manually if you are made aware of their names via\n"
    "other means, such as by reading non-hidden subjects first. This prevents\n"
    "exposing too much irrelevant knowledge upfront)"
)

BINARY = "binary file (NUL byte in the first 8192 bytes)"
NOT_UTF8 = "not valid UTF-8"


def strip_breaks(s):
    # §4: trailing line breaks are removed (\n and \r\n alike); nothing else.
    while s.endswith("\n") or s.endswith("\r"):
        s = s[:-1]
    return s


def formatted(subj):
    """subj = (slug, kind, content); kind: 'pass', a fence tag, or ('skip', reason)."""
    slug, kind, content = subj
    if isinstance(kind, tuple):
        return f'[skipped subject "{slug}": {kind[1]}]'
    body = strip_breaks(content)
    if kind == "pass":
        return body
    return f"```{kind}\n{body}\n```"


def tag(subj):
    return f'<subject "{subj[0]}">\n{formatted(subj)}\n</subject>'


def tags(subjs):
    return "\n\n".join(tag(s) for s in subjs)


def topic_line(tid, title=None, intro=None):
    s = f"- {tid}"
    if title is not None:
        s += f" (**{title}**)"
    if intro is not None:
        s += f": {intro}"
    return s


def knowledge(preloaded, available):
    """preloaded: [(NAME, description|None, [subj...])]; available: [topic_line...]"""
    parts = []
    if preloaded:
        blocks = []
        for name, desc, subjs in preloaded:
            b = f'<topic "{name}">\n\n'
            if desc is not None:
                b += desc + "\n\n"
            b += tags(subjs) + "\n</topic>"
            blocks.append(b)
        parts.append(
            "The following knowledge has been pre-loaded into your system prompt:\n\n"
            + "\n\n".join(blocks)
        )
    if available:
        parts.append(
            "The following knowledge topics are available to learn:\n\n"
            + "\n".join(available)
            + "\n\nUse the `learn` tool to consume this knowledge.\n\n"
            + NOTE
        )
    if not parts:
        return None  # absent: empty output
    return "<knowledge>\n" + "\n\n".join(parts) + "\n</knowledge>"


def listing(name, desc, available, learned=()):
    s = f"# Topic: {name}\n\n"
    if desc is not None:
        s += desc + "\n\n"
    s += "## Available subjects:\n\n"
    s += "\n".join(f"- {x}" for x in available) if available else "(none)"
    s += "\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects."
    if learned:
        s += "\n\n## Already learned (in system prompt):\n\n"
        s += "\n".join(f"- {x}" for x in learned)
    return s


def already(slug):
    return f'Subject "{slug}" is already in your system prompt (learned); no need to load it again.'


PARAMETERS = {
    "type": "object",
    "properties": {
        "topic": {
            "type": "string",
            "description": "The topic ID or title to learn about.",
        },
        "subjects": {
            "type": ["string", "array", "null"],
            "description": "Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.",
            "items": {"type": "string"},
        },
    },
    "required": ["topic"],
    "additionalProperties": False,
}


def schema(topics):
    """topics: [(id, title|None)] — the learnable topics in config order."""
    if not topics:
        return None  # tool not registered: nothing on stdout
    desc = "Learn about knowledge base topics and subjects.\n\nTopics:"
    for tid, title in topics:
        desc += f"\n- {tid}" + (f" ({title})" if title is not None else "")
    obj = {"name": "learn", "description": desc, "parameters": PARAMETERS}
    return json.dumps(obj, indent=2, ensure_ascii=False)


# --------------------------------------------------------------------------
# Writing helpers
# --------------------------------------------------------------------------

def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def toml_str(s):
    if "'" not in s and "\n" not in s:
        return "'" + s + "'"
    return json.dumps(s)


class Fixture:
    def __init__(self, name, header):
        self.root = os.path.join(HERE, name)
        self.cases = []
        self.header = header
        if os.path.exists(self.root):
            shutil.rmtree(self.root)
        os.makedirs(os.path.join(self.root, "expected"))

    def file(self, rel, data):
        write(os.path.join(self.root, rel), data)

    def case(self, name, args, out, cfg=(), comment=None):
        assert name not in [c[0] for c in self.cases], name
        self.cases.append((name, list(args), list(cfg), comment))
        data = b"" if out is None else out.encode("utf-8") + b"\n"
        write(os.path.join(self.root, "expected", name + ".out"), data)

    def finish(self):
        lines = [self.header]
        for name, args, cfg, comment in self.cases:
            lines.append("")
            if comment:
                for c in comment.split("\n"):
                    lines.append("# " + c)
            lines.append("[[case]]")
            lines.append(f"name = {toml_str(name)}")
            lines.append("args = [" + ", ".join(toml_str(a) for a in args) + "]")
            lines.append("cfg = [" + ", ".join(toml_str(a) for a in cfg) + "]")
            lines.append("exit = 0")
        write(os.path.join(self.root, "cases.toml"), "\n".join(lines) + "\n")


MANIFEST_HEADER = """\
# Golden cases for jp-kb, hand-derived from the contract (see ../README.md).
# Each case runs, with the current directory set to a fresh copy of this
# fixture directory:
#   jp-kb --workspace <copy> [--cfg <cfg item>]... <args>...
# and compares stdout byte for byte with expected/<name>.out; exit must match."""

# ==========================================================================
# Fixture 1: rfd — the RFD layout plus `formats` and `edge` topics
# ==========================================================================

F = Fixture("rfd", MANIFEST_HEADER)

F.file(".jp/config.toml", """\
# Hand-written golden fixture (tests/golden/README.md). The RFD's example
# topics, plus one topic per file format and one for odd slugs.

[kb.topic.project]
title = "General Project Knowledge"
introduction = "foo bar baz..."
description = "Conventions, maintainers and quality rules of this repository."
subjects = ".jp/kb/project"

[kb.topic.skills]
title = "Learnable Assistant Skills"
subjects = ".jp/kb/skills"

[kb.topic.formats]
title = "Formats"
subjects = ".jp/kb/formats"

[kb.topic.edge]
introduction = "Odd file names and slug collisions."
subjects = ".jp/kb/edge"
""")

P_NAME = "General Project Knowledge"
P_DESC = "Conventions, maintainers and quality rules of this repository."
S_NAME = "Learnable Assistant Skills"

# (slug, kind, content) — kind decided by hand from the RFD format tables.
jean = ("maintainers/jean", "pass", "# Jean\n\nJean maintains the CLI and the config loader.\n")
ryan = ("maintainers/ryan", "pass", "# Ryan\n\nRyan reviews every change to the LLM providers.")  # no trailing newline
cq = ("code-quality", "pass", "# Code quality\n\nRun `cargo clippy` and `cargo fmt` before pushing.\n\n\n\n")  # several
notes_int = ("internal-notes", "pass", "Internal notes: releases happen on Fridays.\n")
visible = ("hidden-dir/visible", "pass", "Visible by name, hidden by its directory.\n")
astgrep = ("ast-grep", "pass", "# ast-grep\n\nUse `sg` for structural search.\nRead `ast-grep/rules` for full rule documentation.\n")
rules = ("ast-grep/rules", "pass", "Rules live in `sgconfig.yml`, one rule per file.\n\n")

F.file(".jp/kb/project/maintainers/jean.md", jean[2])
F.file(".jp/kb/project/maintainers/ryan.md", ryan[2])
F.file(".jp/kb/project/code-quality.md", cq[2])
F.file(".jp/kb/project/.internal-notes.md", notes_int[2])
F.file(".jp/kb/project/.hidden-dir/visible.md", visible[2])
F.file(".jp/kb/skills/ast-grep.md", astgrep[2])
F.file(".jp/kb/skills/ast-grep/.rules.md", rules[2])

# formats: one subject per row of the RFD's two format tables, plus the
# binary / not-UTF-8 / empty / CRLF / trailing-space edge cases.
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
fm = {
    "guide.md": ("guide", "pass", "\n# Guide\n\nMarkdown passes through unchanged.\n"),  # leading newline kept
    "notes.txt": ("notes", "pass", "Plain notes.\n"),
    "plain.text": ("plain", "pass", "Plain text keeps its trailing spaces   \n\n"),
    "README": ("README", "pass", "Read me first: no extension means plain text.\n"),
    "config.toml": ("config", "toml", '[package]\nname = "example"\n'),
    "data.json": ("data", "json", '{"name": "example", "tags": ["a", "b"]}\n'),
    "compose.yaml": ("compose", "yaml", "services:\n  web:\n    image: nginx\n"),
    "ci.yml": ("ci", "yaml", "on: push\njobs: {}\n\n"),
    "main.rs": ("main", "rust", 'fn main() {\n    println!("hi");\n}\n'),
    "script.py": ("script", "python", "def hi():\n    print('hi')\n"),
    "app.js": ("app", "javascript", 'console.log("hi");'),  # no trailing newline
    "types.ts": ("types", "typescript", "export type Id = string;\n"),
    "build.sh": ("build", "sh", "#!/bin/sh\necho build\n"),
    "empty.md": ("empty", "pass", ""),
    "crlf.txt": ("crlf", "pass", "line one\r\nline two\r\n\r\n"),
    "logo.png": ("logo", ("skip", BINARY), PNG),
    "latin1.txt": ("latin1", ("skip", NOT_UTF8), b"caf\xe9 au lait\n"),
}
for rel, subj in fm.items():
    F.file(".jp/kb/formats/" + rel, subj[2])
FS = {s[0]: s for s in fm.values()}
# byte order of the slugs (uppercase sorts before lowercase)
FORMATS_ORDER = ["README", "app", "build", "ci", "compose", "config", "crlf", "data",
                 "empty", "guide", "latin1", "logo", "main", "notes", "plain", "script", "types"]
assert sorted(FORMATS_ORDER) == FORMATS_ORDER and sorted(FS) == FORMATS_ORDER

# edge: slugs with glob metacharacters, a second dot, no extension, a
# hidden extension-less file, and collisions.
edge_files = {
    "gnu[.md": "GNU bracket page.\n",
    "notes.v2.md": "Second notes.\n",
    "notes.md": "Notes (markdown wins).\n",
    "notes.txt": "LOSER: notes.md is the smaller path.\n",
    ".notes.md": "LOSER: hidden loses to non-hidden.\n",
    "Makefile": "all:\n\techo hi\n",
    ".rules": "Hidden rules without an extension.\n",
}
for rel, data in edge_files.items():
    F.file(".jp/kb/edge/" + rel, data)
gnu = ("gnu[", "pass", edge_files["gnu[.md"])
nv2 = ("notes.v2", "pass", edge_files["notes.v2.md"])
enotes = ("notes", "pass", edge_files["notes.md"])
mk = ("Makefile", "pass", edge_files["Makefile"])
erules = ("rules", "pass", edge_files[".rules"])
EDGE_ORDER = ["Makefile", "gnu[", "notes", "notes.v2"]
assert sorted(EDGE_ORDER) == EDGE_ORDER

L_PROJECT = topic_line("project", P_NAME, "foo bar baz...")
L_SKILLS = topic_line("skills", S_NAME)
L_FORMATS = topic_line("formats", "Formats")
L_EDGE = topic_line("edge", None, "Odd file names and slug collisions.")
ALL4 = [L_PROJECT, L_SKILLS, L_FORMATS, L_EDGE]
SCHEMA4 = [("project", P_NAME), ("skills", S_NAME), ("formats", "Formats"), ("edge", None)]

LM = "kb.topic.project.learned+=maintainers/*"

# ---- prompt ---------------------------------------------------------------
F.case("prompt-default", ["prompt"], knowledge([], ALL4))
F.case("prompt-learned-maintainers", ["prompt"],
       knowledge([(P_NAME, P_DESC, [jean, ryan])], ALL4), cfg=[LM],
       comment="RFD example 2, but code-quality is still available, so project stays listed.")
F.case("prompt-k-maintainers", ["-k", "project/maintainers/*", "prompt"],
       knowledge([(P_NAME, P_DESC, [jean, ryan])], ALL4),
       comment="-k is a global flag; same output as prompt-learned-maintainers.")
F.case("prompt-k-globstar", ["-k", "project/**", "prompt"],
       knowledge([(P_NAME, P_DESC, [cq, jean, ryan])], [L_SKILLS, L_FORMATS, L_EDGE]),
       comment="project/** learns every non-hidden subject: project leaves the available list.")
F.case("prompt-skills-all-learned", ["prompt"],
       knowledge([(S_NAME, None, [astgrep])], [L_PROJECT, L_FORMATS, L_EDGE]),
       cfg=["kb.topic.skills.learned+=**"],
       comment="** skips the hidden ast-grep/rules; skills has nothing left available.")
F.case("prompt-two-topics-learned", ["prompt"],
       knowledge([(P_NAME, P_DESC, [jean, ryan]), (S_NAME, None, [astgrep])],
                 [L_PROJECT, L_FORMATS, L_EDGE]),
       cfg=[LM, "kb.topic.skills.learned+=**"])
F.case("prompt-cfg-and-k", ["-k", "skills/**", "prompt"],
       knowledge([(P_NAME, P_DESC, [jean, ryan]), (S_NAME, None, [astgrep])],
                 [L_PROJECT, L_FORMATS, L_EDGE]),
       cfg=[LM])
F.case("prompt-learned-order", ["prompt"],
       knowledge([(P_NAME, P_DESC, [ryan, cq])], ALL4),
       cfg=["kb.topic.project.learned+=maintainers/ryan", "kb.topic.project.learned+=code-quality"],
       comment="Pre-loaded subjects follow pattern order, not slug order.")
F.case("prompt-learned-dedup", ["prompt"],
       knowledge([(P_NAME, P_DESC, [ryan, jean])], ALL4),
       cfg=["kb.topic.project.learned+=maintainers/ryan", LM, "kb.topic.project.learned+=maintainers/ryan"],
       comment="Pattern order, slug order within a pattern, first occurrence kept.")
F.case("prompt-learned-hidden", ["prompt"],
       knowledge([(P_NAME, P_DESC, [notes_int])], ALL4),
       cfg=["kb.topic.project.learned+=internal-notes"],
       comment="An exact slug in learned selects a hidden subject.")
F.case("prompt-learned-hidden-glob", ["prompt"],
       knowledge([], ALL4),
       cfg=["kb.topic.project.learned+=internal-*", "kb.topic.project.learned+=hidden-dir/*"],
       comment="Globs never select hidden subjects: nothing is learned, so no pre-loaded block.")
F.case("prompt-disabled-and-learned", ["prompt"],
       knowledge([(P_NAME, P_DESC, [jean, ryan])], [L_SKILLS, L_FORMATS, L_EDGE]),
       cfg=['kb.topic.project.disabled:=["code-quality"]', LM],
       comment="The RFD's example 2 shape: nothing of project is left available.")
F.case("prompt-disabled-beats-learned", ["prompt"],
       knowledge([(P_NAME, P_DESC, [ryan])], ALL4),
       cfg=[LM, 'kb.topic.project.disabled:=["maintainers/jean"]'])
F.case("prompt-disabled-glob-beats-learned", ["prompt"],
       knowledge([], ALL4),
       cfg=[LM, 'kb.topic.project.disabled:=["maintainers/*"]'])
F.case("prompt-project-all-disabled", ["prompt"],
       knowledge([], [L_SKILLS, L_FORMATS, L_EDGE]),
       cfg=['kb.topic.project.disabled:=["**"]'])
F.case("prompt-topic-disabled", ["prompt"],
       knowledge([], [L_PROJECT, L_FORMATS, L_EDGE]),
       cfg=["kb.topic.skills.enable=false"])
F.case("prompt-topic-disabled-with-learned", ["prompt"],
       knowledge([], [L_SKILLS, L_FORMATS, L_EDGE]),
       cfg=[LM, "kb.topic.project.enable=false"],
       comment="A disabled topic contributes nothing, learned or not.")
F.case("prompt-all-topics-disabled", ["prompt"], None,
       cfg=["kb.topic.project.enable=false", "kb.topic.skills.enable=false",
            "kb.topic.formats.enable=false", "kb.topic.edge.enable=false"],
       comment="Absent <knowledge> section: empty stdout (zero bytes).")
F.case("prompt-learned-binary", ["prompt"],
       knowledge([("Formats", None, [FS["logo"], FS["latin1"], FS["config"]])], ALL4),
       cfg=["kb.topic.formats.learned+=logo", "kb.topic.formats.learned+=latin1",
            "kb.topic.formats.learned+=config"])
F.case("prompt-title-override", ["prompt"],
       knowledge([], [L_PROJECT, topic_line("skills", "Skills"), L_FORMATS, L_EDGE]),
       cfg=["kb.topic.skills.title=Skills"])
F.case("prompt-title-override-preloaded", ["prompt"],
       knowledge([("Skills", None, [astgrep])], [L_PROJECT, L_FORMATS, L_EDGE]),
       cfg=["kb.topic.skills.title=Skills", "kb.topic.skills.learned+=ast-grep"])
F.case("prompt-cfg-new-topic", ["prompt"],
       knowledge([], ALL4 + [topic_line("extra")]),
       cfg=["kb.topic.extra.subjects=.jp/kb/skills"],
       comment="A topic created by --cfg: no title, no introduction, listed last.")
F.case("prompt-learned-edge", ["prompt"],
       knowledge([("edge", None, [gnu, erules, mk])], ALL4),
       cfg=["kb.topic.edge.learned+=gnu[", "kb.topic.edge.learned+=rules",
            "kb.topic.edge.learned+=Make*"],
       comment="NAME is the id when no title is set; gnu[ is not a glob, so exact.")

# ---- learn TOPIC (listing) -----------------------------------------------
LIST_PROJECT = listing(P_NAME, P_DESC, ["code-quality", "maintainers/jean", "maintainers/ryan"])
F.case("learn-skills", ["learn", "skills"], listing(S_NAME, None, ["ast-grep"]))
F.case("learn-project", ["learn", "project"], LIST_PROJECT)
F.case("learn-project-by-title", ["learn", "general project knowledge"], LIST_PROJECT)
F.case("learn-project-by-title-upper", ["learn", "GENERAL PROJECT KNOWLEDGE"], LIST_PROJECT)
F.case("learn-project-by-title-exact", ["learn", "General Project Knowledge"], LIST_PROJECT)
F.case("learn-project-learned", ["learn", "project"],
       listing(P_NAME, P_DESC, ["code-quality"], ["maintainers/jean", "maintainers/ryan"]),
       cfg=[LM])
F.case("learn-project-learned-k", ["-k", "project/maintainers/*", "learn", "project"],
       listing(P_NAME, P_DESC, ["code-quality"], ["maintainers/jean", "maintainers/ryan"]))
F.case("learn-project-learned-order", ["learn", "project"],
       listing(P_NAME, P_DESC, ["maintainers/jean"], ["code-quality", "maintainers/ryan"]),
       cfg=["kb.topic.project.learned+=maintainers/ryan", "kb.topic.project.learned+=code-quality"],
       comment="Both lists in slug byte order, whatever the pattern order.")
F.case("learn-project-learned-hidden", ["learn", "project"],
       listing(P_NAME, P_DESC, ["code-quality", "maintainers/jean", "maintainers/ryan"], ["internal-notes"]),
       cfg=["kb.topic.project.learned+=internal-notes"],
       comment="A hidden subject learned by exact slug is listed as already learned\n(it is in the system prompt already, so its name is no secret).")
F.case("learn-skills-all-learned", ["learn", "skills"],
       listing(S_NAME, None, [], ["ast-grep"]), cfg=["kb.topic.skills.learned+=**"])
F.case("learn-project-disabled", ["learn", "project"],
       listing(P_NAME, P_DESC, ["maintainers/jean", "maintainers/ryan"]),
       cfg=['kb.topic.project.disabled:=["code-quality"]'])
F.case("learn-project-disabled-learned", ["learn", "project"],
       listing(P_NAME, P_DESC, ["code-quality"], ["maintainers/ryan"]),
       cfg=[LM, 'kb.topic.project.disabled:=["maintainers/jean"]'],
       comment="A disabled subject is in neither list.")
F.case("learn-project-all-disabled", ["learn", "project"],
       listing(P_NAME, P_DESC, []),
       cfg=['kb.topic.project.disabled:=["**"]'])
F.case("learn-formats", ["learn", "formats"], listing("Formats", None, FORMATS_ORDER))
F.case("learn-formats-by-title", ["learn", "FORMATS"], listing("Formats", None, FORMATS_ORDER))
F.case("learn-edge", ["learn", "edge"], listing("edge", None, EDGE_ORDER),
       comment="No title: NAME is the id. Collisions leave one `notes`; .rules is hidden.")
F.case("learn-cfg-new-topic", ["learn", "extra"], listing("extra", None, ["ast-grep"]),
       cfg=["kb.topic.extra.subjects=.jp/kb/skills"])
F.case("learn-title-override", ["learn", "skills"], listing("Skills", None, ["ast-grep"]),
       cfg=["kb.topic.skills.title=Skills"])
F.case("learn-title-override-by-title", ["learn", "SKILLS"], listing("Skills", None, ["ast-grep"]),
       cfg=["kb.topic.skills.title=Skills"],
       comment="SKILLS is not the id (ids match exactly) but matches the overridden title.")
F.case("learn-description-from-cfg", ["learn", "skills"],
       listing(S_NAME, "How to use the tools.", ["ast-grep"]),
       cfg=["kb.topic.skills.description=How to use the tools."])

# ---- learn TOPIC PATTERN... (loading) ---------------------------------------
F.case("load-skills-ast-grep", ["learn", "skills", "ast-grep"], formatted(astgrep),
       comment="One exact slug selecting one subject: the content alone.")
F.case("load-skills-rules-hidden", ["learn", "skills", "ast-grep/rules"], formatted(rules))
F.case("load-skills-rules-dotted", ["learn", "skills", "ast-grep/.rules"], formatted(rules),
       comment="Exact selection accepts the slug written with its dots.")
F.case("load-skills-rules-path", ["learn", "skills", "ast-grep/.rules.md"], formatted(rules),
       comment="Exact selection accepts the relative file path.")
F.case("load-skills-globstar", ["learn", "skills", "**"], tags([astgrep]),
       comment="A glob selecting one subject is still wrapped in tags; hidden excluded.")
F.case("load-skills-star", ["learn", "skills", "*"], tags([astgrep]))
F.case("load-skills-exact-and-hidden", ["learn", "skills", "ast-grep", "ast-grep/rules"],
       tags([astgrep, rules]))
F.case("load-project-maintainers-star", ["learn", "project", "maintainers/*"], tags([jean, ryan]))
F.case("load-project-maintainers-globstar", ["learn", "project", "maintainers/**"], tags([jean, ryan]))
F.case("load-project-star", ["learn", "project", "*"], tags([cq]),
       comment="* is top level only and skips the hidden internal-notes.")
F.case("load-project-j-star", ["learn", "project", "maintainers/j*"], tags([jean]))
F.case("load-project-globstar", ["learn", "project", "**"], tags([cq, jean, ryan]),
       comment="Slug order; internal-notes and hidden-dir/visible are hidden.")
F.case("load-project-multi", ["learn", "project", "maintainers/ryan", "code-quality", "maintainers/*"],
       tags([ryan, cq, jean]),
       comment="Pattern order, duplicates dropped (ryan kept at its first occurrence).")
F.case("load-project-multi-globs", ["learn", "project", "maintainers/*", "**"],
       tags([jean, ryan, cq]))
F.case("load-project-same-exact-twice", ["learn", "project", "code-quality", "code-quality"],
       tags([cq]),
       comment="Two patterns: tags, even though only one subject remains after de-duplication.")
F.case("load-project-braces", ["learn", "project", "{code-quality,maintainers/ryan}"],
       tags([cq, ryan]))
F.case("load-project-class", ["learn", "project", "maintainers/[jr]*"], tags([jean, ryan]))
F.case("load-project-question", ["learn", "project", "maintainers/rya?"], tags([ryan]))
F.case("load-project-hidden-exact", ["learn", "project", "internal-notes"], formatted(notes_int))
F.case("load-project-hidden-dotted", ["learn", "project", ".internal-notes"], formatted(notes_int))
F.case("load-project-hidden-path", ["learn", "project", ".internal-notes.md"], formatted(notes_int))
F.case("load-project-hidden-dir", ["learn", "project", "hidden-dir/visible"], formatted(visible),
       comment="Hidden by its directory, not by its slug: loadable by exact slug only.")
F.case("load-project-hidden-dir-path", ["learn", "project", ".hidden-dir/visible.md"], formatted(visible))
F.case("load-project-by-path", ["learn", "project", "code-quality.md"], formatted(cq))
F.case("load-project-no-trailing-newline", ["learn", "project", "maintainers/ryan"], formatted(ryan))
F.case("load-project-hidden-and-visible", ["learn", "project", "internal-notes", "code-quality"],
       tags([notes_int, cq]))
F.case("load-project-glob-and-hidden", ["learn", "project", "*", "hidden-dir/visible"],
       tags([cq, visible]))
F.case("load-project-by-title", ["learn", "general project knowledge", "code-quality"], formatted(cq))
F.case("load-project-learned-note", ["learn", "project", "maintainers/jean"],
       already("maintainers/jean"), cfg=[LM],
       comment="Asking by exact slug for a learned subject: a one-line note, exit 0.")
F.case("load-project-learned-note-k", ["-k", "project/maintainers/jean", "learn", "project", "maintainers/jean"],
       already("maintainers/jean"))
F.case("load-project-learned-hidden-note", ["learn", "project", "internal-notes"],
       already("internal-notes"), cfg=["kb.topic.project.learned+=internal-notes"])
F.case("load-project-globstar-with-learned", ["learn", "project", "**"], tags([cq]), cfg=[LM],
       comment="Learned subjects are never returned; the glob still selects code-quality.")
F.case("load-project-globstar-disabled", ["learn", "project", "**"], tags([jean, ryan]),
       cfg=['kb.topic.project.disabled:=["code-quality"]'])
F.case("load-project-exact-disabled-sibling", ["learn", "project", "maintainers/ryan"], formatted(ryan),
       cfg=['kb.topic.project.disabled:=["maintainers/jean"]'])

# formats, each loaded singly by exact slug
for slug in FORMATS_ORDER:
    F.case(f"load-formats-{slug.lower()}", ["learn", "formats", slug], formatted(FS[slug]))
F.case("load-formats-config-by-path", ["learn", "formats", "config.toml"], formatted(FS["config"]),
       comment="config.toml is the relative path of slug `config`: exact, fenced as toml.")
F.case("load-formats-skipped-tags", ["learn", "formats", "logo", "latin1"],
       tags([FS["logo"], FS["latin1"]]))
F.case("load-formats-globstar", ["learn", "formats", "**"], tags([FS[s] for s in FORMATS_ORDER]))
F.case("load-formats-c-star", ["learn", "formats", "c*"], tags([FS["ci"], FS["compose"], FS["config"], FS["crlf"]]))

# edge
F.case("load-edge-gnu-bracket", ["learn", "edge", "gnu["], formatted(gnu),
       comment="gnu[ does not parse as a glob: exact slug, content alone.")
F.case("load-edge-notes-collision", ["learn", "edge", "notes"], formatted(enotes),
       comment="notes.md beats notes.txt (smaller path) and .notes.md (hidden).")
F.case("load-edge-notes-v2", ["learn", "edge", "notes.v2"], formatted(nv2))
F.case("load-edge-notes-star", ["learn", "edge", "notes*"], tags([enotes, nv2]))
F.case("load-edge-makefile", ["learn", "edge", "Makefile"], formatted(mk))
F.case("load-edge-hidden-noext", ["learn", "edge", "rules"], formatted(erules))
F.case("load-edge-hidden-noext-dotted", ["learn", "edge", ".rules"], formatted(erules))
F.case("load-edge-globstar", ["learn", "edge", "**"], tags([mk, gnu, enotes, nv2]))
F.case("load-edge-braces", ["learn", "edge", "{notes,Makefile}"], tags([mk, enotes]),
       comment="Slug order within one pattern, whatever the order inside the braces.")
F.case("load-edge-bracket-and-exact", ["learn", "edge", "gnu[", "Makefile"], tags([gnu, mk]))

# ---- schema ---------------------------------------------------------------
F.case("schema-default", ["schema"], schema(SCHEMA4))
F.case("schema-skills-all-learned", ["schema"],
       schema([("project", P_NAME), ("formats", "Formats"), ("edge", None)]),
       cfg=["kb.topic.skills.learned+=**"])
F.case("schema-project-learned-partly", ["schema"], schema(SCHEMA4), cfg=[LM])
F.case("schema-topic-disabled", ["schema"],
       schema([("project", P_NAME), ("formats", "Formats"), ("edge", None)]),
       cfg=["kb.topic.skills.enable=false"])
F.case("schema-title-override", ["schema"],
       schema([("project", P_NAME), ("skills", "Skills"), ("formats", "Formats"), ("edge", None)]),
       cfg=["kb.topic.skills.title=Skills"])
F.case("schema-none", ["schema"], None,
       cfg=["kb.topic.project.enable=false", "kb.topic.skills.enable=false",
            "kb.topic.formats.enable=false", "kb.topic.edge.enable=false"],
       comment="No learnable topic: the tool is not registered, nothing on stdout, exit 0.")

# ---- empty metadata counts as unset (decisions.md "Empty metadata") --------
# An empty or blank title, introduction or description is as if absent: the
# topic is named by its id, and no empty `(****)`, `: ` or blank lines appear.
# A higher layer's empty value still overrides the file's value.
L_SKILLS_NO_TITLE = topic_line("skills")
F.case("prompt-empty-title", ["prompt"],
       knowledge([], [L_PROJECT, L_SKILLS_NO_TITLE, L_FORMATS, L_EDGE]),
       cfg=["kb.topic.skills.title="],
       comment="title = \"\" is unset: `- skills`, not `- skills (****)`.")
F.case("prompt-empty-title-preloaded", ["prompt"],
       knowledge([("skills", None, [astgrep])], [L_PROJECT, L_FORMATS, L_EDGE]),
       cfg=["kb.topic.skills.title=", "kb.topic.skills.learned+=**"],
       comment="title = \"\" is unset: <topic \"skills\">, not <topic \"\">.")
F.case("prompt-blank-introduction", ["prompt"],
       knowledge([], [topic_line("project", P_NAME), L_SKILLS, L_FORMATS, topic_line("edge")]),
       cfg=["kb.topic.project.introduction= \t", "kb.topic.edge.introduction="])
F.case("prompt-empty-description-preloaded", ["prompt"],
       knowledge([(P_NAME, None, [jean, ryan])], ALL4),
       cfg=[LM, "kb.topic.project.description=\n\n"])
F.case("learn-empty-title", ["learn", "skills"], listing("skills", None, ["ast-grep"]),
       cfg=["kb.topic.skills.title="],
       comment="# Topic: skills, not `# Topic: ` with nothing after it.")
F.case("learn-blank-title-and-description", ["learn", "project"],
       listing("project", None, ["code-quality", "maintainers/jean", "maintainers/ryan"]),
       cfg=["kb.topic.project.title=  ", "kb.topic.project.description= \n "])
F.case("learn-description-trailing-breaks", ["learn", "skills"],
       listing(S_NAME, "How to use\nthe tools.", ["ast-grep"]),
       cfg=["kb.topic.skills.description=How to use\nthe tools.\n\n"])
F.case("schema-empty-title", ["schema"],
       schema([("project", P_NAME), ("skills", None), ("formats", "Formats"), ("edge", None)]),
       cfg=["kb.topic.skills.title="])
F.case("schema-blank-title", ["schema"],
       schema([("project", P_NAME), ("skills", S_NAME), ("formats", None), ("edge", None)]),
       cfg=["kb.topic.formats.title=   "])

F.finish()

# ==========================================================================
# Fixture 2: rfd-exact — only the RFD's own topics and values
# ==========================================================================

E = Fixture("rfd-exact", MANIFEST_HEADER)
E.file(".jp/config.toml", """\
# Hand-written golden fixture (tests/golden/README.md): the RFD's example,
# "All fields shown" for project, "Minimal" for skills.

[kb.topic.project]
enable = true
title = "General Project Knowledge"
introduction = "foo bar baz..."
description = "longer initial description talking about this"
subjects = ".jp/kb/project"
learned = []
disabled = []

[kb.topic.skills]
title = "Learnable Assistant Skills"
subjects = ".jp/kb/skills"
""")
E_DESC = "longer initial description talking about this"
xjean = ("maintainers/jean", "pass", "...file content...\n")
xryan = ("maintainers/ryan", "pass", "...file content...\n")
xcq = ("code-quality", "pass", "Keep functions small.\n")
xint = ("internal-notes", "pass", "Internal notes.\n")
xast = ("ast-grep", "pass", "...content...\n")
xrules = ("ast-grep/rules", "pass", "Full rule documentation.\n")
E.file(".jp/kb/project/maintainers/jean.md", xjean[2])
E.file(".jp/kb/project/maintainers/ryan.md", xryan[2])
E.file(".jp/kb/project/code-quality.md", xcq[2])
E.file(".jp/kb/project/.internal-notes.md", xint[2])
E.file(".jp/kb/skills/ast-grep.md", xast[2])
E.file(".jp/kb/skills/ast-grep/.rules.md", xrules[2])

E.case("prompt-default", ["prompt"], knowledge([], [L_PROJECT, L_SKILLS]),
       comment="The RFD's first <knowledge> example, byte for byte.")
E.case("prompt-rfd-example-2", ["prompt"],
       knowledge([(P_NAME, E_DESC, [xjean, xryan])], [L_SKILLS]),
       cfg=[LM, 'kb.topic.project.disabled:=["code-quality"]'],
       comment="The RFD's pre-loaded example ([[topic description here]] = the description).\nThe RFD omits project from the list although code-quality stays available;\ndisabling code-quality makes that consistent.")
E.case("prompt-learned-maintainers", ["prompt"],
       knowledge([(P_NAME, E_DESC, [xjean, xryan])], [L_PROJECT, L_SKILLS]), cfg=[LM])
E.case("prompt-k-maintainers", ["-k", "project/maintainers/*", "prompt"],
       knowledge([(P_NAME, E_DESC, [xjean, xryan])], [L_PROJECT, L_SKILLS]))
E.case("prompt-all-learned", ["prompt"],
       knowledge([(P_NAME, E_DESC, [xcq, xjean, xryan]), (S_NAME, None, [xast])], []),
       cfg=["kb.topic.project.learned+=**", "kb.topic.skills.learned+=**"],
       comment="Only the pre-loaded block: no available list, no blank line before </knowledge>.")
E.case("learn-skills", ["learn", "skills"], listing(S_NAME, None, ["ast-grep"]),
       comment="The RFD's first listing example (skills has no description).")
E.case("learn-project", ["learn", "project"],
       listing(P_NAME, E_DESC, ["code-quality", "maintainers/jean", "maintainers/ryan"]))
E.case("learn-project-learned", ["learn", "project"],
       listing(P_NAME, E_DESC, ["code-quality"], ["maintainers/jean", "maintainers/ryan"]),
       cfg=[LM], comment="The RFD's second listing example.")
E.case("load-skills-ast-grep", ["learn", "skills", "ast-grep"], formatted(xast))
E.case("load-skills-globstar", ["learn", "skills", "**"], tags([xast]),
       comment="The RFD's <subject \"ast-grep\"> example, byte for byte.")
E.case("load-skills-rules", ["learn", "skills", "ast-grep/rules"], formatted(xrules))
E.case("load-project-maintainers", ["learn", "project", "maintainers/*"], tags([xjean, xryan]))
E.case("schema-default", ["schema"], schema([("project", P_NAME), ("skills", S_NAME)]))
E.case("schema-all-learned", ["schema"], None,
       cfg=["kb.topic.project.learned+=**", "kb.topic.skills.learned+=**"],
       comment="Nothing left to learn: the tool is not registered.")
E.finish()
print("ok")
