vim9script
# The Vim pane, headless, against the real server (run by test/run).
#
# The test is a list of steps run from a timer while Vim sits in its main
# loop, as it does for a user: each step types keys (feedkeys, as typed) and
# the next one starts when every pane is idle (outline#Idle(): nothing
# queued, no debounce pending, every item fetched), then checks the WHOLE
# pane text against one drawn from the server's own answers (visibleRows,
# asked here directly) or written out. Keys reach the pane's mappings, the
# command line and the autocommands (CursorMoved, WinScrolled) as a user's
# do. The report goes to $OUTLINE_TEST_DIR/report; it ends with "vim: all
# checks passed" only when every step passed.

var root = fnamemodify(expand('<sfile>:p'), ':h:h:h:h')
var dir = getenv('OUTLINE_TEST_DIR') ?? '/tmp'
var report = dir .. '/report'
&runtimepath = root .. '/editors/vim,' .. &runtimepath
&columns = 120
&lines = 50
set encoding=utf-8 nomore shortmess+=F
# As defaults.vim does: a typed <Esc> is not held back a second for a key code.
set ttimeout ttimeoutlen=50
runtime plugin/outline.vim
g:outline_debounce = 50
g:outline_follow_delay = 50

def Log(msg: string)
  writefile(split(msg, "\n"), report, 'a')
enddef

def Fail(msg: string)
  throw 'FAILED: ' .. msg
enddef

def Eq(actual: any, expected: any, what: string)
  if type(actual) != type(expected) || actual != expected
    var detail = "\n  expected: " .. string(expected) .. "\n  actual:   " .. string(actual)
    if type(actual) == v:t_list && type(expected) == v:t_list
      var i = 0
      while i < len(actual) && i < len(expected) && actual[i] == expected[i]
        i += 1
      endwhile
      detail = printf("\n  %d lines, expected %d; first difference at line %d:\n  expected: %s\n  actual:   %s",
        len(actual), len(expected), i + 1, string(get(expected, i, '<none>')), string(get(actual, i, '<none>')))
    endif
    Fail(what .. detail)
  endif
enddef

def True(cond: bool, what: string)
  if !cond
    Fail(what)
  endif
enddef

# Keys as a user types them: they go through Vim's main loop when the step
# returns.
def Type(keys: string)
  feedkeys(keys, 't')
enddef

def Text(buf: number): list<string>
  return getbufline(buf, 1, '$')
enddef

def Messages(): string
  return execute('messages')
enddef

# ---- the pane drawn from the server's answers, independently of the pane

def RefRow(r: dict<any>): list<string>
  var ind = repeat('  ', r.depth)
  var title = r.lines.title
  var out: list<string> = []
  if r.kind == 'group'
    add(out, ind .. (r.expanded ? '▾ ' : '▸ ') .. title[0] .. (has_key(r, 'badge') ? ' ' .. r.badge : '')
      .. '  ' .. r.activeCount .. '/' .. r.rowCount)
  else
    add(out, ind .. (r.active ? '● ' : '○ ') .. title[0])
  endif
  out += mapnew(title[1 :], (_, t) => ind .. '  ' .. t)
  out += mapnew(get(r.lines, 'detail', []), (_, t) => ind .. '  ' .. t)
  return (out + repeat([''], r.height))[: r.height - 1]
enddef

def Ask(method: string, params: dict<any>): any
  var [result, err] = outline#Query(method, params)
  if err != {}
    Fail(method .. ': ' .. string(err))
  endif
  return result
enddef

def Rows(uri: string, start: number, count: number, include: list<string> = ['lines']): list<any>
  return Ask('visibleRows', {uri: uri, start: start, count: count, include: include}).rows
enddef

# The whole list as the server has it, drawn.
def Reference(uri: string): list<string>
  var out: list<string> = []
  var start = 0
  while true
    var page = Ask('visibleRows', {uri: uri, start: start, count: 10000, include: ['lines']})
    for r in page.rows
      out += RefRow(r)
    endfor
    start += len(page.rows)
    if start >= page.total
      return out
    endif
  endwhile
  return out
enddef

def Total(uri: string): dict<any>
  return Ask('visibleRows', {uri: uri, start: 0, count: 0})
enddef

# ---- the steps

