-- wrk's summary as one JSON line (after wrk's own text), for bench/lib.sh's run_wrk.
-- Non-2xx answers are counted apart: a fast 5xx or 429 is no throughput.
local non_2xx = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bad = 0
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    non_2xx = non_2xx + (thread:get("bad") or 0)
  end
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"wrk":true,"requests":%d,"duration_s":%.2f,"requests_per_s":%.1f,"p50_ms":%.2f,'
      .. '"p90_ms":%.2f,"p99_ms":%.2f,"max_ms":%.2f,"non_2xx":%d,"errors":%d,"timeouts":%d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, non_2xx, errors, summary.errors.timeout))
end
