-- Headless test of the Neovim pane in the real editor against the real
-- server. Keys are typed as a user types them (nvim_feedkeys); what the
-- pane shows is read from its buffer and compared whole, with literal
-- texts or with a reference drawn here from the server's own answers.
--
--   OUTLINE_SERVER=... nvim --headless -u NONE -i NONE -c 'luafile editors/neovim/test/test.lua'
--
-- Exits 0 when every check passes, 1 otherwise. Waits are on conditions
-- with generous deadlines; nothing is timed.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h:h')
vim.opt.runtimepath:prepend(root .. '/editors/neovim')
vim.o.columns, vim.o.lines = 120, 40
vim.o.shortmess = vim.o.shortmess .. 'F'
vim.o.more = false
local api = vim.api

local function log(msg) io.stdout:write(msg .. '\n') end

local function check(cond, msg)
  if not cond then error('FAILED: ' .. msg, 2) end
end

local function show(text)
  if type(text) == 'table' then text = table.concat(text, '\n') end
  if #text > 3000 then text = text:sub(1, 3000) .. '\n…' end
  return text
end

local function eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(('FAILED: %s\n--- expected:\n%s\n--- actual:\n%s'):format(what, show(vim.inspect(expected)),
      show(vim.inspect(actual))), 2)
  end
end

