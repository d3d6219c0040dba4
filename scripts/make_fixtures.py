#!/usr/bin/env python3
"""Writes tests/edit/*.before.toml and *.edit (the inputs of the golden
fixtures). Expected outputs are produced by `JP_KB_BLESS=1 cargo test
--test edit_fixtures` and reviewed by hand."""
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "edit")
os.makedirs(OUT, exist_ok=True)

def fx(name, before, edit, comment=None):
    with open(os.path.join(OUT, name + ".before.toml"), "w", newline="") as f:
        f.write(before)
    with open(os.path.join(OUT, name + ".edit"), "w") as f:
        if comment:
            f.write("# " + comment + "\n")
        f.write(edit + "\n")

SPELLINGS = {
"header": '''# Workspace configuration
[assistant]
name = "jp"

# The project topic
[kb.topic.project]
title = "Project"   # shown in the prompt
subjects = ".jp/kb/project"
learned = ["intro", "maintainers/*"]
disabled = ["old"]

[kb.topic.skills]
subjects = ".jp/kb/skills"

[style]
width = 80
''',
"rootdotted": '''# Root-level dotted keys
kb.topic.project.title = "Project"   # shown in the prompt
kb.topic.project.subjects = ".jp/kb/project"
kb.topic.project.learned = ["intro", "maintainers/*"]
kb.topic.project.disabled = ["old"]
kb.topic.skills.subjects = ".jp/kb/skills"
other = 1

[assistant]
name = "jp"
''',
"kbdotted": '''[kb]
# topics as dotted keys under [kb]
topic.project.title = "Project"   # shown in the prompt
topic.project.subjects = ".jp/kb/project"
topic.project.learned = ["intro", "maintainers/*"]
topic.project.disabled = ["old"]
topic.skills.subjects = ".jp/kb/skills"

[assistant]
name = "jp"
''',
"topicdotted": '''[kb.topic]
  project.title = "Project"   # shown in the prompt
  project.subjects = ".jp/kb/project"
  project.learned = ["intro", "maintainers/*"]
  project.disabled = ["old"]

  skills.subjects = ".jp/kb/skills"

[assistant]
name = "jp"
''',
"inline": '''[kb.topic]
# one line per topic
project = { title = "Project", subjects = ".jp/kb/project", learned = ["intro", "maintainers/*"], disabled = ["old"] }
skills = { subjects = ".jp/kb/skills" }

[assistant]
name = "jp"
''',
"rootinline": '''kb.topic.project = { title = "Project", subjects = ".jp/kb/project", learned = ["intro", "maintainers/*"], disabled = ["old"] } # main
kb.topic.skills = {subjects=".jp/kb/skills"}

[assistant]
name = "jp"
''',
"implicit": '''# This layer only adds to topics defined elsewhere.
[kb.topic.project.learned]
value = ["intro", "maintainers/*"]
strategy = "append"

[kb.topic.project.disabled]
value = ["old"]

[kb.topic.skills.disabled]
value = []
''',
}

OPS = [
    ("add-learned", "add-learned project guides/*"),
    ("add-learned-two", "add-learned project guides/* intro style"),
    ("add-learned-present", "add-learned project maintainers/*"),
    ("add-learned-new-key", "add-learned skills rust/**"),
    ("rm-learned", "rm-learned project intro"),
    ("rm-learned-all", "rm-learned project intro maintainers/*"),
    ("rm-learned-absent", "rm-learned project nope"),
    ("replace-learned", "replace-learned project maintainers/* maintainers/alice maintainers/bob"),
    ("add-disabled", "add-disabled project drafts/x"),
    ("rm-disabled", "rm-disabled project old"),
    ("set-title", "set project title \"Project knowledge\""),
    ("set-new-field", "set project introduction \"What this project is.\""),
    ("set-enable", "set project enable false"),
    ("unset-title", "unset project title"),
    ("unset-absent", "unset project description"),
    ("rm-topic", "rm-topic project"),
    ("rm-topic-other", "rm-topic skills"),
]

for sp, before in SPELLINGS.items():
    for op, edit in OPS:
        fx(f"{sp}-{op}", before, edit, f"{op} on a topic spelled {sp}")

# ---- array layouts (header spelling) ----
def topic(body, id="project", head="[kb.topic.%s]\n"):
    return "# before\n[assistant]\nname = \"jp\"\n\n" + (head % id) + "subjects = \".jp/kb/project\"\n" + body + "\n[after]\nx = 1\n"

