vim9script
# An outline pane for Vim 9 driven by outline-server over a channel in
# 'lsp' mode. Options: g:outline_server (path), g:outline_width (40).

var job: any = v:null
var chan: any = v:null
var panes: dict<any> = {}   # pane buffer number -> state
var stderr_text = ''
g:outline_exit_status = v:null

def Cmd(): list<string>
  var p = get(g:, 'outline_server', '')
  if p == ''
    p = getenv('OUTLINE_SERVER') ?? ''
  endif
  return [p == '' ? 'outline-server' : p]
enddef

def OnExit(j: any, status: number)
  g:outline_exit_status = status
enddef

def OnStderr(ch: any, msg: string)
  stderr_text ..= msg .. "\n"
enddef

export def Stderr(): string
  return stderr_text
enddef

def OnMessage(ch: any, msg: any)
  if type(msg) != v:t_dict || get(msg, 'method', '') != 'outlineChanged'
    return
  endif
  for pane in values(panes)
    if pane.uri == msg.params.uri
      ShowDiagnostics(pane, msg.params.diagnostics)
      Refresh(pane)
    endif
  endfor
enddef

def Channel(): any
  if job != v:null && job_status(job) == 'run'
    return chan
  endif
  g:outline_exit_status = v:null
  job = job_start(Cmd(), {in_mode: 'lsp', out_mode: 'lsp', err_mode: 'nl',
    err_cb: OnStderr, exit_cb: OnExit, callback: OnMessage, noblock: 1})
  if job_status(job) != 'run'
    echoerr 'outline: cannot start ' .. Cmd()[0]
    return v:null
  endif
  chan = job_getchannel(job)
  var [_, err] = Request('initialize', {clientInfo: {name: 'vim-outline'},
    capabilities: {general: {positionEncodings: ['utf-8']}}})
  if err != {}
    echoerr 'outline: initialize failed: ' .. string(err)
    return v:null
  endif
  ch_sendexpr(chan, {method: 'initialized', params: {}})
  return chan
enddef

# Sends a request and waits: returns [result, error] (error {} when none).
export def Request(method: string, params: dict<any>): list<any>
  if chan == v:null || ch_status(chan) != 'open'
    return [v:null, {code: -32099, message: 'outline-server is not running'}]
  endif
  var resp = ch_evalexpr(chan, {method: method, params: params}, {timeout: 5000})
  if type(resp) != v:t_dict || resp == {}
    return [v:null, {code: -32098, message: method .. ' timed out'}]
  endif
  if has_key(resp, 'error')
    return [v:null, resp.error]
  endif
  return [get(resp, 'result', v:null), {}]
enddef

# shutdown, exit; waits for the server and returns its exit status.
export def Stop(): any
  if job == v:null
    return g:outline_exit_status
  endif
  if job_status(job) == 'run'
    Request('shutdown', {})
    ch_sendexpr(chan, {method: 'exit', params: {}})
    var n = 0
    while job_status(job) == 'run' && n < 300
      sleep 10m
      n += 1
    endwhile
    if job_status(job) == 'run'
      job_stop(job)
    endif
  endif
  var status = job_info(job).exitval
  job = v:null
  chan = v:null
  return status
enddef

# ---- wrapping, as the server counts lines

def Tokens(line: string): list<dict<any>>
  var out: list<dict<any>> = []
  var cur: dict<any> = {}
  for ch in split(line, '\zs')
    var w = strdisplaywidth(ch)
    if ch == ' ' || ch == "\t"
      if cur == {}
        cur = {text: '', core: ''}
      endif
      cur.text ..= ch
      cur.spaced = true
    elseif w >= 2
      if cur != {}
        add(out, cur)
      endif
      cur = {text: ch, core: ch, wide: true}
    else
      if cur != {} && (get(cur, 'spaced', false) || get(cur, 'wide', false))
        add(out, cur)
        cur = {}
      endif
      if cur == {}
        cur = {text: '', core: ''}
      endif
      cur.text ..= ch
      cur.core ..= ch
    endif
  endfor
  if cur != {}
    add(out, cur)
  endif
  return out
