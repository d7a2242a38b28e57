#!/usr/bin/env bash
# Evidence for "the explorer flags no correct queue": explores every bundled correct write queue
# (references and adopters, never mutants) with each seed given, at the default budget of 2,000
# schedules, one queue at a time, and prints one line per seed. Exits 1 if any correct queue was
# flagged; failures whose replay passed are counted and listed, never hidden.
#
#   Scripts/explore-correct-queues.sh [SEED ...]      # default: seeds 1 to 10
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=("$@")
[ ${#seeds[@]} -eq 0 ] && seeds=(1 2 3 4 5 6 7 8 9 10)
swift build -c release --product conformance >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A copy, so a build during the run cannot swap the program being explored.
cp "$(swift build -c release --show-bin-path)/conformance" "$work/conformance"
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
# The correct queues, by name; a name that another contains is explored with it.
# (Exits 1: one schedule finds no mutant.)
"$work/conformance" explore --queues --budget 1 --json > "$work/all.json" || true
python3 - "$work/all.json" > "$work/names.txt" <<'PY'
import json, sys
correct = [x["implementation"] for x in json.load(open(sys.argv[1])) if x["kind"] != "mutant"]
for name in correct:
    if not any(other != name and other in name for other in correct):
        print(name)
PY
flagged=0
for seed in "${seeds[@]}"; do
  start=$(date +%s)
  while read -r name; do
    "$work/conformance" explore --queues --implementation "$name" --seed "$seed" --json \
      > "$work/seed$seed-$(echo "$name" | tr -c 'A-Za-z0-9' _).json" || true
  done < "$work/names.txt"
  python3 - "$seed" "$(( $(date +%s) - start ))" "$work" <<'PY' || flagged=1
import glob, json, sys
seed, seconds, work = sys.argv[1], sys.argv[2], sys.argv[3]
correct, flagged, unreproduced = 0, [], []
for path in glob.glob(f"{work}/seed{seed}-*.json"):
    for x in json.load(open(path)):
        if x["kind"] == "mutant":
            continue
        correct += 1
        if not x["ok"] or x["findings"]:
            flagged.append(x["implementation"])
        if x["unreproducedFailures"]:
            unreproduced.append(f'{x["implementation"]} ({x["unreproducedFailures"]})')
print(f"seed {seed}: {correct} correct queues, {len(flagged)} flagged"
      + (f" ({', '.join(sorted(flagged))})" if flagged else "")
      + f", failures whose replay passed: {', '.join(sorted(unreproduced)) or 'none'}; {seconds} s")
sys.exit(1 if flagged else 0)
PY
done
exit "$flagged"
