-- Widget push (POST /api/public/v1/widgets/{id}/data/push): the same snapshot body each time,
-- without source.sequence (accepted with the SEQUENCE_MISSING warning), and a new
-- Idempotency-Key per request, so every request stores a new revision.
-- args: <salt, unique per run> <secret> <body>
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local salt, authorization
local counter = 0

function init(args)
  salt = args[1]
  authorization = "Bearer " .. args[2]
  wrk.method = "POST"
  wrk.body = args[3]
end

function request()
  counter = counter + 1
  -- wrk.format does not merge wrk.headers into headers it is given: name them all.
  return wrk.format(nil, nil, {
    ["Authorization"] = authorization,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = "push." .. salt .. "." .. tid .. "." .. counter,
  })
end