MULTI = '''learned = [
    # always useful
    "intro", # the overview
    # people
    "maintainers/*",
    "style",   # house style
]
'''
fx("multi-add", topic(MULTI), "add-learned project guides/*", "one item per line, comments, trailing comma")
fx("multi-rm-first", topic(MULTI), "rm-learned project intro", "the item's line and its comment go; comment lines stay")
fx("multi-rm-middle", topic(MULTI), "rm-learned project maintainers/*")
fx("multi-rm-last", topic(MULTI), "rm-learned project style")
fx("multi-rm-all", topic(MULTI), "rm-learned project intro maintainers/* style", "comments keep the emptied array")
fx("multi-replace", topic(MULTI), "replace-learned project maintainers/* maintainers/alice maintainers/bob style", "replacement in place, comment stays on the first line, style already listed")
fx("multi-replace-empty", topic(MULTI), "replace-learned project maintainers/*", "replacing by nothing removes the pattern")
MULTI_NOCOMMA = '''learned = [
  "intro",
  "maintainers/*" # last, no comma
]
'''
fx("multi-nocomma-add", topic(MULTI_NOCOMMA), "add-learned project guides/*")
fx("multi-nocomma-rm-last", topic(MULTI_NOCOMMA), "rm-learned project maintainers/*")
fx("multi-nocomma-rm-first", topic(MULTI_NOCOMMA), "rm-learned project intro")
fx("single-spaced-add", topic('learned = [ "intro" , "style" ]  # two\n'), "add-learned project guides/*")
fx("single-trailing-comma-add", topic('learned = ["intro", "style",]\n'), "add-learned project guides/*")
fx("single-rm-middle", topic('learned = ["a", "b", "c"]\n'), "rm-learned project b")
fx("literal-quotes-add", topic("learned = ['intro', 'style']\n"), "add-learned project guides/* it's", "literal quoting copied when possible")
fx("empty-add", topic("learned = []\n"), "add-learned project intro")
fx("empty-multiline-add", topic("learned = [\n    # nothing yet\n]\n"), "add-learned project intro")
fx("last-item-removes-key", topic('learned = ["intro"] # only one\ndisabled = ["x"]\n'), "rm-learned project intro", "an emptied plain array goes with its line")
fx("mixed-lines-add", topic('learned = [\n  "a", "b",\n  "c", "d",\n]\n'), "add-learned project e")
fx("dup-items-rm", topic('learned = ["a", "b", "a"]\n'), "rm-learned project a", "every occurrence goes")
fx("special-chars-add", topic('learned = ["a"]\n'), "add-learned project \"quote\\\"d\" \"back\\\\slash\" ünï", "escaping")
fx("glob-meta-slug-add", topic('disabled = ["gnu["]\n'), "add-disabled project \"{a,b}\" gnu[", "slugs with glob characters are plain strings")

# ---- table form ----
fx("tableform-inline-add", topic('learned = { value = ["intro"], strategy = "append", dedup = true }\n'), "add-learned project guides/*")
fx("tableform-inline-rm-all", topic('learned = { value = ["intro"], strategy = "replace" }\n'), "rm-learned project intro", "table form keeps value = [] (strategy matters)")
fx("tableform-inline-novalue-add", topic('learned = { strategy = "replace" }\n'), "add-learned project intro")
fx("tableform-header-add", topic('\n[kb.topic.project.learned]\nvalue = [\n  "intro",\n]\nstrategy = "prepend"\n'), "add-learned project guides/*")
fx("tableform-dotted-add", topic('learned.value = ["intro"]\nlearned.strategy = "append"\n'), "add-learned project guides/*")
fx("tableform-dotted-novalue-add", topic('learned.strategy = "replace"\n'), "add-learned project guides/*")

# ---- line endings / final newline ----
CRLF = "# crlf file\r\n[kb.topic.project]\r\nsubjects = \".jp/kb/project\"\r\nlearned = [\r\n  \"intro\",\r\n  \"style\",\r\n]\r\n\r\n[after]\r\nx = 1\r\n"
fx("crlf-add-learned", CRLF, "add-learned project guides/*")
fx("crlf-rm-learned", CRLF, "rm-learned project intro")
fx("crlf-set-new-field", CRLF, "set project title Project")
fx("crlf-add-topic", CRLF, "add-topic docs .jp/kb/docs title=Docs")
fx("crlf-rm-topic", CRLF, "rm-topic project")
fx("crlf-set-multiline", CRLF, "set project description \"two\\nlines\"")
NOEOL = "[kb.topic.project]\nsubjects = \".jp/kb/project\"\nlearned = [\"intro\"]"
fx("noeol-add-learned", NOEOL, "add-learned project guides/*")
fx("noeol-set-new-field", NOEOL, "set project title Project", "new last line, still no final line break")
fx("noeol-rm-last-key", NOEOL, "rm-learned project intro", "removing the last line keeps the file without final break")
fx("noeol-add-topic", NOEOL, "add-topic docs .jp/kb/docs")
fx("noeol-rm-topic", "a = 1\n\n[kb.topic.project]\nsubjects = \"x\"", "rm-topic project")

# ---- quoting of ids ----
fx("quoted-id-header-add", '[kb.topic."my.topic"]\nsubjects = "d"\nlearned = ["a"]\n', "add-learned my.topic b")
fx("quoted-id-dotted-set", 'kb.topic."my.topic".subjects = "d"\n', "set my.topic title T", "the dotted prefix is copied as written")
fx("quoted-id-add-topic", 'a = 1\n', "add-topic \"my topic\" d")
fx("quoted-literal-id-rm-topic", "[kb.topic.'x.y']\nsubjects = 'd'\n\n[kb.topic.z]\nsubjects = 'e'\n", "rm-topic x.y")

