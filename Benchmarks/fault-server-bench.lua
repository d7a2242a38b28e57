-- wrk script for Benchmarks/fault-server-bench.sh: POST /items with a JSON body.
-- BENCH_LOAD=new-keys (default): a distinct Idempotency-Key per request (thread id + counter).
-- BENCH_LOAD=replays: the fixed keys bench-fixed-1 … bench-fixed-100, in turn.
local load = os.getenv("BENCH_LOAD") or "new-keys"
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  counter = 0
  run = tostring(os.time())
end

function request()
  counter = counter + 1
  local key
  if load == "replays" then
    key = "bench-fixed-" .. ((counter % 100) + 1)
  else
    key = "bench-" .. run .. "-" .. id .. "-" .. counter
  end
  return wrk.format("POST", "/items",
    { ["Idempotency-Key"] = key, ["Content-Type"] = "application/json" }, '{"title":"bench"}')
end

function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %.0f %.2f %d %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000, summary.errors.status, errors))
end