enddef

export def Wrap(text: string, width_in: number): list<string>
  var out: list<string> = []
  if text == ''
    return out
  endif
  var width = max([1, width_in])
  var t = substitute(substitute(text, "\r\n", "\n", 'g'), "\u2028", "\n", 'g')
  for para in split(t, "\n", 1)
    var line = ''
    var lw = 0
    for tok in Tokens(para)
      var cw = strdisplaywidth(tok.core)
      if lw > 0 && lw + cw > width
        add(out, substitute(line, '\s\+$', '', ''))
        [line, lw] = ['', 0]
      endif
      if cw > width
        for ch in split(tok.core, '\zs')
          var w = strdisplaywidth(ch)
          if lw > 0 && lw + w > width
            add(out, line)
            [line, lw] = ['', 0]
          endif
          line ..= ch
          lw += w
        endfor
        var rest = strpart(tok.text, len(tok.core))
        line ..= rest
        lw += strdisplaywidth(rest)
      else
        line ..= tok.text
        lw += strdisplaywidth(tok.text)
      endif
    endfor
    add(out, substitute(line, '\s\+$', '', ''))
  endfor
  return out
enddef

def JoinLines(a: string, b: string): string
  if a != '' && b != '' && strdisplaywidth(strcharpart(a, strchars(a) - 1)) < 2
      && strdisplaywidth(strcharpart(b, 0, 1)) < 2
    return a .. ' ' .. b
  endif
  return a .. b
enddef

# title + detail lines made exactly `height` lines: the server's height is
# the truth for positions; extra lines of this wrapping are joined back.
def Fit(title: list<string>, detail: list<string>, height: number): list<string>
  while len(title) + len(detail) > height
    if len(detail) > 1
      var b = remove(detail, -1)
      detail[-1] = JoinLines(detail[-1], b)
    elseif len(title) > 1
      var b = remove(title, -1)
      title[-1] = JoinLines(title[-1], b)
    elseif len(detail) == 1
      title[-1] = JoinLines(title[-1], remove(detail, -1))
    else
      break
    endif
  endwhile
  return title + detail
enddef

export def RowLines(row: dict<any>, width: number): list<string>
  var indent = repeat(' ', 2 * row.depth)
  var h = get(row, 'height', 1)
  var lines: list<string> = []
  if row.kind == 'group'
    var header = indent .. (row.expanded ? '▾ ' : '▸ ') .. row.title
    if get(row, 'badge', '') != ''
      header ..= ' ' .. row.badge
    endif
    lines = [header .. '  ' .. row.activeCount .. '/' .. row.rowCount]
  else
    var ww = width - 2 * row.depth - 2
    var title = Wrap(row.title, ww)
    if title == []
      title = ['']
    endif
    var i = 0
    for t in Fit(title, Wrap(get(row, 'detail', ''), ww), h)
      add(lines, indent .. (i == 0 ? (row.active ? '● ' : '○ ') : '  ') .. t)
      i += 1
    endfor
  endif
  while len(lines) < h
    add(lines, '')
  endwhile
  return lines[: h - 1]
enddef

# ---- the pane

def PaneWin(pane: dict<any>): number
  return bufwinid(pane.buf)
enddef

def Draw(pane: dict<any>, lines: list<string>)
  setbufvar(pane.buf, '&modifiable', 1)
  deletebufline(pane.buf, 1, '$')
  setbufline(pane.buf, 1, lines)
  setbufvar(pane.buf, '&modifiable', 0)
enddef

def Refresh(pane: dict<any>): bool
  if !pane.open
    return false
  endif
  var [result, err] = Request('visibleRows', {uri: pane.uri})
  if err != {}
    echomsg 'outline: visibleRows: ' .. get(err, 'message', '')
    return false
  endif
  pane.rows = result.rows
  pane.line_row = [-1]
  pane.row_line = {}
  var lines: list<string> = []
  var i = 0
  for row in result.rows
    pane.row_line[row.id] = len(lines) + 1
    for l in RowLines(row, pane.width)
      add(lines, l)
      add(pane.line_row, i)
    endfor
    i += 1
  endfor
  Draw(pane, lines == [] ? ['(empty outline)'] : lines)
  return true
