#!/usr/bin/env bash
# Creates target/mcp-venv and installs tests/mcp/requirements.txt into it: the
# official MCP Python SDK that tests/it/mcp_e2e.rs drives `jp-kb mcp` with
# (.ci/run calls it; without the venv that test is ignored, under CI it fails).
# Idempotent: when the venv already holds exactly these requirements (a stamp
# file records the requirements' hash), it returns at once.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${JP_KB_MCP_VENV:-$root/target/mcp-venv}"
req="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
python="${PYTHON:-python3}"

want="$(sha256sum "$req" | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi

echo "setting up $venv (MCP Python SDK for the end-to-end test)" >&2
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
echo "$want" > "$stamp"
# build.rs probes for this venv once per build (tests/needs/probe.rs): make
# cargo probe again, so the test it had ignored runs.
touch "$root/build.rs"
