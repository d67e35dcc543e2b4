-- Ticket issue with the line held still: each connection issues a ticket
-- (POST /api/public/v1/queue/tickets) and its next request cancels that ticket
-- (POST /api/operator/v1/tickets/{id}/cancel), so the waiting line stays at what it was
-- before the run (plus the requests in flight) however long the run lasts.
-- args: <salt, unique per run> <issue secret> <body> <operator secret (scope counter:operate)>
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local salt, issueAuthorization, operatorAuthorization, body
local counter = 0
-- Tickets issued and not yet cancelled, by this thread (each wrk thread has its own Lua state).
local toCancel = {}

function init(args)
  salt = args[1]
  issueAuthorization = "Bearer " .. args[2]
  body = args[3]
  operatorAuthorization = "Bearer " .. args[4]
end

function response(status, headers, text)
  if status == 201 then
    local id = text:match('"id":"([^"]+)"')
    if id then table.insert(toCancel, id) end
  end
end

function request()
  counter = counter + 1
  local stamp = requestStamp()
  local id = salt .. "." .. tid .. "." .. counter
  local ticket = table.remove(toCancel)
  if ticket then
    return wrk.format("POST", "/api/operator/v1/tickets/" .. ticket .. "/cancel", {
      ["Authorization"] = operatorAuthorization,
      ["X-Request-Timestamp"] = stamp,
      ["X-Request-Nonce"] = "nonce." .. id,
    }, "")
  end
  return wrk.format("POST", "/api/public/v1/queue/tickets", {
    ["Authorization"] = issueAuthorization,
    ["Content-Type"] = "application/json",
    ["X-Request-Timestamp"] = stamp,
    ["X-Request-Nonce"] = "nonce." .. id,
    ["Idempotency-Key"] = "key." .. id,
  }, body)
end
