#!/usr/bin/env bash
# Builds JP with the knowledge base inside (integrations/jp: dcdpr/jp
# 4c1c39f1, ../shared/jp's own patches, then this checkout's patch series on
# this checkout's crates/jp-kb-core) for the tests that run it
# (tests/it/jp_inside*.rs). .ci/run calls it; without the build those tests
# are ignored, under CI they fail (tests/needs/probe.rs, `jp-inside`).
#
# The build lives outside the checkout, in JP_KB_JP_INSIDE_TARGET (default
# ~/.cache/jp-kb/jp-inside-target). Without an incremental cache (.ci/run)
# and debug information (JP's build.sh), a cold build took 9 min 55 s on 2
# cores shared with other builds (405 s of CPU; 1.2 GB), a rebuild after a
# change to the core 2 min 17 s (106 s of CPU), an unchanged one nothing.
# Copying an unpatched JP's target directory there first saves most of a
# cold build, where the disk allows. A stamp there holds the hash of what was built: JP's
# sources, patches and build script, the series and its build script, and the
# sources of this checkout's crates (the core and whatever it depends on
# here); when it matches, this returns at once.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source_dir="${JP_KB_JP_SOURCE:-$root/../shared/jp}"
target="${JP_KB_JP_INSIDE_TARGET:-${HOME:?}/.cache/jp-kb/jp-inside-target}"

if [[ ! -x "$source_dir/build.sh" ]]; then
    echo "JP's sources are not in $source_dir (set JP_KB_JP_SOURCE)" >&2
    exit 1
fi
# One build at a time (the tests run this too, to bring a found build up to
# date: tests/jp_support/inside.rs).
mkdir -p "$target"
exec 8>"$target/.lock"
flock 8

want="$(
    cd "$root"
    {
        cat "$source_dir/build.sh" "$source_dir"/src/*.tar.gz "$source_dir"/patches/*
        cat integrations/jp/build.sh integrations/jp/[0-9][0-9][0-9][0-9]-*.patch Cargo.toml
        find crates -path '*/target' -prune -o -type f \
            \( -path '*/src/*' -o -path '*/assets/*' -o -path '*/data/*' \
            -o -name Cargo.toml -o -name README.md -o -name build.rs \) -print0 \
            | LC_ALL=C sort -z | xargs -0 sha256sum
    } | sha256sum | cut -d' ' -f1
)"
if [[ -x "$target/debug/jp" && -f "$target/.jp-kb-stamp" \
    && "$(cat "$target/.jp-kb-stamp")" == "$want" ]]; then
    exit 0
fi
echo "building JP with the knowledge base inside into $target (a cold build takes ~6 minutes)" >&2
rm -f "$target/.jp-kb-stamp"
CARGO_TARGET_DIR="$target" bash "$root/integrations/jp/build.sh" "$target/work" >&2
echo "$want" > "$target/.jp-kb-stamp"
# build.rs probes for this JP once per build (tests/needs/probe.rs): make
# cargo probe again, so the tests it had ignored run.
touch "$root/build.rs"
