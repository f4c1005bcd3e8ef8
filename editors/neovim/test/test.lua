-- Headless test of the Neovim pane against the real server:
--   OUTLINE_SERVER=... nvim --headless -u NONE -i NONE -c 'luafile editors/neovim/test/test.lua'
-- Exits 0 when every check passes, 1 otherwise.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h:h')
vim.opt.runtimepath:prepend(root .. '/editors/neovim')
vim.o.columns, vim.o.lines = 120, 40

local function log(msg) io.stdout:write(msg .. '\n') end

local function check(cond, msg)
  if not cond then error('FAILED: ' .. msg, 2) end
end

local function eq(actual, expected, what)
  if actual ~= expected then
    error(('FAILED: %s\n  expected: %s\n  actual:   %s'):format(what, vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

local function lines(buf) return vim.api.nvim_buf_get_lines(buf, 0, -1, false) end

local function find(buf, text)
  for i, l in ipairs(lines(buf)) do if l == text then return i end end
  return nil
end

local function press(keys)
  vim.cmd('normal ' .. vim.api.nvim_replace_termcodes(keys, true, false, true))
end

local function main()
  local server = vim.env.OUTLINE_SERVER
  check(server and server ~= '', 'OUTLINE_SERVER is set')
  local outline = require('outline')
  outline.setup({ cmd = { server }, width = 40, debounce = 20 })
  vim.cmd('runtime plugin/outline.lua')

  vim.cmd('edit ' .. root .. '/examples/contacts.yaml')
  local src = vim.api.nvim_get_current_buf()
  local original = lines(src)
  vim.cmd('Outline')
  local pane = vim.api.nvim_get_current_buf()
  local win = vim.api.nvim_get_current_win()
  check(pane ~= src, 'the pane is a buffer of its own')
  eq(vim.api.nvim_win_get_width(win), 40, 'pane width')
  -- :Outline inside the pane keeps to that pane.
  local windows = #vim.api.nvim_list_wins()
  vim.cmd('Outline')
  eq(#vim.api.nvim_list_wins(), windows, 'no new window from :Outline in the pane')
  eq(vim.api.nvim_get_current_buf(), pane, ':Outline in the pane stays on it')
  local got = lines(pane)
  eq(got[1], '▾ My Friends  4/10', 'first header')
  eq(got[2], '  ● 张伟 / Zhang Wei', 'first row')
  eq(got[4], '  ● Alice Chen', 'Alice')
  eq(got[5], '    Working from Lisbon this week, back', 'detail wrapped at 40')
  eq(got[6], '    on the Tuesday flight if the strike', 'detail wrapped at 40 (2)')
  eq(got[#got], '▸ Blacklist  0/3', 'last header')
  check(find(pane, '▸ Family ♥  2/5'), 'Family collapsed with 2/5')

  -- toggle Family with <CR>: it stays under the cursor
  local fam = find(pane, '▸ Family ♥  2/5')
  vim.api.nvim_win_set_cursor(win, { fam, 0 })
  local row_on_screen = fam - vim.fn.line('w0')
  press('<CR>')
  local cur = vim.api.nvim_win_get_cursor(win)[1]
  eq(lines(pane)[cur], '▾ Family ♥  2/5', 'Family open, cursor on it')
  eq(lines(pane)[cur + 1], '  ● 妈妈', 'first Family row')
  eq(cur - vim.fn.line('w0'), row_on_screen, 'Family stays at the same screen line')

  -- za on a row closes its group
  vim.api.nvim_win_set_cursor(win, { cur + 2, 0 })
  press('za')
  cur = vim.api.nvim_win_get_cursor(win)[1]
  eq(lines(pane)[cur], '▸ Family ♥  2/5', 'za on a row closes its group')
  -- o opens it again
  press('o')
  eq(lines(pane)[vim.api.nvim_win_get_cursor(win)[1]], '▾ Family ♥  2/5', 'o toggles')

  -- zM / zR
  press('zM')
  eq(table.concat(lines(pane), '|'),
    '▸ My Friends  4/10|▸ Family ♥  2/5|▸ Colleagues  8/13|▸ VIP ★  2/4|▸ Blacklist  0/3', 'zM collapses all')
  eq(lines(pane)[vim.api.nvim_win_get_cursor(win)[1]], '▸ Family ♥  2/5', 'zM keeps the cursor on Family')
  press('zR')
  check(find(pane, '  ▾ Engineering 12  4/6'), 'zR opens subgroups')
  check(find(pane, '▾ Blacklist  0/3'), 'zR opens Blacklist')
  eq(lines(pane)[vim.api.nvim_win_get_cursor(win)[1]], '▾ Family ♥  2/5', 'zR keeps the cursor on Family')

  -- resize: detail re-wraps to the new width
  vim.api.nvim_win_set_width(win, 60)
  -- headless Neovim has no screen to redraw, so fire the event a UI fires
  vim.cmd('redraw | doautocmd <nomodeline> WinScrolled')
  vim.wait(2000, function() return outline.pane(pane).width == 60 end, 10)
  eq(outline.pane(pane).width, 60, 'relayout after resize')
  check(find(pane, "    Working from Lisbon this week, back on the Tuesday") or error(table.concat(lines(pane), "\n")),
    'detail re-wrapped at 60')
  vim.api.nvim_win_set_width(win, 40)
  vim.cmd('redraw | doautocmd <nomodeline> WinScrolled')
  vim.wait(2000, function() return outline.pane(pane).width == 40 end, 10)
  check(find(pane, '    Working from Lisbon this week, back'), 'detail re-wrapped at 40')

  -- an edit that is valid is applied
  local before = lines(pane)
  local title_line
  for i, l in ipairs(original) do if l == '    title: My Friends' then title_line = i end end
  check(title_line, 'title line found in the example')
  vim.api.nvim_buf_set_lines(src, title_line - 1, title_line, false, { '    title: My Pals' })
  vim.wait(3000, function() return lines(pane)[1] == '▾ My Pals  4/10' end, 10)
  eq(lines(pane)[1], '▾ My Pals  4/10', 'edit applied to the pane')

  -- a YAML error: diagnostic, pane keeps the last good outline
  local good = lines(pane)
  vim.api.nvim_buf_set_lines(src, title_line, title_line, false, { '    title: Again' })
  vim.wait(3000, function() return #vim.diagnostic.get(src) > 0 end, 10)
  local diags = vim.diagnostic.get(src)
  eq(#diags, 1, 'one diagnostic')
  eq(diags[1].message, 'duplicate key "title"', 'diagnostic message')
  eq(diags[1].lnum, title_line, 'diagnostic line')
  eq(diags[1].col, 4, 'diagnostic column')
  eq(diags[1].severity, vim.diagnostic.severity.ERROR, 'diagnostic severity')
  eq(table.concat(lines(pane), '\n'), table.concat(good, '\n'), 'pane keeps the last good outline')

  -- restore the text: diagnostics clear, the pane is as before
  vim.api.nvim_buf_set_lines(src, 0, -1, false, original)
  vim.wait(3000, function() return #vim.diagnostic.get(src) == 0 and lines(pane)[1] ~= good[1] end, 10)
  eq(#vim.diagnostic.get(src), 0, 'diagnostics cleared')
  eq(table.concat(lines(pane), '\n'), table.concat(before, '\n'), 'pane back to the original')

  -- / filters: only the matching rows and their groups; an empty query clears
  local full = lines(pane)
  press('/lisbon<CR>')
  local got = lines(pane)
  eq(got[1], '▾ My Friends  4/10', 'filter keeps the group of the match')
  eq(got[2], '  ● Alice Chen', 'filter shows the match')
  for i = 3, #got do check(got[i]:match('^    '), 'only the match\'s detail follows: ' .. got[i]) end
  eq(vim.api.nvim_win_get_cursor(win)[1], 2, 'cursor on the first match')
  press('/<C-u><CR>')
  eq(table.concat(lines(pane), '\n'), table.concat(full, '\n'), 'empty filter restores the pane')

  -- navigate keys: the server moves the focus
  local function cur_line() return lines(pane)[vim.api.nvim_win_get_cursor(win)[1]] end
  press('G')
  local st = outline.pane(pane)
  eq(vim.api.nvim_win_get_cursor(win)[1], st.row_line[#st.rows], 'G goes to the last item')
  eq(st.focus, st.rows[#st.rows].id, 'the focus is the last item')
  press('gg')
  eq(vim.api.nvim_win_get_cursor(win)[1], 1, 'gg goes to the first item')
  press('j')
  eq(cur_line(), '  ● 张伟 / Zhang Wei', 'j goes to the next item')
  press('j')
  eq(cur_line(), '  ● Alice Chen', 'j skips the detail lines of an item')
  press('k')
  eq(cur_line(), '  ● 张伟 / Zhang Wei', 'k goes back')
  press('h')
  eq(vim.api.nvim_win_get_cursor(win)[1], 1, 'h on a row goes to its group')
  press('h')
  eq(lines(pane)[1], '▸ My Friends  4/10', 'h on an open group closes it')
  press('l')
  eq(lines(pane)[1], '▾ My Friends  4/10', 'l on a closed group opens it')
  press('l')
  eq(cur_line(), '  ● 张伟 / Zhang Wei', 'l on an open group goes to its first child')
  press('gg')
  press('zM')
  press('*')
  check(find(pane, '▾ Blacklist  0/3') and find(pane, '▾ Family ♥  2/5'), '* opens the sibling groups')
  eq(vim.api.nvim_win_get_cursor(win)[1], 1, '* keeps the cursor')

  -- :Outline FILE opens a file from disk
  vim.cmd('wincmd p')
  vim.cmd('Outline ' .. root .. '/examples/accordion.yaml')
  local pane2 = vim.api.nvim_get_current_buf()
  check(pane2 ~= pane, 'a second pane')
  eq(lines(pane2)[1], '▾ Account  3/3', 'accordion first header')

  -- shut the server down cleanly
  local code = outline.stop()
  eq(code, 0, 'server exit status after shutdown/exit')
end

local ok, err = xpcall(main, debug.traceback)
if ok then
  log('neovim: all checks passed')
  vim.cmd('qall!')
else
  log(tostring(err))
  if vim.env.OUTLINE_TEST_DEBUG then log(require('outline').stderr or '') end
  vim.cmd('cquit 1')
end