var steps: list<list<any>> = []   # [name, Do]
def Step(name: string, Do: func)
  add(steps, [name, Do])
enddef

var s: dict<any> = {}   # what the steps share

# Runs the current step again at the next tick (waiting on a condition that
# no pane operation shows, such as a file seen changed).
def Again()
  steps->insert(steps[s.at], s.at + 1)
enddef

def Pane(): dict<any>
  return outline#Pane(s.pane)
enddef

def InPane()
  win_gotoid(bufwinid(s.pane))
enddef

def InSource()
  win_gotoid(bufwinid(s.src))
enddef

def Contacts()
  var contacts = root .. '/examples/contacts.yaml'
  # A copy: the steps edit and save it.
  s.file = dir .. '/contacts.yaml'
  writefile(readfile(contacts, 'b'), s.file, 'b')
  s.uri = 'file://' .. s.file

  Step('open the pane on the YAML buffer', () => {
    # The list path of large inserts (heights first, items in view, then the
    # rest in the background) is taken from 5 items on.
    g:outline_eager = 4
    execute 'edit ' .. s.file
    s.src = bufnr()
    s.original = getline(1, '$')
    Type(":Outline\<CR>")
  })
  Step('the pane shows the outline as the server lays it out at 40 cells', () => {
    s.pane = bufnr()
    True(s.pane != s.src, 'the pane is a buffer of its own')
    Eq(winwidth(0), 40, 'pane width')
    Eq(Text(s.pane), [
      '▾ My Friends  4/10',
      '  ● 张伟 / Zhang Wei',
      '    在北京出差，周五回来',
      '  ● Alice Chen',
      '    Working from Lisbon this week, back',
      '    on the Tuesday flight if the strike',
      '    is over',
      '  ● 陈静',
      '    正在听：周杰伦《晴天》',
      '  ● Sarah Ng',
      '    On holiday: no laptop, no phone, no',
      '    problem 🌴',
      '  ○ 李娜',
      '    今天心情不错 ☀️',
      '  ○ Bob Li',
      '  ○ Marco Rossi',
      '    Busy',
      '  ○ 刘洋 (Liu Yang)',
      '    考研倒计时 30 天，勿扰',
      '  ○ 赵磊',
      '  ○ Emma Wang',
      '    42',
      '▸ Family ♥  2/5',
      '▸ Colleagues  8/13',
      '▸ VIP ★  2/4',
      '▸ Blacklist  0/3'], 'the pane at open')
    Eq(Messages() =~ 'No lines in buffer', false, 'no "--No lines in buffer--" message')
    s.family = index(Text(s.pane), '▸ Family ♥  2/5') + 1
    cursor(s.family, 1)
    s.screen = winline()
    Type("\<CR>")
  })
  Step('<CR> opens Family in place', () => {
    Eq(Text(s.pane), Reference(s.uri), 'the pane after <CR> on Family')
    Eq(getline('.'), '▾ Family ♥  2/5', 'the cursor stays on Family')
    Eq(winline(), s.screen, 'Family stays on its screen line')
    Eq(getline(line('.') + 1), '  ● 妈妈', 'the first row of Family under it')
    cursor(line('.') + 2, 1)
    Type('za')
  })
  Step('za on a row closes its group', () => {
    Eq(getline('.'), '▸ Family ♥  2/5', 'za on a row closes its group, the cursor on it')
    Eq(Text(s.pane), Reference(s.uri), 'the pane after za')
    Type('o')
  })
  Step('o toggles', () => {
    Eq(getline('.'), '▾ Family ♥  2/5', 'o opens the group again')
    Type('zM')
  })
  Step('zM collapses all', () => {
    Eq(Text(s.pane), ['▸ My Friends  4/10', '▸ Family ♥  2/5', '▸ Colleagues  8/13', '▸ VIP ★  2/4',
      '▸ Blacklist  0/3'], 'zM collapses all')
    Eq(getline('.'), '▸ Family ♥  2/5', 'zM keeps the cursor on Family')
    Type('zR')
  })
  Step('zR expands all', () => {
    var ref = Reference(s.uri)
    Eq(Text(s.pane), ref, 'the pane after zR')
    True(index(ref, '  ▾ Engineering 12  4/6') >= 0, 'zR opens subgroups')
    Eq(getline('.'), '▾ Family ♥  2/5', 'zR keeps the cursor on Family')
    # VIP rows are emphasised: a text property on their titles.
    var vip = index(ref, '  ● 马总') + 1
    Eq(map(prop_list(vip, {bufnr: s.pane}), (_, p) => [p.type, p.col, p.length]),
      [['outline_emphasis', 3, len('● 马总')]], 'the emphasis of a VIP row')
    Eq(prop_list(index(ref, '  ● Front Desk') + 1, {bufnr: s.pane}), [], 'a row without emphasis has none')
    Type(":vertical resize 60\<CR>")
  })
  Step('a wider pane is laid out again by the server', () => {
    Eq(winwidth(0), 60, 'the pane is 60 wide')
    var ref = Reference(s.uri)
    Eq(Text(s.pane), ref, 'the pane at 60 cells')
    True(index(ref, '    Working from Lisbon this week, back on the Tuesday') >= 0,
      'the detail broken at 60 cells')
    Type(":vertical resize 40\<CR>")
  })
  Step('back to 40 cells', () => {
    Eq(Text(s.pane), Reference(s.uri), 'the pane at 40 cells again')
    s.sent = copy(Pane().sent)
    # Typed in the YAML: the pane follows without the editor waiting on it.
    InSource()
    s.title_line = index(s.original, '    title: My Friends') + 1
    var before = Text(s.pane)
    feedkeys(s.title_line .. 'G$bcwPals' .. "\<Esc>", 'xt')
    redraw   # Vim reports the change to the pane's listener when it redraws
    Eq(getline(s.title_line), '    title: My Pals', 'the YAML edited')
    Eq(Text(s.pane), before, 'the keystrokes returned before the pane changed')
    Eq(Pane().sent, s.sent, 'nothing was sent while typing (debounced)')
  })
  Step('the pane follows the edit, sent as an edit', () => {
    Eq(getbufline(s.pane, 1)[0], '▾ My Pals  4/10', 'the edit shows in the pane')
    Eq(Text(s.pane), Reference(s.uri), 'the pane after the edit')
    Eq(Pane().sent.edits, s.sent.edits + 1, 'one changeOutline with edits')
    Eq(Pane().sent.text, s.sent.text, 'no changeOutline with the whole text')
    s.good = Text(s.pane)
    Type(s.title_line .. "Gyyp")
  })
  Step('a duplicate key is shown as a diagnostic; the pane keeps the last good outline', () => {
    var diags = getbufvar(s.src, 'outline_diagnostics', [])
    Eq(len(diags), 1, 'one diagnostic')
    Eq(diags[0].text, 'duplicate key "title" [duplicate-key]', 'diagnostic message')
    Eq([diags[0].lnum, diags[0].col, diags[0].type], [s.title_line + 1, 5, 'E'], 'diagnostic place and severity')
    Eq(len(sign_getplaced(s.src, {group: 'outline'})[0].signs), 1, 'a sign on the error line')
    Eq(Text(s.pane), s.good, 'the pane keeps the last good outline')
    Type('uu')
  })
  Step('undo brings the pane back', () => {
    Eq(getline(1, '$'), s.original, 'the YAML as it was')
    Eq(getbufvar(s.src, 'outline_diagnostics', [1]), [], 'diagnostics cleared')
    Eq(getbufline(s.pane, 1)[0], '▾ My Friends  4/10', 'the pane back to the original title')
    Eq(Text(s.pane), Reference(s.uri), 'the pane after undo')
    # :e! after a change: the pane follows the text read again, then edits.
    Type(s.title_line .. "G$bcwPals\<Esc>")
  })
  Step(':e! reads the file again', () => {
    Eq(getbufline(s.pane, 1)[0], '▾ My Pals  4/10', 'the change shows')
    Type(":e!\<CR>")
  })
  Step('the pane follows :e!', () => {
    Eq(getline(s.title_line), '    title: My Friends', 'the YAML read again')
    Eq(getbufline(s.pane, 1)[0], '▾ My Friends  4/10', 'the pane follows :e!')
    Type(s.title_line .. "G$bcwMates\<Esc>")
  })
  Step('and edits after :e!', () => {
    Eq(getbufline(s.pane, 1)[0], '▾ My Mates  4/10', 'an edit after :e! shows')
    Eq(Text(s.pane), Reference(s.uri), 'the pane after :e! and an edit')
    Type(":e!\<CR>")
  })
  Step('jump to the source of a row', () => {
    Eq(getbufline(s.pane, 1)[0], '▾ My Friends  4/10', 'back to the file')
    InPane()
    cursor(index(Text(s.pane), '  ● Alice Chen') + 1, 1)
    Type("\<CR>")
  })
  Step('<CR> on a row goes to its line in the YAML', () => {
    Eq(bufnr(), s.src, 'the cursor is in the YAML')
    Eq(getline('.'), '      - id: alice-chen', 'on the row''s mapping')
    Eq(col('.'), 9, 'at its first key')
    # The cursor in the YAML: the pane shows its item, opening its group.
    Type(":call search('title: 王小明')\<CR>")
  })
  Step('moving the cursor in the YAML shows its item in the pane', () => {
    var p = bufwinid(s.pane)
    var text = Text(s.pane)
    Eq(text[line('.', p) - 1], '  ○ 王小明', 'the pane''s cursor on the item under the YAML cursor')
    Eq(text, Reference(s.uri), 'the pane after following the cursor')
    Type(":call search('title: Grace Liu')\<CR>")
  })
  Step('the item is revealed: its closed group opens', () => {
    var p = bufwinid(s.pane)
    Eq(getbufline(s.pane, line('.', p))[0], '  ○ Grace Liu', 'VIP opened to show Grace Liu')
    Eq(Text(s.pane), Reference(s.uri), 'the pane after revealing')
    InPane()
    s.full = Text(s.pane)
    cursor(1, 1)
    Type('/lisbon' .. "\<CR>")
  })
  Step('/ filters as typed', () => {
    Eq(Text(s.pane), [
      '▾ My Friends  4/10',
      '  ● Alice Chen',
      '    Working from Lisbon this week, back',
      '    on the Tuesday flight if the strike',
      '    is over'], 'only the match and its group')
    Eq(line('.'), 2, 'the cursor on the first match')
    Eq(map(prop_list(3, {bufnr: s.pane}), (_, p) => [p.type, p.col, p.length]),
      [['outline_match', 18, 6]], 'the match is highlighted')
    Eq(Messages() =~ 'E685', false, 'no internal error')
    Type("/abc\<Esc>")
  })
  Step('Esc at the filter prompt keeps the filter', () => {
    Eq(Text(s.pane), [
      '▾ My Friends  4/10',
      '  ● Alice Chen',
      '    Working from Lisbon this week, back',
      '    on the Tuesday flight if the strike',
      '    is over'], 'the filter is kept')
    Eq(Pane().query, 'lisbon', 'the query is kept')
    Type("/\<C-U>family\<CR>")
  })
  Step('a filter by a group name shows that group', () => {
    Eq(Text(s.pane), Reference(s.uri), 'the pane filtered by "family"')
    Eq(getbufline(s.pane, 1)[0], '▾ Family ♥  2/5', 'Family first')
    Eq(len(Text(s.pane)), 10, 'Family and its five rows, four with a detail')
    Type("/\<C-U>zzzz\<CR>")
  })
  Step('a filter that matches nothing says so', () => {
    Eq(Text(s.pane), ['(nothing matches "zzzz"; / and Enter on an empty line clear the filter)'],
      'the pane says nothing matches')
    True(Messages() =~ 'no item matches "zzzz"', 'and the message line too')
    Type("/\<C-U>\<CR>")
  })
  Step('an empty filter restores the pane', () => {
    Eq(Text(s.pane), s.full, 'the pane as before the filter')
    cursor(1, 1)
    Type('b')
  })
  Step('type-ahead: a letter goes to the next item starting with it', () => {
    Eq(getline('.'), '  ○ Bob Li', '"b" goes to Bob Li')
    Type("\<Esc>bu")
  })
  Step('type-ahead: more letters narrow it', () => {
    Eq(getline('.'), '    ● Build Bot', '"bu" goes to Build Bot')
    Eq(Messages() =~ 'E21', false, 'letters do not try to change the pane')
    cursor(1, 1)
    # <Esc> ends the type-ahead: j moves again.
    Type("\<Esc>j")
  })
  Step('j goes to the next item', () => {
    Eq(getline('.'), '  ● 张伟 / Zhang Wei', 'j from the first header')
    Type('j')
  })
  Step('j skips detail lines', () => {
    Eq(getline('.'), '  ● Alice Chen', 'j skips the detail')
    Type('k')
  })
  Step('k', () => {
    Eq(getline('.'), '  ● 张伟 / Zhang Wei', 'k goes back')
    Type('h')
  })
  Step('h on a row goes to its group', () => {
    Eq(line('.'), 1, 'h goes to the group')
    Type('h')
  })
  Step('h on an open group closes it', () => {
    Eq(getline(1), '▸ My Friends  4/10', 'h closes')
    Type('l')
  })
  Step('l on a closed group opens it', () => {
    Eq(getline(1), '▾ My Friends  4/10', 'l opens')
    Type('l')
  })
  Step('l on an open group goes to its first child', () => {
    Eq(getline('.'), '  ● 张伟 / Zhang Wei', 'l goes in')
    Type('G')
  })
  Step('G goes to the last item', () => {
    Eq(getline('.'), '  ○ Unknown', 'G')
    Eq(line('.'), line('$'), 'the last line')
    Type('ggzM*')
  })
  Step('* opens the sibling groups', () => {
    Eq(Text(s.pane), Reference(s.uri), 'the pane after *')
    True(index(Text(s.pane), '▾ Blacklist  0/3') >= 0, '* opens Blacklist')
    # The server stops (killed): :Outline starts it again, from the YAML
    # window and with the file's name.
    s.pid = outline#ServerPid()
    True(s.pid > 0, 'the server is running')
    system('kill ' .. s.pid)
    s.since = reltime()
  })
  Restarted('in the YAML window')
  Restarted('with the file name')
  Step('a second :Outline on the same file goes to its pane', () => {
    Eq(bufnr(), s.pane, 'the same pane')
    Type(":bwipeout\<CR>")
  })
