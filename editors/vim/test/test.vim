vim9script
# Headless test of the Vim pane against the real server:
#   OUTLINE_SERVER=... vim -Nu NONE -i NONE -Es -S editors/vim/test/test.vim </dev/null
# Exits 0 when every check passes, 1 otherwise.
var root = fnamemodify(expand('<sfile>:p'), ':h:h:h:h')
&runtimepath = root .. '/editors/vim,' .. &runtimepath
&columns = 120
&lines = 40
set encoding=utf-8
runtime plugin/outline.vim
g:outline_debounce = 20

def Fail(msg: string)
  throw 'FAILED: ' .. msg
enddef

def Eq(actual: any, expected: any, what: string)
  if type(actual) != type(expected) || actual != expected
    Fail(what .. "\n  expected: " .. string(expected) .. "\n  actual:   " .. string(actual))
  endif
enddef

def Find(buf: number, text: string): number
  return index(getbufline(buf, 1, '$'), text) + 1
enddef

def WaitFor(Cond: func(): bool, ms: number): bool
  var n = 0
  while !Cond() && n < ms / 10
    for b in range(1, bufnr('$'))
      if bufexists(b)
        listener_flush(b)
      endif
    endfor
    sleep 10m
    n += 1
  endwhile
  return Cond()
enddef

def Press(keys: string)
  execute 'normal ' .. keys
enddef

