#!/usr/bin/env bash
# Prints the issues a Swift Testing run recorded and the tests that failed, from its log, each
# with the report Swift Testing prints after it on "↳" lines (known issues left out: a ledger
# expects them; at most 90 lines in all). CI keeps only the end of a
# long log, so a failing step repeats them last, where the cause is then read.
#
#   Scripts/recorded-issues.sh LOG
set -euo pipefail
echo "the issues recorded above, again:"
grep -E -A 40 '(recorded an issue|✘ Test (case )?.*failed)' "$1" \
    | grep -vE '^◇|passed after|recorded a known issue' | head -90 || true
