-- A JSON-RPC 2.0 client with LSP framing over a child process's stdin and
-- stdout, on libuv (vim.loop) alone, so it behaves the same on Neovim 0.7
-- and on later releases.
--
-- Everything is asynchronous: `request` returns at once and its callback
-- runs on the main loop when the answer arrives. Only `stop`, used when
-- Neovim exits, waits.
local uv = vim.loop

local M = {}
local Client = {}
Client.__index = Client

-- JSON null inside objects and arrays decodes to nil (an absent field), so
-- `parent: null` reads as no parent and `result: null` as no result.
local DECODE_OPTS = { luanil = { object = true, array = true } }

local function encode(msg)
  local body = vim.json.encode(msg)
  return 'Content-Length: ' .. #body .. '\r\n\r\n' .. body
end

-- Starts `cmd` (a list: the program and its arguments). Options:
--   on_notification(method, params)  a message from the server without id
--   on_exit(code, signal)            the process ended
--   on_stderr(text)                  a chunk of the server's standard error
-- Returns the client, or nil and a message.
function M.start(cmd, opts)
  opts = opts or {}
  local self = setmetatable({
    next_id = 1,
    pending = {}, -- id -> callback(err, result)
    head = '', -- bytes of a header not yet complete
    need = nil, -- body length being read, nil while reading a header
    chunks = nil, -- body pieces read so far
    have = 0, -- their byte count
    exited = false,
    opts = opts,
  }, Client)
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local args = {}
  for i = 2, #cmd do args[#args + 1] = cmd[i] end
  -- The exit is reported once the process has ended and its standard error
  -- is read to the end (or 3 s later, should another process hold it
  -- open): the last words of a server that failed come first.
  local ended, stderr_done, reported = nil, false, false
  local function report()
    if reported or not ended or not stderr_done then return end
    reported = true
    for _, p in ipairs({ stdin, stdout, stderr }) do
      if not p:is_closing() then p:close() end
    end
    vim.schedule(function()
      local pending = self.pending
      self.pending = {}
      for _, cb in pairs(pending) do
        cb({ code = -32099, message = 'outline-server exited' }, nil)
      end
      if opts.on_exit then opts.on_exit(ended.code, ended.signal) end
    end)
  end
  local handle, pid = uv.spawn(cmd[1], { args = args, stdio = { stdin, stdout, stderr } },
    function(code, signal)
      self.exited = true
      self.exit_code = code
      if self.handle and not self.handle:is_closing() then self.handle:close() end
      ended = { code = code, signal = signal }
      if not stderr_done then
        local timer = uv.new_timer()
        timer:start(3000, 0, function()
          timer:close()
          stderr_done = true
          report()
        end)
      end
      report()
    end)
  if not handle then
    for _, p in ipairs({ stdin, stdout, stderr }) do p:close() end
    return nil, 'cannot start ' .. tostring(cmd[1]) .. ': ' .. tostring(pid)
  end
  self.handle, self.pid = handle, pid
  self.stdin = stdin
  stdout:read_start(function(err, data)
    if err or not data then return end
    self:_feed(data)
  end)
  stderr:read_start(function(_, data)
    if data then
      if opts.on_stderr then vim.schedule(function() opts.on_stderr(data) end) end
    else
      stderr_done = true -- its end, or an error reading it
      report()
    end
  end)
  return self
end

-- Splits the byte stream into messages. A body is gathered in pieces and
-- joined once, so a 4 MB answer read in 64 KB chunks is copied twice, not
-- sixty times.
function Client:_feed(data)
  while #data > 0 do
    if not self.need then
      local buf = self.head .. data
      local stop = buf:find('\r\n\r\n', 1, true)
      if not stop then
        self.head = buf
        return
      end
      local length = tonumber(buf:sub(1, stop - 1):lower():match('content%-length:%s*(%d+)'))
      self.head = ''
      if not length then return end -- not this protocol: nothing to resynchronise on
      self.need, self.chunks, self.have = length, {}, 0
      data = buf:sub(stop + 4)
    else
      local want = self.need - self.have
      if #data < want then
        self.chunks[#self.chunks + 1] = data
        self.have = self.have + #data
        return
      end
      self.chunks[#self.chunks + 1] = data:sub(1, want)
      local body = table.concat(self.chunks)
      self.need, self.chunks, self.have = nil, nil, 0
      data = data:sub(want + 1)
      vim.schedule(function() self:_dispatch(body) end)
    end
  end
end

function Client:_dispatch(body)
  local ok, msg = pcall(vim.json.decode, body, DECODE_OPTS)
  if not ok or type(msg) ~= 'table' then return end
  if msg.method then
    if msg.id ~= nil then
      -- The server sends no requests; answer any so that it is not left waiting.
      self:_write({ jsonrpc = '2.0', id = msg.id, error = { code = -32601, message = 'not supported' } })
    elseif self.opts.on_notification then
      self.opts.on_notification(msg.method, msg.params)
    end
    return
  end
  local cb = self.pending[msg.id]
  if not cb then return end
  self.pending[msg.id] = nil
  if msg.error ~= nil then
    cb(msg.error, nil)
  else
    cb(nil, msg.result)
  end
end

function Client:_write(msg)
  if self.exited or self.stdin:is_closing() then return false end
  self.stdin:write(encode(msg))
  return true
end

local function params_or_empty(params)
  if params == nil or (type(params) == 'table' and next(params) == nil) then
    return vim.empty_dict()
  end
  return params
end

-- Sends a request; cb(err, result) runs on the main loop when the answer
-- comes. Returns the request id.
function Client:request(method, params, cb)
  local id = self.next_id
  self.next_id = id + 1
  self.pending[id] = cb or function() end
  if not self:_write({ jsonrpc = '2.0', id = id, method = method, params = params_or_empty(params) }) then
    self.pending[id] = nil
    if cb then
      vim.schedule(function() cb({ code = -32099, message = 'outline-server is not running' }, nil) end)
    end
  end
  return id
end

function Client:notify(method, params)
  return self:_write({ jsonrpc = '2.0', method = method, params = params_or_empty(params) })
end

-- Asks the server to stop request `id`; its callback still runs, with the
-- answer or with -32800.
function Client:cancel(id)
  if self.pending[id] then self:notify('$/cancelRequest', { id = id }) end
end

-- shutdown, exit, then waits (at most `timeout_ms`) for the process to end.
-- Blocks: for the end of the session only. Returns the exit status.
function Client:stop(timeout_ms)
  timeout_ms = timeout_ms or 2000
  if not self.exited then
    local done = false
    self:request('shutdown', nil, function() done = true end)
    vim.wait(timeout_ms, function() return done or self.exited end, 5)
    self:notify('exit')
    if not self.stdin:is_closing() then self.stdin:shutdown() end
    vim.wait(timeout_ms, function() return self.exited end, 5)
    if not self.exited then self.handle:kill('sigterm') end
  end
  return self.exit_code
end

return M
