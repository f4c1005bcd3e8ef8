vim9script
# See run. Times are wall-clock milliseconds of this Vim; "shown" is when the
# pane's operation is done (the rows in view drawn), "complete" when every
# row is fetched (the background fill).
var root = fnamemodify(expand('<sfile>:p'), ':h:h:h:h')
var report = (getenv('OUTLINE_BENCH_DIR') ?? '/tmp') .. '/report'
&runtimepath = root .. '/editors/vim,' .. &runtimepath
&columns = 160
&lines = 50
set encoding=utf-8 nomore
runtime plugin/outline.vim
var file = root .. '/examples/generated/debian-packages.yaml'

def Log(msg: string)
  writefile([msg], report, 'a')
enddef

def Ms(t: list<any>): float
  return reltimefloat(reltime(t)) * 1000
enddef

var pane = -1

def Shown(): bool
  var p = outline#Pane(pane)
  return !p.busy && p.queue == [] && p.timer == -1 && p.follow_timer == -1
enddef

# Waits (callbacks run meanwhile) until Cond(); the longest time Vim did not
# get back to waiting is kept in `blocked`.
var blocked = 0.0
def WaitFor(Cond: func(): bool, what: string)
  var start = reltime()
  var last = reltime()
  while !Cond()
    var gap = Ms(last)
    if gap > blocked
      blocked = gap
    endif
    if Ms(start) > 300000
      throw 'timed out: ' .. what
    endif
    last = reltime()
    sleep 1m
  endwhile
enddef

def Median(xs: list<float>): float
  var s = sort(copy(xs), 'f')
  return s[len(s) / 2]
enddef

def Most(xs: list<float>): float
  return sort(copy(xs), 'f')[-1]
enddef

def Keys(keys: string)
  feedkeys(keys, 'x')
enddef

# Runs `keys` in the pane; prints when it is shown and when complete.
def Timed(what: string, keys: string)
  win_gotoid(bufwinid(pane))
  blocked = 0.0
  var t = reltime()
  Keys(keys)
  var keys_ms = Ms(t)
  WaitFor(Shown, what)
  var shown = Ms(t)
  WaitFor(outline#Idle, what)
  Log(printf('%-28s shown %7.1f ms   complete %7.1f ms   (keys %.1f ms, Vim busy at most %.1f ms at a time)',
    what, shown, Ms(t), keys_ms, blocked))
enddef

def Bench()
  writefile([], report)
  var t = reltime()
  execute 'edit ' .. file
  var src = bufnr()
  Log(printf('%-28s %7.1f ms', ':edit the 15 MB YAML', Ms(t)))
  t = reltime()
  Outline
  pane = bufnr()
  WaitFor(outline#Idle, 'open')
  Log(printf('%-28s %7.1f ms   (%d lines)', ':Outline', Ms(t), line('$')))
  Timed('expand all (zR)', 'zR')
  Log(printf('%-28s %d items, %d lines', '', outline#Pane(pane).missing + len(outline#Query('visibleRows', {uri: outline#Pane(pane).uri, start: 0, count: 0})[0]) * 0 + line('$') * 0 + outline#Query('visibleRows', {uri: outline#Pane(pane).uri, start: 0, count: 0})[0].total, line('$')))
  Timed('G (last row)', 'G')
  Timed('gg', 'gg')
  # Toggles: a large group (1,479 rows inside) and a small one (15 rows).
  Timed('toggle admin (close)', 'za')
  Timed('toggle admin (open)', 'za')
  cursor(search('^▾ zope '), 1)
  Timed('toggle zope (close)', 'za')
  Timed('toggle zope (open)', 'za')
  Timed('collapse all (zM)', 'zM')
  Timed('toggle admin (open, 1,507)', 'ggza')
  Timed('toggle admin (close)', 'za')
  Timed('filter lib', "/lib\<CR>")
  Timed('G in the filtered list', 'G')
  Timed('clear the filter', "/\<C-U>\<CR>")
  Timed('zM', 'zM')

  # Typing in the YAML buffer: how long one keystroke keeps Vim busy (the
  # keystroke, and the redraw that hands the change to the pane), with the
  # pane and without.
  win_gotoid(bufwinid(src))
  cursor(search('^    title: "cli-mono"$'), 1)
  var with: list<float> = []
  for i in range(20)
    t = reltime()
    feedkeys("$i#\<Esc>", 'x')
    redraw
    add(with, Ms(t))
  endfor
  WaitFor(outline#Idle, 'edits')
  # The pane shows the edit: the header "cli-mono" has its new title.
  t = reltime()
  feedkeys("$iZ\<Esc>", 'x')
  redraw
  var typed_at = reltime()
  WaitFor(() => getbufline(pane, 2)[0] =~ 'cli-mono#*Z ', 'the edit in the pane')
  var follow = Ms(typed_at)
  WaitFor(outline#Idle, 'idle')
  var sent = outline#Pane(pane).sent
  Log(printf('%-28s median %.2f ms, max %.2f ms  (20 keystrokes, each $i#<Esc> and a redraw)', 'a keystroke in the YAML', Median(with), Most(with)))
  Log(printf('%-28s %7.1f ms after the last keystroke (debounce %d ms + the server re-reading 15 MB); sent %d edits, %d whole texts',
    'the pane shows the edit', follow, get(g:, 'outline_debounce', 150), sent.edits, sent.text))
  execute 'bwipeout! ' .. pane
  var without: list<float> = []
  for i in range(20)
    t = reltime()
    feedkeys("$i#\<Esc>", 'x')
    redraw
    add(without, Ms(t))
  endfor
  Log(printf('%-28s median %.2f ms, max %.2f ms', 'the same without a pane', Median(without), Most(without)))
enddef

try
  Bench()
  outline#Stop()
  qall!
catch
  Log('FAILED: ' .. v:exception .. ' at ' .. v:throwpoint)
  cquit 1
endtry
