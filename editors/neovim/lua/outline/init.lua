-- An outline pane for Neovim, driven by outline-server (docs/protocol.md).
--
--   require('outline').setup({ width = 40 })
--   :Outline          the outline of the current YAML buffer, following its edits
--   :Outline FILE     the outline of FILE on disk, following the file
--
-- See :help outline.
--
-- How the pane keeps up with a big outline without blocking the editor:
-- * It holds the whole visible list (`pane.rows`): every item, in order. An
--   answer's `changes` (delete/insert blocks) are applied to it as they
--   come; inserted items are fetched by index, in pages, and nothing else is.
--   An item is `false` until its height is known and a stub
--   ({stub = true, height}) until its text is: after "expand all" on 65,000
--   items the heights come first (`rowHeights`, small answers), the pane is
--   drawn with the window's own rows, and the rest is fetched in the
--   background, nearest the cursor first, in pages small enough that a key
--   pressed meanwhile waits only for one of them.
-- * Every request is asynchronous; an answer whose `version` is older than
--   the pane's is dropped.
-- * The YAML buffer's changes go out as `changeOutline {edits}`, debounced,
--   one request at a time (see source.lua).
local rpc = require('outline.rpc')
local render = require('outline.render')
local source = require('outline.source')

local api, uv = vim.api, vim.loop

local M = {}

M.config = {
  cmd = nil, -- list (or string): the server; default $OUTLINE_SERVER, else outline-server
  width = 40, -- width of a new pane, in columns
  debounce = 150, -- ms after the last change in the YAML buffer before it is sent
  max_wait = 1000, -- ms: a buffer being typed in is sent at least this often
  follow = true, -- the pane shows the item under the cursor of the YAML buffer
  follow_delay = 150, -- ms after the cursor stops before the pane follows it
  page = 500, -- items per visibleRows request (at most 10,000)
  prefetch = true, -- fetch the text of every visible item in the background
  reopen_size = 1024 * 1024, -- bytes: a bigger buffer reloaded from its file is read by the server
  typeahead_timeout = 1000, -- ms within which typed letters make one search
  position = 'right', -- 'right' or 'left'
}

local HEIGHTS_PAGE = 10000 -- the server's cap on one answer
local MATCHES_CAP = 10000 -- the server's cap on a filter's `matches`
local CANCEL = '\1outline-cancel\1' -- what input() returns on <Esc>

-- The server's client. After the server exited by itself it stays here,
-- exited, and no request starts another until :Outline does (see revive).
local client = nil
local panes = {} -- pane buffer -> pane
local ns = api.nvim_create_namespace('outline') -- diagnostics
local ns_hl = api.nvim_create_namespace('outline-highlight')
local group = api.nvim_create_augroup('OutlinePane', { clear = true })

M.stderr = ''
-- trace(event, what): called on each request sent and answered and each
-- draw, when set (bench/bench.lua times the pane with it).
M.trace = nil

---------------------------------------------------------------------------
-- Messages

local function say(msg, level)
  vim.notify('outline: ' .. msg, level or vim.log.levels.WARN)
end

-- 65119 → "65,119"
local function thousands(n)
  local s = tostring(n)
  while true do
    local t = s:gsub('^(%d+)(%d%d%d)', '%1,%2')
    if t == s then return s end
    s = t
  end
end

local function plural(n, word)
  return thousands(n) .. ' ' .. word .. (n == 1 and '' or 's')
end