enddef

def Relayout(pane: dict<any>)
  var win = PaneWin(pane)
  if win < 0 || !pane.open
    return
  endif
  var width = winwidth(win)
  if width == pane.width
    return
  endif
  pane.width = width
  var [_, err] = Request('setLayout', {uri: pane.uri, width: width, padding: {left: 2}})
  if err == {}
    var view = win_execute(win, 'echo winsaveview()')
    Refresh(pane)
    win_execute(win, 'winrestview(' .. trim(view) .. ')')
  endif
enddef

export def RelayoutAll()
  for pane in values(panes)
    Relayout(pane)
  endfor
enddef

def ShowDiagnostics(pane: dict<any>, list: list<any>)
  pane.diagnostics = list
  if pane.src < 0 || !bufexists(pane.src)
    return
  endif
  sign_unplace('outline', {buffer: pane.src})
  var items: list<dict<any>> = []
  for d in list
    var lnum = d.range.start.line + 1
    add(items, {bufnr: pane.src, lnum: lnum, col: d.range.start.character + 1,
      end_lnum: d.range.end.line + 1, end_col: d.range.end.character + 1,
      type: d.severity == 1 ? 'E' : 'W', text: d.message .. ' [' .. get(d, 'code', '') .. ']'})
    sign_place(0, 'outline', d.severity == 1 ? 'OutlineError' : 'OutlineWarning', pane.src, {lnum: lnum})
  endfor
  setbufvar(pane.src, 'outline_diagnostics', items)
  var srcwin = bufwinid(pane.src)
  if srcwin >= 0
    setloclist(srcwin, items, 'r')
  endif
enddef

def BufferText(buf: number): string
  return join(getbufline(buf, 1, '$'), "\n") .. "\n"
enddef

def OpenOutline(pane: dict<any>, text: any): bool
  var params: dict<any> = {uri: pane.uri}
  if type(text) == v:t_string
    params.text = text
  endif
  var [result, err] = Request('openOutline', params)
  if err != {}
    pane.open = false
    var data = get(err, 'data', {})
    if type(data) == v:t_dict && has_key(data, 'diagnostics')
      ShowDiagnostics(pane, data.diagnostics)
    endif
    Draw(pane, ['(' .. get(err, 'message', 'error') .. ')'])
    return false
  endif
  pane.open = true
  pane.width = -1
  ShowDiagnostics(pane, result.diagnostics)
  return true
enddef

def RestoreView(pane: dict<any>, Fn: func)
  var win = PaneWin(pane)
  var view = win >= 0 ? trim(win_execute(win, 'echo winsaveview()')) : ''
  Fn()
  if win >= 0
    win_execute(win, 'winrestview(' .. view .. ')')
  endif
enddef

# Sends the source buffer's text (changeOutline); redraws when applied.
export def Sync(pane_buf: number)
  var pane = get(panes, string(pane_buf), {})
  if pane == {} || !bufexists(pane.src)
    return
  endif
  pane.timer = -1
  var text = BufferText(pane.src)
  if !pane.open
    if OpenOutline(pane, text)
      Relayout(pane)
      Refresh(pane)
    endif
    return
  endif
  var [result, err] = Request('changeOutline', {uri: pane.uri, text: text})
  if err != {}
    echomsg 'outline: changeOutline: ' .. get(err, 'message', '')
    return
  endif
  ShowDiagnostics(pane, result.diagnostics)
  if result.applied
    RestoreView(pane, () => Refresh(pane))
  endif
enddef

def OnLines(pane_buf: number)
  var pane = get(panes, string(pane_buf), {})
  if pane == {} || pane.timer >= 0
    return
  endif
  pane.timer = timer_start(get(g:, 'outline_debounce', 150), (_) => Sync(pane_buf))
