#!/usr/bin/env bash
# Installs the real MCP clients that tests/it/clients_real.rs drives against
# jp-kb, all open source, at pinned versions:
#   - MCP Inspector's CLI (@modelcontextprotocol/inspector, MIT) and Codex CLI
#     (@openai/codex, Apache-2.0; the npm package carries its native binary),
#     from package.json + package-lock.json into target/clients-node;
#   - fast-agent (fast-agent-mcp, Apache-2.0) from requirements.txt into the
#     venv target/clients-venv.
# .ci/run calls it; without the clients their tests are ignored, under CI
# they fail. Needs Node 20 with npm, and Python 3.11. Idempotent: a stamp
# file holds the hash of what was installed; when it matches, it returns at
# once.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
node_dir="${JP_KB_CLIENTS_NODE:-$root/target/clients-node}"
venv="${JP_KB_CLIENTS_VENV:-$root/target/clients-venv}"
python="${PYTHON:-python3}"

want_node="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ ! -f "$node_dir/.stamp" || "$(cat "$node_dir/.stamp")" != "$want_node" ]]; then
    echo "installing MCP Inspector and Codex CLI into $node_dir" >&2
    mkdir -p "$node_dir"
    cp "$here/package.json" "$here/package-lock.json" "$node_dir/"
    (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want_node" > "$node_dir/.stamp"
    installed=1
fi

want_py="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || ! -f "$venv/.stamp" || "$(cat "$venv/.stamp")" != "$want_py" ]]; then
    echo "installing fast-agent into $venv" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    echo "$want_py" > "$venv/.stamp"
    installed=1
fi

if [[ -n "${installed:-}" ]]; then
    # build.rs probes for the clients once per build (tests/needs/probe.rs):
    # make cargo probe again, so the tests it had ignored run.
    touch "$root/build.rs"
fi