-- Whole texts compared line by line, the first difference shown.
local function same_text(actual, expected, what)
  if type(actual) == 'table' then actual = table.concat(actual, '\n') end
  if type(expected) == 'table' then expected = table.concat(expected, '\n') end
  if actual == expected then return end
  local a, e = vim.split(actual, '\n', { plain = true }), vim.split(expected, '\n', { plain = true })
  for i = 1, math.max(#a, #e) do
    if a[i] ~= e[i] then
      error(('FAILED: %s\n  first difference at line %d of %d (expected %d)\n  expected: %s\n  actual:   %s\n--- actual text:\n%s')
        :format(what, i, #a, #e, vim.inspect(e[i]), vim.inspect(a[i]), show(actual)), 2)
    end
  end
end

local function lines(buf) return api.nvim_buf_get_lines(buf, 0, -1, false) end

local function find(buf, text)
  for i, l in ipairs(lines(buf)) do if l == text then return i end end
  return nil
end

-- The test runs as a coroutine that gives the editor back its main loop
-- whenever it waits, so keys are read and autocommands (CursorMoved, ...)
-- fire as they do for a user.
local test = nil

local function resume()
  local ok, err = coroutine.resume(test)
  if not ok then
    log(debug.traceback(test, tostring(err)))
    if vim.env.OUTLINE_TEST_DEBUG then log(require('outline').stderr or '') end
    vim.cmd('cquit 1')
  end
end

-- Lets the editor run for `ms` milliseconds. (A timer of its own rather
-- than vim.defer_fn: Neovim 0.7's defer_fn, called this often, was seen to
-- trip LuaJIT 2.1.0-beta3 into a corrupt table in vim.validate.)
local ticker = vim.loop.new_timer()
local function sleep(ms)
  ticker:start(ms, 0, function() vim.schedule(resume) end)
  coroutine.yield()
end

-- Types keys as a user does: they go to the editor's input and are read by
-- its main loop (mappings apply); returns once they have all been read.
-- Keys are in nvim_input notation: a "<" is written "<lt>".
local function press(keys)
  local done = false
  _G.__outline_test_keys_done = function()
    done = true
    vim.schedule(resume)
  end
  api.nvim_input(keys .. '<Cmd>lua __outline_test_keys_done()<CR>')
  while not done do coroutine.yield() end
end

local outline

-- What the panes hold, for a failure's message.
local function state()
  local out = {}
  for _, b in ipairs(api.nvim_list_bufs()) do
    local p = outline and outline.pane(b)
    if p then
      local unknown, stubs = 0, 0
      for _, r in ipairs(p.rows) do
        if not r then unknown = unknown + 1 elseif r.stub then stubs = stubs + 1 end
      end
      out[#out + 1] = ('pane %s: open %s, version %d, %d items (%d unknown, %d stubs), %d drawn, busy %d, dirty %s'):format(
        p.name, tostring(p.open), p.version, #p.rows, unknown, stubs, #p.drawn, p.busy, tostring(p.dirty))
    end
  end
  return table.concat(out, '\n')
end

local function wait_for(cond, what, ms)
  local deadline = vim.loop.now() + (ms or 60000)
  while not cond() do
    if vim.loop.now() > deadline then error('FAILED: timed out waiting for ' .. what .. '\n' .. state(), 2) end
    sleep(5)
  end
end

local function wait_idle(buf, what)
  wait_for(function() return outline.idle(buf) end, (what or 'the pane') .. ' to settle')
end

local function cursor_line(win) return api.nvim_win_get_cursor(win)[1] end

local function cur_text(win)
  return api.nvim_buf_get_lines(api.nvim_win_get_buf(win), cursor_line(win) - 1, cursor_line(win), false)[1]
end

local function messages() return vim.fn.execute('messages') end

-- A request to the server the pane uses, waited for (the test may wait;
-- the pane never does).
local function ask(method, params)
  local done, err, result = false, nil, nil
  outline.client():request(method, params, function(e, r) done, err, result = true, e, r end)
  wait_for(function() return done end, method)
  if err then error('FAILED: ' .. method .. ': ' .. vim.inspect(err), 2) end
  return result
end

-- The pane's text drawn here, independently, from visibleRows: the drawing
-- rules of README.md / :help outline-pane.
local function draw_reference(rows)
  local out = {}
  for _, r in ipairs(rows) do
    local pad = string.rep(' ', 2 * r.depth)
    local item = {}
    if r.kind == 'group' then
      local title = #r.lines.title == 1 and r.lines.title[1] or r.title
      item[1] = pad .. (r.expanded and '▾ ' or '▸ ') .. title .. (r.badge and (' ' .. r.badge) or '')
        .. '  ' .. r.activeCount .. '/' .. r.rowCount
    else
      for k, t in ipairs(r.lines.title) do
        item[#item + 1] = pad .. (k == 1 and (r.active and '● ' or '○ ') or '  ') .. t
      end
      for _, d in ipairs(r.lines.detail or {}) do item[#item + 1] = pad .. '  ' .. d end
    end
    for k = 1, r.height do out[#out + 1] = item[k] or '' end
  end
  return out
end

-- The whole visible list from the server, in pages, drawn.
local function reference(uri, start, stop)
  local rows, s = {}, start or 0
  while true do
    local res = ask('visibleRows', { uri = uri, start = s, count = math.min(10000, (stop or math.huge) - s),
      include = { 'lines' } })
    for _, r in ipairs(res.rows) do rows[#rows + 1] = r end
    s = s + #res.rows
    if #res.rows == 0 or s >= (stop or res.total) then return draw_reference(rows), res end
  end
end

local function copy_file(from, to)
  local f = assert(io.open(from, 'rb'))
  local text = f:read('*a')
  f:close()
  local g = assert(io.open(to, 'wb'))
  g:write(text)
  g:close()
  return text
end

local function write_file(path, text)
  -- A new file renamed over the old one, as editors save.
  local tmp = path .. '.new'
  local f = assert(io.open(tmp, 'wb'))
  f:write(text)
  f:close()
  assert(os.rename(tmp, path))
end

local function highlights_at(buf, lnum, group)
  local out = {}
  local line = api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1]
  for _, h in ipairs(outline.line_highlights(buf, lnum)) do
    if h[3] == group then out[#out + 1] = line:sub(h[1] + 1, h[2]) end
  end
  return out
end

local clock = vim.loop.hrtime()
local function section(name)
  local now = vim.loop.hrtime()
  log(('  %-44s %6.1f s'):format(name, (now - clock) / 1e9))
  clock = now
end

local CONTACTS_40 = [[
▾ My Friends  4/10
  ● 张伟 / Zhang Wei
    在北京出差，周五回来
  ● Alice Chen
    Working from Lisbon this week, back
    on the Tuesday flight if the strike
    is over
  ● 陈静
    正在听：周杰伦《晴天》
  ● Sarah Ng
    On holiday: no laptop, no phone, no
    problem 🌴
  ○ 李娜
    今天心情不错 ☀️
  ○ Bob Li
  ○ Marco Rossi
    Busy
  ○ 刘洋 (Liu Yang)
    考研倒计时 30 天，勿扰
  ○ 赵磊
  ○ Emma Wang
    42
▸ Family ♥  2/5
▸ Colleagues  8/13
▸ VIP ★  2/4
▸ Blacklist  0/3]]

---------------------------------------------------------------------------
-- examples/contacts.yaml: a buffer pane

local function contacts(tmp)
  local path = tmp .. '/contacts.yaml'
  local original = copy_file(root .. '/examples/contacts.yaml', path)
  vim.cmd('edit ' .. path)
  local src, srcwin = api.nvim_get_current_buf(), api.nvim_get_current_win()
  press(':Outline<CR>')
  local pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  check(pane ~= src, 'the pane is a buffer of its own')
  eq(api.nvim_win_get_width(win), 40, 'pane width')
  wait_idle(pane)
  same_text(lines(pane), CONTACTS_40, 'contacts at 40 columns')
  local uri = outline.pane(pane).uri

  -- :Outline in the pane keeps to that pane.
  local windows = #api.nvim_list_wins()
  press(':Outline<CR>')
  eq(#api.nvim_list_wins(), windows, 'no new window from :Outline in the pane')
  eq(api.nvim_get_current_buf(), pane, ':Outline in the pane stays on it')

  -- Highlights: active and inactive markers, the header's count.
  eq(highlights_at(pane, 1, 'OutlineGroup'), { '▾ My Friends' }, 'header highlight')
  eq(highlights_at(pane, 1, 'OutlineCount'), { '4/10' }, 'count highlight')
  eq(highlights_at(pane, 2, 'OutlineActive'), { '●' }, 'active marker')
  local li = find(pane, '  ○ 李娜')
  eq(highlights_at(pane, li, 'OutlineInactive'), { '○', '李娜' }, 'an inactive row')
  eq(highlights_at(pane, li + 1, 'OutlineDetail'), { '今天心情不错 ☀️' }, 'detail highlight')

  -- <CR> on a closed group opens it, which stays on the same screen line.
  local fam = find(pane, '▸ Family ♥  2/5')
  api.nvim_win_set_cursor(win, { fam, 0 })
  local screen = fam - vim.fn.line('w0')
  press('<CR>')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'Family opened, against visibleRows')
  eq(cur_text(win), '▾ Family ♥  2/5', 'the cursor stays on Family')
  eq(cursor_line(win) - vim.fn.line('w0'), screen, 'Family stays on its screen line')
  eq(lines(pane)[cursor_line(win) + 1], '  ● 妈妈', 'first row of Family')

  -- za on a row closes its group; o opens it again.
  press('jj')
  eq(cur_text(win), '  ○ 爸爸', 'j goes from item to item')
  press('za')
  wait_idle(pane)
  eq(cur_text(win), '▸ Family ♥  2/5', 'za on a row closes its group')
  press('o')
  wait_idle(pane)
  eq(cur_text(win), '▾ Family ♥  2/5', 'o opens it')

  -- zM, zR
  press('zM')
  wait_idle(pane)
  same_text(lines(pane), {
    '▸ My Friends  4/10', '▸ Family ♥  2/5', '▸ Colleagues  8/13', '▸ VIP ★  2/4', '▸ Blacklist  0/3',
  }, 'zM collapses all')
  eq(cur_text(win), '▸ Family ♥  2/5', 'zM keeps the cursor on Family')
  press('zR')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'zR, against visibleRows')
  eq(cur_text(win), '▾ Family ♥  2/5', 'zR keeps the cursor on Family')
  local vip = find(pane, '  ● 马总')
  eq(highlights_at(pane, vip, 'OutlineEmphasis'), { '马总' }, 'an emphasis (VIP) row')
  section('contacts: draw, toggles, highlights')

  -- A wider window: the server lays the text out again at its width.
  press('<C-w>20>j')
  eq(api.nvim_win_get_width(win), 60, 'the pane is 60 columns wide')
  wait_for(function() return find(pane, '    Working from Lisbon this week, back on the Tuesday') end,
    'the detail laid out at 60 columns')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'at 60 columns, against visibleRows')
  press('<C-w>20<lt>k')
  wait_for(function() return find(pane, '    Working from Lisbon this week, back') end, 'back at 40 columns')
  wait_idle(pane)
  eq(cur_text(win), '▾ Family ♥  2/5', 'the cursor stays on its item through the new layouts')
  -- The terminal narrowed, then wide again: the pane gets its width back.
  press(':set columns=25<CR>')
  wait_for(function() return api.nvim_win_get_width(win) < 40 and outline.pane(pane).width < 40 end,
    'the pane narrowed with the terminal')
  wait_idle(pane)
  press(':set columns=120<CR>')
  wait_for(function() return api.nvim_win_get_width(win) == 40 and outline.pane(pane).width == 40 end,
    'the pane 40 columns wide again')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'back at 40 columns after the terminal grew, against visibleRows')
  eq(cur_text(win), '▾ Family ♥  2/5', 'the cursor stays on its item')

  -- Help: g? in the pane, :help outline.
  press('g?')
  check(api.nvim_buf_get_name(0):match('outline%.txt$'), 'g? opens the help')
  check(api.nvim_get_current_line():find('*outline-keys*', 1, true), 'g? shows the keys')
  press(':close<CR>')
  press(':help outline<CR>')
  check(api.nvim_buf_get_name(0):match('outline%.txt$'), ':help outline')
  press(':close<CR>')
  api.nvim_set_current_win(win)
  -- The committed tags are those of the help as it is.
  local docs = vim.fn.tempname()
  vim.fn.mkdir(docs, 'p')
  copy_file(root .. '/editors/neovim/doc/outline.txt', docs .. '/outline.txt')
  vim.cmd('helptags ' .. docs)
  same_text(table.concat(vim.fn.readfile(docs .. '/tags'), '\n'),
    table.concat(vim.fn.readfile(root .. '/editors/neovim/doc/tags'), '\n'), 'doc/tags is up to date (run :helptags)')
  vim.fn.delete(docs, 'rf')

  -- Moves: j skips detail lines, G and gg, h and l.
  press('G')
  eq(cur_text(win), '  ○ Unknown', 'G: the last item')
  press('gg')
  eq(cursor_line(win), 1, 'gg: the first item')
  press('j')
  eq(cur_text(win), '  ● 张伟 / Zhang Wei', 'j')
  press('j')
  eq(cur_text(win), '  ● Alice Chen', 'j skips the detail lines')
  press('k')
  eq(cur_text(win), '  ● 张伟 / Zhang Wei', 'k')
  press('h')
  wait_idle(pane)
  eq(cursor_line(win), 1, 'h on a row goes to its group')
  press('h')
  wait_idle(pane)
  eq(lines(pane)[1], '▸ My Friends  4/10', 'h on an open group closes it')
  press('l')
  wait_idle(pane)
  eq(lines(pane)[1], '▾ My Friends  4/10', 'l on a closed group opens it')
  press('l')
  wait_idle(pane)
  eq(cur_text(win), '  ● 张伟 / Zhang Wei', 'l on an open group goes to its first child')

  -- Type-ahead: letters find the next item whose title starts with them;
  -- f makes any letter (even a key's) a search.
  press('gg')
  press('ma')
  wait_idle(pane)
  eq(cur_text(win), '  ○ Marco Rossi', 'typing "ma" finds Marco Rossi')
  sleep(outline.config.typeahead_timeout + 50)
  press('fj')
  wait_idle(pane)
  eq(cur_text(win), '    ● James Ho', 'f then j finds James Ho')
  sleep(outline.config.typeahead_timeout + 50)
  check(not messages():find('E21'), 'letters do not try to change the pane (E21)')
  -- g and z are letters too: after f, and inside a type-ahead.
  press('gg')
  vim.cmd('messages clear')
  press('fz')
  wait_idle(pane)
  eq(cursor_line(win), 1, 'f then z: no item starts with "z"')
  check(messages():find('no item starts with “z”', 1, true), 'f then z says so: ' .. messages())
  sleep(outline.config.typeahead_timeout + 50)
  press('j')
  eq(cur_text(win), '  ● 张伟 / Zhang Wei', 'no z left pending after fz: j moves down')
  press('fg')
  wait_idle(pane)
  eq(cur_text(win), '  ○ Grace Liu', 'f then g finds Grace Liu')
  sleep(outline.config.typeahead_timeout + 50)
  press('gg')
  press('engi')
  wait_idle(pane)
  eq(cur_text(win), '  ▾ Engineering 12  4/6', '"engi": a g inside a type-ahead is a letter')
  sleep(outline.config.typeahead_timeout + 50)
  check(not messages():find('E%d+:'), 'no Vim error from g or z: ' .. messages())
  section('contacts: moves, type-ahead')

  -- The filter: matches and their groups, the match highlighted; a query
  -- that matches nothing says so; <Esc> keeps the filter; empty clears.
  local full = lines(pane)
  press('/lisbon<CR>')
  wait_idle(pane)
  same_text(lines(pane), {
    '▾ My Friends  4/10', '  ● Alice Chen', '    Working from Lisbon this week, back',
    '    on the Tuesday flight if the strike', '    is over',
  }, 'filter "lisbon"')
  eq(cursor_line(win), 2, 'the cursor on the first match')
  eq(highlights_at(pane, 3, 'OutlineMatch'), { 'Lisbon' }, 'the match is highlighted')
  press('/<C-u>nobody-here<CR>')
  wait_idle(pane)
  same_text(lines(pane), { 'No item matches “nobody-here”.', '', 'Press / to change the filter,',
    '/ then <C-u><CR> to clear it.' }, 'a filter without match says so')
  press('/something else<Esc>')
  wait_idle(pane)
  eq(lines(pane)[1], 'No item matches “nobody-here”.', '<Esc> at the prompt keeps the filter')
  press('/<C-u>family<CR>')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'filter by a group name, against visibleRows')
  eq(lines(pane)[1], '▾ Family ♥  2/5', 'filter by a group name shows the group')
  eq(#lines(pane), 10, 'filter by a group name shows all its rows (5 rows, 4 details)')
  press('/<C-u><CR>')
  wait_idle(pane)
  same_text(lines(pane), full, 'an empty filter restores the pane')
  -- Keys typed in one burst after a filter act on the filtered list: G
  -- goes to its last item, not the first match the answer brings.
  press('zM')
  wait_idle(pane)
  press('/li<CR>G')
  wait_idle(pane)
  local filtered, fres = reference(uri)
  same_text(lines(pane), filtered, 'filter "li", against visibleRows')
  eq(cursor_line(win), fres.rows[#fres.rows].top + 1, 'G typed with the filter: the last item of the filtered list')
  press('/<C-u><CR>zR')
  wait_idle(pane)
  same_text(lines(pane), full, 'the filter cleared, every group open')
  section('contacts: filter')

  -- Jump to the source: <CR> on a row goes to its line in the YAML.
  local alice = find(pane, '  ● Alice Chen')
  api.nvim_win_set_cursor(win, { alice, 0 })
  press('<CR>')
  wait_for(function() return api.nvim_get_current_win() == srcwin end, 'the jump to the YAML')
  eq(api.nvim_win_get_cursor(srcwin), { 31, 8 }, '<CR> on Alice Chen: her mapping in the YAML (line 31, "id:")')
  -- p shows the line and stays in the pane.
  press('<C-w>p')
  eq(api.nvim_get_current_win(), win, 'back in the pane')
  press('gg')
  press('p')
  wait_idle(pane)
  eq(api.nvim_get_current_win(), win, 'p stays in the pane')
  eq(api.nvim_win_get_cursor(srcwin), { 15, 4 }, 'p on My Friends shows its mapping (line 15)')

  -- Follow the cursor: moving in the YAML into a closed group opens it in
  -- the pane and puts the pane's cursor on the item.
  press('zM')
  wait_idle(pane)
  api.nvim_set_current_win(srcwin)
  press('75G')
  wait_for(function() return cur_text(win) == '  ● 妈妈' end, 'the pane to follow the cursor to 妈妈')
  wait_idle(pane)
  eq(lines(pane)[cursor_line(win) - 1], '▾ Family ♥  2/5', 'Family opened to show 妈妈')
  eq(highlights_at(pane, cursor_line(win), 'OutlineCurrent'), { '  ● 妈妈' }, 'the item under the YAML cursor')
  section('contacts: jump, follow')

  -- Edits typed in the YAML buffer: the pane follows, asynchronously, as
  -- edits (not the whole text).
  api.nvim_set_current_win(win)
  press('zR')
  wait_idle(pane)
  api.nvim_set_current_win(srcwin)
  local stats = outline.pane(pane).stats
  local full_before, edits_before = stats.full, stats.edits
  press('16G$')
  press('ciwPals<Esc>')
  eq(lines(pane)[1], '▾ My Friends  4/10', 'typing does not wait for the server: the pane catches up later')
  wait_for(function() return lines(pane)[1] == '▾ My Pals  4/10' end, 'the edit in the pane')
  wait_idle(pane)
  eq(stats.full, full_before, 'an edit does not send the whole text')
  check(stats.edits > edits_before, 'the edit went out as edits')

  -- A YAML error: a diagnostic; the pane keeps the last good outline.
  local good = lines(pane)
  press('otitle: Again<Esc>') -- 'autoindent' indents it
  wait_for(function() return #vim.diagnostic.get(src) > 0 end, 'a diagnostic')
  wait_idle(pane)
  local diags = vim.diagnostic.get(src)
  eq(#diags, 1, 'one diagnostic')
  eq(diags[1].message, 'duplicate key "title"', 'diagnostic message')
  eq({ diags[1].lnum, diags[1].col }, { 16, 4 }, 'diagnostic position')
  same_text(lines(pane), good, 'the pane keeps the last good outline')
  check(api.nvim_win_get_option(win, 'statusline'):find('1 error', 1, true), 'the status line counts the error')
  press('dd')
  wait_for(function() return #vim.diagnostic.get(src) == 0 end, 'the diagnostic to clear')

  -- :e! reloads the file: the pane follows the buffer again (whole text),
  -- then edits go out as edits again.
  press(':e!<CR>')
  wait_for(function() return lines(pane)[1] == '▾ My Friends  4/10' end, 'the pane after :e!')
  wait_idle(pane)
  eq(stats.full, full_before + 1, ':e! sends the whole text once')
  edits_before = stats.edits
  press('16G$ciwMates<Esc>')
  wait_for(function() return lines(pane)[1] == '▾ My Mates  4/10' end, 'an edit after :e!')
  wait_idle(pane)
  eq(stats.full, full_before + 1, 'after :e!, edits again')
  check(stats.edits > edits_before, 'after :e!, the edit went out as edits')
  -- A big buffer read again goes the other way: the server reads the file.
  -- (Here "big" is made small.)
  outline.config.reopen_size = 0
  local reopens = stats.reopens
  press(':e!<CR>')
  wait_for(function() return lines(pane)[1] == '▾ My Friends  4/10' end, 'the pane after :e! of a "big" buffer')
  wait_idle(pane)
  eq({ stats.full, stats.reopens }, { full_before + 1, reopens + 1 }, ':e! of a big buffer: the file opened again')
  outline.config.reopen_size = 1024 * 1024
  press('16G$ciwMates<Esc>')
  wait_for(function() return lines(pane)[1] == '▾ My Mates  4/10' end, 'an edit after :e! of a "big" buffer')
  wait_idle(pane)
  eq(stats.full, full_before + 1, 'edits again')
  -- Changes Neovim reports oddly (every line deleted, then typed again).
  -- Every line deleted (Neovim reports it oddly): an empty text is an
  -- error, and the pane keeps the last good outline; undo brings it back.
  good = lines(pane)
  press('ggdG')
  wait_for(function() return #vim.diagnostic.get(src) > 0 end, 'the diagnostic of an empty text')
  wait_idle(pane)
  same_text(lines(pane), good, 'an empty buffer: the last good outline stays')
  press('u')
  wait_for(function() return lines(pane)[1] == '▾ My Mates  4/10' end, 'the pane after undo')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'after the edits, against visibleRows')
  local ref_uri = 'untitled:reference'
  ask('openOutline', { uri = ref_uri, text = table.concat(lines(src), '\n') .. '\n', layout = {
    unit = 'cell', width = 40, indent = 2, padding = { top = 0, bottom = 0, left = 2, right = 0 } } })
  ask('expandAll', { uri = ref_uri })
  same_text(reference(uri), reference(ref_uri), 'the server holds the buffer\'s text (an outline of it, opened afresh)')
  ask('closeOutline', { uri = ref_uri })
  eq(stats.full, full_before + 1, 'no whole text was needed for these edits')
  section('contacts: edits, diagnostics, :e!')
  return { src = src, srcwin = srcwin, pane = pane, win = win, path = path, original = original }
end

---------------------------------------------------------------------------
-- Panes on files: followed on disk, broken then fixed; an accordion.

local function files(tmp)
  local path = tmp .. '/watched.yaml'
  local original = copy_file(root .. '/examples/contacts.yaml', path)
  press(':Outline ' .. path .. '<CR>')
  local pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  wait_idle(pane)
  same_text(lines(pane), CONTACTS_40, 'a file pane')
  write_file(path, (original:gsub('title: My Friends', 'title: Old Friends')))
  wait_for(function() return lines(pane)[1] == '▾ Old Friends  4/10' end, 'the pane to follow the file on disk')
  wait_idle(pane)
  -- A save with an error keeps the last good outline; fixing it goes on.
  write_file(path, (original:gsub('title: My Friends', 'title: [unclosed')))
  wait_for(function() return (api.nvim_win_get_option(win, 'statusline'):find('1 error', 1, true)) ~= nil end,
    'the error in the status line')
  eq(lines(pane)[1], '▾ Old Friends  4/10', 'a broken save keeps the last good outline')
  write_file(path, (original:gsub('title: My Friends', 'title: New Friends')))
  wait_for(function() return lines(pane)[1] == '▾ New Friends  4/10' end, 'the fixed file')
  -- The file edited in a buffer, :Outline there: the same pane, which now
  -- follows the buffer (its unsaved changes too).
  press('<C-w>p:edit ' .. path .. '<CR>16G$ciwPeople<Esc>')
  local windows = #api.nvim_list_wins()
  press(':Outline<CR>')
  eq(api.nvim_get_current_buf(), pane, ':Outline on the buffer of a file with a pane goes to that pane')
  eq(#api.nvim_list_wins(), windows, 'no second pane')
  wait_for(function() return lines(pane)[1] == '▾ New People  4/10' end, 'the pane following the buffer')
  wait_idle(pane)
  press('q')
  press(':bwipe!<CR>')
  check(not outline.pane(pane), 'q closes the pane')

  -- A pane opened on a broken file says why, and opens when it is fixed.
  local broken = tmp .. '/broken.yaml'
  write_file(broken, (original:gsub('title: Family', 'title: Family\n    title: Again')))
  press(':Outline ' .. broken .. '<CR>')
  pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  wait_idle(pane)
  -- The message is broken at the pane's width: none of it is cut off.
  same_text(lines(pane), { 'broken.yaml has 1 error:', '  line 72, column 5: duplicate key', '    "title"', '',
    'The pane opens when the file is fixed.' }, 'a pane on a broken file')
  press('<C-w>10<lt>')
  wait_for(function() return #lines(pane) == 6 end, 'the message broken again at 30 columns')
  same_text(lines(pane), { 'broken.yaml has 1 error:', '  line 72, column 5: duplicate', '    key "title"', '',
    'The pane opens when the file', '  is fixed.' }, 'the message at 30 columns')
  press('<C-w>10>')
  wait_for(function() return #lines(pane) == 5 end, 'the message at 40 columns again')
  write_file(broken, original)
  wait_for(function() return lines(pane)[1] == '▾ My Friends  4/10' end, 'the pane once the file is fixed')
  wait_idle(pane)
  same_text(lines(pane), CONTACTS_40, 'the fixed file')
  press('q')

  -- An accordion: zR is not possible, and the pane says so in words.
  press(':Outline ' .. root .. '/examples/accordion.yaml<CR>')
  pane = api.nvim_get_current_buf()
  wait_idle(pane)
  eq(lines(pane)[1], '▾ Account  3/3', 'accordion')
  vim.cmd('messages clear')
  press('zR')
  wait_idle(pane)
  check(messages():find('expand all is not possible in an accordion', 1, true),
    'zR in an accordion says why: ' .. messages())
  check(not messages():find('-32602', 1, true), 'no raw error code')
  -- q in the last window: the pane goes, the editor stays.
  press(':only<CR>')
  press('q')
  check(not outline.pane(pane), 'q in the last window closes the pane')
  check(not messages():find('E444', 1, true), 'no E444')
  eq(#api.nvim_list_wins(), 1, 'one window left')
  eq(api.nvim_buf_get_name(0), root .. '/examples/accordion.yaml', 'a pane on a file: the file takes its place')
  section('file panes, accordion, q')

  -- A buffer changed before the pane opens: the pane shows the buffer, not
  -- the file; :checktime after the file changed on disk follows the file.
  local edited = tmp .. '/edited.yaml'
  copy_file(root .. '/examples/contacts.yaml', edited)
  vim.cmd('edit ' .. edited)
  local src = api.nvim_get_current_buf()
  press('16G$ciwCrew<Esc>')
  press(':Outline<CR>')
  pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  wait_idle(pane)
  eq(lines(pane)[1], '▾ My Crew  4/10', 'a modified buffer: its text, not the file')
  eq(outline.pane(pane).stats.full, 1, 'the text sent once')
  press('<C-w>p')
  eq(api.nvim_get_current_buf(), src, 'back in the YAML')
  press(':w<CR>')
  write_file(edited, (original:gsub('title: My Friends', 'title: My Band')))
  press(':checktime<CR>')
  wait_for(function() return lines(pane)[1] == '▾ My Band  4/10' end, 'the pane after :checktime')
  wait_idle(pane)
  press('16G$ciwTeam<Esc>')
  wait_for(function() return lines(pane)[1] == '▾ My Team  4/10' end, 'an edit after :checktime')
  press(':bwipe!<CR>')
  check(not outline.pane(pane) or outline.pane(pane).detached, 'the pane no longer follows a wiped buffer')
  press(':only<CR>')

  -- A buffer without a file.
  press(':enew<CR>:setfiletype yaml<CR>')
  api.nvim_buf_set_lines(0, 0, -1, false, { 'groups:', '  - title: Scratch', '    expanded: true',
    '    rows:', '      - title: one', '      - title: two' })
  press(':Outline<CR>')
  pane = api.nvim_get_current_buf()
  wait_idle(pane)
  same_text(lines(pane), { '▾ Scratch  2/2', '  ● one', '  ● two' }, 'a buffer without a file')
  press('<C-w>pGo- title: three<Esc>')
  wait_for(function() return lines(pane)[4] == '  ● three' end, 'an edit in a buffer without a file')
  press(':bwipe!<CR>:only<CR>')
  section('modified and unnamed buffers, :checktime')
end

---------------------------------------------------------------------------
-- The server ends by itself: every pane says so, and so do its keys;
-- :Outline (in the YAML, in a pane, with a file name) starts it again and
-- every pane shows its outline again. A server ended on purpose says
-- nothing.

-- Lets the callbacks already scheduled run (a server's exit is handled in
-- one) before the test goes on.
local function drain()
  vim.schedule(resume)
  coroutine.yield()
end

local function server_exit(tmp)
  local path = tmp .. '/revived.yaml'
  copy_file(root .. '/examples/contacts.yaml', path)
  local accordion_path = root .. '/examples/accordion.yaml'
  vim.cmd('edit ' .. path)
  local srcwin = api.nvim_get_current_win()
  press(':Outline<CR>')
  local pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  wait_idle(pane)
  same_text(lines(pane), CONTACTS_40, 'a buffer pane')
  press(':Outline ' .. accordion_path .. '<CR>')
  local other = api.nvim_get_current_buf()
  wait_idle(other)
  eq(lines(other)[1], '▾ Account  3/3', 'a file pane beside it')
  local uri, other_uri = outline.pane(pane).uri, outline.pane(other).uri

  local said = { 'outline-server exited (signal 9).', '', ':Outline starts it again.' }
  local function kill()
    local pid = outline.server_pid()
    check(pid and vim.loop.kill(pid, 0) == 0, 'the server runs: ' .. tostring(pid))
    vim.loop.kill(pid, 'sigkill')
    wait_for(function() return vim.deep_equal(lines(pane), said) end, 'the pane to say the server exited')
    same_text(lines(other), said, 'the other pane says so too')
    return pid
  end
  local function back(old, what)
    wait_for(function() return lines(pane)[1] ~= said[1] and lines(other)[1] ~= said[1] end, 'the panes back ' .. what)
    wait_idle(pane)
    wait_idle(other)
    same_text(lines(pane), reference(uri), 'the buffer pane back ' .. what .. ', against visibleRows')
    same_text(lines(other), reference(other_uri), 'the file pane back ' .. what .. ', against visibleRows')
    local pid = outline.server_pid()
    check(pid and pid ~= old and vim.loop.kill(pid, 0) == 0, 'a new server runs ' .. what .. ': ' .. tostring(pid))
  end

  local old = kill()
  -- Keys in the pane say why nothing happens, and do not start a server.
  api.nvim_set_current_win(win)
  vim.cmd('messages clear')
  press('zR')
  check(messages():find('outline: outline-server exited (signal 9); :Outline starts it again', 1, true),
    'zR says the server exited: ' .. messages())
  vim.cmd('messages clear')
  press('j')
  check(messages():find('outline-server exited', 1, true), 'j says the server exited: ' .. messages())
  -- The message is broken at the pane's width, as the pane's others are.
  press('<C-w>10<lt>')
  wait_for(function() return #lines(pane) == 4 end, 'the message broken at 30 columns')
  same_text(lines(pane), { 'outline-server exited (signal', '  9).', '', ':Outline starts it again.' },
    'the message at 30 columns')
  press('<C-w>10>')
  wait_for(function() return #lines(pane) == 3 end, 'the message at 40 columns again')
  -- Typing in the YAML does not start a server either.
  api.nvim_set_current_win(srcwin)
  press('16G$ciwAgain<Esc>')
  wait_for(function() return not outline.pane(pane).flush_armed end, 'the edit to be due')
  drain()
  check(not outline.server_pid(), 'keys and edits do not start the server')
  same_text(lines(pane), said, 'the pane still says the server exited')
  -- :Outline in the YAML window: a new server; both panes open again, the
  -- buffer's pane with the buffer's text.
  press(':Outline<CR>')
  eq(api.nvim_get_current_buf(), pane, ':Outline in the YAML goes to its pane')
  back(old, 'after :Outline in the YAML')
  eq(lines(pane)[1], '▾ My Again  4/10', 'the edit made while the server was gone')
  section('server exit: the panes say so, :Outline in the YAML')

  -- :Outline in a pane.
  old = kill()
  press(':Outline<CR>')
  back(old, 'after :Outline in the pane')
  -- :Outline with a file name (that of a pane).
  old = kill()
  api.nvim_set_current_win(srcwin)
  press(':Outline ' .. accordion_path .. '<CR>')
  eq(api.nvim_get_current_buf(), other, ':Outline FILE goes to its pane')
  back(old, 'after :Outline FILE')
  section('server exit: :Outline in the pane, :Outline FILE')

  -- A server that fails: its status, and the last line it wrote on its
  -- standard error, which is read to its end first (here the line comes
  -- after the exit, from a process that holds the server's stderr).
  old = kill()
  eq(api.nvim_win_get_width(win), 40, 'the buffer pane is 40 columns wide')
  local cmd = outline.config.cmd
  outline.config.cmd = { 'sh', '-c', 'read -r header; (while kill -0 $$ 2>/dev/null; do sleep 0.01; done;'
    .. ' echo "error: the state directory is read-only" >&2) & exit 3' }
  press(':Outline<CR>')
  local failed = { 'outline-server exited (status 3): error:', '  the state directory is read-only.', '',
    ':Outline starts it again.' }
  wait_for(function() return vim.deep_equal(lines(pane), failed) end, 'the pane to say the server failed')
  check(vim.startswith(lines(other)[1], 'outline-server exited (status 3): error:'),
    'the other pane says so too: ' .. lines(other)[1])
  outline.config.cmd = cmd
  press(':Outline<CR>')
  back(old, 'after a server that failed')
  section('server exit: a server that fails')

  -- A server ended on purpose (as when Neovim quits): nothing is said.
  vim.cmd('messages clear')
  local shown = lines(pane)
  eq(outline.stop(), 0, 'the server ends when asked')
  drain()
  same_text(lines(pane), shown, 'a server ended on purpose: the pane keeps its outline')
  check(not messages():find('exited', 1, true), 'nothing said of a server ended on purpose: ' .. messages())
  press('q')
  api.nvim_set_current_win(win)
  press('q')
  press(':bwipe!<CR>:only<CR>')
end

---------------------------------------------------------------------------
-- The Debian package outline (65,119 items): every row, edits, reloads.

local function debian()
  local path = root .. '/examples/generated/debian-packages.yaml'
  if vim.fn.filereadable(path) == 0 then
    if #vim.fn.glob('/var/lib/apt/lists/*_Packages*', false, true) == 0 then
      log('  SKIPPED the Debian package outline: no apt package lists here (apt-get update makes them)')
      return
    end
    vim.fn.system({ root .. '/scripts/make-examples' })
    check(vim.v.shell_error == 0 and vim.fn.filereadable(path) == 1, 'scripts/make-examples made ' .. path)
  end
  vim.cmd('edit ' .. path)
  local src, srcwin = api.nvim_get_current_buf(), api.nvim_get_current_win()
  press(':Outline<CR>')
  local pane, win = api.nvim_get_current_buf(), api.nvim_get_current_win()
  local uri = outline.pane(pane).uri
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'the Debian outline, against visibleRows')
  check(lines(pane)[1]:match('^▸ admin %d+  %d+/%d+$'), 'the first section: ' .. lines(pane)[1])
  local function total() return ask('visibleRows', { uri = uri, start = 0, count = 0 }).total end
  local sections = total()
  section('debian: open')

  -- Filter by a group name: the section and all its packages; a toggle
  -- in the filtered list.
  press('/admin<CR>')
  wait_idle(pane)
  same_text(lines(pane), reference(uri), 'filter "admin", against visibleRows')
  check(cur_text(win):match('^▾ admin '), 'the cursor on the matching group')
  press('jo')
  wait_idle(pane)
  check(cur_text(win):match('^  ▸ '), 'a subgroup closed')
  same_text(lines(pane), reference(uri), 'a toggle in the filtered list, against visibleRows')
  press('/<C-u><CR>')
  wait_idle(pane)
  eq(#lines(pane), sections, 'the filter cleared')
  section('debian: filter by a group name, toggle')

  -- A filter with more matches than the server lists (10,000): n and N
  -- still visit every item that matched, wrapping at the true ends.
  press('/lib<CR>')
  wait_idle(pane)
  local all_rows, fres, start = {}, nil, 0
  repeat
    fres = ask('visibleRows', { uri = uri, start = start, count = 10000 })
    vim.list_extend(all_rows, fres.rows)
    start = start + #fres.rows
  until start >= fres.total
  eq(#lines(pane), fres.contentHeight, 'filter "lib": every line of the filtered list')
  local status = api.nvim_win_get_option(win, 'statusline'):gsub('^%%<', '')
  check(status:find('filter “lib”', 1, true) and vim.fn.strdisplaywidth(status) <= 40,
    'the status line fits the pane and names the filter: ' .. status)
  local matched = {} -- the first line of each item whose own text contains "lib"
  for _, r in ipairs(all_rows) do
    local text = (r.title .. '\n' .. (r.kind == 'row' and r.detail or '')):lower()
    if text:find('lib', 1, true) then matched[#matched + 1] = r.top + 1 end
  end
  check(#matched > 10000, 'more matches than the server lists: ' .. #matched)
  press('ggN')
  eq(cursor_line(win), matched[#matched], 'N from the top: the last match')
  press('N')
  eq(cursor_line(win), matched[#matched - 1], 'N again: the one before')
  press('nn')
  eq(cursor_line(win), matched[1], 'n from the last match wraps to the first')
  api.nvim_win_set_cursor(win, { matched[10000], 0 })
  press('n')
  eq(cursor_line(win), matched[10001], 'n after the 10,000th match: the 10,001st')
  check(#highlights_at(pane, matched[10001], 'OutlineMatch') > 0, 'the 10,001st match is highlighted')
  press('/<C-u><CR>')
  wait_idle(pane)
  section('debian: a filter past the listed matches, n and N')

  -- Expand all, and reach the last row. The pane draws the window's items
  -- first and fetches the others in the background: the checks below wait
  -- for the lines they read (a line not yet fetched is blank).
  local stats = outline.pane(pane).stats
  local function drawn(first, last)
    local got = api.nvim_buf_get_lines(pane, first - 1, last, false)
    if #got < last - first + 1 then return false end
    for _, l in ipairs(got) do if l == '' then return false end end
    return not outline.pane(pane).dirty
  end
  -- G typed before the answer to zR came: the cursor stays on the item G
  -- went to, which the answer moves far down.
  local last_section = lines(pane)[sections]
  press('zRG')
  wait_for(function() return #lines(pane) > sections end, 'expand all drawn')
  wait_for(function() return cur_text(win) ~= '' end, 'the window drawn')
  eq(cur_text(win), (last_section:gsub('^▸', '▾')), 'the cursor stays on the last section')
  check(cursor_line(win) > sections, 'which moved down')
  press('G')
  local items = total()
  check(items > 60000, 'every item visible: ' .. items)
  local tail, res = reference(uri, items - 3, items)
  eq(#lines(pane), res.contentHeight, 'the pane has every line')
  local last_top = res.rows[#res.rows].top + 1
  wait_for(function() return drawn(last_top - 20, res.contentHeight) end, 'the last rows')
  same_text(vim.list_slice(lines(pane), #lines(pane) - #tail + 1), tail, 'the last rows')
  eq(cursor_line(win), last_top, 'G: on the last item')

  -- A toggle: only the group's items are fetched; the pane is the server's list.
  press('gg')
  press('o')
  wait_for(function() return cur_text(win):match('^▸ admin ') and outline.pane(pane).busy == 0 end, 'admin closed', 20000)
  local closed = total()
  local fetched = stats.fetched
  press('o')
  wait_for(function() return cur_text(win):match('^▾ admin ') and outline.pane(pane).busy == 0 end, 'admin open')
  local opened = items - closed
  local ref, rres = reference(uri, 0, opened + 2)
  wait_for(function() return drawn(1, #ref) end, 'the admin section')
  same_text(vim.list_slice(lines(pane), 1, #ref), ref, 'admin opened again, against visibleRows')
  eq(stats.fetched - fetched, 1 + opened, 'opening admin fetched its header and its items, nothing else')
  eq(rres.total, items, 'as many items as before')
  section('debian: expand all, last row, toggle')

  -- Jump to the source: <CR> on the first package.
  local name = lines(pane)[3]:match('^    ● (.*)$') or lines(pane)[3]:match('^    ○ (.*)$')
  check(name, 'a package on line 3: ' .. lines(pane)[3])
  api.nvim_win_set_cursor(win, { 3, 0 })
  press('<CR>')
  wait_for(function() return api.nvim_get_current_win() == srcwin end, 'the jump')
  local at = api.nvim_win_get_cursor(srcwin)
  eq(api.nvim_get_current_line():sub(at[2] + 1), 'id: "' .. name .. '"', '<CR> on a package: its mapping in the YAML')
  section('debian: jump')

  -- Typing in the YAML: the pane follows by edits.
  local full, edits = stats.full, stats.edits
  local marker = lines(pane)[3]:sub(1, 8)
  press('j$i-new<Esc>')
  eq(api.nvim_get_current_line():match('title: (.*)$'), '"' .. name .. '-new"', 'typed in the YAML')
  eq(lines(pane)[3], marker .. name, 'the keystrokes did not wait for the server')
  wait_for(function() return lines(pane)[3] == marker .. name .. '-new' end, 'the edit in the pane')
  eq(stats.full, full, 'no whole text sent for a keystroke')
  check(stats.edits > edits, 'the keystrokes went out as edits')
  section('debian: typing')

  -- Follow the cursor to the last package.
  press('G')
  wait_for(function() return cursor_line(win) == last_top and outline.pane(pane).current ~= nil end,
    'the pane to follow to the last package')
  eq(cur_text(win), tail[#tail - res.rows[#res.rows].height + 1], 'the pane on the last item')
  section('debian: follow')

  -- By now every item has come in the background.
  wait_idle(pane)
  local all = lines(pane)
  eq(#all, res.contentHeight, 'every line')
  for i, l in ipairs(all) do check(l ~= '', 'line ' .. i .. ' is drawn') end
  section('debian: every item held')
end

---------------------------------------------------------------------------

local function main()
  local server = vim.env.OUTLINE_SERVER
  check(server and server ~= '', 'OUTLINE_SERVER is set')
  outline = require('outline')
  outline.setup({ cmd = { server }, width = 40, typeahead_timeout = 300 })
  if vim.env.OUTLINE_TEST_DEBUG then
    local c = outline.client()
    local request = c.request
    c.request = function(self, method, params, cb)
      local t0 = vim.loop.hrtime()
      return request(self, method, params, function(e, r)
        log(('    %s %.0f ms'):format(method, (vim.loop.hrtime() - t0) / 1e6))
        if cb then cb(e, r) end
      end)
    end
  end
  vim.cmd('runtime plugin/outline.lua')
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp, 'p')
  contacts(tmp)
  vim.cmd('silent! only')
  files(tmp)
  server_exit(tmp)
  vim.cmd('enew!')
  debian()
  eq(outline.stop(), 0, 'server exit status after shutdown and exit')
  vim.fn.delete(tmp, 'rf')
end

test = coroutine.create(function()
  main()
  log('neovim: all checks passed')
  vim.cmd('qall!')
end)
vim.schedule(resume)