# ---- fields ----
fx("set-literal-keeps-style", topic("title = 'Old'\n"), "set project title New")
fx("set-literal-needs-basic", topic("title = 'Old'\n"), "set project title \"it's\"")
fx("set-multiline-keeps-style", topic('description = """\nOld text.\nSecond line.\n"""\n'), "set project description \"New text.\\nMore.\\n\"")
fx("set-same-value", topic("title = 'Same'\n"), "set project title Same", "equal value in another quoting: nothing to do")
fx("set-compact-sep", '[kb.topic.project]\nsubjects="d"\n', "set project title T", "new key copies `=` spacing")
fx("set-enable-true-new", topic(""), "set project enable true")
fx("unset-with-comment-above", topic("# the title\ntitle = \"T\"\n"), "unset project title", "comment line above stays")
fx("header-no-keys-set", "[kb.topic.project]\n\n[other]\n", "set project subjects d")

# ---- topics ----
fx("add-topic-empty-file", "", "add-topic project .jp/kb/project")
fx("add-topic-all-fields", "[assistant]\nname = \"jp\"\n", "add-topic project .jp/kb/project title=Project introduction=\"One line.\" \"description=First.\\nSecond.\"")
fx("add-topic-trailing-blank-lines", "[assistant]\nname = \"jp\"\n\n\n", "add-topic project d", "new table after the last content, blank lines stay last")
fx("add-topic-inline-kb-topic", "kb = { topic = { a = { subjects = \"x\" } } }\n", "add-topic b y", "no header may extend an inline table")
fx("add-topic-after-dotted", "kb.topic.a.subjects = \"x\"\n", "add-topic b y")
fx("add-topic-after-comment", "a = 1\n# trailing comment\n", "add-topic b y")
fx("rm-topic-first-in-file", "[kb.topic.project]\nsubjects = \"d\"\n\n[other]\nx = 1\n", "rm-topic project")
fx("rm-topic-with-subtables", "[kb.topic.project]\nsubjects = \"d\"\n\n[kb.topic.other]\nsubjects = \"e\"\n\n[kb.topic.project.learned]\nvalue = [\"a\"]\n\n# tail\n[z]\n", "rm-topic project")
fx("rm-topic-keeps-next-comment", "[kb.topic.a]\nsubjects = \"x\"\n\n# about b\n[kb.topic.b]\nsubjects = \"y\"\n", "rm-topic a", "the next table's comment belongs to it")
fx("rm-topic-inline-middle", "[kb.topic]\nall = { a = { subjects = 'x' }, b = { subjects = 'y' } }\n", "rm-topic all")
fx("rm-topic-inside-inline", "kb = { topic = { a = { subjects = 'x' }, b = { subjects = 'y' }, c = { subjects = 'z' } } }\n", "rm-topic b")
fx("rm-topic-dotted-inline", "kb = { topic = { a.subjects = 'x', b.subjects = 'y', a.title = 'A' } }\n", "rm-topic a")
fx("inline-dotted-add-learned", "kb = { topic = { a.subjects = 'x', b.subjects = 'y' } }\n", "add-learned a p/*")
fx("inline-empty-add", "[kb.topic]\nproject = {}\n", "add-learned project intro")

# ---- errors ----
fx("err-string-not-array", topic('learned = "intro"\n'), "add-learned project guides/*", "never rewritten silently")
fx("err-string-not-array-rm", topic('learned = "intro"\n'), "rm-learned project intro")
fx("err-item-not-string", topic('learned = ["a", 2]\n'), "add-learned project b")
fx("err-value-not-array", topic('learned = { value = "a" }\n'), "add-learned project b")
fx("err-malformed", "[kb.topic.project]\nsubjects = \"d\"\nlearned = [\"a\",\n", "add-learned project b")
fx("err-malformed-key", "[kb.topic.project\nsubjects = 1\n", "rm-topic project")
fx("err-topic-missing", topic(""), "add-learned nope a")
fx("err-topic-missing-empty", "a = 1\n", "rm-learned nope a")
fx("err-topic-exists", topic(""), "add-topic project d")
fx("err-title-not-string", topic("title = 1\n"), "set project title T")
fx("err-topic-not-table", "[kb.topic]\nproject = \"d\"\n", "add-learned project a")
fx("err-kb-topic-not-table", "[kb]\ntopic = 3\n", "add-topic x d")
fx("err-enable-text", topic(""), "set project enable yes")
fx("err-disabled-string", topic('disabled = "x"\n'), "rm-disabled project x")
print("ok")

# ---- byte order mark ----
BOM = "\ufeff"
fx("bom-set-dotted", BOM + 'kb.topic.x.subjects = "d"\na = 1\n', "set x title T", "a byte order mark stays first")
fx("bom-rm-topic-first", BOM + '[kb.topic.x]\nsubjects = "d"\n\n[a]\nb = 1\n', "rm-topic x")
fx("bom-rm-first-line", BOM + 'kb.topic.x.title = "T"\nkb.topic.x.subjects = "d"\n', "unset x title")
fx("bom-add-topic-empty", BOM, "add-topic x d")
print("bom ok")
