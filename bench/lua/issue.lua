-- Ticket issue (POST /api/public/v1/queue/tickets), every request valid: a fresh
-- X-Request-Timestamp, an X-Request-Nonce never sent before and, for new tickets, a new
-- Idempotency-Key. With a replay key every request repeats one earlier issue (same key and
-- body, new nonce and timestamp), as a client's retry does.
-- args: <salt, unique per run> <secret> <body> [replay Idempotency-Key]
-- Uniqueness across threads and connections: salt . thread number . per-thread counter.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local salt, authorization, replayKey
local counter = 0

function init(args)
  salt = args[1]
  authorization = "Bearer " .. args[2]
  wrk.method = "POST"
  wrk.body = args[3]
  replayKey = args[4]
end

function request()
  counter = counter + 1
  local stamp = requestStamp()
  local id = salt .. "." .. tid .. "." .. counter
  -- wrk.format does not merge wrk.headers into headers it is given: name them all.
  return wrk.format(nil, nil, {
    ["Authorization"] = authorization,
    ["Content-Type"] = "application/json",
    ["X-Request-Timestamp"] = stamp,
    ["X-Request-Nonce"] = "nonce." .. id,
    ["Idempotency-Key"] = replayKey or ("key." .. id),
  })
end
