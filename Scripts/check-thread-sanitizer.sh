#!/usr/bin/env bash
# Thread Sanitizer over the kit's concurrent parts: settling (TimelineScheduler, the queue
# stage), the watchdog, the manual clock, the explorer's parallel search, the queue harness and
# a few bundled conformance suites. Fails when a test fails or TSan reports anything.
#
#   Scripts/check-thread-sanitizer.sh
#
# It builds into its own build path (.build/tsan), so the normal debug build stays valid.
# Instrumented code runs 5–15 times slower, so the default watchdog is raised through
# CONFORMANCE_WATCHDOG_SECONDS (see RunOptions.defaultWatchdog); set it yourself to override.
set -euo pipefail
cd "$(dirname "$0")/.."

build_path=.build/tsan
export CONFORMANCE_WATCHDOG_SECONDS="${CONFORMANCE_WATCHDOG_SECONDS:-120}"

# Swift Testing identifiers (Module.Type/test), one regular expression each.
filters=(
    'ConformanceKitTests\.(TimelineSchedulerTests|WatchdogTests|BlockedOutcomeTests)'
    'ConformanceKitTests\.uuidPagerPassesEveryApplicableContract'
    'ExplorerTests\.ExplorationPlumbingTests'
    'ExplorerTests\.AsyncExplorerTests/(theCallbackMutant|theSameSeed|aScheduleThatSpends)'
    'ExplorerTests\.QueueExplorerTests/(theSameSeed|boundedExhaustiveSearchFinds|dueTimeOutbox)'
    'ExplorerTests\.RecyclingOutboxTests/theReviewedSchedulesPass'
    'WriteQueueContractsTests\.(ManualClockTests|AdapterFailureTests|ProcessMemoryTests|WriteQueueContractTests|QueueMatrixTests)'
    'ServerTests\.ConcurrencyTests'
)
filter_args=()
for filter in "${filters[@]}"; do filter_args+=(--filter "$filter"); done

seconds() { python3 -c "print(f'{float($2) - float($1):.0f}')"; }

start=$(date +%s.%N)
swift build --build-tests --sanitize=thread --build-path "$build_path"
built=$(date +%s.%N)

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --sanitize=thread --build-path "$build_path" "${filter_args[@]}" 2>&1 | tee "$log" \
    || status=$?
ran=$(date +%s.%N)

races="$(grep -c 'WARNING: ThreadSanitizer' "$log" || true)"
# Swift Testing's summary, e.g. "Test run with 35 tests in 12 suites passed after 80.1 seconds".
tests="$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -oE '[0-9]+' || true)"
echo "tsan: ${tests:-0} tests, ${races} ThreadSanitizer reports, test exit status ${status};" \
    "build $(seconds "$start" "$built") s, run $(seconds "$built" "$ran") s" \
    "(watchdog ${CONFORMANCE_WATCHDOG_SECONDS} s)"
if [ "$races" -ne 0 ]; then
    echo "tsan: ThreadSanitizer reported a data race (search the output above for 'WARNING: ThreadSanitizer')" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    Scripts/recorded-issues.sh "$log" >&2
    echo "tsan: a test failed under the thread sanitizer" >&2
    exit 1
fi
if [ -z "$tests" ] || [ "$tests" -eq 0 ]; then
    echo "tsan: the filters matched no Swift Testing test" >&2
    exit 1
fi