enddef

def RowUnderCursor(pane: dict<any>): any
  var lnum = line('.', PaneWin(pane))
  if !has_key(pane, 'rows') || lnum >= len(pane.line_row)
    return v:null
  endif
  return pane.rows[pane.line_row[lnum]]
enddef

def Place(pane: dict<any>, id: any, topline: number, old_rows: list<any>)
  var parents: dict<any> = {}
  for r in old_rows
    parents[r.id] = r.parent
  endfor
  var target = id
  while type(target) == v:t_string && !has_key(pane.row_line, target)
    target = get(parents, target, v:null)
  endwhile
  var lnum = type(target) == v:t_string ? pane.row_line[target] : 1
  var view = {lnum: lnum, col: 0}
  if topline > 0
    view.topline = topline
  endif
  win_execute(PaneWin(pane), 'winrestview(' .. string(view) .. ')')
enddef

# Toggles the group under the cursor (on a row: its group), keeping it in place.
export def Toggle()
  var pane = get(panes, string(bufnr()), {})
  if pane == {} || !pane.open
    return
  endif
  var row = RowUnderCursor(pane)
  if row == v:null
    return
  endif
  if row.kind != 'group'
    if type(row.parent) != v:t_string || !has_key(pane.row_line, row.parent)
      return
    endif
    row = pane.rows[pane.line_row[pane.row_line[row.parent]]]
  endif
  var top = line('w0') - 1
  var [result, err] = Request('toggleSection', {uri: pane.uri, section: row.id,
    scrollTop: top, viewportHeight: winheight(0)})
  if err != {}
    echomsg 'outline: toggleSection: ' .. get(err, 'message', '')
    return
  endif
  Refresh(pane)
  Place(pane, result.id, get(result, 'scrollTop', top) + 1, [])
enddef

def All(method: string)
  var pane = get(panes, string(bufnr()), {})
  if pane == {} || !pane.open
    return
  endif
  var row = RowUnderCursor(pane)
  var offset = line('.') - line('w0')
  var old_rows = pane.rows
  var [_, err] = Request(method, {uri: pane.uri})
  if err != {}
    echomsg 'outline: ' .. method .. ': ' .. get(err, 'message', '')
    return
  endif
  Refresh(pane)
  Place(pane, row == v:null ? v:null : row.id, 0, old_rows)
  var lnum = line('.')
  winrestview({topline: max([1, lnum - offset]), lnum: lnum, col: 0})
enddef

export def ExpandAll()
  All('expandAll')
enddef

export def CollapseAll()
  All('collapseAll')
enddef

# Moves the cursor with a navigate key ('down', 'up', 'right', 'left',
# 'home', 'end', 'expandSiblings' or {type: text}): the server decides where
# the focus goes and what opens or closes.
export def Navigate(key: any)
  var pane = get(panes, string(bufnr()), {})
  if pane == {} || !pane.open
    return
  endif
  var row = RowUnderCursor(pane)
  if row == v:null
    return
  endif
  var [result, err] = Request('navigate', {uri: pane.uri, from: row.id, key: key})
  if err != {}
    echomsg 'outline: navigate: ' .. get(err, 'message', '')
    return
  endif
  if has_key(result, 'changes')
    Refresh(pane)
  endif
  pane.focus = result.focus
  Place(pane, result.focus, 0, [])
enddef

# Filters the pane to the rows containing `query` and their groups; an
# empty query clears the filter. With v:none, prompts for the query.
export def Filter(query: any = v:none)
  var pane = get(panes, string(bufnr()), {})
  if pane == {} || !pane.open
    return
  endif
  var q = type(query) == v:t_string ? query : input('Filter: ', get(pane, 'query', ''))
  var row = RowUnderCursor(pane)
  var old_rows = pane.rows
  var [result, err] = Request('filterOutline', {uri: pane.uri, query: q})
  if err != {}
    echomsg 'outline: filterOutline: ' .. get(err, 'message', '')
    return
  endif
  pane.query = q
  Refresh(pane)
  var target = result.matches != [] ? result.matches[0].id : (row == v:null ? v:null : row.id)
  Place(pane, target, 0, old_rows)
