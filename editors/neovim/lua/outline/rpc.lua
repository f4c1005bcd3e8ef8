-- A small JSON-RPC 2.0 client with LSP framing over a child process's
-- stdin/stdout. It uses only libuv (vim.loop), so it behaves the same on
-- Neovim 0.7 and on newer releases.
local uv = vim.loop

local M = {}
local Client = {}
Client.__index = Client

local function encode(msg)
  local body = vim.json.encode(msg)
  return 'Content-Length: ' .. #body .. '\r\n\r\n' .. body
end

-- Starts `cmd` (a list: program and arguments).
-- opts.on_notification(method, params), opts.on_exit(code, signal),
-- opts.on_stderr(text).
function M.start(cmd, opts)
  opts = opts or {}
  local self = setmetatable({
    next_id = 1,
    pending = {},
    buffer = '',
    exited = false,
    exit_code = nil,
    opts = opts,
  }, Client)
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local args = {}
  for i = 2, #cmd do args[#args + 1] = cmd[i] end
  local handle, pid = uv.spawn(cmd[1], { args = args, stdio = { stdin, stdout, stderr } },
    function(code, signal)
      self.exited = true
      self.exit_code = code
      for _, p in ipairs({ stdin, stdout, stderr }) do
        if not p:is_closing() then p:close() end
      end
      if self.handle and not self.handle:is_closing() then self.handle:close() end
      vim.schedule(function()
        for id, cb in pairs(self.pending) do
          self.pending[id] = nil
          cb({ code = -32099, message = 'outline-server exited' }, nil)
        end
        if opts.on_exit then opts.on_exit(code, signal) end
      end)
    end)
  if not handle then
    for _, p in ipairs({ stdin, stdout, stderr }) do p:close() end
    return nil, 'cannot start ' .. tostring(cmd[1]) .. ': ' .. tostring(pid)
  end
  self.handle, self.pid = handle, pid
  self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
  stdout:read_start(function(err, data)
    if err or not data then return end
    self.buffer = self.buffer .. data
    self:_drain()
  end)
  stderr:read_start(function(_, data)
    if data and opts.on_stderr then
      vim.schedule(function() opts.on_stderr(data) end)
    end
  end)
  return self
end

function Client:_drain()
  while true do
    local header_end = self.buffer:find('\r\n\r\n', 1, true)
    if not header_end then return end
    local header = self.buffer:sub(1, header_end - 1)
    local length = tonumber(header:lower():match('content%-length:%s*(%d+)'))
    if not length then
      self.buffer = ''
      return
    end
    local body_start = header_end + 4
    if #self.buffer < body_start + length - 1 then return end
    local body = self.buffer:sub(body_start, body_start + length - 1)
    self.buffer = self.buffer:sub(body_start + length)
    vim.schedule(function() self:_dispatch(body) end)
  end
end

function Client:_dispatch(body)
  local ok, msg = pcall(vim.json.decode, body)
  if not ok or type(msg) ~= 'table' then return end
  if msg.method then
    if msg.id ~= nil and msg.id ~= vim.NIL then
      -- The server sends no requests today; answer any politely.
      self:_write({ jsonrpc = '2.0', id = msg.id, error = { code = -32601, message = 'not supported' } })
    elseif self.opts.on_notification then
      self.opts.on_notification(msg.method, msg.params)
    end
    return
  end
  local cb = self.pending[msg.id]
  if not cb then return end
  self.pending[msg.id] = nil
  if msg.error ~= nil and msg.error ~= vim.NIL then
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

-- Sends a request; cb(err, result) runs on the main loop.
function Client:request(method, params, cb)
  local id = self.next_id
  self.next_id = id + 1
  self.pending[id] = cb or function() end
  if not self:_write({ jsonrpc = '2.0', id = id, method = method, params = params_or_empty(params) }) then
    self.pending[id] = nil
    if cb then cb({ code = -32099, message = 'outline-server is not running' }, nil) end
  end
  return id
end

-- Sends a request and waits for its answer: returns result, err.
function Client:request_sync(method, params, timeout_ms)
  local done, err, result = false, nil, nil
  self:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  if not vim.wait(timeout_ms or 5000, function() return done end, 5) then
    return nil, { code = -32098, message = method .. ' timed out' }
  end
  return result, err
end

function Client:notify(method, params)
  return self:_write({ jsonrpc = '2.0', method = method, params = params_or_empty(params) })
end

-- shutdown, exit, then wait for the process to end. Returns its exit code.
function Client:stop(timeout_ms)
  if not self.exited then
    self:request_sync('shutdown', nil, timeout_ms or 2000)
    self:notify('exit')
    if not self.stdin:is_closing() then self.stdin:shutdown() end
    vim.wait(timeout_ms or 2000, function() return self.exited end, 5)
    if not self.exited then self.handle:kill('sigterm') end
  end
  return self.exit_code
end

return M