enddef

# The server has been killed: :Outline `how`, typed in the YAML window,
# starts it again.
def Restarted(how: string)
  Step('(the server is seen stopped)', () => {
    if getbufline(s.pane, 1)[0] !~ 'exited' && reltimefloat(reltime(s.since)) < 30
      Again()
      return
    endif
    var said = '(the outline server exited (status -1); :Outline opens it again)'
    Eq(Text(s.pane), [said], 'the pane says the server stopped')
    # All of it can be read in the 40-cell pane: it wraps.
    var win = bufwinid(s.pane)
    Eq(screenpos(win, 1, len(said)).row - screenpos(win, 1, 1).row, 1, 'the message on two screen lines')
    InSource()
    Type(how == 'in the YAML window' ? ":Outline\<CR>" : ":Outline " .. s.file .. "\<CR>")
  })
  Step(':Outline ' .. how .. ' starts the server again and opens the outline in the pane', () => {
    Eq(bufnr(), s.pane, 'in the same pane')
    True(outline#ServerPid() > 0 && outline#ServerPid() != s.pid, 'a new server runs')
    Eq(Text(s.pane), Reference(s.uri), 'the pane after :Outline')
    Eq(&wrap, false, 'items do not wrap')
    if how == 'in the YAML window'
      s.pid = outline#ServerPid()
      system('kill ' .. s.pid)
      s.since = reltime()
    else
      # The groups as before the server stopped (it may have stopped before
      # it saved them).
      Type("ggzM*:Outline " .. s.file .. "\<CR>")
    endif
  })
enddef

# Changes a group's title in the file on disk.
def ChangeTitle(from: string, to: string)
  var text = readfile(s.file)
  text[index(text, '    title: ' .. from)] = '    title: ' .. to
  writefile(text, s.file)
  s.since = reltime()
enddef

def FilePane()
  Step('a pane opened on a file', () => {
    InSource()
    Type(":only | Outline " .. s.file .. "\<CR>")
  })
  Step('the file pane', () => {
    s.pane = bufnr()
    Eq(Text(s.pane), Reference(s.uri), 'the file pane')
    Type('gg')
  })
  Step('the file changes on disk, the cursor on the group it changes', () => {
    Eq(getline('.'), '▾ My Friends  4/10', 'the cursor on the first group')
    # The group keeps its id; the rows whose ids come from its title do not:
    # the server replaces the block from the group to the last of them.
    ChangeTitle('My Friends', 'Old Friends')
  })
  Step('(the file is seen changed)', () => {
    if getbufline(s.pane, 1)[0] !~ 'Old Friends' && reltimefloat(reltime(s.since)) < 30
      Again()   # the server polls the file a few times a second
      return
    endif
    Eq(Text(s.pane), Reference(s.uri), 'the file pane after the change')
    Eq(getbufline(s.pane, 1)[0], '▾ Old Friends  4/10', 'the pane follows the file on disk')
    Eq([line('.'), winline(), getline('.')], [1, 1, '▾ Old Friends  4/10'],
      'the cursor stays on the group, on its screen line')
    # Alice Chen, on the third screen line.
    Type("jj\<C-E>")
  })
  Step('the file changes on disk, the cursor on a row in the block it replaces', () => {
    Eq([line('.'), winline(), getline('.')], [4, 3, '  ● Alice Chen'], 'the cursor on Alice Chen')
    # The pane fetched the first change's items as heights first (with
    # g:outline_eager 4); this one's come whole.
    g:outline_eager = 1000
    ChangeTitle('Old Friends', 'My Friends')
  })
  Step('(the file is seen changed back)', () => {
    if getbufline(s.pane, 1)[0] !~ 'My Friends' && reltimefloat(reltime(s.since)) < 30
      Again()
      return
    endif
    Eq(Text(s.pane), Reference(s.uri), 'the file pane after the change back')
    Eq([line('.'), winline(), getline('.')], [4, 3, '  ● Alice Chen'],
      'the cursor stays on Alice Chen, on her screen line')
    # A broken file: the pane says so, and recovers when it is fixed.
    s.broken = dir .. '/broken.yaml'
    writefile(['groups:', '  - title: A', '    title: B'], s.broken)
    Type(":Outline " .. s.broken .. "\<CR>")
  })
  Step('a pane on a broken file says what is wrong', () => {
    s.bpane = bufnr()
    Eq(Text(s.bpane), ['(the outline has 1 error; first at 3:5: duplicate key "title")'],
      'the pane on a broken file')
    writefile(['groups:', '  - title: A', '    rows:', '      - title: fixed'], s.broken)
    s.since = reltime()
  })
  Step('(the fix is seen)', () => {
    if getbufline(s.bpane, 1)[0] != '▸ A  1/1' && reltimefloat(reltime(s.since)) < 30
      Again()   # the pane polls a broken file twice a second
      return
    endif
    Eq(Text(s.bpane), ['▸ A  1/1'], 'the pane recovers when the file is fixed')
    Type(":Outline " .. root .. "/examples/accordion.yaml\<CR>")
  })
  Step('an accordion', () => {
    Eq(getline(1), '▾ Account  3/3', 'accordion first header')
    Type('zR')
  })
  Step('zR in an accordion says why it cannot', () => {
    True(Messages() =~ 'expand all is not possible in an accordion', 'a friendly message for zR')
    Eq(Messages() =~ '-32602', false, 'no raw error code')
    Type('*')
  })
  Step('* in an accordion says why it cannot', () => {
    True(Messages() =~ 'opening every sibling group is not possible in an accordion', 'a friendly message for *')
    Type(":only\<CR>")
  })
  Step('q in the last window', () => {
    s.accordion = bufnr()
    Eq(winnr('$'), 1, 'one window')
    Type('q')
  })
  Step('q in the last window leaves a buffer shown, and no error', () => {
    True(bufnr() != s.accordion, 'the pane is gone')
    Eq(bufexists(s.accordion), 0, 'its buffer wiped')
    Eq(Messages() =~ 'E444', false, 'no E444')
    # :help outline
    var doc = dir .. '/doc'
    mkdir(doc, 'p')
    writefile(readfile(root .. '/editors/vim/doc/outline.txt'), doc .. '/outline.txt')
    execute 'helptags ' .. fnameescape(doc)
    # The tags that ship are those of the help as it is.
    Eq(readfile(root .. '/editors/vim/doc/tags'), readfile(doc .. '/tags'),
      'editors/vim/doc/tags is up to date (:helptags editors/vim/doc)')
    &runtimepath ..= ',' .. dir
    Type(":help outline\<CR>")
  })
  Step(':help outline', () => {
    Eq(&buftype, 'help', 'a help window')
    True(getline('.') =~ '\*outline\*', 'on the outline help')
    Type(":help outline-keys\<CR>")
  })
  Step(':help outline-keys', () => {
    True(getline('.') =~ '\*outline-keys\*', 'on the keys')
    Type(":only\<CR>")
  })
enddef

def Debian()
  var file = root .. '/examples/generated/debian-packages.yaml'
  var uri = 'file://' .. file
  Step('the Debian package outline', () => {
    # Items are fetched as they come into view; the background fill is left
    # out here (it is the contacts' above).
    g:outline_eager = 1000
    g:outline_fill = 0
    silent! helpclose
    only
    execute 'edit ' .. file
    s.src = bufnr()
    Type(":Outline\<CR>")
  })
  Step('opens collapsed', () => {
    s.pane = bufnr()
    Eq(Text(s.pane), Reference(uri), 'the Debian outline collapsed')
    Type('zR')
  })
  Step('expand all', () => {
    var info = Total(uri)
    s.total = info.total
    Eq(line('$'), info.contentHeight, 'every line of the expanded outline')
    True(s.total > 60000, 'more than 60,000 items')
    Type('G')
  })
  Step('G reaches the last item of the expanded outline', () => {
    var last = RefRow(Rows(uri, s.total - 1, 1)[0])
    Eq(getline(line('$') - len(last) + 1, '$'), last, 'the last item drawn at the end')
    Eq(line('.'), line('$') - len(last) + 1, 'the cursor on the last item')
    Eq(line('w$'), line('$'), 'the whole last item in the window, its detail too')
    var top = line('w0')
    var view = Ask('visibleRows', {uri: uri, viewport: {top: top - 1, height: winheight(0)}, include: ['lines']})
    var drawn: list<string> = []
    for r in view.rows
      drawn += RefRow(r)
    endfor
    var first = view.rows[0].top + 1
    Eq(getline(top, '$'), drawn[top - first : top - first + line('$') - top], 'the window at the end')
    Type('gg')
  })
  Step('collapse a large group', () => {
    Eq(getline('.'), '▾ admin 1479  37/1479', 'gg on the first group')
    Type('za')
  })
  Step('the group closes', () => {
    var top = Rows(uri, 0, 2)
    Eq(getline(1, 2), RefRow(top[0]) + RefRow(top[1]), 'admin closed')
    Eq(getline(1), '▸ admin 1479  37/1479', 'admin drawn closed')
    Eq(line('$'), Total(uri).contentHeight, 'the lines after the toggle')
    Type('zM')
  })
  Step('collapse all, then open one large group', () => {
    Eq(Text(s.pane), Reference(uri), 'collapsed again')
    # Filled in the background this time: the whole pane can be compared.
    g:outline_fill = 1
    Type("gg\<CR>")
  })
  Step('one large group open: the whole pane', () => {
    Eq(Text(s.pane), Reference(uri), 'admin open, every item fetched')
    Type("/zope\<CR>")
  })
  Step('a filter by a group name', () => {
    Eq(Text(s.pane), Reference(uri), 'filtered by "zope"')
    True(index(Text(s.pane), '▾ zope 15  0/15') >= 0, 'the zope group open, with its rows')
    g:outline_fill = 0
    Eq(split(Messages(), "\n")[-1], 'outline: 18 items match "zope"', 'the number of matches')
    Type("/\<C-U>lib\<CR>")
  })
  Step('filter lib', () => {
    var info = Total(uri)
    True(info.total > 30000, 'the filter lib shows more than 30,000 items')
    # The server lists the first 10,000 matches.
    Eq(split(Messages(), "\n")[-1], 'outline: 10,000 or more items match "lib"', 'the message on the matches')
    Eq(line('$'), info.contentHeight, 'every line of the filtered list')
    Type('G')
  })
  Step('G reaches the last item of the filtered list', () => {
    var info = Total(uri)
    var last = RefRow(Rows(uri, info.total - 1, 1)[0])
    Eq(getline(line('$') - len(last) + 1, '$'), last, 'the last filtered item drawn at the end')
    Eq(line('w$'), line('$'), 'the whole last filtered item in the window')
    Type("/\<C-U>\<CR>zMgg")
  })
  Step(':e! on the Debian YAML', () => {
    InSource()
    Type(":e!\<CR>")
  })
  Step('then typing in it', () => {
    Eq(getbufline(s.pane, 1)[0], '▸ admin 1479  37/1479', 'the pane after :e!')
    s.sent = copy(Pane().sent)
    var before = Text(s.pane)
    var t = search('^    title: "cli-mono"$')
    feedkeys(t .. 'G$hrY', 'xt')
    redraw
    Eq(getline(t), '    title: "cli-monY"', 'the YAML edited')
    Eq(Text(s.pane), before, 'the keystrokes returned before the pane changed')
    Eq(Pane().sent, s.sent, 'nothing sent while typing')
  })
  Step('the pane follows, by an edit', () => {
    Eq(getbufline(s.pane, 2)[0], '▸ cli-monY 292  0/292', 'the edit shows')
    Eq(Text(s.pane), Reference(uri), 'the pane after the edit')
    Eq(Pane().sent.edits, s.sent.edits + 1, 'sent as an edit')
    Eq(Pane().sent.text, s.sent.text, 'not as the whole text')
    Type(":call search('title: \"zsh-syntax-highlighting\"')\<CR>")
  })
  Step('following the cursor deep into a closed group', () => {
    var item = Ask('itemAtPosition', {uri: uri, position: {line: line('.') - 1, character: col('.') - 1}})
    Eq(item.id, 'zsh-syntax-highlighting', 'the item under the YAML cursor')
    True(type(item.index) == v:t_number, 'it is shown')
    var p = bufwinid(s.pane)
    Eq(getbufline(s.pane, line('.', p))[0], RefRow(Rows(uri, item.index, 1)[0])[0], 'the pane''s cursor on it')
    InPane()
    Type("\<CR>")
  })
  Step('and back to its source', () => {
    Eq(bufnr(), s.src, 'in the YAML')
    True(getline('.') =~ '^ *- id: "zsh-syntax-highlighting"$', 'on the item''s line')
    Eq(col('.'), stridx(getline('.'), 'id:') + 1, 'at its first key')
  })
enddef

var t0 = reltime()
var at = -1

def Tick(timer: number)
  if !outline#Idle() || mode() != 'n' || state('mo') != ''
    if reltimefloat(reltime(t0)) > str2float(getenv('OUTLINE_TEST_STEP_TIMEOUT') ?? '60')
      Finish('FAILED: timed out in step "' .. steps[at][0] .. '"')
    endif
    return
  endif
  try
    at += 1
    s.at = at
    if at >= len(steps)
      Finish('')
      return
    endif
    if at > 0 && getenv('OUTLINE_TEST_TIMES') != v:null
      Log(printf('%6.2f s  %s', reltimefloat(reltime(t0)), steps[at - 1][0]))
    endif
    t0 = reltime()
    var Do = steps[at][1]
    Do()
  catch
    Finish(v:exception .. "\n  in step \"" .. steps[at][0] .. "\"\n  at " .. v:throwpoint)
  endtry
enddef

def Finish(failure: string)
  timer_stopall()
  if failure != ''
    Log(failure)
    Log('messages:' .. Messages())
    if has_key(s, 'pane')
      var p = outline#Pane(s.pane)
      if p != {}
        Log(printf('pane: busy %s, %d queued, missing %d, timers %d %d %d, version %d, %d chunks %s',
          p.busy, len(p.queue), p.missing, p.timer, p.follow_timer, p.fill_timer, p.version, len(p.chunks),
          string(mapnew(p.chunks, (_, c) => [len(c.rows), c.lines, c.missing]))))
      endif
    endif
    Log('server stderr:' .. "\n" .. outline#Stderr())
    cquit 1
  endif
  Log(printf('%d steps run', len(steps)))
  var status = outline#Stop()
  if status != 0
    Log('FAILED: the server exited with status ' .. string(status) .. ' after shutdown and exit')
    cquit 1
  endif
  Log('vim: all checks passed')
  qall!
enddef

if getenv('OUTLINE_TEST_CHLOG') != v:null
  ch_logfile(getenv('OUTLINE_TEST_CHLOG'), 'w')
endif
try
  writefile([], report)
  Contacts()
  FilePane()
  if getenv('OUTLINE_TEST_NO_DEBIAN') == v:null
    Debian()
  endif
  timer_start(10, Tick, {repeat: -1})
catch
  Log(v:exception .. ' at ' .. v:throwpoint)
  cquit 1
endtry