enddef

export def Pane(buf: number): dict<any>
  return get(panes, string(buf), {})
enddef

def Closed(buf: number)
  var pane = get(panes, string(buf), {})
  if pane == {}
    return
  endif
  remove(panes, string(buf))
  if pane.open && chan != v:null && ch_status(chan) == 'open'
    ch_sendexpr(chan, {method: 'closeOutline', params: {uri: pane.uri}}, {callback: (..._) => 0})
  endif
  if pane.src > 0 && bufexists(pane.src)
    sign_unplace('outline', {buffer: pane.src})
    setbufvar(pane.src, 'outline_diagnostics', [])
  endif
enddef

def Uri(path: string): string
  var enc = substitute(path, '[^A-Za-z0-9/._~-]', '\=printf("%%%02X", char2nr(submatch(0)))', 'g')
  return 'file://' .. enc
enddef

# Opens the pane for FILE (read from disk) or for the current YAML buffer.
export def Open(file: string)
  if Channel() == v:null
    return
  endif
  sign_define('OutlineError', {text: 'E>', texthl: 'ErrorMsg'})
  sign_define('OutlineWarning', {text: 'W>', texthl: 'WarningMsg'})
  var src = -1
  var path = ''
  var text: any = v:null
  if file != ''
    path = fnamemodify(expand(file), ':p')
  else
    src = bufnr()
    var name = bufname(src)
    if &filetype != 'yaml' && name !~ '\.\(ya\?ml\|json\)$'
      echoerr 'outline: the current buffer is not a YAML file; give a file: :Outline FILE'
      return
    endif
    path = name == '' ? '/untitled-' .. src .. '.yaml' : fnamemodify(name, ':p')
    text = BufferText(src)
  endif
  botright vnew
  var buf = bufnr()
  execute 'vertical resize ' .. get(g:, 'outline_width', 40)
  silent! execute 'file ' .. fnameescape('outline://' .. path)
  setlocal buftype=nofile bufhidden=wipe noswapfile nobuflisted nonumber norelativenumber
  setlocal nowrap nolist nospell winfixwidth cursorline foldcolumn=0 nofoldenable signcolumn=no
  setlocal filetype=outlinepane
  var pane: dict<any> = {buf: buf, src: src, path: path, uri: Uri(path), open: false, width: -1,
    timer: -1, rows: [], line_row: [-1], row_line: {}}
  panes[string(buf)] = pane
  for key in ['<CR>', 'o', 'za']
    execute 'nnoremap <buffer> <silent> ' .. key .. ' <ScriptCmd>Toggle()<CR>'
  endfor
  nnoremap <buffer> <silent> zR <ScriptCmd>ExpandAll()<CR>
  nnoremap <buffer> <silent> zM <ScriptCmd>CollapseAll()<CR>
  nnoremap <buffer> <silent> q <Cmd>close<CR>
  for [lhs, key] in [['j', 'down'], ['k', 'up'], ['l', 'right'], ['h', 'left'], ['gg', 'home'], ['G', 'end'],
      ['*', 'expandSiblings'], ['<Down>', 'down'], ['<Up>', 'up'], ['<Right>', 'right'], ['<Left>', 'left'],
      ['<Home>', 'home'], ['<End>', 'end']]
    execute 'nnoremap <buffer> <silent> ' .. lhs .. ' <ScriptCmd>Navigate(' .. string(key) .. ')<CR>'
  endfor
  nnoremap <buffer> <silent> / <ScriptCmd>Filter()<CR>
  execute 'autocmd BufWipeout <buffer=' .. buf .. '> ++once call outline#ClosedPane(' .. buf .. ')'
  if OpenOutline(pane, text)
    Relayout(pane)
    Refresh(pane)
  endif
  if src > 0
    listener_add((..._) => OnLines(buf), src)
  endif
enddef

export def ClosedPane(buf: number)
  Closed(buf)
enddef