def Main()
  execute 'edit ' .. root .. '/examples/contacts.yaml'
  var src = bufnr()
  var original = getline(1, '$')
  Outline
  var pane = bufnr()
  if pane == src
    Fail('the pane is a buffer of its own')
  endif
  Eq(winwidth(0), 40, 'pane width')
  var got = getline(1, '$')
  Eq(got[0], '▾ My Friends  4/10', 'first header')
  Eq(got[1], '  ● 张伟 / Zhang Wei', 'first row')
  Eq(got[4], '    Working from Lisbon this week, back', 'detail wrapped at 40')
  Eq(got[5], '    on the Tuesday flight if the strike', 'detail wrapped at 40 (2)')
  Eq(got[-1], '▸ Blacklist  0/3', 'last header')

  var fam = Find(pane, '▸ Family ♥  2/5')
  if fam == 0 | Fail('Family collapsed with 2/5') | endif
  cursor(fam, 1)
  var screen_row = fam - line('w0')
  Press("\<CR>")
  var cur = line('.')
  Eq(getline(cur), '▾ Family ♥  2/5', 'Family open, cursor on it')
  Eq(getline(cur + 1), '  ● 妈妈', 'first Family row')
  Eq(cur - line('w0'), screen_row, 'Family stays at the same screen line')
  cursor(cur + 2, 1)
  Press('za')
  Eq(getline('.'), '▸ Family ♥  2/5', 'za on a row closes its group')
  Press('o')
  Eq(getline('.'), '▾ Family ♥  2/5', 'o toggles')

  Press('zM')
  Eq(join(getline(1, '$'), '|'),
    '▸ My Friends  4/10|▸ Family ♥  2/5|▸ Colleagues  8/13|▸ VIP ★  2/4|▸ Blacklist  0/3', 'zM collapses all')
  Eq(getline('.'), '▸ Family ♥  2/5', 'zM keeps the cursor on Family')
  Press('zR')
  if Find(pane, '  ▾ Engineering 12  4/6') == 0 | Fail('zR opens subgroups') | endif
  Eq(getline('.'), '▾ Family ♥  2/5', 'zR keeps the cursor on Family')

  vertical resize 60
  doautocmd <nomodeline> WinResized
  Eq(outline#Pane(pane).width, 60, 'relayout after resize')
  if Find(pane, '    Working from Lisbon this week, back on the Tuesday') == 0
    Fail("detail re-wrapped at 60:\n" .. join(getline(1, '$'), "\n"))
  endif
  vertical resize 40
  doautocmd <nomodeline> WinResized
  if Find(pane, '    Working from Lisbon this week, back') == 0 | Fail('re-wrapped at 40') | endif

  var before = getline(1, '$')
  var title_line = index(original, '    title: My Friends') + 1
  setbufline(src, title_line, '    title: My Pals')
  WaitFor(() => getbufline(pane, 1)[0] == '▾ My Pals  4/10', 3000)
  Eq(getbufline(pane, 1)[0], '▾ My Pals  4/10', 'edit applied to the pane')

  var good = getbufline(pane, 1, '$')
  appendbufline(src, title_line, '    title: Again')
  WaitFor(() => getbufvar(src, 'outline_diagnostics', []) != [], 3000)
  var diags = getbufvar(src, 'outline_diagnostics', [])
  Eq(len(diags), 1, 'one diagnostic')
  Eq(diags[0].text, 'duplicate key "title" [duplicate-key]', 'diagnostic message')
  Eq(diags[0].lnum, title_line + 1, 'diagnostic line')
  Eq(diags[0].col, 5, 'diagnostic column')
  Eq(diags[0].type, 'E', 'diagnostic severity')
  Eq(len(sign_getplaced(src, {group: 'outline'})[0].signs), 1, 'a sign on the error line')
  Eq(getbufline(pane, 1, '$'), good, 'pane keeps the last good outline')

  deletebufline(src, 1, '$')
  setbufline(src, 1, original)
  WaitFor(() => getbufvar(src, 'outline_diagnostics', [1]) == [] && getbufline(pane, 1)[0] != good[0], 3000)
  Eq(getbufvar(src, 'outline_diagnostics', [1]), [], 'diagnostics cleared')
  Eq(getbufline(pane, 1, '$'), before, 'pane back to the original')

  # / filters: only the matching rows and their groups; an empty query clears
  win_gotoid(bufwinid(pane))
  var full = getline(1, '$')
  # (in -Es mode input() reads stdin, not typeahead: call what / calls, with the answer)
  Eq(maparg('/', 'n') =~ 'Filter()', true, '/ is the filter prompt')
  outline#Filter('lisbon')
  var shown = getline(1, '$')
  Eq(shown[0], '▾ My Friends  4/10', 'filter keeps the group of the match')
  Eq(shown[1], '  ● Alice Chen', 'filter shows the match')
  Eq(filter(shown[2 :], (_, l) => l !~ '^    '), [], 'only the match and its detail')
  Eq(line('.'), 2, 'cursor on the first match')
  outline#Filter('')
  Eq(getline(1, '$'), full, 'empty filter restores the pane')

  # navigate keys: the server moves the focus
  var st = outline#Pane(pane)
  Press('G')
  Eq(st.focus, st.rows[-1].id, 'G focuses the last item')
  Eq(line('.'), st.row_line[st.rows[-1].id], 'G puts the cursor on the last item')
  Press('gg')
  Eq(line('.'), 1, 'gg goes to the first item')
  Press('j')
  Eq(getline('.'), '  ● 张伟 / Zhang Wei', 'j goes to the next item')
  Press('j')
  Eq(getline('.'), '  ● Alice Chen', 'j skips detail lines')
  Press('k')
  Eq(getline('.'), '  ● 张伟 / Zhang Wei', 'k goes back')
  Press('h')
  Eq(line('.'), 1, 'h on a row goes to its group')
  Press('h')
  Eq(getline(1), '▸ My Friends  4/10', 'h on an open group closes it')
  Press('l')
  Eq(getline(1), '▾ My Friends  4/10', 'l on a closed group opens it')
  Press('l')
  Eq(getline('.'), '  ● 张伟 / Zhang Wei', 'l on an open group goes to its first child')
  Press('gg')
  Press('zM')
  Press('*')
  if !Find(pane, '▾ Blacklist  0/3') || !Find(pane, '▾ Family ♥  2/5')
    Fail('* opens the sibling groups')
  endif

  wincmd p
  execute 'Outline ' .. root .. '/examples/accordion.yaml'
  Eq(getline(1), '▾ Account  3/3', 'accordion first header')

  Eq(outline#Stop(), 0, 'server exit status after shutdown/exit')
enddef

try
  Main()
  writefile(['vim: all checks passed'], '/dev/stdout')
  qall!
catch
  writefile(split(v:exception .. "\n" .. v:throwpoint, "\n"), '/dev/stdout')
  if getenv('OUTLINE_TEST_DEBUG') != v:null
    writefile(split(outline#Stderr(), "\n"), '/dev/stdout')
  endif
  cquit 1
endtry
cquit 1
