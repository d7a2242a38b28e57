#!/usr/bin/env bash
# Benchmarks the Swift fault server (in memory and with --journal) against the seed's Python
# fault_server.py on loopback, under the same wrk load. Not a test: figures depend on the machine.
#
#   Benchmarks/fault-server-bench.sh                  # 10 s per run, 2 wrk threads, 32 connections
#   DURATION=5 CONNECTIONS=64 Benchmarks/fault-server-bench.sh
#
# Two loads, both POST /items with a JSON body, from Benchmarks/fault-server-bench.lua:
#   new-keys  a distinct Idempotency-Key per request: every request is a first receipt, so each
#             one commits a record (and, with --journal, appends and fsyncs) and gets the fault
#             answer (503). This is the write path.
#   replays   a fixed set of 100 keys, committed once before the run: nearly every request is a
#             repeat answered 200 with the stored result. This is the lookup path.
#
# The Python server is extracted from the seed document at run time (the lines from
# `import json` to `serve_forever()`), with its fixed 127.0.0.1:8081 replaced by port 0 and a
# first line that says where it listens, like `fault-server --port 0`. Only loopback is used.
set -euo pipefail

DURATION=${DURATION:-10}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
SEED=${SEED:-/work/shared/seeds/002_8e77c859e3aea6f6.txt}
root=$(cd "$(dirname "$0")/.." && pwd)
lua="$root/Benchmarks/fault-server-bench.lua"

if ! command -v wrk >/dev/null 2>&1; then
  echo "installing wrk (Debian package)…" >&2
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >&2
  $sudo_cmd apt-get install -y -qq wrk >&2
fi
command -v python3 >/dev/null || { echo "python3 is needed for the seed's server" >&2; exit 1; }
[ -f "$SEED" ] || { echo "seed document not found: $SEED (set SEED=…)" >&2; exit 1; }

echo "building fault-server (release)…" >&2
(cd "$root" && swift build -c release --product fault-server >&2)
bin="$root/.build/release/fault-server"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The seed's script, extracted and moved to a free port.
awk '/^import json/{found=1} found{print} /serve_forever\(\)/{exit}' "$SEED" > "$work/fault_server.py"
grep -q 'serve_forever()' "$work/fault_server.py" || { echo "could not extract fault_server.py from $SEED" >&2; exit 1; }
python3 - "$work/fault_server.py" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
old = 'HTTPServer(("127.0.0.1", 8081), Handler).serve_forever()'
assert old in text, "the seed's last line changed"
text = text.replace(old, '_server = HTTPServer(("127.0.0.1", 0), Handler)\n'
                    'print("listening on 127.0.0.1:%d" % _server.server_address[1], flush=True)\n'
                    '_server.serve_forever()')
open(path, "w").write(text)
PY

# Starts a server command in the background and reads its first line ("listening on
# HOST:PORT") through a FIFO that stays open, so the server never writes to a closed pipe.
# Sets PORT; records the PID for cleanup.
start_server() {
  local name=$1; shift
  mkfifo "$work/$name.out"
  "$@" > "$work/$name.out" 2>/dev/null &
  pids+=($!)
  local fd line
  exec {fd}< "$work/$name.out"
  read -r line <&"$fd"
  case "$line" in
    "listening on "*) PORT=${line##*:} ;;
    *) echo "$name did not start: $line" >&2; exit 1 ;;
  esac
  # Keep draining its output in the background (the journal line, "stopped").
  cat <&"$fd" > /dev/null &
}

# Runs one wrk load against a port; prints "rps p99_ms non2xx errors".
run_load() {
  local port=$1 load=$2
  if [ "$load" = replays ]; then
    for i in $(seq 1 100); do   # commit the fixed keys once (first receipt answers 503)
      curl -s -o /dev/null -X POST -H "Idempotency-Key: bench-fixed-$i" -H 'Content-Type: application/json' \
        -d '{"title":"bench"}' "http://127.0.0.1:$port/items"
    done
  fi
  BENCH_LOAD=$load wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$lua" \
    "http://127.0.0.1:$port" | awk '/^RESULT/{print $2, $3, $4, $5}'
}

journal="$work/journal.jsonl"
declare -A ports
start_server swift-memory "$bin" --port 0; ports[swift-memory]=$PORT
start_server swift-journal "$bin" --port 0 --journal "$journal"; ports[swift-journal]=$PORT
start_server python-seed python3 "$work/fault_server.py"; ports[python-seed]=$PORT

echo "wrk: $THREADS threads, $CONNECTIONS connections, ${DURATION}s per run, loopback only; $(nproc) cores shared by wrk and the server"
printf '%-14s %-9s %12s %10s %10s %8s\n' server load req/s p99_ms non-2xx errors
for load in new-keys replays; do
  for server in swift-memory swift-journal python-seed; do
    read -r rps p99 non2xx errors < <(run_load "${ports[$server]}" "$load")
    printf '%-14s %-9s %12s %10s %10s %8s\n' "$server" "$load" "$rps" "$p99" "$non2xx" "$errors"
  done
done
echo "journal: $(wc -l < "$journal") records fsync'ed in $journal"
