#!/usr/bin/env bash
# Builds real JP (dcdpr/jp 4c1c39f1, Apache-2.0) for the tests that run it
# (tests/it/jp_real*.rs), with the offline build script beside JP's sources
# in ../shared/jp (JP_KB_JP_SOURCE moves it). .ci/run calls it; without the
# build those tests are ignored, under CI they fail (tests/needs/probe.rs).
#
# The build lives outside the checkout, in JP_KB_JP_TARGET (default
# ~/.cache/jp-kb/jp-target): a cold build takes ~6 minutes on 2 cores, an
# unchanged one nothing. A stamp there holds the hash of what was built (the
# sources, the patches, the build script); when it matches, this returns at
# once. To use a JP built elsewhere, point JP_KB_JP_TARGET at its target
# directory (the tests need only its debug/jp).
#
# A second JP, patched, is one more `build_jp` line below: its own target
# variable, its patches in order. JP with the knowledge base inside is not:
# it builds on this checkout's core, so its stamp hashes the core's sources
# too and it builds through integrations/jp/build.sh (tests/jp/setup_inside.sh,
# the same layout: ~/.cache/jp-kb, a stamp, `touch build.rs`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source_dir="${JP_KB_JP_SOURCE:-$root/../shared/jp}"
cache="${HOME:?}/.cache/jp-kb"

# build_jp TARGET_DIR [PATCH...]: JP with PATCHes applied, into TARGET_DIR.
build_jp() {
    local target="$1"
    shift
    if [[ ! -x "$source_dir/build.sh" ]]; then
        echo "JP's sources are not in $source_dir (set JP_KB_JP_SOURCE)" >&2
        return 1
    fi
    local want
    want="$(cat "$source_dir/build.sh" "$source_dir"/src/*.tar.gz "$source_dir"/patches/* "$@" \
        | sha256sum | cut -d' ' -f1)"
    if [[ -x "$target/debug/jp" && -f "$target/.jp-kb-stamp" \
        && "$(cat "$target/.jp-kb-stamp")" == "$want" ]]; then
        return 0
    fi
    echo "building JP into $target (a cold build takes ~6 minutes)" >&2
    mkdir -p "$target"
    mkdir -p "$target/work"
    # JP's build.sh patches its copies of two registry crates with `patch
    # -p0`, whose diff names both the registry's file and the copy: GNU
    # patch edits the one with the fewer path components. Under
    # ~/.cache/jp-kb/... the registry's has fewer, so the registry was
    # patched and the copy not (the build then fails on a clean machine).
    # A short alias in /tmp keeps the copy's path the shorter one (as
    # integrations/jp/build.sh does).
    local alias
    alias="/tmp/jp-kb-jp-$(printf %s "$target/work" | sha256sum | cut -c1-12)"
    ln -sfn "$target/work" "$alias"
    CARGO_TARGET_DIR="$target" bash "$source_dir/build.sh" "$alias" "$@" >&2
    echo "$want" > "$target/.jp-kb-stamp"
    built=1
}

build_jp "${JP_KB_JP_TARGET:-$cache/jp-target}"

if [[ -n "${built:-}" ]]; then
    # build.rs probes for JP once per build (tests/needs/probe.rs): make
    # cargo probe again, so the tests it had ignored run.
    touch "$root/build.rs"
fi
