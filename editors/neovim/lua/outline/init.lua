-- An outline pane for Neovim driven by outline-server.
--
--   require('outline').setup({ cmd = { 'outline-server' }, width = 40 })
--   :Outline          outline of the current YAML buffer (edits are followed)
--   :Outline FILE     outline of FILE, read from disk
--
-- In the pane: <CR>, o, za toggle the group under the cursor; zR expands
-- all, zM collapses all; q closes the pane.
local rpc = require('outline.rpc')

local M = {}

M.config = {
  cmd = nil, -- list; default: $OUTLINE_SERVER, else outline-server on PATH
  width = 40, -- pane width in columns
  debounce = 150, -- ms between a buffer edit and changeOutline
}

local client = nil
local panes = {} -- pane buffer -> pane state
local ns = vim.api.nvim_create_namespace('outline')
local group = vim.api.nvim_create_augroup('OutlinePane', { clear = true })

local function server_cmd()
  if M.config.cmd then
    if type(M.config.cmd) == 'string' then return { M.config.cmd } end
    return M.config.cmd
  end
  local env = vim.env.OUTLINE_SERVER
  if env and env ~= '' then return { env } end
  return { 'outline-server' }
end

local function notify_error(msg)
  vim.notify('outline: ' .. msg, vim.log.levels.ERROR)
end

local function err_text(err)
  if type(err) == 'table' then return tostring(err.message) .. ' (' .. tostring(err.code) .. ')' end
  return tostring(err)
end

-- The running client, started and initialized on first use.
function M.client()
  if client and not client.exited then return client end
  local c, e = rpc.start(server_cmd(), {
    on_notification = function(method, params) M._on_notification(method, params) end,
    on_stderr = function(text) M.stderr = (M.stderr or '') .. text end,
  })
  if not c then
    notify_error(e)
    return nil
  end
  local _, err = c:request_sync('initialize', {
    clientInfo = { name = 'neovim-outline', version = '1' },
    capabilities = { general = { positionEncodings = { 'utf-8' } } },
  })
  if err then
    notify_error('initialize failed: ' .. err_text(err))
    return nil
  end
  c:notify('initialized')
  client = c
  return c
end

-- Ends the server: shutdown then exit. Returns the server's exit status.
function M.stop()
  if not client then return nil end
  local c = client
  client = nil
  return c:stop(3000)
end

---------------------------------------------------------------------------
-- Text: wrapping to a width in display cells, as the server counts lines.

local function chars(s)
  return vim.fn.split(s, '\\zs')
end

local function width_of(s)
  return vim.fn.strdisplaywidth(s)
end

