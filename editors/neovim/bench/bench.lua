-- The Neovim pane on the Debian package outline, timed in the real editor
-- (see bench/run). Keys go through the editor's input as typed keys do; a
-- timer ticking every millisecond measures how long the editor's main loop
-- was held at a time (what a user feels as a frozen editor).
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h:h')
vim.opt.runtimepath:prepend(root .. '/editors/neovim')
vim.o.columns, vim.o.lines = 160, 50
local api, uv = vim.api, vim.loop
local outline = require('outline')
outline.setup({ cmd = { vim.env.OUTLINE_SERVER }, width = 40 })
vim.cmd('runtime plugin/outline.lua')

-- Figures go to stdout (bench/run sends the editor's own messages away).
local function out(s) io.stdout:write(s .. '\n') end
local function ms(t) return (uv.hrtime() - t) / 1e6 end

local co
local function resume()
  local ok, err = coroutine.resume(co)
  if not ok then
    out(debug.traceback(co, tostring(err)))
    vim.cmd('cquit 1')
  end
end
local sleeper = uv.new_timer()
local function sleep(t)
  sleeper:start(t, 0, function() vim.schedule(resume) end)
  coroutine.yield()
end
local function wait_for(cond)
  local deadline = uv.now() + 120000
  while not cond() do
    assert(uv.now() < deadline, 'timed out')
    sleep(1)
  end
end
-- Keys as typed; returns the time the editor took to read them.
local function press(keys)
  local done
  _G.__bench_keys = function()
    done = uv.hrtime()
    vim.schedule(resume)
  end
  local t = uv.hrtime()
  api.nvim_input(keys .. '<Cmd>lua __bench_keys()<CR>')
  while not done do coroutine.yield() end
  return (done - t) / 1e6
end

-- The longest the main loop was held since the last reset.
local stall, last_tick = 0, uv.hrtime()
local ticker = uv.new_timer()
ticker:start(1, 1, function()
  local now = uv.hrtime()
  stall = math.max(stall, (now - last_tick) / 1e6)
  last_tick = now
end)
local function reset_stall()
  last_tick = uv.hrtime()
  stall = 0
end

-- When the pane first changed its buffer after `since` (a toggle is done
-- when the window shows it; items off screen may come after).
local draws = {}
outline.trace = function(event)
  if event == 'drawn' then draws[#draws + 1] = uv.hrtime() end
end
local function drawn_after(since)
  for _, d in ipairs(draws) do
    if d >= since then return d end
  end
  return math.huge
end

local function median(xs)
  table.sort(xs)
  return xs[math.floor((#xs + 1) / 2)]
end

local rows = {}
local function row(what, value, goal)
  rows[#rows + 1] = ('  %-58s %9s   %s'):format(what, value, goal or '')
  out(rows[#rows])
end

co = coroutine.create(function()
  local path = root .. '/examples/generated/debian-packages.yaml'
  vim.cmd('edit ' .. path)
  local srcwin = api.nvim_get_current_win()
  local t = uv.hrtime()
  press(':Outline<CR>')
  local pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  wait_for(function() return outline.idle(pane) end)
  row('open (the server reads 15 MB) until drawn', ('%.0f ms'):format(ms(t)))
  local sections = api.nvim_buf_line_count(pane)

  -- Expand all.
  reset_stall()
  t = uv.hrtime()
  press('zR')
  wait_for(function() return api.nvim_buf_line_count(pane) > sections end)
  local shown = ms(t)
  wait_for(function() return outline.idle(pane) end)
  local held = ms(t)
  row('expand all: the window shows the expanded list', ('%.0f ms'):format(shown), 'goal ≤ 500 ms')
  row(('expand all: all %d items held and drawn'):format(#outline.pane(pane).rows), ('%.0f ms'):format(held))
  row('  longest the editor was held meanwhile', ('%.0f ms'):format(stall))
  row('  Lua memory with every item held', ('%.0f MB'):format(collectgarbage('count') / 1024))

  -- Toggles: a small group (the first subgroup, 2 items), then the first
  -- section (about 1,500 items).
  local function toggles(label, keys)
    press(keys)
    local closes, opens = {}, {}
    for _ = 1, 7 do
      t = uv.hrtime()
      press('o')
      wait_for(function() return outline.idle(pane) and api.nvim_get_current_line():match('^%s*▸') end)
      closes[#closes + 1] = (drawn_after(t) - t) / 1e6
      t = uv.hrtime()
      press('o')
      wait_for(function() return outline.idle(pane) and api.nvim_get_current_line():match('^%s*▾') end)
      opens[#opens + 1] = (drawn_after(t) - t) / 1e6
    end
    row(('toggle: close %s, drawn (median of 7)'):format(label), ('%.1f ms'):format(median(closes)), 'goal ≤ 20 ms')
    row(('toggle: open it again, drawn (median of 7)'):format(label), ('%.1f ms'):format(median(opens)), 'goal ≤ 20 ms')
  end
  toggles('a group of 2 items', 'ggj')
  toggles('the first section (admin)', 'gg')

  -- A keystroke in the YAML buffer.
  api.nvim_set_current_win(srcwin)
  press('14G$')
  local title = api.nvim_buf_get_lines(pane, 2, 3, false)[1]
  local keys = {}
  reset_stall()
  for c in ('-typed'):gmatch('.') do
    keys[#keys + 1] = press('i' .. c .. '<Esc>l')
  end
  local typed = uv.hrtime()
  local typing_stall = stall
  wait_for(function() return api.nvim_buf_get_lines(pane, 2, 3, false)[1] == title .. '-typed' end)
  local caught_up = ms(typed)
  local catch_stall = stall
  row('a keystroke in the YAML buffer: the editor reads it in', ('%.1f ms'):format(median(keys)), 'goal ≤ 16 ms')
  row('  longest the editor was held while typing', ('%.0f ms'):format(typing_stall))
  row('the pane shows the edit after typing stops', ('%.0f ms'):format(caught_up), 'goal ≤ 1 s')
  row('  longest the editor was held until then', ('%.0f ms'):format(catch_stall))
  wait_for(function() return outline.idle(pane) end)
  -- Again, now that the server holds the text.
  reset_stall()
  for c in ('!'):gmatch('.') do press('i' .. c .. '<Esc>l') end
  typed = uv.hrtime()
  wait_for(function() return api.nvim_buf_get_lines(pane, 2, 3, false)[1] == title .. '-typed!' end)
  row('the pane shows the next edit after typing stops', ('%.0f ms'):format(ms(typed)), 'goal ≤ 1 s')
  row('  longest the editor was held until then', ('%.0f ms'):format(stall))
  wait_for(function() return outline.idle(pane) end)

  -- A scratch buffer of the same size without a pane, for comparison.
  vim.cmd('tabnew')
  api.nvim_buf_set_lines(0, 0, -1, false, api.nvim_buf_get_lines(vim.fn.bufnr(path), 0, -1, false))
  press('14G$')
  local plain = {}
  for c in ('-typed'):gmatch('.') do plain[#plain + 1] = press('i' .. c .. '<Esc>l') end
  row('  the same keystroke in a buffer without a pane', ('%.1f ms'):format(median(plain)))
  vim.cmd('bwipe!')
  vim.cmd('tabnext 1')

  -- :e! sends the whole text once.
  api.nvim_set_current_win(srcwin)
  reset_stall()
  t = uv.hrtime()
  press(':e!<CR>')
  local reload = ms(t)
  wait_for(function() return api.nvim_buf_get_lines(pane, 2, 3, false)[1] == title and outline.idle(pane) end)
  row(':e! of 15 MB (Neovim reads the file)', ('%.0f ms'):format(reload))
  row('  the pane follows the reload (the server reads the file)', ('%.0f ms'):format(ms(t)))
  row('  longest the editor was held meanwhile', ('%.0f ms'):format(stall))

  ticker:stop()
  outline.stop()
  vim.cmd('qall!')
end)

out(('Neovim %s, outline-server %s'):format(tostring(vim.version().major .. '.' .. vim.version().minor .. '.'
  .. vim.version().patch), vim.env.OUTLINE_SERVER))
vim.schedule(resume)
