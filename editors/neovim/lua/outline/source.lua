-- Follows a YAML buffer's changes as the server's `changeOutline {edits}`
-- wants them (PROTOCOL §9): each change Neovim reports through
-- nvim_buf_attach's on_lines is kept as "lines [first, last) of the text
-- become these lines", so every range starts and ends at column 0 and needs
-- no conversion of columns. The text the server keeps is the buffer's lines,
-- each ended by "\n".
--
-- Recording a change reads only the lines it touched: a keystroke in a
-- 15 MB buffer costs what the line costs. Changes on the same lines merge,
-- so a word typed on one line goes out as one edit.
local api = vim.api

local M = {}
local Source = {}
Source.__index = Source

-- Past these, the whole text is cheaper to send than the edits.
local MAX_EDITS = 500
local MAX_EDIT_BYTES = 4 * 1024 * 1024
-- A merged edit is read again whole at each change: keep it small.
local MAX_MERGED_LINES = 1000

-- The text of `buf` as the server keeps it.
function M.text(buf)
  return table.concat(api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

local function read(buf, first, stop)
  if stop <= first then return '' end
  return table.concat(api.nvim_buf_get_lines(buf, first, stop, false), '\n') .. '\n'
end

-- A tracker of `buf`. on_change() runs after each change is recorded (in
-- Neovim's callback: it must only arm a timer), on_detach() when Neovim
-- stops reporting (the buffer was unloaded).
function M.new(buf, on_change, on_detach)
  return setmetatable({
    buf = buf,
    edits = {},
    bytes = 0,
    full = false, -- the edits were lost track of: send the whole text
    count = api.nvim_buf_line_count(buf),
    attached = false,
    closed = false,
    on_change = on_change,
    on_detach = on_detach,
  }, Source)
end

-- Starts following the buffer. Changes from here on are recorded against
-- the text as it is now. Returns false when the buffer is not loaded.
function Source:attach()
  if self.attached then return true end
  if not api.nvim_buf_is_loaded(self.buf) then return false end
  local ok = api.nvim_buf_attach(self.buf, false, {
    on_lines = function(_, buf, _, first, last, new_last)
      if self.closed then return true end
      self:_record(buf, first, last, new_last)
    end,
    -- :e!, :checktime: the whole text is new.
    on_reload = function()
      if self.closed then return true end
      self.count = api.nvim_buf_line_count(self.buf)
      self:resend()
      self.on_change()
    end,
    on_detach = function()
      self.attached = false
      if not self.closed and self.on_detach then self.on_detach() end
    end,
  })
  self.attached = ok
  self.count = api.nvim_buf_line_count(self.buf)
  self.edits, self.bytes, self.full = {}, 0, false
  return ok
end

-- Stops recording (Neovim detaches at the next change).
function Source:close()
  self.closed = true
end

-- Forgets the edits: the next `take` gives the whole text.
function Source:resend()
  self.full = true
  self.edits, self.bytes = {}, 0
end

function Source:_record(buf, first, last, new_last)
  local count = api.nvim_buf_line_count(buf)
  local expected = self.count - (last - first) + (new_last - first)
  self.count = count
  if expected ~= count then
    if expected == 0 and count == 1 then
      -- Deleting every line: Neovim reports no line left, and the buffer
      -- keeps one empty line.
      new_last = first + 1
    else
      self:resend()
    end
  end
  if self.full then
    self.on_change()
    return
  end
  local edits = self.edits
  local prev = edits[#edits]
  local added = new_last - first
  if prev and first >= prev.first and last <= prev.first + prev.lines and prev.lines <= MAX_MERGED_LINES then
    -- Within the lines the previous edit wrote: one edit does both.
    prev.lines = prev.lines - (last - first) + added
    self.bytes = self.bytes - #prev.text
    prev.text = read(buf, prev.first, prev.first + prev.lines)
    self.bytes = self.bytes + #prev.text
  else
    local text = read(buf, first, new_last)
    edits[#edits + 1] = { first = first, last = last, lines = added, text = text }
    self.bytes = self.bytes + #text
  end
  if #edits > MAX_EDITS or self.bytes > MAX_EDIT_BYTES then self:resend() end
  self.on_change()
end

-- True when something is waiting to be sent.
function Source:pending()
  return self.full or #self.edits > 0
end

-- What to send and forget: {text = ...} or {edits = {...}} (LSP content
-- changes, lines ended by "\n", columns 0), or nil when nothing changed.
function Source:take()
  if self.full then
    self.full = false
    self.edits, self.bytes = {}, 0
    return { text = M.text(self.buf) }
  end
  if #self.edits == 0 then return nil end
  local out = {}
  for i, e in ipairs(self.edits) do
    out[i] = {
      range = { start = { line = e.first, character = 0 }, ['end'] = { line = e.last, character = 0 } },
      text = e.text,
    }
  end
  self.edits, self.bytes = {}, 0
  return { edits = out }
end

-- The byte size of the buffer's text (each line ended by "\n"), without
-- building it.
function M.size(buf)
  return api.nvim_buf_call(buf, function() return vim.fn.line2byte(vim.fn.line('$') + 1) - 1 end)
end

-- True when the server can read the file itself and find the buffer's
-- text: the buffer is unmodified and the file holds exactly its lines
-- (UTF-8, "\n" line ends, no byte order mark, the same size). Saves sending
-- (and building) the whole text of a big file.
function M.matches_file(buf, path)
  if vim.bo[buf].modified or vim.bo[buf].fileformat ~= 'unix' or vim.bo[buf].bomb then return false end
  local enc = vim.bo[buf].fileencoding
  if enc ~= '' and enc ~= 'utf-8' then return false end
  if not vim.bo[buf].eol then return false end
  local stat = vim.loop.fs_stat(path)
  if not stat or stat.type ~= 'file' then return false end
  return M.size(buf) == stat.size
end

return M
