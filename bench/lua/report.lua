-- Shared by every bench script: one machine-readable line with what bench/run.ts needs, the
-- threads' numbers and the request timestamp.
-- Latencies are microseconds, as wrk measures them.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,' ..
    '"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end

-- Threads numbered 1, 2, … (each thread's global `tid`): request IDs built from the run's salt,
-- `tid` and a per-thread counter are unique across threads and connections.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

-- X-Request-Timestamp's value now, formatted once a second.
local lastSecond, stamp = -1, ""
function requestStamp()
  local now = os.time()
  if now ~= lastSecond then
    lastSecond = now
    stamp = os.date("!%Y-%m-%dT%H:%M:%SZ", now)
  end
  return stamp
end