local function diagnostic_lines(name, list)
  local errors = {}
  for _, d in ipairs(list or {}) do
    if d.severity == 1 then errors[#errors + 1] = d end
  end
  local lines = { name .. ' has ' .. plural(#errors, 'error') .. ':' }
  for i, d in ipairs(errors) do
    if i > 5 then
      lines[#lines + 1] = '  …'
      break
    end
    lines[#lines + 1] = ('  line %d, column %d: %s'):format(d.range.start.line + 1, d.range.start.character + 1,
      tostring(d.message))
  end
  return lines
end

-- Words for an error answer, or nil when there is nothing to say.
local function friendly(method, err, pane)
  local code, msg = err.code, tostring(err.message or '')
  if code == -32800 then return nil end -- cancelled: nothing to say
  if code == -32602 and msg:find('single', 1, true) then
    if method == 'expandAll' then
      return 'expand all is not possible in an accordion (expansion: single): open one group at a time'
    end
    if method == 'navigate' then
      return 'opening every sibling group (*) is not possible in an accordion (expansion: single)'
    end
  end
  if code == -32011 then
    local diags = type(err.data) == 'table' and err.data.diagnostics or {}
    return table.concat(diagnostic_lines(pane and pane.name or 'the outline', diags), '\n')
  end
  if code == -32013 then return msg end
  if code == -32099 then return 'outline-server is not running; :Outline starts it again' end
  return method .. ': ' .. msg
end

---------------------------------------------------------------------------
-- The server

local function server_cmd()
  local cmd = M.config.cmd
  if cmd then return type(cmd) == 'string' and { cmd } or cmd end
  local env = vim.env.OUTLINE_SERVER
  if env and env ~= '' then return { env } end
  return { 'outline-server' }
end

local on_notification, on_exit

-- The running client: started, and `initialize` sent, on first use.
-- Requests sent before initialize is answered are answered after it.
-- nil when the server exited by itself: the panes say so, and :Outline
-- starts it again.
function M.client()
  if client then return not client.exited and client or nil end
  local c, e
  c, e = rpc.start(server_cmd(), {
    on_notification = function(method, params) on_notification(method, params) end,
    on_stderr = function(text)
      if c == client then M.stderr = (M.stderr .. text):sub(-4000) end
    end,
    on_exit = function(code, signal) on_exit(c, code, signal) end,
  })
  if not c then
    say(e .. ' (set OUTLINE_SERVER or require("outline").setup({cmd = {...}}))', vim.log.levels.ERROR)
    return nil
  end
  c:request('initialize', {
    processId = vim.fn.getpid(),
    clientInfo = { name = 'neovim-outline', version = '2' },
    capabilities = { general = { positionEncodings = { 'utf-8' } } },
  }, function(err, result)
    if err then
      say('outline-server did not start: ' .. tostring(err.message), vim.log.levels.ERROR)
      return
    end
    c.info = result
    c:notify('initialized')
  end)
  client = c
  M.stderr = ''
  return c
end

-- Ends the server (shutdown, exit). Returns its exit status.
function M.stop()
  if not client then return nil end
  local c = client
  client = nil -- its exit is then no news (see on_exit)
  return c:stop(1000)
end

---------------------------------------------------------------------------
-- Panes: small helpers

local function pane_win(pane)
  if pane.win and api.nvim_win_is_valid(pane.win) and api.nvim_win_get_buf(pane.win) == pane.buf then
    return pane.win
  end
  pane.win = nil
  for _, w in ipairs(api.nvim_tabpage_list_wins(0)) do
    if api.nvim_win_get_buf(w) == pane.buf then
      pane.win = w
      return w
    end
  end
  for _, w in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(w) == pane.buf then
      pane.win = w
      return w
    end
  end
  return nil
end

local function win_view(win)
  return api.nvim_win_call(win, vim.fn.winsaveview)
end

-- The index (1-based) of the drawn item on line `lnum` (1-based).
local function index_at_line(pane, lnum)
  local tops = pane.tops
  local n = #tops
  if n == 0 then return nil end
  local line0 = lnum - 1
  local lo, hi = 1, n
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if tops[mid] <= line0 then lo = mid else hi = mid - 1 end
  end
  return lo
end

-- The drawn item under the cursor of the pane: index, row.
local function cursor_item(pane)
  local win = pane_win(pane)
  if not win or #pane.drawn == 0 then return nil end
  local i = index_at_line(pane, api.nvim_win_get_cursor(win)[1])
  return i, pane.drawn[i]
end

local function find_id(rows, id, from, to, hint)
  if id == nil then return nil end
  if hint and rows[hint] and rows[hint].id == id then return hint end
  for i = from or 1, to or #rows do
    local r = rows[i]
    if r and r.id == id then return i end
  end
  return nil
end

local function update_status(pane)
  local win = pane_win(pane)
  if not win then return end
  -- What matters first: a narrow window cuts the end.
  local parts = {}
  if pane.open then
    parts[#parts + 1] = plural(#pane.rows, 'item')
    if pane.query then parts[#parts + 1] = 'filter “' .. pane.query .. '”' end
  end
  if pane.errors and pane.errors > 0 then parts[#parts + 1] = plural(pane.errors, 'error') end
  -- The name when it fits; else the counts, the filter shortened to fit.
  local width = api.nvim_win_get_width(win)
  local text = ' ' .. table.concat(parts, ' · ')
  local named = #parts > 0 and (text .. ' · ' .. pane.name) or (' ' .. pane.name)
  if vim.fn.strdisplaywidth(named) <= width or #parts == 0 then
    text = named
  elseif pane.open and pane.query and vim.fn.strdisplaywidth(text) > width then
    local query = pane.query
    while vim.fn.strchars(query) > 1 and vim.fn.strdisplaywidth(text) > width do
      query = vim.fn.strcharpart(query, 0, vim.fn.strchars(query) - 1)
      parts[2] = 'filter “' .. query .. '…”'
      text = ' ' .. table.concat(parts, ' · ')
    end
  end
  api.nvim_win_set_option(win, 'statusline', '%<' .. text:gsub('%%', '%%%%'))
end

---------------------------------------------------------------------------
-- Diagnostics

local function to_diagnostics(list)
  local out = {}
  for _, d in ipairs(list or {}) do
    out[#out + 1] = {
      lnum = d.range.start.line,
      col = d.range.start.character,
      end_lnum = d.range['end'].line,
      end_col = d.range['end'].character,
      severity = d.severity == 1 and vim.diagnostic.severity.ERROR or vim.diagnostic.severity.WARN,
      message = d.message,
      source = d.source or 'outline',
      code = d.code,
    }
  end
  return out
end

-- The YAML buffer the pane stands for, if loaded.
local function yaml_buffer(pane)
  if pane.src and api.nvim_buf_is_valid(pane.src) then return pane.src end
  local b = vim.fn.bufnr(pane.path)
  if b > 0 and api.nvim_buf_is_loaded(b) and not panes[b] then return b end
  return nil
end

local function show_diagnostics(pane, list)
  list = list or {}
  local errors = 0
  for _, d in ipairs(list) do
    if d.severity == 1 then errors = errors + 1 end
  end
  pane.errors = errors
  local b = yaml_buffer(pane)
  if b then vim.diagnostic.set(ns, b, to_diagnostics(list)) end
  update_status(pane)
end

---------------------------------------------------------------------------
-- Requests

local open_outline, flush, pump, match_ranges

-- Sends a request for the pane; on_result(result) runs when it succeeds.
-- on_error(err) may handle an error and return true; otherwise the error
-- is reported in words.
local function request(pane, method, params, on_result, on_error)
  local c = M.client()
  if not c then return nil end
  pane.busy = pane.busy + 1
  pane.stats.requests[method] = (pane.stats.requests[method] or 0) + 1
  if M.trace then M.trace('send', method) end
  return c:request(method, params, function(err, result)
    if M.trace then M.trace('answer', method) end
    pane.busy = pane.busy - 1
    if pane.closed then return end
    if err then
      if on_error and on_error(err) then return end
      if err.code == -32099 then return end -- the server stopped: on_exit says so once
      if err.code == -32010 and method ~= 'openOutline' then
        -- The server no longer has the outline (it was started again): open it.
        pane.open = false
        open_outline(pane)
        return
      end
      local text = friendly(method, err, pane)
      if text then say(text) end
      return
    end
    on_result(result)
  end)
end

---------------------------------------------------------------------------
-- The visible list

-- Moves t[from..to] to start at `dest` (the ranges may overlap).
local function move(t, from, to, dest)
  if dest < from then
    for k = 0, to - from do t[dest + k] = t[from + k] end
  elseif dest > from then
    for k = to - from, 0, -1 do t[dest + k] = t[from + k] end
  end
end

-- Applies `changes` ({kind, start, count}, in order, each against the list
-- the ones before it left) to `rows`; inserted items are `false`.
local function apply_changes(rows, changes)
  -- Many changes in increasing order (expand all) are applied in one pass;
  -- a few, in place.
  local monotonic, last = #changes > 4, -1
  for _, ch in ipairs(changes) do
    if ch.start < last then monotonic = false end
    last = ch.start + (ch.kind == 'insert' and ch.count or 0)
  end
  if monotonic then
    local out, n, j, total = {}, 0, 1, #rows
    for _, ch in ipairs(changes) do
      while n < ch.start and j <= total do
        n = n + 1
        out[n] = rows[j]
        j = j + 1
      end
      if ch.kind == 'delete' then
        j = j + ch.count
      else
        for _ = 1, ch.count do
          n = n + 1
          out[n] = false
        end
      end
    end
    while j <= total do
      n = n + 1
      out[n] = rows[j]
      j = j + 1
    end
    return out
  end
  for _, ch in ipairs(changes) do
    local total = #rows
    if ch.kind == 'delete' then
      move(rows, ch.start + ch.count + 1, total, ch.start + 1)
      for i = total - ch.count + 1, total do rows[i] = nil end
    else
      move(rows, ch.start + 1, total, ch.start + ch.count + 1)
      for i = ch.start + 1, ch.start + ch.count do rows[i] = false end
    end
  end
  return rows
end

-- The view is anchored on an item: its index in `pane.rows` is carried
-- through each answer's changes until the pane is drawn (the item itself
-- may be a stub by then, whose id is not known yet).
local function anchor_start(pane)
  if pane.focus_pos then return end
  pane.focus_pos = (cursor_item(pane)) or 1
  pane.focus_lost = false
end

local function anchor_track(pane, changes)
  local f = pane.focus_pos
  for _, ch in ipairs(changes) do
    local s, c = ch.start, ch.count
    if ch.kind == 'delete' then
      if f > s + c then
        f = f - c
      elseif f > s then
        -- The item went: the one before the block (its group, for a close).
        f = math.max(1, s)
        pane.focus_lost = true
      end
    elseif f > s then
      f = f + c
    end
  end
  pane.focus_pos = f
end

-- Forgets every item: all are fetched again (a new width, a re-open).
local function resync(pane, total)
  anchor_start(pane)
  local rows = {}
  for i = 1, total do rows[i] = false end
  pane.rows = rows
  pane.survey = nil
  pane.dirty = true
  pane.unknown_asked = nil
  pump(pane)
end

-- Applies a result that may carry `version`, `changes`, `updatedGroups` and
-- `total` (toggles, filters, edits, outlineChanged, revealItem, navigate).
local function apply(pane, res)
  if not res then return end
  if res.version and res.version < pane.version then return end -- an older state
  pane.survey = nil
  local changes = res.changes
  if changes and #changes > 0 then
    anchor_start(pane)
    anchor_track(pane, changes)
    pane.rows = apply_changes(pane.rows, changes)
    pane.dirty = true
  end
  local updated = res.updatedGroups
  if updated and #updated > 0 then
    -- Their arrows turned: fetch those headers again. A toggled group is
    -- most often just before its first change.
    local rows = pane.rows
    local hint = changes and changes[1] and changes[1].start
    if #updated == 1 and hint and rows[hint] and rows[hint].id == updated[1] then
      rows[hint] = false
      pane.dirty = true
    else
      local want = {}
      for _, id in ipairs(updated) do want[id] = true end
      for i = 1, #rows do
        local r = rows[i]
        if r and r.id and want[r.id] then
          rows[i] = false
          pane.dirty = true
        end
      end
    end
  end
  if res.version then pane.version = res.version end
  if res.total and res.total ~= #pane.rows then
    resync(pane, res.total)
    return
  end
  pump(pane)
end

local function fill_rows(pane, res)
  if res.version ~= pane.version then return pump(pane) end -- a newer change is being applied
  if res.total ~= #pane.rows then return resync(pane, res.total) end
  local rows = pane.rows
  for _, r in ipairs(res.rows) do
    local i = r.index + 1
    local cur = rows[i]
    if cur == false or (cur and cur.stub) then
      r.data = nil
      rows[i] = r
      pane.dirty = true
    end
  end
  pane.stats.fetched = pane.stats.fetched + #res.rows
  pump(pane)
end

local function fetch_rows(pane, a, b)
  local rows, version = pane.rows, pane.version
  for i = a + 1, b do
    if rows[i] then rows[i].asked = version end
  end
  pane.fetching = pane.fetching + 1
  request(pane, 'visibleRows', { uri = pane.uri, start = a, count = b - a, include = { 'lines' } },
    function(res)
      pane.fetching = pane.fetching - 1
      fill_rows(pane, res)
    end,
    function()
      pane.fetching = pane.fetching - 1
      return false
    end)
end

local function fetch_heights(pane, a, b)
  request(pane, 'rowHeights', { uri = pane.uri, start = a, count = b - a }, function(res)
    if res.version ~= pane.version then return pump(pane) end
    local rows = pane.rows
    for k, h in ipairs(res.heights) do
      if rows[a + k] == false then rows[a + k] = { stub = true, height = h } end
    end
    pane.survey = nil
    pump(pane)
  end)
end

-- One pass over the list: the runs of `false` items ({a, b}, 0-based, end
-- exclusive) and their count; the count of stubs not yet asked for at
-- `version`, and the nearest of them at or after `focus` and before it.
local function survey(rows, version, focus)
  local runs, count, stubs, after, before, i, n = {}, 0, 0, nil, nil, 1, #rows
  while i <= n do
    local r = rows[i]
    if r == false then
      local j = i
      while j < n and rows[j + 1] == false do j = j + 1 end
      runs[#runs + 1] = { i - 1, j }
      count = count + j - i + 1
      i = j + 1
    else
      if r.stub and r.asked ~= version then
        stubs = stubs + 1
        if i >= focus then
          after = after or i
        else
          before = i
        end
      end
      i = i + 1
    end
  end
  return runs, count, stubs, after, before
end

local function unasked(rows, i, version)
  local r = rows[i]
  return r and r.stub and r.asked ~= version
end

local function split(a, b, size, out)
  while a < b do
    out[#out + 1] = { a, math.min(b, a + size) }
    a = a + size
  end
  return out
end

-- The index in `pane.rows` the window will show: the item an action asked
-- for, else the item under the cursor.
local function focus_index(pane)
  local rows = pane.rows
  local target = pane.after_draw
  if target and target.id then
    local i = find_id(rows, target.id, nil, nil, target.hint)
    if i then return i end
  end
  local i = pane.focus_pos or cursor_item(pane) or 1
  return math.max(1, math.min(i, #rows))
end

local draw

-- Moves the pane along: asks for what is missing, draws when it can.
function pump(pane)
  if pane.closed or not pane.open then return end
  local rows, version = pane.rows, pane.version
  local n = #rows
  local focus = focus_index(pane)
  local runs, unknown, stubs, after, before
  local cache = pane.survey
  if cache and cache.version == version and cache.focus == focus and cache.n == n then
    -- Only fetched rows came since the last pass: the nearest stubs not
    -- asked for move away from the focus, so the search goes on from there.
    runs, unknown, after, before = {}, 0, cache.after, cache.before
    while after and not unasked(rows, after, version) do after = after < n and after + 1 or nil end
    while before and not unasked(rows, before, version) do before = before > 1 and before - 1 or nil end
    stubs = (after or before) and 1 or 0
  else
    runs, unknown, stubs, after, before = survey(rows, version, focus)
  end
  pane.survey = nil
  if unknown > 0 then
    if pane.unknown_asked == version then return end
    pane.unknown_asked = version
    local page = math.min(M.config.page, HEIGHTS_PAGE)
    if unknown <= page then
      for _, run in ipairs(runs) do
        for _, p in ipairs(split(run[1], run[2], page, {})) do fetch_rows(pane, p[1], p[2]) end
      end
    else
      -- Heights first, in windows of at most 10,000 items.
      local windows = {}
      for _, run in ipairs(runs) do
        local w = windows[#windows]
        if w and run[2] - w[1] <= HEIGHTS_PAGE then
          w[2] = run[2]
        else
          split(run[1], run[2], HEIGHTS_PAGE, windows)
        end
      end
      for _, w in ipairs(windows) do fetch_heights(pane, w[1], w[2]) end
    end
    return
  end
  local win = pane_win(pane)
  local height = win and api.nvim_win_get_height(win) or 40
  -- The window's items first: draw when they have their text.
  local lo, hi = math.max(1, focus - height), math.min(n, focus + height)
  local first, last
  for i = lo, hi do
    if rows[i].stub then
      first = first or i
      last = i
    end
  end
  if first then
    for i = first, last do
      if unasked(rows, i, version) then
        fetch_rows(pane, first - 1, last)
        break
      end
    end
    return
  end
  if pane.dirty then draw(pane) end
  pane.survey = { version = version, focus = focus, n = n, after = after, before = before }
  if not M.config.prefetch or stubs == 0 then return end
  -- The rest in the background, nearest the cursor first, two pages at a time.
  local page = math.min(M.config.page, HEIGHTS_PAGE)
  while pane.fetching < 2 and (after or before) do
    if after and (not before or after - focus <= focus - before) then
      local b = after
      while b < n and b - after + 1 < page and unasked(rows, b + 1, version) do b = b + 1 end
      fetch_rows(pane, after - 1, b)
      after = b + 1
      while after <= n and not unasked(rows, after, version) do after = after + 1 end
      if after > n then after = nil end
    else
      local a = before
      while a > 1 and before - a + 1 < page and unasked(rows, a - 1, version) do a = a - 1 end
      fetch_rows(pane, a - 1, before)
      before = a - 1
      while before >= 1 and not unasked(rows, before, version) do before = before - 1 end
      if before < 1 then before = nil end
    end
  end
  pane.survey = { version = version, focus = focus, n = n, after = after, before = before }
end

---------------------------------------------------------------------------
-- Drawing

local function set_lines(pane, first, last, lines)
  api.nvim_buf_set_option(pane.buf, 'modifiable', true)
  api.nvim_buf_set_lines(pane.buf, first, last, false, lines)
  api.nvim_buf_set_option(pane.buf, 'modifiable', false)
end

-- Runs a key's action now or, while a filter's answer is on its way, once
-- that answer is drawn: keys typed in one burst after a filter act on the
-- filtered list, in the order they were typed.
local function act(pane, fn)
  if pane.held then
    table.insert(pane.held, fn)
  else
    fn()
  end
end

-- The keys held while a filter was on its way, run in order.
local function release_keys(pane)
  local held = pane.held
  pane.held = nil
  for _, fn in ipairs(held or {}) do
    if pane.closed then return end
    fn()
  end
end

-- What the pane says when it has no item to show.
local function message_lines(pane)
  if pane.message then return pane.message end
  if pane.query then
    return { 'No item matches “' .. pane.query .. '”.', '', 'Press / to change the filter,', '/ then <C-u><CR> to clear it.' }
  end
  return { '(no groups)' }
end

local dw = vim.fn.strdisplaywidth

-- `lines` broken at spaces to be at most `width` cells wide (a word wider
-- than that at a character); a line's continuation is indented 2 cells
-- past the line's own indent.
local function wrap(lines, width)
  local out = {}
  for _, line in ipairs(lines) do
    if dw(line) <= width then
      out[#out + 1] = line
    else
      local indent = line:match('^ *')
      local cont = indent .. '  '
      if #cont >= width then cont = '' end
      local cur, lead = nil, indent
      for word in line:gmatch('%S+') do
        if cur and dw(cur .. ' ' .. word) <= width then
          cur = cur .. ' ' .. word
        else
          if cur then
            out[#out + 1] = cur
            lead = cont
          end
          cur = lead .. word
          while dw(cur) > width do
            local k = vim.fn.strchars(cur)
            while k > #cont + 1 and dw(vim.fn.strcharpart(cur, 0, k)) > width do k = k - 1 end
            out[#out + 1] = vim.fn.strcharpart(cur, 0, k)
            cur = cont .. vim.fn.strcharpart(cur, k)
          end
        end
      end
      if cur then out[#out + 1] = cur end
    end
  end
  return out
end

local function redraw_highlights(pane)
  if api.nvim__buf_redraw_range then pcall(api.nvim__buf_redraw_range, pane.buf, 0, -1) end
end

-- Puts the cursor on the first line of item `i`; `topline` (1-based) when
-- given, else the window scrolls to show the item: as little as needed when
-- it is near, to put it in the middle when it is far.
local function place(pane, win, i, topline, offset, screen)
  local row = pane.drawn[i]
  if not row then return end
  local lnum = pane.tops[i] + 1 + math.min(offset or 0, math.max(0, row.height - 1))
  local view = win_view(win)
  local top = view.topline
  if topline then
    top = topline
  elseif screen then
    top = lnum - screen
  else
    -- Just off screen: scroll as little as needed; far off: in the middle.
    local h = api.nvim_win_get_height(win)
    local bottom = pane.tops[i] + math.max(1, row.height)
    if lnum < top - h or bottom > top + 2 * h - 1 then
      top = math.min(lnum - math.floor(h / 2), api.nvim_buf_line_count(pane.buf) - h + 1)
    elseif lnum < top then
      top = lnum
    elseif bottom > top + h - 1 then
      top = math.min(lnum, bottom - h + 1)
    end
  end
  top = math.max(1, math.min(top, lnum))
  api.nvim_win_call(win, function() vim.fn.winrestview({ lnum = lnum, col = 0, topline = top }) end)
end

-- Brings the buffer to `pane.rows`: the lines of the items that changed,
-- found by comparing the drawn list with the new one from both ends, are
-- replaced in one call; the cursor stays on its item (or goes where the
-- last action asked).
local function draw_items(pane)
  pane.dirty = false
  local focus_pos, focus_lost = pane.focus_pos, pane.focus_lost
  pane.focus_pos, pane.focus_lost = nil, nil
  local rows, drawn = pane.rows, pane.drawn
  local win = pane_win(pane)
  local anchor
  if win and #drawn > 0 and not pane.showing_message then
    local view = win_view(win)
    local i = index_at_line(pane, view.lnum)
    anchor = { index = i, row = drawn[i], offset = view.lnum - 1 - pane.tops[i], screen = view.lnum - view.topline }
  end
  local m, n = #rows, #drawn
  if m == 0 then
    -- A message is broken at the window's width: none of it is cut off.
    set_lines(pane, 0, -1, wrap(message_lines(pane), win and api.nvim_win_get_width(win) or pane.width))
    pane.drawn, pane.tops, pane.showing_message = {}, {}, true
    update_status(pane)
    pane.after_draw = nil
    return
  end
  local p, s = 0, 0
  if pane.showing_message or n == 0 then
    n = 0
    drawn = {}
  else
    while p < n and p < m and drawn[p + 1] == rows[p + 1] do p = p + 1 end
    while s < n - p and s < m - p and drawn[n - s] == rows[m - s] do s = s + 1 end
  end
  if anchor and anchor.index > p and anchor.index <= n - s and anchor.row.id then
    -- The item under the cursor was replaced, and may be gone: its groups,
    -- nearest first, read now from the list as it was drawn.
    local chain, parent, k = {}, anchor.row.parent, anchor.index
    while parent do
      while k > 1 and drawn[k].id ~= parent do k = k - 1 end
      if drawn[k].id ~= parent then break end
      chain[#chain + 1] = parent
      parent = drawn[k].parent
    end
    anchor.groups = chain
  end
  local tops = pane.tops
  local first_line = p == 0 and 0 or tops[p] + drawn[p].height
  local old_end = (n - s > p) and (tops[n - s] + drawn[n - s].height) or first_line
  if pane.showing_message then old_end = -1 end
  local lines = {}
  for i = p + 1, m - s do render.lines(rows[i], lines) end
  if #lines > 0 or old_end ~= first_line then set_lines(pane, first_line, old_end, lines) end
  pane.showing_message = false
  -- The drawn list is now `rows`: the items after the changed ones move
  -- (by m - n places and by the change in lines), the changed ones are new.
  if pane.drawn ~= drawn then
    drawn, tops = {}, {}
    pane.drawn, pane.tops = drawn, tops
  end
  local top = first_line
  for i = p + 1, m - s do top = top + rows[i].height end
  local shift = top - old_end
  if m ~= n and s > 0 then
    move(drawn, n - s + 1, n, m - s + 1)
    move(tops, n - s + 1, n, m - s + 1)
  end
  for i = n, m + 1, -1 do
    drawn[i] = nil
    tops[i] = nil
  end
  if shift ~= 0 then
    for i = m - s + 1, m do tops[i] = tops[i] + shift end
  end
  top = first_line
  for i = p + 1, m - s do
    local r = rows[i]
    drawn[i] = r
    tops[i] = top
    top = top + r.height
  end
  update_status(pane)
  if M.trace then M.trace('drawn', #lines) end
  if not win then
    pane.after_draw = nil
    return
  end
  local target = pane.after_draw
  pane.after_draw = nil
  if target then
    local i = target.id and find_id(rows, target.id, nil, nil, target.hint)
    if i then
      if target.current then
        pane.current = target.id
        redraw_highlights(pane)
      end
      place(pane, win, i, target.topline)
      anchor = nil
    end
  end
  if anchor then
    local i
    if focus_pos and not focus_lost then
      i = math.min(focus_pos, m)
    elseif anchor.index <= p then
      i = anchor.index
    elseif anchor.index > n - s then
      i = anchor.index + (m - n)
    else
      local row = anchor.row
      i = row.id and find_id(rows, row.id, p + 1, m - s)
      if not i and row.id then
        -- The item went away: its nearest group still shown.
        for _, id in ipairs(anchor.groups or {}) do
          i = find_id(rows, id)
          if i then break end
        end
      end
      if i and rows[i].id ~= row.id then anchor.offset = 0 end
      i = i or math.min(focus_pos or anchor.index, m)
    end
    place(pane, win, i, nil, anchor.offset, anchor.screen)
  end
  if pane.waiting_key then pane.waiting_key() end
end

function draw(pane)
  draw_items(pane)
  -- The filter's answer is drawn: the keys typed after it act now.
  if pane.held and (pane.filtering or 0) == 0 then release_keys(pane) end
end

---------------------------------------------------------------------------
-- Highlights: drawn when Neovim draws a line, for the lines on screen only.

-- Where `query` (lower-cased) occurs in `text`: {field, start, length}
-- ranges added to `out`, as the server gives them (UTF-8 bytes).
local function occurrences(out, field, text, query)
  if not text or text == '' then return end
  local lower = vim.fn.tolower(text)
  local pos = 1
  while true do
    local s = lower:find(query, pos, true)
    if not s then return end
    -- Lower-casing changed the length (rare): the match without its place.
    if #lower == #text then out[#out + 1] = { field = field, start = s - 1, length = #query } end
    out.found = true
    pos = s + #query
  end
end

-- The filter's match ranges of item `row`, or nil when it did not match:
-- those the server listed; past its cap, the item's own title (and a row's
-- detail) searched here, lower-cased, for the query.
function match_ranges(pane, row)
  if not row or row.stub then return nil end
  local listed = row.id and pane.matches[row.id]
  if listed or not pane.matches_capped or not pane.query then return listed end
  local query = vim.fn.tolower(pane.query)
  if row.folded_query ~= query then
    local out = {}
    occurrences(out, 'title', row.title, query)
    if row.kind ~= 'group' then occurrences(out, 'detail', row.detail, query) end
    row.folded_query, row.folded = query, out.found and out or false
    out.found = nil
  end
  return row.folded or nil
end

-- Highlights of line `lnum` (1-based) of a pane: {start col, end col, group}.
function M.line_highlights(buf, lnum)
  local pane = panes[buf]
  if not pane then return {} end
  local line = api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ''
  if pane.showing_message then return { { 0, #line, 'OutlineMessage' } } end
  local i = index_at_line(pane, lnum)
  local row = i and pane.drawn[i]
  if not row then return {} end
  return render.highlights(row, lnum - pane.tops[i], line, match_ranges(pane, row), row.id ~= nil and row.id == pane.current)
end

local PRIORITY = { OutlineMatch = 200, OutlineCurrent = 90 }

api.nvim_set_decoration_provider(ns_hl, {
  on_win = function(_, _, buf)
    return panes[buf] ~= nil
  end,
  on_line = function(_, _, buf, line0)
    pcall(function()
      for _, h in ipairs(M.line_highlights(buf, line0 + 1)) do
        if h[2] > h[1] then
          api.nvim_buf_set_extmark(buf, ns_hl, line0, h[1], {
            end_col = h[2], hl_group = h[3], ephemeral = true, priority = PRIORITY[h[3]] or 100,
          })
        end
      end
    end)
  end,
})

---------------------------------------------------------------------------
-- Keeping the server's outline in step with the buffer and the file

local function stop_polling(pane)
  if pane.poll then
    pane.poll:stop()
    if not pane.poll:is_closing() then pane.poll:close() end
    pane.poll = nil
  end
end

-- What tells one version of a file from the next.
local function stamp(path)
  local st = uv.fs_stat(path)
  if not st then return 'missing' end
  return table.concat({ st.ino, st.size, st.mtime.sec, st.mtime.nsec, st.ctime.sec, st.ctime.nsec }, ':')
end

-- A pane on a file that could not be opened (broken or missing) opens it
-- again when the file changes from what was read (its stamp is taken
-- before each open, so a change made meanwhile is not missed).
local function poll_file(pane)
  if pane.poll or not pane.file then return end
  pane.poll = uv.new_timer()
  pane.poll:start(500, 500, function()
    vim.schedule(function()
      if pane.closed or pane.open or pane.opening or not pane.poll then return end
      if stamp(pane.path) ~= pane.file_stamp then open_outline(pane) end
    end)
  end)
end

local function run_after_sync(pane)
  local waiting = pane.after_sync
  pane.after_sync = {}
  for _, fn in ipairs(waiting) do fn() end
end

local function source_pending(pane)
  return pane.source ~= nil and (pane.source:pending() or pane.syncing or pane.opening or pane.flush_armed)
end

-- Runs fn once the server has the buffer's latest text.
local function when_synced(pane, fn)
  if source_pending(pane) then
    table.insert(pane.after_sync, fn)
    if pane.flush_armed then
      pane.flush_timer:stop()
      pane.flush_armed = false
    end
    flush(pane)
  else
    fn()
  end
end

local function layout(pane)
  return {
    unit = 'cell', width = pane.width, indent = 2, narrowWidth = 1, wideWidth = 2, lineHeight = 1,
    padding = { top = 0, bottom = 0, left = 2, right = 0 },
  }
end

-- openOutline: the buffer's text (or the file, which the server reads), at
-- the pane's width. On success every item is fetched afresh.
function open_outline(pane)
  if pane.closed or pane.opening or pane.gone then return end
  local win = pane_win(pane)
  pane.width = win and api.nvim_win_get_width(win) or pane.width or M.config.width
  local params = { uri = pane.uri, layout = layout(pane) }
  if pane.file then
    params.watch = true
    pane.file_stamp = stamp(pane.path)
  else
    if not pane.source.attached and not pane.source:attach() then return end
    pane.source:take() -- edits from here on apply to this text
    if not source.matches_file(pane.src, pane.path) then
      params.text = source.text(pane.src)
      pane.stats.full = pane.stats.full + 1
    end
  end
  pane.opening = true
  local reopening = pane.open
  if reopening then pane.stats.reopens = pane.stats.reopens + 1 end
  request(pane, 'openOutline', params, function(res)
    pane.opening = false
    pane.open = true
    pane.message = nil
    stop_polling(pane)
    show_diagnostics(pane, res.diagnostics)
    -- A re-open answers no changes: the items are fetched again, unless
    -- nothing shown changed.
    if not (reopening and res.version == pane.version and res.total == #pane.rows) then
      pane.version = res.version
      resync(pane, res.total)
    end
    if pane.source and (pane.source:pending() or pane.sync_again) then
      pane.sync_again = false
      flush(pane)
    else
      run_after_sync(pane)
    end
  end, function(err)
    pane.opening = false
    pane.open = false
    local diags = type(err.data) == 'table' and err.data.diagnostics or nil
    if err.code == -32011 then
      show_diagnostics(pane, diags)
      pane.message = diagnostic_lines(pane.name, diags)
      table.insert(pane.message, '')
      table.insert(pane.message, pane.file and 'The pane opens when the file is fixed.'
        or 'The pane follows the buffer once it is fixed.')
    else
      pane.message = { friendly('openOutline', err, pane) or tostring(err.message) }
      if pane.file then
        table.insert(pane.message, '')
        table.insert(pane.message, 'The pane opens when the file is there.')
      end
    end
    pane.rows = {}
    draw(pane)
    if pane.file then poll_file(pane) end
    if pane.source and pane.source:pending() then
      -- Changes came while the open failed: try again with them.
      vim.schedule(function() flush(pane) end)
    end
    run_after_sync(pane)
    return true
  end)
end

-- Sends what changed in the YAML buffer: one changeOutline at a time.
function flush(pane)
  if pane.closed or not pane.source or pane.gone then return end
  if pane.syncing or pane.opening then
    pane.sync_again = true
    return
  end
  if not api.nvim_buf_is_valid(pane.src) then return end
  if not pane.open then
    open_outline(pane)
    return
  end
  if pane.source.full and not pane.uri:match('^untitled:') and source.size(pane.src) > M.config.reopen_size
    and source.matches_file(pane.src, pane.path) then
    -- A big buffer read again from its file (:e!, :checktime): the server
    -- reads the file too, rather than the editor building and sending it.
    open_outline(pane)
    return
  end
  local what = pane.source:take()
  if not what then
    run_after_sync(pane)
    return
  end
  if what.text then
    pane.stats.full = pane.stats.full + 1
  else
    pane.stats.edits = pane.stats.edits + 1
  end
  pane.syncing = true
  pane.sync_again = false
  request(pane, 'changeOutline', { uri = pane.uri, text = what.text, edits = what.edits }, function(res)
    pane.syncing = false
    show_diagnostics(pane, res.diagnostics)
    apply(pane, res)
    if pane.source:pending() or pane.sync_again then
      pane.sync_again = false
      flush(pane)
    else
      run_after_sync(pane)
    end
  end, function(err)
    pane.syncing = false
    if err.code == -32010 then
      pane.open = false
      flush(pane)
      return true
    end
    if what.edits and (err.code == -32602 or err.code == -32013 or err.code == -32800) then
      -- The server's text and the buffer differ (or the edits were not
      -- applied): send the whole text.
      pane.source:resend()
      flush(pane)
      return true
    end
    run_after_sync(pane)
    return false
  end)
end

-- Called from Neovim's on_lines: only arms the debounce timer.
local function changed(pane)
  if pane.closed then return end
  local now = uv.now()
  if not pane.flush_armed then
    pane.flush_armed = true
    pane.pending_since = now
  elseif now - pane.pending_since >= M.config.max_wait then
    return -- let the armed timer fire: a steady typist is still followed
  end
  pane.flush_timer:stop()
  pane.flush_timer:start(M.config.debounce, 0, function()
    vim.schedule(function()
      pane.flush_armed = false
      flush(pane)
    end)
  end)
end

---------------------------------------------------------------------------
-- Following the cursor of the YAML buffer

local follow

local function follow_pane(buf)
  for _, pane in pairs(panes) do
    if pane.src == buf then return pane end
  end
  local name = api.nvim_buf_get_name(buf)
  if name == '' then return nil end
  for _, pane in pairs(panes) do
    if pane.file and pane.path == name then return pane end
  end
  return nil
end

function follow(pane, buf)
  pane.follow_armed = false
  if pane.closed or not pane.open or not pane_win(pane) then return end
  if api.nvim_get_current_buf() ~= buf then return end
  if pane.source and source_pending(pane) then
    when_synced(pane, function()
      if api.nvim_get_current_buf() == buf then follow(pane, buf) end
    end)
    return
  end
  if pane.file and vim.bo[buf].modified then return end -- the server has the file, not this text
  local cursor = api.nvim_win_get_cursor(0)
  local position = { line = cursor[1] - 1, character = cursor[2] }
  local key = position.line .. ':' .. position.character .. ':' .. pane.version
  if key == pane.followed then return end
  pane.followed = key
  request(pane, 'itemAtPosition', { uri = pane.uri, position = position }, function(res)
    if not res then
      if pane.current then
        pane.current = nil
        redraw_highlights(pane)
      end
      return
    end
    local win = pane_win(pane)
    if not win then return end
    if res.index then
      pane.after_draw = { id = res.id, current = true }
      pane.dirty = true
      pump(pane)
      return
    end
    local view = win_view(win)
    request(pane, 'revealItem', {
      uri = pane.uri, id = res.id, scrollTop = view.topline - 1, viewportHeight = api.nvim_win_get_height(win),
    }, function(r)
      pane.after_draw = { id = r.id, current = true, topline = r.scrollTop and r.scrollTop + 1 }
      pane.dirty = true
      apply(pane, r)
    end)
  end)
end

local function cursor_moved(buf)
  if not M.config.follow then return end
  local pane = follow_pane(buf)
  if not pane or pane.closed then return end
  pane.follow_armed = true
  pane.follow_timer:stop()
  pane.follow_timer:start(M.config.follow_delay, 0, function()
    vim.schedule(function() follow(pane, buf) end)
  end)
end

---------------------------------------------------------------------------
-- Actions in the pane

-- True, and said, when the server of the pane exited by itself: a key
-- does not start it again, :Outline does.
local function gone(pane)
  if not pane.gone then return false end
  say(pane.gone .. '; :Outline starts it again')
  return true
end

local function ready(pane)
  if gone(pane) then return false end
  if not pane.open then
    if not pane.opening then open_outline(pane) end
    return false
  end
  return true
end

local function viewport(pane)
  local win = pane_win(pane)
  local view = win_view(win)
  return view.topline - 1, api.nvim_win_get_height(win)
end

-- The item under the cursor, for a key that needs its id: a stub (its text
-- not fetched yet) is fetched first, and the key acts when it has come.
local function with_item(pane, action)
  local i, row = cursor_item(pane)
  if not row then return nil end
  if not row.stub then return i, row end
  pane.waiting_key = function()
    local _, r = cursor_item(pane)
    if r and not r.stub then
      pane.waiting_key = nil
      action()
    end
  end
  pump(pane)
  return nil
end

-- Toggles the group under the cursor (on a row: its group); `expanded`
-- sets it instead. The group stays where it is on screen.
function M.toggle(pane, expanded)
  if not ready(pane) then return end
  local _, row = with_item(pane, function() M.toggle(pane, expanded) end)
  if not row then return end
  local id = row.kind == 'group' and row.id or row.parent
  if not id then return end
  local top, height = viewport(pane)
  request(pane, 'toggleSection', {
    uri = pane.uri, section = id, expanded = expanded, scrollTop = top, viewportHeight = height,
  }, function(res)
    local first = res.changes and res.changes[1]
    pane.after_draw = { id = res.id, topline = res.scrollTop and res.scrollTop + 1, hint = first and first.start }
    pane.dirty = true
    apply(pane, res)
  end)
end

local function all(pane, method)
  if not ready(pane) then return end
  local top, height = viewport(pane)
  request(pane, method, { uri = pane.uri, scrollTop = top, viewportHeight = height }, function(res)
    pane.dirty = true
    apply(pane, res)
  end)
end

function M.expand_all(pane) all(pane, 'expandAll') end

function M.collapse_all(pane) all(pane, 'collapseAll') end

-- A navigate key the server decides (right, left, expandSiblings, {type}).
function M.navigate(pane, key, on_done)
  if not ready(pane) then return end
  local _, row = with_item(pane, function() M.navigate(pane, key, on_done) end)
  if not row then return end
  request(pane, 'navigate', { uri = pane.uri, from = row.id, key = key }, function(res)
    pane.after_draw = { id = res.focus }
    pane.dirty = true
    apply(pane, res)
    if on_done then on_done(res, row) end
  end)
end

-- Moves the cursor by `delta` items (the list is all here: no request).
function M.move(pane, delta, absolute)
  if gone(pane) then return end
  local win = pane_win(pane)
  local i = cursor_item(pane)
  if not i then return end
  local j = absolute or (i + delta)
  j = math.max(1, math.min(#pane.drawn, j))
  place(pane, win, j)
end

local function starts_with(title, text)
  return vim.fn.tolower(title):sub(1, #text) == vim.fn.tolower(text)
end

-- Type-ahead: letters typed within `typeahead_timeout` of each other make
-- one search for the next item whose title starts with them.
function M.typeahead(pane, char)
  local now = uv.now()
  if pane.typed and now - pane.typed_at < M.config.typeahead_timeout then
    pane.typed = pane.typed .. char
  else
    pane.typed = char
  end
  pane.typed_at = now
  if pane.typed == '' then return end
  local text = pane.typed
  M.navigate(pane, { type = text }, function(res, from)
    if res.focus == from.id and not starts_with(from.title or '', text) then
      say('no item starts with “' .. text .. '”', vim.log.levels.INFO)
    end
  end)
end

local function typing(pane)
  return pane.typed ~= nil and uv.now() - pane.typed_at < M.config.typeahead_timeout
end

-- The filter prompt: <CR> filters (an empty text clears the filter), <Esc>
-- leaves the filter as it was.
function M.filter(pane, query)
  if not ready(pane) then return end
  if query == nil then
    local ok, text = pcall(vim.fn.input, { prompt = 'Filter: ', default = pane.query or '', cancelreturn = CANCEL })
    vim.cmd('redraw')
    if not ok or text == CANCEL then return end
    query = text
  end
  local top, height = viewport(pane)
  -- The keys typed from here on wait for the answer (see act).
  pane.held = pane.held or {}
  pane.filtering = (pane.filtering or 0) + 1
  local function answered()
    pane.filtering = pane.filtering - 1
  end
  request(pane, 'filterOutline', { uri = pane.uri, query = query, scrollTop = top, viewportHeight = height },
    function(res)
      answered()
      pane.query = query ~= '' and query or nil
      pane.matches = {}
      local matches = res.matches or {}
      for _, mt in ipairs(matches) do pane.matches[mt.id] = mt.ranges end
      -- The server lists the first MATCHES_CAP matches only: the others are
      -- found in the items the pane holds (see match_ranges).
      pane.matches_capped = #matches >= MATCHES_CAP
      pane.after_draw = matches[1] and { id = matches[1].id } or nil
      pane.dirty = true
      apply(pane, res)
      -- An answer older than the pane, or one that drew already.
      if pane.filtering == 0 and (not pane.dirty or (res.version and res.version < pane.version)) then
        release_keys(pane)
      end
      if pane.query and res.total == 0 then
        say('no item matches “' .. query .. '”', vim.log.levels.INFO)
      end
    end,
    function()
      answered()
      if pane.filtering == 0 then vim.schedule(function() release_keys(pane) end) end
      return false
    end)
end

-- The next (or previous) item that matched the filter. Past the matches
-- the server listed (it lists MATCHES_CAP at most), the items the pane
-- holds are searched; an item whose text has not come yet stops the search.
function M.next_match(pane, step)
  if gone(pane) then return end
  local i = cursor_item(pane)
  if not i or not pane.query then return end
  local n = #pane.drawn
  for d = 1, n do
    local j = (i - 1 + step * d) % n + 1
    local r = pane.drawn[j]
    if r.stub and pane.matches_capped then
      say('the items are still coming in: press ' .. (step > 0 and 'n' or 'N') .. ' again in a moment',
        vim.log.levels.INFO)
      return
    end
    if match_ranges(pane, r) then return place(pane, pane_win(pane), j) end
  end
end

-- Shows `position` ({line, character}, UTF-8 bytes) of the YAML in a window
-- beside the pane, which gets the focus when `focus`.
local function show_source(pane, position, focus)
  local pane_window = pane_win(pane)
  local buf = yaml_buffer(pane)
  local win
  for _, w in ipairs(api.nvim_tabpage_list_wins(0)) do
    if w ~= pane_window and buf and api.nvim_win_get_buf(w) == buf then
      win = w
      break
    end
  end
  if not win then
    local prev = vim.fn.win_getid(vim.fn.winnr('#'))
    if prev ~= 0 and prev ~= pane_window and not panes[api.nvim_win_get_buf(prev)]
      and api.nvim_win_get_config(prev).relative == '' then
      win = prev
    else
      for _, w in ipairs(api.nvim_tabpage_list_wins(0)) do
        if not panes[api.nvim_win_get_buf(w)] and api.nvim_win_get_config(w).relative == '' then
          win = w
          break
        end
      end
    end
    if not win then
      api.nvim_win_call(pane_window, function()
        vim.cmd((M.config.position == 'left' and 'rightbelow' or 'leftabove') .. ' vsplit')
        win = api.nvim_get_current_win()
      end)
      api.nvim_win_set_width(pane_window, pane.width or M.config.width)
    end
    if buf then
      api.nvim_win_set_buf(win, buf)
    else
      api.nvim_win_call(win, function() vim.cmd('edit ' .. vim.fn.fnameescape(pane.path)) end)
      buf = api.nvim_win_get_buf(win)
    end
  end
  local count = api.nvim_buf_line_count(buf)
  local lnum = math.max(1, math.min(position.line + 1, count))
  local text = api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ''
  api.nvim_win_set_cursor(win, { lnum, math.min(position.character, #text) })
  api.nvim_win_call(win, function()
    vim.cmd('normal! zv')
    local view = vim.fn.winsaveview()
    local h = api.nvim_win_get_height(win)
    if lnum < view.topline or lnum >= view.topline + h then vim.cmd('normal! zz') end
  end)
  if focus then api.nvim_set_current_win(win) end
end

-- Goes to the line of the item under the cursor in the YAML (its `range`,
-- fetched now: ranges move with every edit).
function M.jump(pane, focus)
  if not ready(pane) then return end
  local i, row = with_item(pane, function() M.jump(pane, focus) end)
  if not row then return end
  when_synced(pane, function()
    local j = pane.rows[i] == row and i or find_id(pane.rows, row.id)
    if not j then return end
    request(pane, 'visibleRows', { uri = pane.uri, start = j - 1, count = 1, include = { 'range' } }, function(res)
      local r = res.rows and res.rows[1]
      if not r or r.id ~= row.id or not r.range then
        say('the outline changed meanwhile: press the key again')
        return
      end
      show_source(pane, r.range.start, focus)
    end)
  end)
end

-- Closes the pane. In the last window the YAML buffer (the file of a pane
-- on a file, or an empty buffer) takes the window's place.
function M.close(pane)
  local win = pane_win(pane) or api.nvim_get_current_win()
  local others = 0
  for _, w in ipairs(api.nvim_tabpage_list_wins(0)) do
    if w ~= win and api.nvim_win_get_config(w).relative == '' then others = others + 1 end
  end
  if others > 0 then
    api.nvim_win_close(win, true)
  elseif #api.nvim_list_tabpages() > 1 then
    vim.cmd('tabclose')
  else
    local buf = yaml_buffer(pane)
    if buf then
      api.nvim_win_set_buf(win, buf)
    elseif pane.file then
      api.nvim_win_call(win, function() vim.cmd('edit ' .. vim.fn.fnameescape(pane.path)) end)
    else
      api.nvim_win_call(win, function() vim.cmd('enew') end)
    end
  end
end

---------------------------------------------------------------------------
-- Opening and closing panes

local function close_pane(pane)
  if pane.closed then return end
  pane.closed = true
  panes[pane.buf] = nil
  if pane.source then pane.source:close() end
  for _, t in ipairs({ pane.flush_timer, pane.follow_timer, pane.layout_timer }) do
    t:stop()
    if not t:is_closing() then t:close() end
  end
  stop_polling(pane)
  if pane.open and client and not client.exited then client:request('closeOutline', { uri = pane.uri }) end
  local b = yaml_buffer(pane)
  if b then vim.diagnostic.reset(ns, b) end
end

-- Sends the pane's width when the window changed it (every item is then
-- fetched again: each height depends on the width); a message is broken
-- again. `by_vim`: the editor resized the window (VimResized), not the
-- user, whose width (`want_width`) the pane gets back when there is room.
local function relayout(pane, by_vim)
  local win = pane_win(pane)
  if not win or pane.closed then return end
  local width = api.nvim_win_get_width(win)
  if by_vim and pane.want_width and width < pane.want_width then
    -- The editor grew again after it narrowed the pane ('winfixwidth'
    -- keeps the narrow width): the width the user chose, as far as it fits.
    api.nvim_win_set_width(win, pane.want_width)
    width = api.nvim_win_get_width(win)
  end
  if width == pane.width then return end
  if not by_vim then pane.want_width = width end
  pane.width = width
  update_status(pane)
  if pane.showing_message then draw(pane) end
  if not pane.open then return end
  request(pane, 'setLayout', { uri = pane.uri, width = width }, function(res)
    if res.version ~= pane.version then
      pane.version = res.version
      resync(pane, #pane.rows)
    end
  end)
end

-- The next key typed, for a key that takes one (f, g, z); nil for <Esc>.
local function next_key()
  local ok, c = pcall(vim.fn.getcharstr)
  if not ok or c == '' or c == '\27' then return nil end
  return c
end

local function map_keys(pane)
  local buf = pane.buf
  local function map(lhs, fn)
    api.nvim_buf_set_keymap(buf, 'n', lhs, '', { noremap = true, silent = true, nowait = true, callback = fn })
  end
  local function ahead(c)
    act(pane, function() M.typeahead(pane, c) end)
  end
  -- A key's action gets the count typed before it. A letter continues a
  -- type-ahead search under way.
  local function key(lhs, fn)
    local letter = #lhs == 1 and lhs:match('%a')
    map(lhs, function()
      if letter and typing(pane) then return ahead(lhs) end
      local n = vim.v.count1
      act(pane, function() fn(n) end)
    end)
  end
  key('j', function(n) M.move(pane, n) end)
  key('k', function(n) M.move(pane, -n) end)
  key('<Down>', function(n) M.move(pane, n) end)
  key('<Up>', function(n) M.move(pane, -n) end)
  key('<Home>', function() M.move(pane, 0, 1) end)
  key('G', function() M.move(pane, 0, #pane.drawn) end)
  key('<End>', function() M.move(pane, 0, #pane.drawn) end)
  key('h', function() M.navigate(pane, 'left') end)
  key('<Left>', function() M.navigate(pane, 'left') end)
  key('l', function() M.navigate(pane, 'right') end)
  key('<Right>', function() M.navigate(pane, 'right') end)
  key('o', function() M.toggle(pane) end)
  key('*', function() M.navigate(pane, 'expandSiblings') end)
  local function enter()
    if gone(pane) then return end
    local _, row = with_item(pane, enter)
    if not row then return end
    if row.kind == 'group' then M.toggle(pane) else M.jump(pane, true) end
  end
  key('<CR>', enter)
  key('p', function() M.jump(pane, false) end)
  -- Not held: the prompt reads the keys typed after it.
  map('/', function() M.filter(pane) end)
  key('n', function() M.next_match(pane, 1) end)
  key('N', function() M.next_match(pane, -1) end)
  key('q', function() M.close(pane) end)
  -- g and z read the key after them here rather than through two-key
  -- mappings, so that a lone g or z never waits for one: in a type-ahead
  -- they are letters like any other. Their other pairs keep Vim's meaning
  -- (zt, zz, ...).
  local pairs_of = {
    g = {
      g = function() M.move(pane, 0, 1) end,
      d = function() M.jump(pane, true) end,
      ['?'] = function() vim.cmd('help outline-keys') end,
    },
    z = {
      a = function() M.toggle(pane) end,
      o = function() M.toggle(pane, true) end,
      c = function() M.toggle(pane, false) end,
      R = function() M.expand_all(pane) end,
      M = function() M.collapse_all(pane) end,
    },
  }
  for prefix, actions in pairs(pairs_of) do
    map(prefix, function()
      if typing(pane) then return ahead(prefix) end
      local count = vim.v.count
      local c = next_key()
      if not c then return end
      local fn = actions[c]
      if fn then return act(pane, fn) end
      pcall(vim.cmd, 'normal! ' .. (count > 0 and count or '') .. prefix .. c)
    end)
  end
  -- f{char}: a type-ahead that starts with any character, a key's too.
  map('f', function()
    if typing(pane) then return ahead('f') end
    local c = next_key()
    if not c or c:byte(1) == 0x80 or c:byte(1) < 0x20 then return end
    act(pane, function()
      pane.typed = nil
      M.typeahead(pane, c)
    end)
  end)
  key('?', function() vim.cmd('help outline-keys') end)
  local bound = { j = 1, k = 1, G = 1, h = 1, l = 1, o = 1, p = 1, n = 1, N = 1, q = 1, f = 1, g = 1, z = 1 }
  for c in ('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'):gmatch('.') do
    if not bound[c] then map(c, function() ahead(c) end) end
  end
end

local function is_yaml(buf)
  local name = api.nvim_buf_get_name(buf)
  local ft = vim.bo[buf].filetype
  return ft == 'yaml' or ft == 'json' or name:match('%.ya?ml$') ~= nil or name:match('%.json$') ~= nil
end

local function focus_pane(pane)
  local w = pane_win(pane)
  if w then
    api.nvim_set_current_win(w)
  else
    vim.cmd((M.config.position == 'left' and 'topleft' or 'botright') .. ' vsplit')
    api.nvim_win_set_buf(0, pane.buf)
    api.nvim_win_set_width(0, pane.width or M.config.width)
    pane.win = api.nvim_get_current_win()
  end
  return pane
end

local function setup_window(win)
  for opt, value in pairs({
    number = false, relativenumber = false, wrap = false, list = false, signcolumn = 'no',
    foldcolumn = '0', foldenable = false, cursorline = true, winfixwidth = true, spell = false,
    colorcolumn = '',
  }) do
    api.nvim_win_set_option(win, opt, value)
  end
end

-- :Outline after the server exited by itself: a new server. Returns the
-- panes the old one served, which say they are opening; M.open opens them.
local function revive()
  if client and client.exited then client = nil end
  local list = {}
  for _, pane in pairs(panes) do
    if pane.gone then list[#list + 1] = pane end
  end
  if #list == 0 or not M.client() then return {} end
  for _, pane in ipairs(list) do
    pane.gone = nil
    pane.message = { 'Opening ' .. pane.name .. '…' }
    draw(pane)
  end
  return list
end

-- Opens the pane for `file` (read from disk and watched), or for the
-- current buffer (its edits followed). Returns the pane.
local function open_pane(file)
  local src, path
  if file and file ~= '' then
    path = vim.fn.fnamemodify(vim.fn.expand(file), ':p')
  else
    src = api.nvim_get_current_buf()
    local own = panes[src]
    if own then
      -- :Outline in a pane: open its outline again if the server lost it.
      if not own.open and not own.opening then open_outline(own) end
      return own
    end
    if not is_yaml(src) then
      say('the current buffer is not YAML; name a file: :Outline FILE', vim.log.levels.ERROR)
      return nil
    end
    local name = api.nvim_buf_get_name(src)
    path = name ~= '' and vim.fn.fnamemodify(name, ':p') or nil
  end
  local uri = path and vim.uri_from_fname(path) or ('untitled:outline-' .. src)
  -- One pane per outline: the server has one outline per uri.
  for _, p in pairs(panes) do
    if p.uri == uri then
      if src and p.file then
        -- The buffer of a file that has a pane: the pane follows the buffer
        -- from now on (its unsaved changes too).
        stop_polling(p)
        p.file, p.src = false, src
        p.source = source.new(src, function() changed(p) end, function() p.detached = true end)
        open_outline(p)
      end
      return focus_pane(p)
    end
  end
  if not M.client() then return nil end
  local name = path and vim.fn.fnamemodify(path, ':t') or ('[buffer ' .. src .. ']')
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_name(buf, 'outline://' .. (path or uri))
  for opt, value in pairs({
    buftype = 'nofile', bufhidden = 'wipe', swapfile = false, modifiable = false, undolevels = -1,
    filetype = 'outline',
  }) do
    api.nvim_buf_set_option(buf, opt, value)
  end
  vim.cmd((M.config.position == 'left' and 'topleft' or 'botright') .. ' vsplit')
  local win = api.nvim_get_current_win()
  api.nvim_win_set_buf(win, buf)
  api.nvim_win_set_width(win, M.config.width)
  setup_window(win)
  local pane = {
    buf = buf, win = win, src = src, path = path or uri, uri = uri, name = name, file = src == nil,
    rows = {}, drawn = {}, tops = {}, version = 0, busy = 0, fetching = 0, matches = {}, after_sync = {},
    showing_message = true,
    flush_timer = uv.new_timer(), follow_timer = uv.new_timer(), layout_timer = uv.new_timer(),
    stats = { full = 0, edits = 0, reopens = 0, fetched = 0, requests = {} },
    width = api.nvim_win_get_width(win), want_width = M.config.width,
  }
  panes[buf] = pane
  if src then
    pane.source = source.new(src, function() changed(pane) end, function()
      -- The buffer was unloaded: the pane keeps the last outline and
      -- follows the buffer again when it is read back.
      pane.detached = true
    end)
  end
  map_keys(pane)
  api.nvim_create_autocmd('BufWipeout', { group = group, buffer = buf, callback = function() close_pane(pane) end })
  set_lines(pane, 0, -1, { 'Opening ' .. name .. '…' })
  open_outline(pane)
  return pane
end

-- Opens the pane for `file` (read from disk and watched), or for the
-- current buffer (its edits followed); after the server exited by itself,
-- starts it again and opens the outline of every pane. Returns the pane.
function M.open(file)
  local revived = revive()
  local pane = open_pane(file)
  -- Those open_pane did not open already.
  for _, p in ipairs(revived) do open_outline(p) end
  return pane
end

-- :Outline [FILE]
function M.command(args)
  M.open(args.args)
end

---------------------------------------------------------------------------
-- Server notifications and exit

function on_notification(method, params)
  if method ~= 'outlineChanged' or type(params) ~= 'table' then return end
  for _, pane in pairs(panes) do
    if pane.uri == params.uri and pane.open then
      show_diagnostics(pane, params.diagnostics)
      if pane.source and vim.bo[pane.src].modified then
        -- The server read the file over the buffer's text: send the text.
        pane.source:resend()
        changed(pane)
      end
      apply(pane, params)
    end
  end
end

-- The server ended. Ended by M.stop() (Neovim quitting) or replaced, it is
-- no news. Ended by itself: every pane says so in place of its outline,
-- with the last line the server wrote on its standard error, and waits for
-- :Outline (the requests under way were answered -32099 just before).
function on_exit(c, code, signal)
  if c ~= client then return end
  local why = ('outline-server exited (%s)'):format(signal ~= 0 and ('signal ' .. signal) or ('status ' .. code))
  local last = M.stderr:match('([^\n]*%S)%s*$')
  if last then why = why .. ': ' .. vim.trim(last):sub(1, 300) end
  say(why, vim.log.levels.ERROR)
  for _, pane in pairs(panes) do
    pane.gone = why
    pane.open, pane.opening, pane.syncing, pane.sync_again = false, false, false, false
    pane.busy, pane.fetching, pane.filtering, pane.held, pane.waiting_key = 0, 0, 0, nil, nil
    pane.after_sync = {}
    -- The next server has none of this pane's state: no filter, no current item.
    pane.query, pane.matches, pane.matches_capped, pane.current = nil, {}, false, nil
    stop_polling(pane)
    pane.message = { why:match('[.!?]$') and why or (why .. '.'), '', ':Outline starts it again.' }
    pane.rows = {}
    draw(pane)
  end
end

---------------------------------------------------------------------------
-- For tests and scripts

-- The process id of the server, or nil when none is running.
function M.server_pid()
  if client and not client.exited then return client.pid end
  return nil
end

-- The pane shown in buffer `buf` (default: the current buffer).
function M.pane(buf)
  return panes[buf or api.nvim_get_current_buf()]
end

-- True when the pane has nothing under way: no request, no pending change,
-- no armed timer, every item fetched and drawn.
function M.idle(buf)
  local pane = panes[buf or api.nvim_get_current_buf()]
  if not pane then return true end
  if pane.busy > 0 or pane.flush_armed or pane.follow_armed or pane.dirty then return false end
  if pane.source and pane.source:pending() then return false end
  if M.config.prefetch then
    for i = 1, #pane.rows do
      local r = pane.rows[i]
      if not r or r.stub then return false end
    end
  end
  return true
end

function M.setup(opts)
  M.config = vim.tbl_extend('force', M.config, opts or {})
end

---------------------------------------------------------------------------
-- Autocommands

render.define_highlights()

api.nvim_create_autocmd('ColorScheme', { group = group, callback = render.define_highlights })

api.nvim_create_autocmd({ 'VimResized', 'WinScrolled', 'WinEnter', 'BufWinEnter' }, {
  group = group,
  callback = function(args)
    for _, pane in pairs(panes) do
      if args.event == 'VimResized' then pane.vim_resized = true end
      -- Scrolled into items not fetched yet: ask for them now.
      if args.event == 'WinScrolled' and pane.open and not pane.closed then pump(pane) end
      if not pane.layout_timer:is_active() then
        pane.layout_timer:start(50, 0, function()
          vim.schedule(function()
            if pane.closed then return end
            local by_vim = pane.vim_resized
            pane.vim_resized = nil
            relayout(pane, by_vim)
            pump(pane)
          end)
        end)
      end
    end
  end,
})

api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI' }, {
  group = group,
  callback = function(args)
    if not next(panes) then return end
    local pane = panes[args.buf]
    if not pane then return cursor_moved(args.buf) end
    -- A window resized by keys: Neovim 0.7 has no event for it.
    local win = pane_win(pane)
    if win and api.nvim_win_get_width(win) ~= pane.width then relayout(pane, pane.vim_resized) end
  end,
})

-- A YAML buffer read again after it was unloaded: follow it again.
api.nvim_create_autocmd('BufReadPost', {
  group = group,
  callback = function(args)
    for _, pane in pairs(panes) do
      if pane.source and pane.detached
        and (pane.src == args.buf or api.nvim_buf_get_name(args.buf) == pane.path) then
        pane.detached = false
        pane.src = args.buf
        pane.source = source.new(args.buf, function() changed(pane) end, function() pane.detached = true end)
        pane.source:attach()
        pane.source:resend()
        changed(pane)
      end
    end
  end,
})

-- :q in the last window beside panes quits: the panes close with it.
api.nvim_create_autocmd('QuitPre', {
  group = group,
  callback = function()
    local cur = api.nvim_get_current_win()
    if panes[api.nvim_win_get_buf(cur)] then return end
    local pane_wins, others = {}, 0
    for _, w in ipairs(api.nvim_tabpage_list_wins(0)) do
      if w ~= cur and api.nvim_win_get_config(w).relative == '' then
        if panes[api.nvim_win_get_buf(w)] then pane_wins[#pane_wins + 1] = w else others = others + 1 end
      end
    end
    if others == 0 then
      for _, w in ipairs(pane_wins) do pcall(api.nvim_win_close, w, true) end
    end
  end,
})

api.nvim_create_autocmd('VimLeavePre', { group = group, callback = function() M.stop() end })

return M