-- Splits one line of text into pieces to lay out: a word with the spaces
-- after it, or a wide character (with the spaces after it).
local function tokens(line)
  local out, cur = {}, nil
  for _, ch in ipairs(chars(line)) do
    local w = width_of(ch)
    if ch == ' ' or ch == '\t' then
      if not cur then cur = { text = '', core = '' } end
      cur.text = cur.text .. ch
      cur.spaced = true
    elseif w >= 2 then
      if cur then out[#out + 1] = cur end
      cur = { text = ch, core = ch, wide = true }
    else
      if cur and (cur.spaced or cur.wide) then
        out[#out + 1] = cur
        cur = nil
      end
      cur = cur or { text = '', core = '' }
      cur.text = cur.text .. ch
      cur.core = cur.core .. ch
    end
  end
  if cur then out[#out + 1] = cur end
  return out
end

-- Lines of `text` wrapped at `width` cells; an empty text has no lines.
function M.wrap(text, width)
  local out = {}
  if text == nil or text == '' then return out end
  width = math.max(1, width)
  text = text:gsub('\r\n', '\n'):gsub('\226\128\168', '\n')
  for _, para in ipairs(vim.split(text, '\n', { plain = true })) do
    local line, lw = '', 0
    local function flush()
      out[#out + 1] = (line:gsub('%s+$', ''))
      line, lw = '', 0
    end
    for _, tok in ipairs(tokens(para)) do
      local cw = width_of(tok.core)
      if lw > 0 and lw + cw > width then flush() end
      if cw > width then
        for _, ch in ipairs(chars(tok.core)) do
          local w = width_of(ch)
          if lw > 0 and lw + w > width then flush() end
          line, lw = line .. ch, lw + w
        end
        local rest = tok.text:sub(#tok.core + 1)
        line, lw = line .. rest, lw + width_of(rest)
      else
        line, lw = line .. tok.text, lw + width_of(tok.text)
      end
    end
    flush()
  end
  return out
end

local function join_lines(a, b)
  local last, first = vim.fn.strcharpart(a, vim.fn.strchars(a) - 1), vim.fn.strcharpart(b, 0, 1)
  if a ~= '' and b ~= '' and width_of(last) < 2 and width_of(first) < 2 then return a .. ' ' .. b end
  return a .. b
end

-- Makes title + detail lines exactly `height` lines. The server's height is
-- the truth for positions; where this wrapping gives more lines (widths
-- counted differently), the last lines of a text are joined back.
local function fit(title, detail, height)
  while #title + #detail > height do
    if #detail > 1 then
      local b = table.remove(detail)
      detail[#detail] = join_lines(detail[#detail], b)
    elseif #title > 1 then
      local b = table.remove(title)
      title[#title] = join_lines(title[#title], b)
    elseif #detail == 1 then
      title[#title] = join_lines(title[#title], table.remove(detail))
    else
      break
    end
  end
  return vim.list_extend(title, detail)
end

-- The lines of one visible row, exactly `row.height` of them.
function M.row_lines(row, width)
  local indent = string.rep(' ', 2 * row.depth)
  local h = row.height or 1
  local lines
  if row.kind == 'group' then
    local header = indent .. (row.expanded and '▾ ' or '▸ ') .. row.title
    if row.badge and row.badge ~= vim.NIL then header = header .. ' ' .. row.badge end
    header = header .. '  ' .. row.activeCount .. '/' .. row.rowCount
    lines = { header }
  else
    local wrap_width = width - 2 * row.depth - 2
    local title = M.wrap(row.title, wrap_width)
    if #title == 0 then title = { '' } end
    local detail = {}
    if row.detail and row.detail ~= vim.NIL then detail = M.wrap(row.detail, wrap_width) end
    lines = {}
    for i, t in ipairs(fit(title, detail, h)) do
      local marker = '  '
      if i == 1 then marker = row.active and '● ' or '○ ' end
      lines[i] = indent .. marker .. t
    end
  end
  while #lines > h do table.remove(lines) end
  while #lines < h do lines[#lines + 1] = '' end
  return lines
end

---------------------------------------------------------------------------
-- The pane.

local function pane_of(buf)
  return panes[buf or vim.api.nvim_get_current_buf()]
end

local function pane_win(pane)
  if pane.win and vim.api.nvim_win_is_valid(pane.win) and vim.api.nvim_win_get_buf(pane.win) == pane.buf then
    return pane.win
  end
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == pane.buf then
      pane.win = w
      return w
    end
  end
  return nil
end

local function draw(pane, lines)
  vim.api.nvim_buf_set_option(pane.buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(pane.buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(pane.buf, 'modifiable', false)
end

-- Fetches the visible list and redraws the pane.
function M.refresh(pane)
  local c = M.client()
  if not c or not pane.open then return false end
  local result, err = c:request_sync('visibleRows', { uri = pane.uri })
  if err then
    notify_error('visibleRows: ' .. err_text(err))
    return false
  end
  pane.rows = result.rows
  pane.version = result.version
  pane.line_row, pane.row_line, pane.index_of = {}, {}, {}
  local lines = {}
  for i, row in ipairs(result.rows) do
    pane.row_line[i] = #lines + 1
    pane.index_of[row.id] = i
    for _, l in ipairs(M.row_lines(row, pane.width)) do
      lines[#lines + 1] = l
      pane.line_row[#lines] = i
    end
  end
  if #lines == 0 then lines = { '(empty outline)' } end
  draw(pane, lines)
  return true
end

-- Sends the window width to the server and redraws.
function M.relayout(pane)
  local win = pane_win(pane)
  if not win or not pane.open then return end
  local width = vim.api.nvim_win_get_width(win)
  if width == pane.width then return end
  pane.width = width
  local _, err = M.client():request_sync('setLayout', { uri = pane.uri, width = width, padding = { left = 2 } })
  if err then
    notify_error('setLayout: ' .. err_text(err))
    return
  end
  local view = vim.api.nvim_win_call(win, vim.fn.winsaveview)
  M.refresh(pane)
  vim.api.nvim_win_call(win, function() vim.fn.winrestview(view) end)
end

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

local function show_diagnostics(pane, list)
  pane.diagnostics = list or {}
  if pane.src and vim.api.nvim_buf_is_valid(pane.src) then
    vim.diagnostic.set(ns, pane.src, to_diagnostics(list))
  end
end

local function buffer_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

-- Opens (or re-opens) the outline on the server. Returns true when open.
local function open_outline(pane, text)
  local params = { uri = pane.uri, text = text }
  local result, err = M.client():request_sync('openOutline', params)
  if err then
    pane.open = false
    local diags = type(err.data) == 'table' and err.data.diagnostics or nil
    if diags then show_diagnostics(pane, diags) end
    draw(pane, { '(' .. tostring(err.message) .. ')' })
    return false
  end
  pane.open = true
  pane.width = nil
  show_diagnostics(pane, result.diagnostics)
  return true
end

-- Sends the source buffer's text with changeOutline and redraws when applied.
function M.sync(pane)
  pane.timer_pending = false
  if not vim.api.nvim_buf_is_valid(pane.buf) or not vim.api.nvim_buf_is_valid(pane.src) then return end
  local c = M.client()
  if not c then return end
  local text = buffer_text(pane.src)
  if not pane.open then
    if open_outline(pane, text) then
      M.relayout(pane)
      M.refresh(pane)
    end
    return
  end
  local result, err = c:request_sync('changeOutline', { uri = pane.uri, text = text })
  if err then
    notify_error('changeOutline: ' .. err_text(err))
    return
  end
  show_diagnostics(pane, result.diagnostics)
  if result.applied then
    local win = pane_win(pane)
    local view = win and vim.api.nvim_win_call(win, vim.fn.winsaveview)
    M.refresh(pane)
    if win then vim.api.nvim_win_call(win, function() vim.fn.winrestview(view) end) end
  end
end

local function schedule_sync(pane)
  if pane.timer_pending then return end
  pane.timer_pending = true
  vim.defer_fn(function() M.sync(pane) end, M.config.debounce)
end

local function row_under_cursor(pane)
  local win = pane_win(pane)
  if not win or not pane.rows then return nil end
  local lnum = vim.api.nvim_win_get_cursor(win)[1]
  local i = pane.line_row[lnum]
  return i and pane.rows[i], lnum
end

-- Puts the cursor on the first line of the item `id` (or its nearest
-- visible ancestor); `topline` 1-based when given.
local function place(pane, id, topline, old_rows)
  local win = pane_win(pane)
  if not win then return end
  local parents = {}
  for _, r in ipairs(old_rows or {}) do parents[r.id] = r.parent end
  while id and id ~= vim.NIL and not pane.index_of[id] do id = parents[id] end
  local lnum = id and id ~= vim.NIL and pane.row_line[pane.index_of[id]] or 1
  vim.api.nvim_win_call(win, function()
    local view = { lnum = lnum, col = 0 }
    if topline then view.topline = math.max(1, topline) end
    vim.fn.winrestview(view)
  end)
end

-- Toggles the group under the cursor (on a row: its group), keeping it
-- where it is on screen.
function M.toggle(buf)
  local pane = pane_of(buf)
  if not pane or not pane.open then return end
  local row = row_under_cursor(pane)
  if not row then return end
  if row.kind ~= 'group' then
    local parent = row.parent ~= vim.NIL and pane.index_of[row.parent]
    if not parent then return end
    row = pane.rows[parent]
  end
  local win = pane_win(pane)
  local view = vim.api.nvim_win_call(win, vim.fn.winsaveview)
  local result, err = M.client():request_sync('toggleSection', {
    uri = pane.uri,
    section = row.id,
    scrollTop = view.topline - 1,
    viewportHeight = vim.api.nvim_win_get_height(win),
  })
  if err then
    notify_error('toggleSection: ' .. err_text(err))
    return
  end
  M.refresh(pane)
  place(pane, result.id, (result.scrollTop or (view.topline - 1)) + 1)
end

local function all(buf, method)
  local pane = pane_of(buf)
  if not pane or not pane.open then return end
  local win = pane_win(pane)
  local row, lnum = row_under_cursor(pane)
  local view = vim.api.nvim_win_call(win, vim.fn.winsaveview)
  local old_rows = pane.rows
  local _, err = M.client():request_sync(method, { uri = pane.uri })
  if err then
    notify_error(method .. ': ' .. err_text(err))
    return
  end
  M.refresh(pane)
  if not row then return place(pane, nil, 1) end
  place(pane, row.id, nil, old_rows)
  -- keep the item at the same screen line
  local new = vim.api.nvim_win_get_cursor(win)[1]
  vim.api.nvim_win_call(win, function()
    vim.fn.winrestview({ topline = math.max(1, new - ((lnum or 1) - view.topline)), lnum = new, col = 0 })
  end)
end

function M.expand_all(buf) all(buf, 'expandAll') end

function M.collapse_all(buf) all(buf, 'collapseAll') end

-- Moves the cursor with a navigate key (down, up, right, left, home, end,
-- pageDown, pageUp, expandSiblings or {type = text}); the server decides
-- where the focus goes and what opens or closes.
function M.navigate(buf, key)
  local pane = pane_of(buf)
  if not pane or not pane.open then return end
  local row = row_under_cursor(pane)
  if not row then return end
  local result, err = M.client():request_sync('navigate', { uri = pane.uri, from = row.id, key = key })
  if err then
    notify_error('navigate: ' .. err_text(err))
    return
  end
  if result.changes then M.refresh(pane) end
  pane.focus = result.focus
  place(pane, result.focus)
end

-- Filters the pane to the rows that contain `query` (and their groups);
-- an empty query clears the filter. Without `query`, prompts for it.
function M.filter(buf, query)
  local pane = pane_of(buf)
  if not pane or not pane.open then return end
  if query == nil then
    local ok, text = pcall(vim.fn.input, 'Filter: ', pane.query or '')
    if not ok then return end
    query = text
  end
  local row = row_under_cursor(pane)
  local old_rows = pane.rows
  local result, err = M.client():request_sync('filterOutline', { uri = pane.uri, query = query })
  if err then
    notify_error('filterOutline: ' .. err_text(err))
    return
  end
  pane.query = query ~= '' and query or nil
  M.refresh(pane)
  local first = result.matches[1]
  place(pane, first and first.id or (row and row.id), nil, old_rows)
end

local function close_pane(buf)
  local pane = panes[buf]
  if not pane then return end
  panes[buf] = nil
  pane.closed = true
  if pane.open and client and not client.exited then
    client:request('closeOutline', { uri = pane.uri })
  end
  if pane.src and vim.api.nvim_buf_is_valid(pane.src) then vim.diagnostic.reset(ns, pane.src) end
end

local function is_yaml(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  local ft = vim.api.nvim_buf_get_option(buf, 'filetype')
  return ft == 'yaml' or name:match('%.ya?ml$') ~= nil or name:match('%.json$') ~= nil
end

-- Opens the pane for `file` (read from disk), or for the current buffer.
function M.open(file)
  local c = M.client()
  if not c then return nil end
  local src, path, text
  if file and file ~= '' then
    path = vim.fn.fnamemodify(vim.fn.expand(file), ':p')
  else
    src = vim.api.nvim_get_current_buf()
    -- :Outline inside a pane refreshes that pane rather than outlining its text.
    local own = panes[src]
    if own then
      local w = pane_win(own)
      if w then vim.api.nvim_set_current_win(w) end
      return own
    end
    if not is_yaml(src) then
      notify_error('the current buffer is not a YAML file; give a file: :Outline FILE')
      return nil
    end
    path = vim.api.nvim_buf_get_name(src)
    path = path ~= '' and vim.fn.fnamemodify(path, ':p') or ('/untitled-' .. src .. '.yaml')
    text = buffer_text(src)
  end
  for b, p in pairs(panes) do
    if p.path == path and vim.api.nvim_buf_is_valid(b) then
      local w = pane_win(p)
      if w then vim.api.nvim_set_current_win(w) end
      return p
    end
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, 'outline://' .. path)
  vim.api.nvim_buf_set_option(buf, 'buftype', 'nofile')
  vim.api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
  vim.api.nvim_buf_set_option(buf, 'swapfile', false)
  vim.api.nvim_buf_set_option(buf, 'filetype', 'outlinepane')
  vim.cmd('botright vsplit')
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  vim.api.nvim_win_set_width(win, M.config.width)
  for opt, value in pairs({ number = false, relativenumber = false, wrap = false, list = false,
    signcolumn = 'no', foldcolumn = '0', foldenable = false, cursorline = true,
    winfixwidth = true, spell = false }) do
    vim.api.nvim_win_set_option(win, opt, value)
  end
  local pane = { buf = buf, win = win, src = src, path = path, uri = vim.uri_from_fname(path) }
  panes[buf] = pane
  local function map(lhs, fn)
    vim.api.nvim_buf_set_keymap(buf, 'n', lhs, '', { noremap = true, silent = true, callback = fn })
  end
  for _, key in ipairs({ '<CR>', 'o', 'za' }) do map(key, function() M.toggle(buf) end) end
  map('zR', function() M.expand_all(buf) end)
  map('zM', function() M.collapse_all(buf) end)
  map('q', function() vim.api.nvim_win_close(0, true) end)
  local keys = {
    j = 'down', k = 'up', l = 'right', h = 'left', gg = 'home', G = 'end', ['*'] = 'expandSiblings',
    ['<Down>'] = 'down', ['<Up>'] = 'up', ['<Right>'] = 'right', ['<Left>'] = 'left',
    ['<Home>'] = 'home', ['<End>'] = 'end',
  }
  for lhs, key in pairs(keys) do map(lhs, function() M.navigate(buf, key) end) end
  map('/', function() M.filter(buf) end)
  vim.api.nvim_create_autocmd('BufWipeout', { group = group, buffer = buf, callback = function() close_pane(buf) end })
  if open_outline(pane, text) then
    M.relayout(pane)
    M.refresh(pane)
  end
  if src then
    vim.api.nvim_buf_attach(src, false, {
      on_lines = function()
        if pane.closed then return true end
        vim.schedule(function() schedule_sync(pane) end)
      end,
    })
  end
  return pane
end

function M._on_notification(method, params)
  if method ~= 'outlineChanged' or type(params) ~= 'table' then return end
  for _, pane in pairs(panes) do
    if pane.uri == params.uri then
      show_diagnostics(pane, params.diagnostics)
      M.refresh(pane)
    end
  end
end

-- The pane state of a pane buffer (for scripts and tests).
function M.pane(buf) return pane_of(buf) end

function M.setup(opts)
  M.config = vim.tbl_extend('force', M.config, opts or {})
end

vim.api.nvim_create_user_command('Outline', function(args) M.open(args.args) end,
  { nargs = '?', complete = 'file', desc = 'Open the outline pane' })

vim.api.nvim_create_autocmd({ 'VimResized', 'WinScrolled', 'WinEnter', 'BufWinEnter' }, {
  group = group,
  callback = function()
    vim.schedule(function()
      for _, pane in pairs(panes) do M.relayout(pane) end
    end)
  end,
})

vim.api.nvim_create_autocmd('VimLeavePre', { group = group, callback = function() M.stop() end })

return M
