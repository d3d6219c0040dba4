#!/usr/bin/env bash
# Builds JP (dcdpr/jp 4c1c39f1) with the knowledge base inside: JP's offline
# sources and build script (../shared/jp beside the checkout; JP_KB_JP_SOURCE
# moves them), then this directory's patch series in order (0001-…, one
# commit each, `git format-patch` files), on jp-kb-core from this checkout.
#
#   integrations/jp/build.sh WORKDIR
#
# The series makes JP depend on `jp-kb-core = "0.1"` with default features
# off, as JP would take a release. Until there is one, this script points that
# dependency at this checkout's crates/jp-kb-core with a `[patch.crates-io]`
# entry in WORKDIR/.cargo/config.toml (cargo reads it from the directory the
# build runs in, WORKDIR/src, upwards): a path of this machine, so it is the
# build's, never the series'.
#
# CARGO_TARGET_DIR, when set, is where JP is built (keep it between runs: a
# cold build takes ~6 minutes on 2 cores, the next one seconds). The last line
# printed is the path of the `jp` binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source_dir="${JP_KB_JP_SOURCE:-$root/../shared/jp}"
[ $# -eq 1 ] || { echo "usage: integrations/jp/build.sh WORKDIR" >&2; exit 2; }
[ -x "$source_dir/build.sh" ] || {
    echo "JP's sources are not in $source_dir (set JP_KB_JP_SOURCE)" >&2
    exit 1
}
mkdir -p "$1"
work="$(cd "$1" && pwd)"

mkdir -p "$work/.cargo"
cat > "$work/.cargo/config.toml" <<TOML
# Written by jp-kb's integrations/jp/build.sh: JP's \`jp-kb-core\` dependency
# is this checkout's crate, not a release.
[patch.crates-io]
jp-kb-core = { path = "$root/crates/jp-kb-core" }
TOML

shopt -s nullglob
patches=("$here"/[0-9][0-9][0-9][0-9]-*.patch)
[ ${#patches[@]} -gt 0 ] || { echo "no patch series in $here" >&2; exit 1; }

# JP's build script patches its two registry dependencies with `patch -p0`
# on paths that name both the registry's copy and WORKDIR's; GNU patch takes
# the one with fewer path components, so under a WORKDIR deeper than the
# registry (~/.cache/jp-kb/…/work) it patches ~/.cargo/registry in place and
# builds WORKDIR's copy unpatched. Build under a short, stable alias instead:
# the same directory, so one WORKDIR is one build.
alias="/tmp/jp-kb-jp-$(printf %s "$work" | sha256sum | cut -c1-12)"
ln -sfn "$work" "$alias"
exec bash "$source_dir/build.sh" "$alias" "${patches[@]}"
