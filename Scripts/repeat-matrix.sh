#!/usr/bin/env bash
# Determinism evidence: runs the whole conformance matrix N times (default 200) and counts the
# runs whose outcome differs from the first run in any cell (implementation × contract), or
# whose exit status is not 0. A flake-free kit prints "differing runs: 0".
#
#   Scripts/repeat-matrix.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200}"
# A release build: the matrix runs in about 26 s instead of 85 s (2 cores), so 200 runs fit in
# 90 minutes. `CONFIGURATION=debug` measures the build `swift test` uses.
configuration="${CONFIGURATION:-release}"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' with uncommitted changes')"
swift build -c "$configuration" --product conformance >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A copy, so a build during the run cannot swap the program being measured.
cp "$(swift build -c "$configuration" --show-bin-path)/conformance" "$work/conformance"
binary="$work/conformance"
# Where the JSON of a run that differs is kept.
keep="${REPEAT_KEEP_DIR:-$PWD/.build/repeat-matrix}"
# File-backed queues create and delete thousands of files per run; on a RAM disk that costs a
# third less time than on ext4, and nothing the verdicts depend on changes.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    export TMPDIR="$(mktemp -d /dev/shm/repeat-matrix.XXXXXX)"
    trap 'rm -rf "$work" "$TMPDIR"' EXIT
fi

cells() {  # implementation, contract, outcome per line, sorted
    python3 -c 'import json,sys; [print(r["implementation"], r["contract"], r["outcome"], r.get("blockedBy") or "") for r in json.load(sys.stdin)]' | sort
}

"$binary" --json | cells > "$work/first"
differing=0
start=$(date +%s.%N)
for i in $(seq 1 "$runs"); do
    status=0
    "$binary" --json > "$work/run.json" || status=$?
    if [ "$status" -ne 0 ] || ! cells < "$work/run.json" | cmp -s - "$work/first"; then
        differing=$((differing + 1))
        # The run's JSON is kept: its messages say why a cell came out otherwise.
        mkdir -p "$keep"
        cp "$work/run.json" "$keep/run-$i.json"
        echo "run $i differs (exit status $status), kept as $keep/run-$i.json:"
        cells < "$work/run.json" | diff "$work/first" - | head -5 || true
        python3 -c 'import json,sys
first = set(tuple(line.rsplit(" ", 3)[:3]) for line in open(sys.argv[2]).read().splitlines())
for r in json.load(open(sys.argv[1])):
    if (r["implementation"], r["contract"], r["outcome"]) not in first:
        print("  ", r["implementation"], r["contract"], r["outcome"] + ":", (r.get("message") or "")[:600])' "$work/run.json" "$work/first" || true
    fi
done
end=$(date +%s.%N)
echo "configuration: $configuration, commit: $commit"
echo "cells per run: $(wc -l < "$work/first")"
echo "runs: $runs, differing runs: $differing"
python3 -c "print(f'total {float($end) - float($start):.1f} s, {(float($end) - float($start)) / $runs:.3f} s per matrix run')"
