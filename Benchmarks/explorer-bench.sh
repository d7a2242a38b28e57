#!/usr/bin/env bash
# Benchmarks the explorer (`conformance explore`, release build: pagers, async pagers, write
# queues) and, side by side, the pager invariants explored with Hypothesis' stateful testing
# over a Python port of the source document's Pager and five of its mutants
# (Benchmarks/hypothesis/). Not a test: figures depend on the machine.
#
#   Benchmarks/explorer-bench.sh                       # seed 1, 50 000 schedules for throughput
#   SEED=7 THROUGHPUT_BUDGET=20000 Benchmarks/explorer-bench.sh
#
# It prints:
#   1. throughput: schedules per second on the reference SeedPager, the async FeedViewModel and
#      the write queues TicketOutbox (in memory) and FileWriteQueue (files), with 1 worker and
#      with every core (--jobs), and per core;
#   2. per mutant: the invariant, schedules and seconds to the first failure, the shrunk length
#      and the fixed contract timeline's length (from `conformance explore --json`);
#   3. the Hypothesis baseline: the same figures for the Python port (RuleBasedStateMachine,
#      derandomized, same 24-step schedules), and its examples per second on the reference.
#
# Release builds of this package hit a Swift 6.3.1 optimizer crash (CopyPropagation in
# ServerContracts); the script disables that one SIL pass for the build.
set -euo pipefail

SEED=${SEED:-1}
BUDGET=${BUDGET:-2000}
THROUGHPUT_BUDGET=${THROUGHPUT_BUDGET:-50000}
HYPOTHESIS_BUDGET=${HYPOTHESIS_BUDGET:-2000}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

echo "== building conformance (release)" >&2
swift build -c release --product conformance \
  -Xswiftc -Xllvm -Xswiftc -sil-disable-pass=copy-propagation >&2
bin=$(swift build -c release --product conformance --show-bin-path \
  -Xswiftc -Xllvm -Xswiftc -sil-disable-pass=copy-propagation)/conformance

venv="${VENV:-$root/.build/explorer-bench-venv}"
if [ ! -x "$venv/bin/python" ]; then
  echo "== installing hypothesis into $venv" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q hypothesis >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== throughput: SeedPager, $THROUGHPUT_BUDGET schedules of 24 steps" >&2
"$bin" explore --json --implementation SeedPager --seed "$SEED" --budget "$THROUGHPUT_BUDGET" --jobs 1 >"$work/one.json" || true
"$bin" explore --json --implementation SeedPager --seed "$SEED" --budget "$THROUGHPUT_BUDGET" --jobs "$cores" >"$work/all.json" || true

SUBJECT_BUDGET=${SUBJECT_BUDGET:-2000}
echo "== throughput: an async view model and two write queues, $SUBJECT_BUDGET schedules each" >&2
for subject in FeedViewModel TicketOutbox FileWriteQueue; do
  "$bin" explore --json --implementation "$subject" --seed "$SEED" --budget "$SUBJECT_BUDGET" --jobs 1 >"$work/one-$subject.json" || true
  "$bin" explore --json --implementation "$subject" --seed "$SEED" --budget "$SUBJECT_BUDGET" --jobs "$cores" >"$work/all-$subject.json" || true
done

echo "== every bundled pager and queue, seed $SEED, budget $BUDGET" >&2
status=0
"$bin" explore --json --seed "$SEED" --budget "$BUDGET" >"$work/explore.json" || status=$?

echo "== Hypothesis baseline, budget $HYPOTHESIS_BUDGET" >&2
"$venv/bin/python" "$root/Benchmarks/hypothesis/explore_pager.py" --budget "$HYPOTHESIS_BUDGET" --steps 24 \
  >"$work/hypothesis.json"

python3 - "$work" "$cores" <<'PY'
import json, sys
work, cores = sys.argv[1], int(sys.argv[2])
load = lambda name: json.load(open(f"{work}/{name}.json"))
one, every = load("one")[0], load("all")[0]
rate = lambda row: row["schedules"] / row["seconds"]
print("Explorer throughput (SeedPager reference, release build, 24-step schedules):")
print(f"  1 worker:      {rate(one):10.0f} schedules/s  ({one['stepsExecuted'] / one['seconds']:.0f} steps/s)")
print(f"  {cores} workers:     {rate(every):10.0f} schedules/s  = {rate(every) / cores:.0f} per core")
for subject in ["FeedViewModel", "TicketOutbox", "FileWriteQueue"]:
    first, spread = load(f"one-{subject}")[0], load(f"all-{subject}")[0]
    print(f"  {first['implementation']} ({first['level']}): {rate(first):.0f} schedules/s on 1 worker, "
          f"{rate(spread):.0f} on {cores} (= {rate(spread) / cores:.0f} per core)")
print()
print("Explorer, per implementation (random seed, first failure):")
print(f"  {'implementation':38} {'inv':4} {'schedules':>9} {'ms to fail':>10} {'shrunk':>6} {'fixed timeline':>15}")
for row in load("explore"):
    if row["kind"] != "mutant":
        verdict = "flagged!" if row["found"] else "clean"
        print(f"  {row['implementation']:38} {'—':4} {row['schedules']:>9} {'':>10} {'':>6} {verdict:>15}")
        continue
    ms = (row.get("secondsToFailure") or 0) * 1000
    fixed = f"{row['fixedContract']}: {row['fixedSteps']} steps" if row.get("fixedContract") else ""
    print(f"  {row['implementation']:38} {row['invariant'] or '—':4} {row['schedules']:>9} {ms:>10.2f} {row['steps'] or 0:>6} {fixed:>15}")
print()
print("Hypothesis baseline (Python port of the source document's Pager, RuleBasedStateMachine):")
print(f"  {'implementation':38} {'inv':4} {'examples':>9} {'ms to fail':>10} {'shrunk':>6} {'examples/s':>11}")
for row in load("hypothesis"):
    ms = f"{row['secondsToFailure'] * 1000:.2f}" if row.get("secondsToFailure") is not None else ""
    print(f"  {row['implementation']:38} {row['invariant'] or '—':4} {row['schedules']:>9} {ms:>10} {row['steps'] or '':>6} {row['examplesPerSecond']:>11}")
PY
exit "$status"
