vim9script
# An outline pane for Vim 9, driven by outline-server: JSON-RPC 2.0 with LSP
# framing over the server's stdin and stdout (see doc/outline.txt).
#
# Every request is asynchronous (an answer runs a callback; nothing waits): a
# key in the pane, an edit in the YAML buffer or a file change queues an
# operation on its pane, and the pane's operations run one after the other,
# so that each answer's `changes` apply to the list the pane shows. The pane
# holds the whole visible list, in chunks, and keeps it by applying
# `changes`: it fetches only inserted items (`visibleRows {start, count}`, in
# pages under the server's cap) and draws the lines the server broke
# (`include: ["lines"]`).

# ---------------------------------------------------------------- state

var job: any = v:null
var chan: any = v:null
var stderr_lines: list<string> = []
var panes: dict<any> = {}   # string(pane buffer number) -> an open pane
# Every pane made, open or closed, for the callbacks still under way. Functions
# take a pane's buffer number and find the pane here: in Vim 9.0 a call that
# passes a dict or a list as an argument costs as much as walking all of it,
# and a pane holds its whole list.
var store: dict<dict<any>> = {}
# The filter matches of each pane, item id -> ranges; typed here because
# has_key() on a dict that is not walks all of it, in Vim 9.0.
var match_store: dict<dict<any>> = {}
g:outline_exit_status = v:null

const PAGE = 10000   # visibleRows answers at most this many rows
const CHUNK = 512    # rows per chunk of the pane's list
const MERGE_GAP = 16 # inserted ranges this close are fetched in one request
const LAYOUT = {unit: 'cell', narrowWidth: 1, wideWidth: 2, lineHeight: 1, indent: 2,
  padding: {top: 0, bottom: 0, left: 2, right: 0}}

var indents: list<string> = ['']

def Indent(depth: number): string
  while len(indents) <= depth
    add(indents, repeat(' ', 2 * len(indents)))
  endwhile
  return indents[depth]
enddef

def Opt(name: string, default: any): any
  return get(g:, 'outline_' .. name, default)
enddef

# ---------------------------------------------------------------- messages

def Say(msg: string, group = 'WarningMsg')
  execute 'echohl ' .. group
  echomsg 'outline: ' .. msg
  echohl None
enddef

# A server error in words: what the user can do, without the raw code.
def Friendly(what: string, err: dict<any>): string
  var code = get(err, 'code', 0)
  var msg = get(err, 'message', '')
  if code == -32010
    return 'the outline is no longer open on the server; run :Outline again'
  elseif code == -32011
    return msg
  elseif code == -32012
    return 'that group is no longer in the outline'
  elseif code == -32013
    return msg
  elseif code == -32099
    return 'the outline server is not running; run :Outline again'
  endif
  return what .. ': ' .. msg
enddef

# ---------------------------------------------------------------- server

def ServerCmd(): list<string>
  var p = Opt('server', '')
  if p == ''
    p = getenv('OUTLINE_SERVER') ?? ''
  endif
  return [p == '' ? 'outline-server' : p]
enddef

def OnStderr(ch: any, msg: string)
  add(stderr_lines, msg)
  if len(stderr_lines) > 200
    remove(stderr_lines, 0, 99)
  endif
enddef

export def Stderr(): string
  return join(stderr_lines, "\n")
enddef

def OnExit(j: any, status: number)
  if job != v:null && j != job
    # A server that stopped after another was started.
    return
  endif
  g:outline_exit_status = status
  pending = {}
  job = v:null
  chan = v:null
  for pane in values(panes)
    pane.open = false
    pane.busy = false
    pane.queue = []
    var why = 'the outline server exited (status ' .. status .. ')'
    var last = filter(copy(stderr_lines), (_, l) => l != '')
    if status != 0 && last != []
      why ..= ': ' .. last[-1]
    endif
    Clear(pane.buf, '(' .. why .. '; :Outline opens it again)')
  endfor
enddef

def OnNotification(msg: dict<any>)
  if get(msg, 'method', '') != 'outlineChanged'
    return
  endif
  var params = msg.params
  for pane in values(panes)
    if pane.uri == params.uri
      Enqueue(pane.buf, (p) => ChangedOp(p, params))
    endif
  endfor
enddef

def Running(): bool
  return chan != v:null && ch_status(chan) == 'open'
enddef

# ---- the wire: JSON-RPC 2.0 with LSP framing (Content-Length), done here
# on a raw channel. Vim 9.0's 'lsp' channel mode parses only the first read
# of an answer that came in several and, when the rest does not come within
# 100 ms, drops it ("Incomplete message ... Decoding failed - discarding
# input"): a pane would wait forever for it.

var next_id = 1
var pending: dict<any> = {}        # string(id) -> Cb(result, error)
var rx_parts: list<string> = []    # bytes read and not parsed yet
var rx_len = 0
var rx_need = -1                   # body length of the message being read

def Write(msg: dict<any>)
  msg.jsonrpc = '2.0'
  var body = json_encode(msg)
  ch_sendraw(chan, 'Content-Length: ' .. len(body) .. "\r\n\r\n" .. body)
enddef

def OnRaw(ch: any, data: string)
  add(rx_parts, data)
  rx_len += len(data)
  while true
    if rx_need < 0
      var head = join(rx_parts, '')
      var end = stridx(head, "\r\n\r\n")
      if end < 0
        rx_parts = [head]
        return
      endif
      var m = matchlist(strpart(head, 0, end), '\c\%(^\|\n\)content-length:\s*\(\d\+\)')
      if m == []
        Say('the server sent a message without Content-Length', 'ErrorMsg')
        rx_parts = []
        rx_len = 0
        return
      endif
      rx_need = str2nr(m[1])
      var rest = strpart(head, end + 4)
      rx_parts = rest == '' ? [] : [rest]
      rx_len = len(rest)
    endif
    if rx_len < rx_need
      return
    endif
    var all = join(rx_parts, '')
    var body = strpart(all, 0, rx_need)
    var rest = strpart(all, rx_need)
    rx_parts = rest == '' ? [] : [rest]
    rx_len = len(rest)
    rx_need = -1
    Dispatch(body)
  endwhile
enddef

def Dispatch(body: string)
  var msg: any
  try
    msg = json_decode(body)
  catch
    Say('the server sent a message that is not JSON', 'ErrorMsg')
    return
  endtry
  # (get(), not has_key(): Vim 9.0 checks the type of has_key()'s
  # dict argument, walking the whole answer.)
  if type(msg) != v:t_dict
    return
  endif
  if type(get(msg, 'method', v:null)) == v:t_string
    if get(msg, 'id', v:null) == v:null
      OnNotification(msg)
    endif
    return
  endif
  var key = string(get(msg, 'id', ''))
  var Cb = get(pending, key, v:null)
  if Cb == v:null
    return
  endif
  remove(pending, key)
  try
    var err = get(msg, 'error', v:null)
    if type(err) == v:t_dict
      Cb(v:null, err)
    else
      Cb(get(msg, 'result', v:null), {})
    endif
  catch
    Bug(v:exception, v:throwpoint)
  endtry
enddef

def Start(): bool
  if job != v:null && job_status(job) == 'run'
    return true
  endif
  stderr_lines = []
  rx_parts = []
  rx_len = 0
  rx_need = -1
  pending = {}
  g:outline_exit_status = v:null
  job = job_start(ServerCmd(), {mode: 'raw', err_mode: 'nl', out_cb: OnRaw,
    err_cb: OnStderr, exit_cb: OnExit, noblock: 1})
  if job_status(job) != 'run'
    Say('cannot start ' .. ServerCmd()[0] .. ': set g:outline_server or $OUTLINE_SERVER', 'ErrorMsg')
    job = v:null
    return false
  endif
  chan = job_getchannel(job)
  # Requests are answered in order: the ones sent after this one wait for it.
  Send('initialize', {processId: getpid(), clientInfo: {name: 'vim-outline'},
    capabilities: {general: {positionEncodings: ['utf-8']}}}, (result, err) => {
      if err != {}
        Say('the server refused to start: ' .. get(err, 'message', ''), 'ErrorMsg')
      endif
    })
  Write({method: 'initialized', params: {}})
  return true
enddef

# Sends a request; Cb(result, error) runs when the answer arrives (error {}
# when there is none). Never waits.
def Send(method: string, params: dict<any>, Cb: func)
  if !Running()
    Cb(v:null, {code: -32099, message: 'the outline server is not running'})
    return
  endif
  var id = next_id
  next_id += 1
  pending[string(id)] = Cb
  Write({id: id, method: method, params: params})
enddef

# Sends a request and waits for its answer: [result, error]. For scripts and
# tests that ask the server directly; the pane itself never waits.
export def Query(method: string, params: dict<any>): list<any>
  var got: dict<any> = {}
  Send(method, params, (result, err) => {
    got.result = result
    got.err = err
  })
  var start = reltime()
  while got == {} && Running() && reltimefloat(reltime(start)) < 60
    # Read here: callbacks do not run while a callback (a timer) waits.
    var data = ch_readraw(chan, {timeout: 50})
    if data != ''
      OnRaw(chan, data)
    endif
  endwhile
  if got == {}
    return [v:null, {code: -32098, message: method .. ' got no answer'}]
  endif
  return [got.result, got.err]
enddef

# The process id of the server, or 0 when it is not running.
export def ServerPid(): number
  return job != v:null && job_status(job) == 'run' ? job_info(job).process : 0
enddef

# shutdown, exit; waits for the server and returns its exit status.
export def Stop(): any
  if job == v:null
    return g:outline_exit_status
  endif
  var j = job
  if job_status(j) == 'run'
    Query('shutdown', {})
    Write({method: 'exit'})
    var n = 0
    while job_status(j) == 'run' && n < 500
      sleep 10m
      n += 1
    endwhile
    if job_status(j) == 'run'
      job_stop(j, 'kill')
    endif
  endif
  # exit_cb runs when Vim next waits; the status is the job's.
  return job_info(j).exitval
enddef

# ---------------------------------------------------------------- the queue

# Each pane runs its operations one at a time: an operation sends its
# requests, applies the answers and calls Done(pane).
def Enqueue(pb: number, Op: func)
  var pane = store[string(pb)]
  if pane.closed
    return
  endif
  add(pane.queue, Op)
  Pump(pane.buf)
enddef

def Pump(pb: number)
  var pane = store[string(pb)]
  while !pane.busy && pane.queue != [] && !pane.closed
    var Op = remove(pane.queue, 0)
    pane.busy = true
    try
      Op(pane.buf)
    catch
      pane.busy = false
      Bug(v:exception, v:throwpoint)
    endtry
  endwhile
enddef

def Done(pb: number)
  var pane = store[string(pb)]
  pane.busy = false
  Pump(pane.buf)
  if !pane.busy && pane.queue == []
    ScheduleFill(pane.buf)
  endif
enddef

def Bug(exception: string, where: string)
  for pane in values(panes)
    pane.busy = false
  endfor
  Say('internal error: ' .. exception .. ' (' .. where .. ')', 'ErrorMsg')
enddef

# True when no pane has work queued or under way, no edit or cursor move is
# waiting for its debounce, and (unless g:outline_fill is 0) every item is
# fetched: what tests and scripts wait for.
export def Idle(): bool
  for pane in values(panes)
    if pane.busy || pane.queue != [] || pane.timer != -1 || pane.follow_timer != -1
        || pane.fill_timer != -1 || (pane.open && pane.missing > 0 && Opt('fill', 1))
      return false
    endif
  endfor
  return true
enddef

# ---------------------------------------------------------------- the list

# The pane's visible list is a list of chunks {heights, rows, lines,
# missing}: `heights` holds every item's height (its buffer lines), `rows`
# the server's item, or v:null until it is fetched, `lines` the sum of the
# heights and `missing` the number of v:null rows. Every item has its lines
# in the buffer from the start (empty until the item is fetched), so line
# numbers are right at once; the items in view are fetched first, the
# others in the background. Finding an index or a line walks the chunks,
# then one chunk.

# Chunks of fetched `rows`.
def ChunksOfRows(rows: list<any>): list<dict<any>>
  var out: list<dict<any>> = []
  var n = len(rows)
  var s = 0
  while s < n
    var part = rows[s : s + CHUNK - 1]
    var heights = mapnew(part, (_, r) => r.height)
    var lines = 0
    for h in heights
      lines += h
    endfor
    add(out, {heights: heights, rows: part, lines: lines, missing: 0})
    s += CHUNK
  endwhile
  return out
enddef

# Chunks of items not fetched yet, from their `heights` and `tops` (the
# server's offsets; `end` is where the last one ends).
def ChunksOfHeights(heights: list<number>, tops: list<number>, end: number): list<dict<any>>
  var out: list<dict<any>> = []
  var n = len(heights)
  var s = 0
  while s < n
    var e = min([s + CHUNK, n])
    add(out, {heights: heights[s : e - 1], rows: repeat([v:null], e - s),
      lines: (e < n ? tops[e] : end) - tops[s], missing: e - s})
    s = e
  endwhile
  return out
enddef

# [chunk index, offset in it, lines before it] of the item at `index`.
def Locate(pb: number, index: number): list<number>
  var pane = store[string(pb)]
  var ci = 0
  var base = 0
  var line0 = 0
  for c in pane.chunks
    var n = len(c.heights)
    if index < base + n
      return [ci, index - base, line0]
    endif
    base += n
    line0 += c.lines
    ci += 1
  endfor
  return [ci, index - base, line0]
enddef

# The first buffer line (1-based) of the item at `index`; nlines + 1 past the end.
def LineOf(pb: number, index: number): number
  var pane = store[string(pb)]
  var [ci, off, line0] = Locate(pane.buf, index)
  if ci >= len(pane.chunks)
    return line0 + 1
  endif
  var heights = pane.chunks[ci].heights
  var l = line0
  var i = 0
  while i < off
    l += heights[i]
    i += 1
  endwhile
  return l + 1
enddef

# The item at `index`: a dict, or v:null when not fetched yet or past the end.
def RowAt(pb: number, index: number): any
  var pane = store[string(pb)]
  var [ci, off, _] = Locate(pane.buf, index)
  return ci < len(pane.chunks) && index >= 0 ? pane.chunks[ci].rows[off] : v:null
enddef

# [index, item (v:null when not fetched), first line, height] of the item
# drawn on buffer line `lnum`, or [-1, v:null, 0, 0].
def RowAtLine(pb: number, lnum: number): list<any>
  var pane = store[string(pb)]
  var base = 0
  var line0 = 0
  for c in pane.chunks
    if lnum <= line0 + c.lines
      var l = line0
      var i = 0
      for h in c.heights
        if lnum <= l + h
          return [base + i, c.rows[i], l + 1, h]
        endif
        l += h
        i += 1
      endfor
      break
    endif
    base += len(c.heights)
    line0 += c.lines
  endfor
  return [-1, v:null, 0, 0]
enddef

def Count(pb: number): number
  var pane = store[string(pb)]
  var n = 0
  for c in pane.chunks
    n += len(c.heights)
  endfor
  return n
enddef

# The index of the fetched item with `id`, or -1.
def FindId(pb: number, id: any): number
  var pane = store[string(pb)]
  if type(id) != v:t_string
    return -1
  endif
  var base = 0
  for c in pane.chunks
    if c.missing < len(c.rows)
      var i = 0
      for r in c.rows
        if type(r) == v:t_dict && r.id == id
          return base + i
        endif
        i += 1
      endfor
    endif
    base += len(c.rows)
  endfor
  return -1
enddef

# Runs [start, count] of items not fetched yet among indices [i0, i1], each
# at most `most` long.
def MissingRuns(pb: number, i0: number, i1: number, most: number): list<list<number>>
  var pane = store[string(pb)]
  var out: list<list<number>> = []
  if pane.missing == 0
    return out
  endif
  var [ci, off, _] = Locate(pane.buf, i0)
  var index = i0
  var run_start = -1
  while ci < len(pane.chunks) && index <= i1
    var c = pane.chunks[ci]
    var n = len(c.rows)
    if c.missing == 0
      if run_start >= 0
        add(out, [run_start, index - run_start])
        run_start = -1
      endif
      index += n - off
    else
      while off < n && index <= i1
        if type(c.rows[off]) != v:t_dict
          if run_start < 0
            run_start = index
          elseif index - run_start >= most
            add(out, [run_start, index - run_start])
            run_start = index
          endif
        elseif run_start >= 0
          add(out, [run_start, index - run_start])
          run_start = -1
        endif
        off += 1
        index += 1
      endwhile
    endif
    ci += 1
    off = 0
  endwhile
  if run_start >= 0
    add(out, [run_start, min([index, i1 + 1]) - run_start])
  endif
  return out
enddef

# The index of the first item not fetched yet, or -1.
def FirstMissing(pb: number): number
  var pane = store[string(pb)]
  var base = 0
  for c in pane.chunks
    if c.missing > 0
      var i = index(c.rows, v:null)
      if i >= 0
        return base + i
      endif
    endif
    base += len(c.rows)
  endfor
  return -1
enddef

# ---------------------------------------------------------------- drawing

# The lines of one item, exactly `height` of them: the server's `lines`, an
# arrow or a dot before the first, the header's counts after it.
def RowLines(r: dict<any>): list<string>
  var ind = Indent(r.depth)
  var lines = get(r, 'lines', {})
  var title: list<string> = get(lines, 'title', [r.title])
  var out: list<string>
  if r.kind == 'group'
    var head = ind .. (r.expanded ? '▾ ' : '▸ ') .. title[0]
    var badge = get(r, 'badge', '')
    if badge != ''
      head ..= ' ' .. badge
    endif
    out = [head .. '  ' .. r.activeCount .. '/' .. r.rowCount]
  else
    out = [ind .. (r.active ? '● ' : '○ ') .. title[0]]
  endif
  var i = 1
  while i < len(title)
    add(out, ind .. '  ' .. title[i])
    i += 1
  endwhile
  for d in get(lines, 'detail', [])
    add(out, ind .. '  ' .. d)
  endfor
  var h = r.height
  if len(out) > h
    return h == 0 ? [] : out[: h - 1]
  endif
  while len(out) < h
    add(out, '')
  endwhile
  return out
enddef

# Where the server's match ranges of `text` (byte offsets) fall in the
# drawn `lines` of that text: [[line index, start byte, end byte]].
def RangesInLines(text: string, lines: list<string>, ranges: list<any>): list<list<number>>
  var starts: list<number> = []
  var p = 0
  for l in lines
    var q = stridx(text, l, p)
    if q < 0
      return []
    endif
    add(starts, q)
    p = q + len(l)
  endfor
  var out: list<list<number>> = []
  for rg in ranges
    var s = rg.start
    var e = rg.start + rg.length
    var i = 0
    for q in starts
      var qe = q + len(lines[i])
      if s < qe && e > q
        add(out, [i, max([s, q]) - q, min([e, qe]) - q])
      endif
      i += 1
    endfor
  endfor
  return out
enddef

# Text property positions [lnum, col, lnum, end col] of the filter matches
# in item `r`, drawn from line `first`.
def MatchProps(r: dict<any>, first: number, ranges: list<any>): list<list<number>>
  var lines = get(r, 'lines', {})
  var title: list<string> = get(lines, 'title', [r.title])
  var detail: list<string> = get(lines, 'detail', [])
  # The first line has the arrow or the dot, the others two spaces.
  var lead = len(Indent(r.depth)) + len(r.kind == 'group' ? '▾ ' : '● ')
  var pad = len(Indent(r.depth)) + 2
  var out: list<list<number>> = []
  var last = first + r.height - 1
  var tr = filter(copy(ranges), (_, x) => x.field == 'title')
  for [i, s, e] in RangesInLines(r.title, title, tr)
    var p = i == 0 ? lead : pad
    if first + i <= last
      add(out, [first + i, p + s + 1, first + i, p + e + 1])
    endif
  endfor
  var dr = filter(copy(ranges), (_, x) => x.field == 'detail')
  if dr != [] && detail != []
    var base = first + len(title)
    for [i, s, e] in RangesInLines(get(r, 'detail', ''), detail, dr)
      if base + i <= last
        add(out, [base + i, pad + s + 1, base + i, pad + e + 1])
      endif
    endfor
  endif
  return out
enddef

# Lines and text properties of fetched `rows`, drawn from line `base` + 1.
# (RowLines, inlined for the common item: a title of one line.)
def Render(pb: number, rows: list<any>, base: number): dict<any>
  var pane = store[string(pb)]
  var out: list<string> = []
  var emph: list<list<number>> = []
  var mprops: list<list<number>> = []
  var matches = match_store[string(pb)]
  var has_matches = matches != {}
  for r in rows
    var first = base + len(out) + 1
    var lines = r.lines
    var title = lines.title
    var h = r.height
    var ind = Indent(r.depth)
    if r.kind == 'row' && len(title) == 1 && h == 1 + len(get(lines, 'detail', []))
      add(out, ind .. (r.active ? '● ' : '○ ') .. title[0])
      if h > 1
        var pad = ind .. '  '
        for d in lines.detail
          add(out, pad .. d)
        endfor
      endif
    else
      extend(out, RowLines(r))
    endif
    if get(r, 'emphasis', false) && h > 0
      var last = first + min([len(title), h]) - 1
      add(emph, [first, len(ind) + 1, last, len(out[last - base - 1]) + 1])
    endif
    if has_matches && has_key(matches, r.id)
      extend(mprops, MatchProps(r, first, matches[r.id]))
    endif
  endfor
  return {lines: out, emph: emph, matches: mprops}
enddef

def AddProps(pb: number, d: dict<any>)
  var pane = store[string(pb)]
  if d.emph != []
    prop_add_list({type: 'outline_emphasis', bufnr: pane.buf}, d.emph)
  endif
  if d.matches != []
    prop_add_list({type: 'outline_match', bufnr: pane.buf}, d.matches)
  endif
enddef

def Writable(pb: number, on: bool)
  var pane = store[string(pb)]
  setbufvar(pane.buf, '&modifiable', on ? 1 : 0)
enddef

# Shows `text` in place of the items (an empty list, an error), wrapped at
# the pane's width so that all of it can be read.
def Placeholder(pb: number, text: string)
  var pane = store[string(pb)]
  if !bufexists(pane.buf)
    return
  endif
  Writable(pane.buf, true)
  silent deletebufline(pane.buf, 2, '$')
  setbufline(pane.buf, 1, text)
  Writable(pane.buf, false)
  Wrap(pane.buf, true)
enddef

# Items are broken by the server at the pane's width and never wrap; a
# placeholder does.
def Wrap(pb: number, on: bool)
  var pane = store[string(pb)]
  for w in win_findbuf(pane.buf)
    if getwinvar(w, '&wrap') != on
      setwinvar(w, '&wrap', on)
      setwinvar(w, '&linebreak', on)
    endif
  endfor
enddef

# No items any more: `text` says why.
def Clear(pb: number, text: string)
  var pane = store[string(pb)]
  pane.chunks = []
  pane.nlines = 0
  pane.missing = 0
  Placeholder(pane.buf, text)
enddef

def EmptyText(pb: number): string
  var pane = store[string(pb)]
  return pane.query != '' ? '(nothing matches "' .. pane.query .. '"; / and Enter on an empty line clear the filter)' : '(the outline is empty)'
enddef

# Replaces the whole list by `chunks` drawn as `lines`.
def DrawAll(pb: number, chunks: list<dict<any>>, d: dict<any>)
  var pane = store[string(pb)]
  if d.lines == []
    Clear(pane.buf, EmptyText(pane.buf))
    return
  endif
  pane.chunks = chunks
  pane.missing = 0
  for c in chunks
    pane.missing = pane.missing + c.missing
  endfor
  Writable(pane.buf, true)
  var have = getbufinfo(pane.buf)[0].linecount
  if pane.nlines > 0
    prop_remove({type: 'outline_emphasis', bufnr: pane.buf, all: true}, 1, pane.nlines)
    prop_remove({type: 'outline_match', bufnr: pane.buf, all: true}, 1, pane.nlines)
  endif
  setbufline(pane.buf, 1, d.lines)
  Wrap(pane.buf, false)
  if have > len(d.lines)
    silent deletebufline(pane.buf, len(d.lines) + 1, '$')
  endif
  pane.nlines = len(d.lines)
  AddProps(pane.buf, d)
  Writable(pane.buf, false)
enddef

# Deletes `count` items from `start`.
def DeleteRows(pb: number, start: number, count: number)
  var pane = store[string(pb)]
  var first = LineOf(pane.buf, start)
  var [ci, off, _] = Locate(pane.buf, start)
  var left = count
  var nl = 0
  while left > 0 && ci < len(pane.chunks)
    var c = pane.chunks[ci]
    var n = len(c.heights)
    if off == 0 && left >= n
      nl += c.lines
      left -= n
      pane.missing = pane.missing - c.missing
      remove(pane.chunks, ci)
    else
      var k = min([left, n - off])
      var h = 0
      for x in c.heights[off : off + k - 1]
        h += x
      endfor
      var gone = count(c.rows[off : off + k - 1], v:null)
      remove(c.heights, off, off + k - 1)
      remove(c.rows, off, off + k - 1)
      c.lines = c.lines - h
      c.missing = c.missing - gone
      pane.missing = pane.missing - gone
      nl += h
      left -= k
      if c.heights == []
        remove(pane.chunks, ci)
      else
        ci += 1
      endif
      off = 0
    endif
  endwhile
  if nl > 0
    if nl >= pane.nlines
      pane.nlines = 0
      Placeholder(pane.buf, EmptyText(pane.buf))
    else
      Writable(pane.buf, true)
      silent deletebufline(pane.buf, first, first + nl - 1)
      Writable(pane.buf, false)
      pane.nlines = pane.nlines - nl
    endif
  endif
enddef

# Inserts `chunks` at `start`, drawn as the lines of `d` (with its text
# properties, whose line numbers count from the insertion point).
def InsertChunks(pb: number, start: number, chunks: list<dict<any>>, d: dict<any>)
  var pane = store[string(pb)]
  if chunks == []
    return
  endif
  var [ci, off, _] = Locate(pane.buf, start)
  var n = 0
  for nc in chunks
    n += len(nc.heights)
    pane.missing = pane.missing + nc.missing
  endfor
  if ci >= len(pane.chunks)
    extend(pane.chunks, chunks)
  elseif n + len(pane.chunks[ci].heights) <= 2 * CHUNK
    var c = pane.chunks[ci]
    for nc in reverse(copy(chunks))
      extend(c.heights, nc.heights, off)
      extend(c.rows, nc.rows, off)
      c.lines = c.lines + nc.lines
      c.missing = c.missing + nc.missing
    endfor
  else
    var c = pane.chunks[ci]
    var parts = copy(chunks)
    if off > 0
      var heights = c.heights[: off - 1]
      var rows = c.rows[: off - 1]
      var h = 0
      for x in heights
        h += x
      endfor
      var gone = count(rows, v:null)
      insert(parts, {heights: heights, rows: rows, lines: h, missing: gone})
      add(parts, {heights: c.heights[off :], rows: c.rows[off :], lines: c.lines - h, missing: c.missing - gone})
    else
      add(parts, c)
    endif
    remove(pane.chunks, ci)
    extend(pane.chunks, parts, ci)
  endif
  if d.lines != []
    var at = LineOf(pane.buf, start) - 1
    Writable(pane.buf, true)
    if pane.nlines == 0
      silent deletebufline(pane.buf, 2, '$')
      setbufline(pane.buf, 1, d.lines)
      Wrap(pane.buf, false)
    else
      appendbufline(pane.buf, at, d.lines)
    endif
    pane.nlines = pane.nlines + len(d.lines)
    AddProps(pane.buf, d)
    Writable(pane.buf, false)
  endif
enddef

# Inserts fetched `rows` at `start`.
def InsertRows(pb: number, start: number, rows: list<any>)
  var pane = store[string(pb)]
  if rows != []
    InsertChunks(pane.buf, start, ChunksOfRows(rows), Render(pane.buf, rows, LineOf(pane.buf, start) - 1))
  endif
enddef

# Inserts items not fetched yet, from their heights, at `start`.
def InsertMissing(pb: number, start: number, hs: dict<any>)
  var pane = store[string(pb)]
  if hs.heights != []
    var chunks = ChunksOfHeights(hs.heights, hs.tops, hs.end)
    var lines = 0
    for c in chunks
      lines += c.lines
    endfor
    InsertChunks(pane.buf, start, chunks, {lines: repeat([''], lines), emph: [], matches: []})
  endif
enddef

# Draws fetched `rows` in place of the items from `start`, which were not
# fetched yet; false when they do not fit (their heights differ).
def Fill(pb: number, start: number, rows: list<any>): bool
  var pane = store[string(pb)]
  var [ci, off, _] = Locate(pane.buf, start)
  var i = 0
  var n = len(rows)
  var cc = ci
  var o = off
  while i < n
    if cc >= len(pane.chunks)
      return false
    endif
    var c = pane.chunks[cc]
    if type(c.rows[o]) == v:t_dict || c.heights[o] != rows[i].height
      return false
    endif
    i += 1
    o += 1
    if o >= len(c.rows)
      cc += 1
      o = 0
    endif
  endwhile
  i = 0
  while i < n
    var c = pane.chunks[ci]
    var k = min([n - i, len(c.rows) - off])
    var j = 0
    var crows = c.rows
    while j < k
      crows[off + j] = rows[i + j]
      j += 1
    endwhile
    c.missing = c.missing - k
    i += k
    ci += 1
    off = 0
  endwhile
  pane.missing = pane.missing - n
  var at = LineOf(pane.buf, start)
  var d = Render(pane.buf, rows, at - 1)
  if d.lines != []
    Writable(pane.buf, true)
    setbufline(pane.buf, at, d.lines)
    AddProps(pane.buf, d)
    Writable(pane.buf, false)
  endif
  return true
enddef

# Redraws the item at `index` in place (same height).
def RedrawRow(pb: number, index: number)
  var pane = store[string(pb)]
  var r = RowAt(pane.buf, index)
  if type(r) != v:t_dict || r.height == 0
    return
  endif
  Writable(pane.buf, true)
  setbufline(pane.buf, LineOf(pane.buf, index), RowLines(r)[0])
  Writable(pane.buf, false)
enddef

# ---------------------------------------------------------------- the cursor

def PaneWin(pb: number): number
  var pane = store[string(pb)]
  return bufwinid(pane.buf)
enddef

# Where the cursor stands: {index, id, off (line in the item), screen (line
# from the window's top)}, or {} when the pane has no window or no items.
def Anchor(pb: number): dict<any>
  var pane = store[string(pb)]
  var win = PaneWin(pane.buf)
  if win < 0 || pane.chunks == []
    return {}
  endif
  var lnum = line('.', win)
  var [index, r, first, _] = RowAtLine(pane.buf, lnum)
  if index < 0
    return {}
  endif
  return {index: index, id: type(r) == v:t_dict ? r.id : v:null, off: lnum - first,
    screen: lnum - line('w0', win)}
enddef

# The index an item at `index` has after `changes`; a deleted one gives the
# item just before the deleted block (its group, when a group closed).
def MapIndex(index: number, changes: list<any>): list<any>
  var i = index
  var gone = false
  for c in changes
    if c.kind == 'insert'
      if c.start <= i
        i += c.count
      endif
    elseif c.start + c.count <= i
      i -= c.count
    elseif c.start <= i
      i = max([c.start - 1, 0])
      gone = true
    endif
  endfor
  return [i, gone]
enddef

# Puts the cursor on line `lnum` of the pane; `top` > 0 sets the window's
# top line, else the window scrolls only as far as needed.
def SetCursor(pb: number, lnum: number, top: number = 0)
  var pane = store[string(pb)]
  var win = PaneWin(pane.buf)
  if win < 0
    return
  endif
  var last = max([1, pane.nlines])
  var l = min([max([lnum, 1]), last])
  var view: dict<any> = {lnum: l, col: 0, curswant: 0}
  var height = winheight(win)
  if top > 0
    view.topline = min([top, l])
    if l > view.topline + height - 1
      view.topline = l - height + 1
    endif
  else
    var w0 = line('w0', win)
    if l < w0
      view.topline = l
    elseif l > w0 + height - 1
      view.topline = l - height + 1
    endif
  endif
  win_execute(win, 'winrestview(' .. string(view) .. ')')
enddef

# Puts the cursor back on the anchored item, where it was on the screen;
# `again` >= 0 is where the item stands when it was deleted and inserted
# again (a block replaced around it).
def Restore(pb: number, anchor: dict<any>, changes: list<any>, again: number = -1)
  var pane = store[string(pb)]
  if anchor == {}
    return
  endif
  if again >= 0
    RestoreAt(pane.buf, again, anchor.off, anchor.screen)
    return
  endif
  var [index, gone] = MapIndex(anchor.index, changes)
  RestoreAt(pane.buf, index, gone ? 0 : anchor.off, anchor.screen)
enddef

# Where the item at `index` stood in the block of `changes` that deleted
# it (0 when none did).
def OffsetInDeleted(index: number, changes: list<any>): number
  var i = index
  for c in changes
    if c.kind == 'insert'
      if c.start <= i
        i += c.count
      endif
    elseif c.start + c.count <= i
      i -= c.count
    elseif c.start <= i
      return i - c.start
    endif
  endfor
  return 0
enddef

# Insert `ranges` ([start, count]; [] for a delete) cut to at most PAGE
# items each, around `offset` in a longer one.
def NearRanges(ranges: list<any>, offset: number): list<any>
  return mapnew(ranges, (_, rg) => rg == [] || rg[1] <= PAGE ? rg
    : [rg[0] + max([0, min([offset - PAGE / 2, rg[1] - PAGE])]), PAGE])
enddef

# The index of the anchored item among the inserted `rows` (per change, at
# the final-list `ranges`) when `changes` deleted it; -1 when they did not,
# or did not insert it again; -2 when they did delete it and `rows` is [].
def Reinserted(anchor: dict<any>, changes: list<any>, ranges: list<any>, rows: list<any>): number
  if anchor == {} || type(anchor.id) != v:t_string || !MapIndex(anchor.index, changes)[1]
    return -1
  elseif rows == []
    return -2
  endif
  var k = 0
  for c in changes
    if c.kind == 'insert'
      var i = 0
      for r in rows[k]
        if r.id == anchor.id
          return ranges[k][0] + i
        endif
        i += 1
      endfor
    endif
    k += 1
  endfor
  return -1
enddef

def RestoreAt(pb: number, index: number, off: number, screen: number)
  var pane = store[string(pb)]
  if pane.chunks == []
    SetCursor(pane.buf, 1, 1)
    return
  endif
  var i = min([index, Count(pane.buf) - 1])
  var [ci, o, _] = Locate(pane.buf, i)
  var h = pane.chunks[ci].heights[o]
  var lnum = LineOf(pane.buf, i) + min([off, max([h - 1, 0])])
  SetCursor(pane.buf, lnum, max([1, lnum - screen]))
enddef

# Puts the cursor on the item at `index`; `top` > 0 sets the window's top
# line, else the window scrolls as little as shows the whole item (its
# first line when it is taller than the window).
def ShowIndex(pb: number, index: any, top: number = 0)
  var pane = store[string(pb)]
  if type(index) != v:t_number || index < 0
    return
  endif
  var lnum = LineOf(pane.buf, index)
  SetCursor(pane.buf, lnum, top)
  var win = PaneWin(pane.buf)
  if top > 0 || win < 0 || index >= Count(pane.buf)
    return
  endif
  var [ci, o, _] = Locate(pane.buf, index)
  var last = lnum + pane.chunks[ci].heights[o] - 1
  var height = winheight(win)
  var w0 = line('w0', win)
  if last > w0 + height - 1
    SetCursor(pane.buf, lnum, max([lnum - height + 1, min([lnum, last - height + 1])]))
  endif
enddef

# ---------------------------------------------------------------- changes

# The final-list [start, count] of each insert in `changes` ([] for a delete).
def InsertRanges(changes: list<any>): list<any>
  var ascending = true
  var prev = -1
  for c in changes
    if c.start < prev
      ascending = false
    endif
    prev = c.start + (c.kind == 'insert' ? c.count : 0)
  endfor
  var out: list<any> = []
  var k = 0
  for c in changes
    if c.kind != 'insert'
      add(out, [])
    elseif ascending
      add(out, [c.start, c.count])
    else
      # Later changes at lower indices move this block.
      var s = c.start
      for later in changes[k + 1 :]
        if later.kind == 'insert' && later.start <= s
          s += later.count
        elseif later.kind == 'delete' && later.start + later.count <= s
          s -= later.count
        endif
      endfor
      add(out, [s, c.count])
    endif
    k += 1
  endfor
  return out
enddef

# Fetches `ranges` ([start, count] in the server's list; [] is skipped) in
# requests of at most PAGE items, close ranges in one, all sent at once:
# `what` 'rows' (visibleRows with lines), 'ids' (visibleRows without them)
# or 'heights' (rowHeights).
# Cb(per range: the rows, or {heights, tops, end}; ok): ok is false when an
# answer is not of `version` (the list moved on meanwhile).
def Fetch(pb: number, what: string, ranges: list<any>, version: number, Cb: func)
  var pane = store[string(pb)]
  var reqs: list<list<number>> = []   # [start, count]
  var pieces: list<list<any>> = []    # per range: [[request, offset, count]]
  for rg in ranges
    var mine: list<any> = []
    if rg != []
      var pos = rg[0]
      var end = rg[0] + rg[1]
      while pos < end
        if reqs != []
          var last = reqs[-1]
          var gap = pos - (last[0] + last[1])
          if gap >= 0 && gap <= MERGE_GAP && last[1] + gap < PAGE
            var take = min([end - pos, PAGE - last[1] - gap])
            add(mine, [len(reqs) - 1, pos - last[0], take])
            last[1] = last[1] + gap + take
            pos += take
            continue
          endif
        endif
        var take = min([end - pos, PAGE])
        add(reqs, [pos, take])
        add(mine, [len(reqs) - 1, 0, take])
        pos += take
      endwhile
    endif
    add(pieces, mine)
  endfor
  var key = string(next_fetch)
  next_fetch += 1
  fetches[key] = {pb: pb, what: what, answers: repeat([v:null], len(reqs)), left: len(reqs), ok: true,
    pieces: pieces, Cb: Cb}
  if reqs == []
    Fetched(key)
    return
  endif
  var i = 0
  for [s, c] in reqs
    if what == 'rows'
      Send('visibleRows', {uri: pane.uri, start: s, count: c, include: ['lines']}, Collector(key, i, c, version))
    elseif what == 'ids'
      Send('visibleRows', {uri: pane.uri, start: s, count: c}, Collector(key, i, c, version))
    else
      Send('rowHeights', {uri: pane.uri, start: s, count: c}, Collector(key, i, c, version))
    endif
    i += 1
  endfor
enddef

# Fetches under way, by key: their state is looked up, not passed around.
var fetches: dict<dict<any>> = {}
var next_fetch = 1

def Collector(key: string, i: number, want: number, version: number): func
  return (result, err) => {
    var st = fetches[key]
    if err != {} || result.version != version || len(st.what == 'heights' ? result.heights : result.rows) != want
      st.ok = false
    else
      st.answers[i] = result
    endif
    st.left = st.left - 1
    if st.left == 0
      Fetched(key)
    endif
  }
enddef

def Fetched(key: string)
  var st = remove(fetches, key)
  var pane = store[string(st.pb)]
  if pane.closed
    return
  endif
  var Cb = st.Cb
  if !st.ok
    Cb([], false)
    return
  endif
  var out: list<any> = []
  for mine in st.pieces
    if st.what != 'heights'
      var rows: list<any> = []
      for [r, off, c] in mine
        extend(rows, st.answers[r].rows[off : off + c - 1])
      endfor
      add(out, rows)
    else
      var hs = {heights: [], tops: [], end: 0}
      for [r, off, c] in mine
        var a = st.answers[r]
        extend(hs.heights, a.heights[off : off + c - 1])
        extend(hs.tops, a.tops[off : off + c - 1])
        hs.end = a.tops[off + c - 1] + a.heights[off + c - 1]
      endfor
      add(out, hs)
    endif
  endfor
  Cb(out, true)
enddef

# Applies an answer's `changes` when its version follows the pane's, else
# reads the whole list again; turns the arrows of `updatedGroups`; fetches
# the items in view; then Then(the changes applied, or v:null after a
# reload). Small inserts are fetched whole, large ones as heights first.
def Apply(pb: number, result: dict<any>, Then: func)
  var pane = store[string(pb)]
  var changes: list<any> = get(result, 'changes', [])
  var version: number = get(result, 'version', pane.version)
  var updated: list<any> = get(result, 'updatedGroups', [])
  if version <= pane.version
    # Nothing new, or already read by a reload.
    Then([])
    return
  endif
  if version != pane.version + 1
    Reload(pane.buf, () => Then(v:null))
    return
  endif
  var ranges = InsertRanges(changes)
  var inserted = 0
  for c in changes
    inserted += c.kind == 'insert' ? c.count : 0
  endfor
  var what = inserted <= Opt('eager', 1000) ? 'rows' : 'heights'
  Fetch(pane.buf, what, ranges, version, (got, ok) => {
    if !ok
      Reload(pane.buf, () => Then(v:null))
      return
    endif
    var anchor = Anchor(pane.buf)
    var turned: dict<bool> = {}
    for id in updated
      turned[id] = true
    endfor
    var k = 0
    for c in changes
      if c.kind == 'delete'
        DeleteRows(pane.buf, c.start, c.count)
      elseif what == 'rows'
        for r in got[k]
          if r.kind == 'group' && has_key(turned, r.id)
            remove(turned, r.id)
          endif
        endfor
        InsertRows(pane.buf, c.start, got[k])
      else
        InsertMissing(pane.buf, c.start, got[k])
      endif
      # The group whose block opened or closed is just above it.
      if c.start > 0 && turned != {}
        Turn(pane.buf, c.start - 1, turned)
      endif
      k += 1
    endfor
    if turned != {}
      var base = 0
      for ch in pane.chunks
        if ch.missing < len(ch.rows)
          var i = 0
          for r in ch.rows
            if type(r) == v:t_dict && r.kind == 'group' && has_key(turned, r.id)
              Turn(pane.buf, base + i, turned)
            endif
            i += 1
          endfor
        endif
        base += len(ch.rows)
      endfor
    endif
    pane.version = version
    if what == 'heights' && Reinserted(anchor, changes, ranges, []) == -2
      # The anchored item was in a block replaced by items not fetched yet:
      # their ids tell where it is now (looked for among at most PAGE of
      # each inserted block, around the place it had in the deleted one).
      Restore(pane.buf, anchor, changes)
      var near = NearRanges(ranges, OffsetInDeleted(anchor.index, changes))
      Fetch(pane.buf, 'ids', near, version, (ids, found) => {
        if found
          var again = Reinserted(anchor, changes, near, ids)
          if again >= 0
            RestoreAt(pane.buf, again, anchor.off, anchor.screen)
          endif
        endif
        FillView(pane.buf, () => Then(changes))
      })
      return
    endif
    Restore(pane.buf, anchor, changes, what == 'rows' ? Reinserted(anchor, changes, ranges, got) : -1)
    FillView(pane.buf, () => Then(changes))
  })
enddef

def Turn(pb: number, index: number, turned: dict<bool>)
  var pane = store[string(pb)]
  var r = RowAt(pane.buf, index)
  if type(r) == v:t_dict && r.kind == 'group' && has_key(turned, r.id)
    r.expanded = !r.expanded
    remove(turned, r.id)
    RedrawRow(pane.buf, index)
  endif
enddef

# Fetches the items in the pane's window, and a window's height above and
# below, that are not fetched yet; then Then().
def FillView(pb: number, Then: func)
  var pane = store[string(pb)]
  var win = PaneWin(pane.buf)
  if win < 0 || pane.missing == 0
    Then()
    return
  endif
  var h = winheight(win)
  var w0 = line('w0', win)
  var [i0, _, _, _] = RowAtLine(pane.buf, max([1, w0 - h]))
  var [i1, _, _, _] = RowAtLine(pane.buf, min([pane.nlines, w0 + 2 * h]))
  if i0 < 0
    Then()
    return
  endif
  if i1 < 0
    i1 = Count(pane.buf) - 1
  endif
  FillRuns(pane.buf, MissingRuns(pane.buf, i0, i1, PAGE), Then)
enddef

def FillRuns(pb: number, runs: list<any>, Then: func)
  var pane = store[string(pb)]
  if runs == []
    Then()
    return
  endif
  Fetch(pane.buf, 'rows', runs, pane.version, (got, ok) => {
    if !ok
      Reload(pane.buf, Then)
      return
    endif
    var k = 0
    for [s, _] in runs
      if !Fill(pane.buf, s, got[k])
        Reload(pane.buf, Then)
        return
      endif
      k += 1
    endfor
    Then()
  })
enddef

# In the background, between the pane's other operations: fetches the next
# items not fetched yet, a page at a time, until the pane holds them all.
def ScheduleFill(pb: number)
  var pane = store[string(pb)]
  if pane.missing > 0 && pane.fill_timer == -1 && Opt('fill', 1) && !pane.closed
    pane.fill_timer = timer_start(Opt('fill_delay', 1), (_) => {
      pane.fill_timer = -1
      if pane.queue == [] && !pane.busy && pane.missing > 0
        Enqueue(pane.buf, FillOp)
      endif
    })
  endif
enddef

def FillOp(pb: number)
  var pane = store[string(pb)]
  if !pane.open
    Done(pane.buf)
    return
  endif
  # The items in view first; then the first ones not fetched yet.
  FillView(pane.buf, () => {
    var first = FirstMissing(pane.buf)
    if first < 0
      Done(pane.buf)
      return
    endif
    var start = reltime()
    var page = pane.fill_page
    FillRuns(pane.buf, MissingRuns(pane.buf, first, first + page - 1, PAGE), () => {
      # Pages that keep Vim busy some 10 to 40 ms at a time.
      var ms = reltimefloat(reltime(start)) * 1000
      if ms < 10 && page < 2000
        pane.fill_page = page * 2
      elseif ms > 40 && page > 100
        pane.fill_page = page / 2
      endif
      Done(pane.buf)
    })
  })
enddef

def ScrolledOp(pb: number)
  var pane = store[string(pb)]
  FillView(pane.buf, () => Done(pane.buf))
enddef

export def Scrolled()
  for pane in values(panes)
    if pane.missing > 0 && PaneWin(pane.buf) >= 0
      Enqueue(pane.buf, ScrolledOp)
    endif
  endfor
enddef

# Reads the whole visible list again (at open, after a resize, or when the
# pane fell behind), keeping the cursor where it was. The first items come
# whole; a longer list comes as heights, and its items in view are fetched.
def Reload(pb: number, Then: func)
  var pane = store[string(pb)]
  var eager = Opt('eager', 1000)
  Send('visibleRows', {uri: pane.uri, start: 0, count: eager, include: ['lines']}, (first, err) => {
    if pane.closed
      return
    endif
    if err != {}
      Say(Friendly('visibleRows', err))
      Then()
      return
    endif
    var anchor = Anchor(pane.buf)
    var Finish = () => {
      pane.version = first.version
      pane.open = true
      if anchor != {}
        var index = FindId(pane.buf, anchor.id)
        RestoreAt(pane.buf, index >= 0 ? index : anchor.index, anchor.off, anchor.screen)
      endif
      FillView(pane.buf, Then)
    }
    if first.total <= len(first.rows)
      DrawAll(pane.buf, ChunksOfRows(first.rows), Render(pane.buf, first.rows, 0))
      Finish()
      return
    endif
    Fetch(pane.buf, 'heights', [[0, first.total]], first.version, (got, ok) => {
      if !ok
        Reload(pane.buf, Then)
        return
      endif
      var hs = got[0]
      var chunks = ChunksOfHeights(hs.heights, hs.tops, hs.end)
      DrawAll(pane.buf, chunks, {lines: repeat([''], hs.end - hs.tops[0]), emph: [], matches: []})
      Fill(pane.buf, 0, first.rows)
      Finish()
    })
  })
enddef

# ---------------------------------------------------------------- diagnostics

def ShowDiagnostics(pb: number, list: list<any>)
  var pane = store[string(pb)]
  pane.diagnostics = list
  var buf = pane.src
  if buf < 0 || !bufexists(buf)
    return
  endif
  sign_unplace('outline', {buffer: buf})
  var items: list<dict<any>> = []
  for d in list
    var lnum = d.range.start.line + 1
    add(items, {bufnr: buf, lnum: lnum, col: d.range.start.character + 1,
      end_lnum: d.range.end.line + 1, end_col: d.range.end.character + 1,
      type: d.severity == 1 ? 'E' : 'W', text: d.message .. ' [' .. get(d, 'code', '') .. ']'})
    sign_place(0, 'outline', d.severity == 1 ? 'OutlineError' : 'OutlineWarning', buf, {lnum: lnum})
  endfor
  setbufvar(buf, 'outline_diagnostics', items)
  var win = bufwinid(buf)
  if win >= 0
    setloclist(win, items, 'r')
  endif
enddef

# ---------------------------------------------------------------- opening

def OpenParams(pb: number): dict<any>
  var pane = store[string(pb)]
  var layout = copy(LAYOUT)
  layout.width = pane.width
  var params: dict<any> = {uri: pane.uri, layout: layout}
  if pane.src < 0
    params.watch = true
  elseif FromDisk(pane.buf)
    # The server reads the file itself: nothing to send.
  else
    params.text = BufferText(pane.src)
  endif
  return params
enddef

# A buffer whose text is its file's, byte for byte, is opened from the file.
def FromDisk(pb: number): bool
  var pane = store[string(pb)]
  var b = pane.src
  return pane.uri =~ '^file:' && !getbufvar(b, '&modified') && filereadable(pane.path)
    && getbufvar(b, '&fileformat') == 'unix' && getbufvar(b, '&eol')
    && !getbufvar(b, '&bomb') && index(['', 'utf-8'], getbufvar(b, '&fileencoding')) >= 0
    && getfsize(pane.path) > 0
enddef

def BufferText(buf: number): string
  return join(getbufline(buf, 1, '$'), "\n") .. "\n"
enddef

def OpenOp(pb: number)
  var pane = store[string(pb)]
  if pane.src >= 0
    listener_flush(pane.src)
    pane.dirty = {}
    pane.need_text = false
  endif
  pane.width = PaneWidth(pane.buf)
  Send('openOutline', OpenParams(pane.buf), (result, err) => {
    if pane.closed
      return
    endif
    if err != {}
      pane.open = false
      var data = get(err, 'data', {})
      ShowDiagnostics(pane.buf, type(data) == v:t_dict ? get(data, 'diagnostics', []) : [])
      Clear(pane.buf, '(' .. Friendly('openOutline', err) .. (pane.src >= 0 && get(err, 'code', 0) == -32011 ? '; :lopen lists them' : '') .. ')')
      if pane.src < 0
        WatchBroken(pane.buf)
      endif
      Done(pane.buf)
      return
    endif
    StopWatchBroken(pane.buf)
    ShowDiagnostics(pane.buf, result.diagnostics)
    pane.version = -1
    Reload(pane.buf, () => {
      if !pane.shown_once
        pane.shown_once = true
        SetCursor(pane.buf, 1, 1)
      endif
      Done(pane.buf)
    })
  })
enddef

# A file pane whose file is missing or broken tries again when the file
# changes (the server watches only outlines it could open).
def WatchBroken(pb: number)
  var pane = store[string(pb)]
  pane.file_stamp = [getftime(pane.path), getfsize(pane.path)]
  if pane.poll_timer == -1
    pane.poll_timer = timer_start(Opt('poll', 500), (_) => PollBroken(pane.buf), {repeat: -1})
  endif
enddef

def StopWatchBroken(pb: number)
  var pane = store[string(pb)]
  if pane.poll_timer != -1
    timer_stop(pane.poll_timer)
    pane.poll_timer = -1
  endif
enddef

def PollBroken(pb: number)
  var pane = store[string(pb)]
  if pane.closed || pane.open
    StopWatchBroken(pane.buf)
    return
  endif
  var stamp = [getftime(pane.path), getfsize(pane.path)]
  if stamp != pane.file_stamp && !pane.busy && pane.queue == []
    pane.file_stamp = stamp
    Enqueue(pane.buf, OpenOp)
  endif
enddef

# ---------------------------------------------------------------- edits

# Vim reports changes as line blocks: lines [lnum, end) became `added` more.
# The pane keeps one dirty block: lines [lo, hi) of the buffer replace lines
# [olo, ohi) of the text the server has (0-based).
def OnLines(pane_buf: number, buf: number, start: number, end: number, added: number, changes: list<any>)
  var pane = get(panes, string(pane_buf), {})
  if pane == {} || pane.closed
    return
  endif
  for c in changes
    var a = c.lnum - 1
    var e = c.end - 1
    var d = c.added
    var dirty = pane.dirty
    if dirty == {}
      pane.dirty = {lo: a, hi: e + d, olo: a, ohi: e}
    else
      var shift = (dirty.ohi - dirty.olo) - (dirty.hi - dirty.lo)
      if a < dirty.lo
        dirty.olo = a
        dirty.lo = a
      endif
      if e > dirty.hi
        dirty.ohi = e + shift
        dirty.hi = e
      endif
      dirty.hi = dirty.hi + d
    endif
  endfor
  Debounce(pane.buf)
enddef

def Debounce(pb: number)
  var pane = store[string(pb)]
  if pane.timer != -1
    timer_stop(pane.timer)
  endif
  pane.timer = timer_start(Opt('debounce', 150), (_) => {
    pane.timer = -1
    Enqueue(pane.buf, SyncOp)
  })
enddef

# Sends what changed before an operation that needs the server's text to be
# the buffer's (a jump, the cursor followed).
def Flush(pb: number)
  var pane = store[string(pb)]
  if pane.src < 0
    return
  endif
  listener_flush(pane.src)
  if pane.timer != -1
    timer_stop(pane.timer)
    pane.timer = -1
    Enqueue(pane.buf, SyncOp)
  endif
enddef

def SyncOp(pb: number)
  var pane = store[string(pb)]
  if pane.src < 0 || !bufexists(pane.src)
    Done(pane.buf)
    return
  endif
  listener_flush(pane.src)
  if !pane.open
    pane.dirty = {}
    OpenOp(pane.buf)
    return
  endif
  var params: dict<any> = {uri: pane.uri}
  var d = pane.dirty
  var one_empty = getbufinfo(pane.src)[0].linecount == 1 && getbufline(pane.src, 1)[0] == ''
  if pane.need_text || (d != {} && one_empty)
    params.text = BufferText(pane.src)
  elseif d != {}
    var text = d.hi > d.lo ? join(getbufline(pane.src, d.lo + 1, d.hi), "\n") .. "\n" : ''
    params.edits = [{range: {start: {line: d.olo, character: 0}, end: {line: d.ohi, character: 0}}, text: text}]
  else
    Done(pane.buf)
    return
  endif
  pane.dirty = {}
  pane.need_text = false
  var kind = has_key(params, 'text') ? 'text' : 'edits'
  pane.sent[kind] = pane.sent[kind] + 1
  Send('changeOutline', params, (result, err) => {
    if pane.closed
      return
    endif
    if err != {}
      var code = get(err, 'code', 0)
      if code == -32010
        # The server lost the outline (restarted): open it again.
        pane.open = false
        OpenOp(pane.buf)
        return
      elseif has_key(params, 'edits') && index([-32602, -32013, -32800], code) >= 0
        # The server's text is not the one the edits were made on: send it all.
        pane.need_text = true
        SyncOp(pane.buf)
        return
      endif
      Say(Friendly('changeOutline', err))
      Done(pane.buf)
      return
    endif
    ShowDiagnostics(pane.buf, result.diagnostics)
    Apply(pane.buf, result, (_) => Done(pane.buf))
  })
enddef

# The buffer was read again (:e!, :checktime): its text is new as a whole.
def Reloaded(pane_buf: number)
  var pane = get(panes, string(pane_buf), {})
  if pane == {} || pane.closed
    return
  endif
  listener_flush(pane.src)
  pane.dirty = {}
  if pane.timer != -1
    timer_stop(pane.timer)
    pane.timer = -1
  endif
  if FromDisk(pane.buf)
    # The server reads the file again itself (the pane keeps its items by id).
    Enqueue(pane.buf, OpenOp)
  else
    pane.need_text = true
    Enqueue(pane.buf, SyncOp)
  endif
enddef

def ChangedOp(pb: number, params: dict<any>)
  var pane = store[string(pb)]
  ShowDiagnostics(pane.buf, get(params, 'diagnostics', []))
  if !pane.open
    Done(pane.buf)
    return
  endif
  if pane.src >= 0 && (pane.dirty != {} || getbufvar(pane.src, '&modified'))
    pane.need_text = true
    Apply(pane.buf, params, (_) => SyncOp(pane.buf))
    return
  endif
  Apply(pane.buf, params, (_) => Done(pane.buf))
enddef

# ---------------------------------------------------------------- keys

def Current(): dict<any>
  return get(panes, string(bufnr()), {})
enddef

# The pane under the cursor, for a command key: a command ends a type-ahead.
def ForCommand(): dict<any>
  var pane = Current()
  if pane != {}
    pane.typed = ''
  endif
  return pane
enddef

# <Esc> ends a type-ahead.
export def EndTypeAhead()
  ForCommand()
enddef

def CursorRow(pb: number): list<any>
  var pane = store[string(pb)]
  var win = PaneWin(pane.buf)
  if win < 0
    return [-1, v:null, 0, 0]
  endif
  return RowAtLine(pane.buf, line('.', win))
enddef

# Runs Cb(index, item) with the item under the cursor, fetched first if
# need be; without one, the operation is done.
def WithCursorRow(pb: number, Cb: func)
  var pane = store[string(pb)]
  var [index, r, _, _] = CursorRow(pane.buf)
  if index < 0 || !pane.open
    Done(pane.buf)
  elseif type(r) == v:t_dict
    Cb(index, r)
  else
    FillRuns(pane.buf, [[index, 1]], () => {
      var fetched = RowAt(pane.buf, index)
      if type(fetched) == v:t_dict
        Cb(index, fetched)
      else
        Done(pane.buf)
      endif
    })
  endif
enddef

# Fetches what came into view, then the operation is done.
def Settle(pb: number)
  var pane = store[string(pb)]
  FillView(pane.buf, () => Done(pane.buf))
enddef

def ViewParams(pb: number, params: dict<any>): dict<any>
  var pane = store[string(pb)]
  var win = PaneWin(pane.buf)
  if win >= 0
    params.scrollTop = line('w0', win) - 1
    params.viewportHeight = winheight(win)
  endif
  return params
enddef

def ToggleOp(how: string, pb: number)
  var pane = store[string(pb)]
  WithCursorRow(pane.buf, (index, r) => {
    if r.kind != 'group' && type(r.parent) != v:t_string
      Done(pane.buf)
      return
    endif
    var id = r.kind == 'group' ? r.id : r.parent
    var params = ViewParams(pane.buf, {uri: pane.uri, section: id})
    if how != ''
      params.expanded = how == 'open'
    endif
    Send('toggleSection', params, (result, err) => {
      if pane.closed
        return
      endif
      if err != {}
        Say(Friendly('toggle', err))
        Done(pane.buf)
        return
      endif
      Apply(pane.buf, result, (changes) => {
        if type(changes) == v:t_list
          var gi = r.kind == 'group' ? MapIndex(index, changes)[0] : ToggledIndex(result, changes)
          ShowIndex(pane.buf, gi, get(result, 'scrollTop', -1) + 1)
        endif
        Settle(pane.buf)
      })
    })
  })
enddef

# Where the toggled group stands after `changes`: just above the block that
# opened (the one insert) or closed (the one delete); -1 when none moved.
def ToggledIndex(result: dict<any>, changes: list<any>): number
  var ranges = InsertRanges(changes)
  var k = 0
  for c in changes
    if result.expanded && c.kind == 'insert'
      return ranges[k][0] - 1
    elseif !result.expanded && c.kind == 'delete'
      return MapIndex(c.start - 1, changes[k + 1 :])[0]
    endif
    k += 1
  endfor
  return -1
enddef

def AllOp(method: string, pb: number)
  var pane = store[string(pb)]
  if !pane.open
    Done(pane.buf)
    return
  endif
  Send(method, {uri: pane.uri}, (result, err) => {
    if pane.closed
      return
    endif
    if err != {}
      if get(err, 'code', 0) == -32602 && method == 'expandAll'
        Say('expand all is not possible in an accordion (expansion: single): one group opens at a time')
      else
        Say(Friendly(method, err))
      endif
      Done(pane.buf)
      return
    endif
    Apply(pane.buf, result, (_) => Done(pane.buf))
  })
enddef

def NavigateOp(key: any, pb: number)
  var pane = store[string(pb)]
  WithCursorRow(pane.buf, (index, r) => {
    Send('navigate', {uri: pane.uri, from: r.id, key: key}, (result, err) => {
      if pane.closed
        return
      endif
      if err != {}
        if get(err, 'code', 0) == -32602 && type(key) == v:t_string && key == 'expandSiblings'
          Say('opening every sibling group is not possible in an accordion (expansion: single)')
        else
          Say(Friendly('navigate', err))
        endif
        Done(pane.buf)
        return
      endif
      pane.focus = result.focus
      Apply(pane.buf, result, (_) => {
        ShowIndex(pane.buf, result.index)
        if type(key) == v:t_dict && result.focus == r.id && stridx(tolower(r.title), tolower(key.type)) != 0
          Say('no item starts with "' .. key.type .. '"')
        endif
        Settle(pane.buf)
      })
    })
  })
enddef

# Moves `count` times; the keys typed meanwhile wait in the queue.
def Nav(key: string, count: number = 1)
  var pane = ForCommand()
  if pane == {}
    return
  endif
  for _ in range(max([count, 1]))
    Enqueue(pane.buf, function(NavigateOp, [key]))
  endfor
enddef

# ---- type-ahead: letters go to the item whose title starts with them.

def TypeAheadActive(pb: number): bool
  var pane = store[string(pb)]
  return pane.typed != '' && reltimefloat(reltime(pane.typed_at)) * 1000 < Opt('typeahead_timeout', 1000)
enddef

def TypeAhead(pb: number, ch: string)
  var pane = store[string(pb)]
  if !TypeAheadActive(pane.buf)
    pane.typed = ''
  endif
  var text = pane.typed .. ch
  pane.typed = text
  pane.typed_at = reltime()
  # The same letter again goes on to the next item that starts with it.
  var same = text == repeat(ch, strchars(text))
  Enqueue(pane.buf, function(NavigateOp, [{type: same ? ch : text}]))
enddef

const COMMANDS = 'jkhlGopq'

# A letter key: the pane's command, or the next letter of a type-ahead.
export def Key(ch: string)
  var pane = Current()
  if pane == {}
    return
  endif
  if TypeAheadActive(pane.buf) || stridx(COMMANDS, ch) < 0
    TypeAhead(pane.buf, ch)
  elseif ch == 'j'
    Nav('down', v:count1)
  elseif ch == 'k'
    Nav('up', v:count1)
  elseif ch == 'h'
    Nav('left')
  elseif ch == 'l'
    Nav('right')
  elseif ch == 'G'
    if v:count > 0
      cursor(v:count, 1)
    else
      Nav('end')
    endif
  elseif ch == 'o'
    Toggle()
  elseif ch == 'p'
    Source(false)
  elseif ch == 'q'
    Quit()
  endif
enddef

# Digits and - . _ + keep their Vim meaning unless a type-ahead is under way.
export def KeyExpr(ch: string): string
  var pane = Current()
  if pane != {} && TypeAheadActive(pane.buf)
    return "\<Cmd>call outline#Key(" .. string(ch) .. ")\r"
  endif
  return ch
enddef

# f{char}: a type-ahead that starts with any character, a command key too.
export def Find()
  var pane = Current()
  if pane == {}
    return
  endif
  var ch = getcharstr()
  if ch == "\<Esc>" || ch == ''
    return
  endif
  pane.typed = ''
  TypeAhead(pane.buf, ch)
enddef

# ---- toggles

# '' flips the group under the cursor (on a row: its group), 'open' and
# 'close' set it.
export def Toggle(how: string = '')
  var pane = ForCommand()
  if pane != {}
    Enqueue(pane.buf, function(ToggleOp, [how]))
  endif
enddef

export def ExpandAll()
  var pane = ForCommand()
  if pane != {}
    Enqueue(pane.buf, function(AllOp, ['expandAll']))
  endif
enddef

export def CollapseAll()
  var pane = ForCommand()
  if pane != {}
    Enqueue(pane.buf, function(AllOp, ['collapseAll']))
  endif
enddef

export def ExpandSiblings()
  Nav('expandSiblings')
enddef

# <CR>: a group opens or closes; a row shows its line in the YAML.
export def Enter()
  var pane = ForCommand()
  if pane == {}
    return
  endif
  var [index, r, _, _] = CursorRow(pane.buf)
  if index >= 0 && r.kind == 'row'
    Source(true)
  else
    Toggle()
  endif
enddef

# ---- the filter

const CANCELLED = "\<Esc>"

# /: prompts for the filter (the current one to edit); Enter on an empty
# line clears it, Esc leaves it as it is.
export def FilterPrompt()
  var pane = ForCommand()
  if pane == {}
    return
  endif
  var q = inputdialog('Filter: ', pane.query, CANCELLED)
  if q == CANCELLED
    return
  endif
  Filter(q)
enddef

# Filters the current pane to the items containing `query` and their groups.
export def Filter(query: string)
  var pane = Current()
  if pane != {}
    Enqueue(pane.buf, function(FilterOp, [query]))
  endif
enddef

def FilterOp(query: string, pb: number)
  var pane = store[string(pb)]
  if !pane.open
    Done(pane.buf)
    return
  endif
  var params = ViewParams(pane.buf, {uri: pane.uri, query: query})
  params.scrollTop = 0
  Send('filterOutline', params, (result, err) => {
    if pane.closed
      return
    endif
    if err != {}
      Say(Friendly('filter', err))
      Done(pane.buf)
      return
    endif
    pane.query = query
    var matches: dict<any> = {}
    for m in result.matches
      matches[m.id] = m.ranges
    endfor
    # Items drawn from now on show their matches; those already drawn are
    # painted after.
    match_store[string(pane.buf)] = {}
    Apply(pane.buf, result, (_) => {
      match_store[string(pane.buf)] = matches
      PaintMatches(pane.buf, result.matches)
      if query == ''
        Say('filter cleared', 'None')
      elseif result.total == 0
        Clear(pane.buf, EmptyText(pane.buf))
        Say('no item matches "' .. query .. '"')
      else
        # The server lists at most PAGE matches: that many means as many or more.
        var n = len(result.matches)
        Say(printf('%s %s "%s"', Thousands(n) .. (n >= PAGE ? ' or more' : ''),
          n == 1 ? 'item matches' : 'items match', query), 'None')
        ShowIndex(pane.buf, result.matches != [] ? result.matches[0].index : 0, 1)
      endif
      Settle(pane.buf)
    })
  })
enddef

# `n` with a comma between thousands: 32,925.
def Thousands(n: number): string
  var digits = string(n)
  return substitute(digits, '\d\zs\ze\%(\d\d\d\)\+$', ',', 'g')
enddef

# Highlights the filter matches of the rows shown (in list order).
def PaintMatches(pb: number, matches: list<any>)
  var pane = store[string(pb)]
  if pane.nlines > 0
    prop_remove({type: 'outline_match', bufnr: pane.buf, all: true}, 1, pane.nlines)
  endif
  if matches == []
    return
  endif
  var props: list<list<number>> = []
  var ci = 0
  var base = 0
  var line0 = 0
  var nchunks = len(pane.chunks)
  for m in matches
    while ci < nchunks && m.index >= base + len(pane.chunks[ci].rows)
      base += len(pane.chunks[ci].rows)
      line0 += pane.chunks[ci].lines
      ci += 1
    endwhile
    if ci >= nchunks
      break
    endif
    var c = pane.chunks[ci]
    var r = c.rows[m.index - base]
    if type(r) == v:t_dict && r.id == m.id
      var l = line0
      var i = 0
      while i < m.index - base
        l += c.heights[i]
        i += 1
      endwhile
      extend(props, MatchProps(r, l + 1, m.ranges))
    endif
  endfor
  if props != []
    Writable(pane.buf, true)
    prop_add_list({type: 'outline_match', bufnr: pane.buf}, props)
    Writable(pane.buf, false)
  endif
enddef

# ---- source and pane side by side

# Shows the item under the cursor in the YAML: `go` moves there.
export def Source(go: bool)
  var pane = ForCommand()
  if pane == {}
    return
  endif
  Flush(pane.buf)
  Enqueue(pane.buf, function(SourceOp, [go]))
enddef

def SourceOp(go: bool, pb: number)
  var pane = store[string(pb)]
  WithCursorRow(pane.buf, (index, r) => SourceOf(go, pane.buf, index, r))
enddef

def SourceOf(go: bool, pb: number, index: number, r: dict<any>)
  var pane = store[string(pb)]
  Send('visibleRows', {uri: pane.uri, start: index, count: 1, include: ['range']}, (result, err) => {
    if pane.closed
      return
    endif
    Done(pane.buf)
    if err != {} || result.rows == [] || result.rows[0].id != r.id
      Say(err != {} ? Friendly('visibleRows', err) : 'the outline changed; try again')
      return
    endif
    var pos = result.rows[0].range.start
    var win = SourceWindow(pane.buf)
    if win < 0
      return
    endif
    win_execute(win, 'cursor(' .. (pos.line + 1) .. ', ' .. (pos.character + 1) .. ')')
    win_execute(win, 'normal! zv')
    win_execute(win, 'normal! zz')
    if go
      win_gotoid(win)
    endif
  })
enddef

# The window showing the pane's YAML, opened in the previous window (or a
# new one) when none does.
def SourceWindow(pb: number): number
  var pane = store[string(pb)]
  var buf = pane.src
  if buf < 0
    for b in getbufinfo()
      if b.name != '' && fnamemodify(b.name, ':p') == pane.path
        buf = b.bufnr
      endif
    endfor
  endif
  if buf > 0
    var ws = win_findbuf(buf)
    if ws != []
      return ws[0]
    endif
  endif
  var pane_win = PaneWin(pane.buf)
  var prev = win_getid(winnr('#'))
  var target = prev != 0 && prev != pane_win ? prev : 0
  if target == 0
    for w in range(1, winnr('$'))
      if win_getid(w) != pane_win
        target = win_getid(w)
        break
      endif
    endfor
  endif
  var cmd = buf > 0 ? 'buffer ' .. buf : 'edit ' .. fnameescape(pane.path)
  if target == 0
    win_gotoid(pane_win)
    execute 'aboveleft vertical split'
    target = win_getid()
    execute 'vertical resize ' .. (&columns - Opt('width', 40) - 1)
  else
    win_gotoid(target)
  endif
  if &modified && !&hidden && bufnr() != buf
    execute 'split'
    target = win_getid()
  endif
  execute cmd
  win_gotoid(pane_win)
  return target
enddef

# The cursor moved in the YAML: after a pause, the pane shows its item.
export def CursorMoved()
  var buf = bufnr()
  for pane in values(panes)
    var mine = pane.src == buf || (pane.src < 0 && !&modified && fnamemodify(bufname(buf), ':p') == pane.path)
    if mine && pane.open && Opt('follow', 1)
      pane.follow_pos = [line('.') - 1, col('.') - 1]
      if pane.follow_timer != -1
        timer_stop(pane.follow_timer)
      endif
      pane.follow_timer = timer_start(Opt('follow_delay', 150), (_) => {
        pane.follow_timer = -1
        Flush(pane.buf)
        Enqueue(pane.buf, FollowOp)
      })
    endif
  endfor
enddef

def FollowOp(pb: number)
  var pane = store[string(pb)]
  if !pane.open || PaneWin(pane.buf) < 0
    Done(pane.buf)
    return
  endif
  var [line, character] = pane.follow_pos
  Send('itemAtPosition', {uri: pane.uri, position: {line: line, character: character}}, (item, err) => {
    if pane.closed
      return
    endif
    if err != {} || type(item) != v:t_dict
      Done(pane.buf)
      return
    endif
    if type(item.index) == v:t_number
      ShowIndex(pane.buf, item.index)
      Settle(pane.buf)
      return
    endif
    Send('revealItem', ViewParams(pane.buf, {uri: pane.uri, id: item.id}), (result, err2) => {
      if pane.closed
        return
      endif
      if err2 != {}
        Done(pane.buf)
        return
      endif
      Apply(pane.buf, result, (_) => {
        ShowIndex(pane.buf, result.index, get(result, 'scrollTop', -1) + 1)
        Settle(pane.buf)
      })
    })
  })
enddef

# ---- layout

def PaneWidth(pb: number): number
  var pane = store[string(pb)]
  var win = PaneWin(pane.buf)
  return win >= 0 ? winwidth(win) : Opt('width', 40)
enddef

def RelayoutOp(pb: number)
  var pane = store[string(pb)]
  var width = PaneWidth(pane.buf)
  if !pane.open || width == pane.width
    Done(pane.buf)
    return
  endif
  pane.width = width
  Send('setLayout', {uri: pane.uri, width: width}, (result, err) => {
    if pane.closed
      return
    endif
    if err != {} || result.version == pane.version
      Done(pane.buf)
      return
    endif
    Reload(pane.buf, () => Done(pane.buf))
  })
enddef

export def RelayoutAll()
  for pane in values(panes)
    if PaneWin(pane.buf) >= 0 && PaneWidth(pane.buf) != pane.width
      Enqueue(pane.buf, RelayoutOp)
    endif
  endfor
enddef

# ---------------------------------------------------------------- the pane

export def Pane(buf: number): dict<any>
  return get(panes, string(buf), {})
enddef

# The pane's status line: the file, the filter, the problems.
export def Status(): string
  var pane = get(panes, string(winbufnr(get(g:, 'statusline_winid', win_getid()))), {})
  if pane == {}
    return ''
  endif
  var s = ' ' .. fnamemodify(pane.path, ':t')
  if pane.query != ''
    s ..= '  /' .. pane.query
  endif
  var errors = len(filter(copy(pane.diagnostics), (_, d) => d.severity == 1))
  if errors > 0
    s ..= printf('  %d error%s', errors, errors == 1 ? '' : 's')
  endif
  if pane.busy || pane.queue != []
    s ..= '  …'
  endif
  return s
enddef

def Quit()
  var pane = Current()
  if pane == {}
    return
  endif
  if winnr('$') > 1
    close
    return
  endif
  # The last window: show the YAML (or another buffer) instead of leaving Vim.
  var others = filter(getbufinfo({buflisted: 1}), (_, b) => b.bufnr != pane.buf)
  if pane.src > 0 && bufexists(pane.src)
    execute 'buffer ' .. pane.src
  elseif others != []
    execute 'buffer ' .. others[0].bufnr
  else
    quit
  endif
enddef

def Closed(buf: number)
  var pane = get(panes, string(buf), {})
  if pane == {}
    return
  endif
  pane.closed = true
  remove(panes, string(buf))
  # Callbacks under way find it closed; its rows can go.
  pane.chunks = []
  pane.queue = []
  match_store[string(buf)] = {}
  StopWatchBroken(pane.buf)
  for t in [pane.timer, pane.follow_timer, pane.fill_timer]
    if t != -1
      timer_stop(t)
    endif
  endfor
  if pane.listener != 0
    listener_remove(pane.listener)
  endif
  if pane.open && Running()
    Send('closeOutline', {uri: pane.uri}, (..._) => 0)
  endif
  if pane.src > 0 && bufexists(pane.src)
    sign_unplace('outline', {buffer: pane.src})
    setbufvar(pane.src, 'outline_diagnostics', [])
    execute 'autocmd! OutlineSource * <buffer=' .. pane.src .. '>'
  endif
enddef

export def ClosedPane(buf: number)
  Closed(buf)
enddef

export def SourceWiped(src: number)
  for pane in values(panes)
    if pane.src == src
      pane.src = -2
      var win = PaneWin(pane.buf)
      if win >= 0 && winnr('$') > 1
        win_execute(win, 'close')
      endif
    endif
  endfor
enddef

export def SourceReloaded(src: number)
  for pane in values(panes)
    if pane.src == src
      Reloaded(pane.buf)
    endif
  endfor
enddef

def Uri(path: string): string
  var enc = substitute(path, '[^A-Za-z0-9/._~-]', '\=printf("%%%02X", char2nr(submatch(0)))', 'g')
  return 'file://' .. enc
enddef

def Setup()
  highlight default link OutlineHeader Title
  highlight default link OutlineArrow Special
  highlight default link OutlineCount Comment
  highlight default link OutlineActive String
  highlight default link OutlineInactive Comment
  highlight default OutlineEmphasis term=bold cterm=bold gui=bold
  highlight default link OutlineMatch Search
  if prop_type_get('outline_match') == {}
    prop_type_add('outline_match', {highlight: 'OutlineMatch', priority: 20, combine: true})
    prop_type_add('outline_emphasis', {highlight: 'OutlineEmphasis', priority: 10, combine: true})
  endif
  sign_define('OutlineError', {text: 'E>', texthl: 'ErrorMsg'})
  sign_define('OutlineWarning', {text: 'W>', texthl: 'WarningMsg'})
enddef

def Keys()
  for ch in split('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '\zs')
    if ch !~ '[fgzG]'
      execute 'nnoremap <buffer> <silent> <nowait> ' .. ch .. ' <Cmd>call outline#Key(' .. string(ch) .. ')<CR>'
    endif
  endfor
  nnoremap <buffer> <silent> G <Cmd>call outline#Key('G')<CR>
  for ch in split('0123456789-._+', '\zs')
    execute 'nnoremap <buffer> <silent> <expr> ' .. ch .. ' outline#KeyExpr(' .. string(ch) .. ')'
  endfor
  nnoremap <buffer> <silent> <expr> <Space> outline#KeyExpr(' ')
  nnoremap <buffer> <silent> f <Cmd>call outline#Find()<CR>
  nnoremap <buffer> <silent> <Esc> <Cmd>call outline#EndTypeAhead()<CR>
  nnoremap <buffer> <silent> <CR> <Cmd>call outline#Enter()<CR>
  nnoremap <buffer> <silent> za <Cmd>call outline#Toggle()<CR>
  nnoremap <buffer> <silent> zo <Cmd>call outline#Toggle('open')<CR>
  nnoremap <buffer> <silent> zc <Cmd>call outline#Toggle('close')<CR>
  nnoremap <buffer> <silent> zR <Cmd>call outline#ExpandAll()<CR>
  nnoremap <buffer> <silent> zM <Cmd>call outline#CollapseAll()<CR>
  nnoremap <buffer> <silent> * <Cmd>call outline#ExpandSiblings()<CR>
  nnoremap <buffer> <silent> / <Cmd>call outline#FilterPrompt()<CR>
  nnoremap <buffer> <silent> gs <Cmd>call outline#Source(v:true)<CR>
  nnoremap <buffer> <silent> gg <ScriptCmd>Nav('home')<CR>
  for [lhs, key] in [['<Down>', 'down'], ['<Up>', 'up'], ['<Right>', 'right'], ['<Left>', 'left'],
      ['<Home>', 'home'], ['<End>', 'end']]
    execute 'nnoremap <buffer> <silent> ' .. lhs .. ' <ScriptCmd>Nav(' .. string(key) .. ')<CR>'
  endfor
enddef

def Syntax()
  syntax clear
  syntax match OutlineHeader /^\s*[▾▸] .*$/ contains=OutlineArrow,OutlineCount
  syntax match OutlineArrow /[▾▸]/ contained
  syntax match OutlineCount /\s\zs\d\+\/\d\+$/ contained
  syntax match OutlineActive /^\s*\zs●/
  syntax match OutlineInactive /^\s*○ .*$/
enddef

# :Outline for a pane that exists: when the server stopped, starts it again
# and opens the outline of every pane again (each said :Outline would).
def Reopen()
  if Running()
    return
  endif
  if !Start()
    return
  endif
  for pane in values(panes)
    if !pane.open && !pane.busy && pane.queue == []
      Clear(pane.buf, '(opening ' .. fnamemodify(pane.path == '' ? pane.uri : pane.path, ':~:.') .. '…)')
      Enqueue(pane.buf, OpenOp)
    endif
  endfor
enddef

# Opens the pane for FILE (read from disk, followed when it changes) or for
# the current YAML buffer (followed as you type).
export def Open(file: string)
  Setup()
  var src = -1
  var path = ''
  if file != ''
    path = fnamemodify(expand(file), ':p')
  elseif Current() != {}
    # In a pane: open its outline again (after the server stopped).
    Reopen()
    return
  else
    src = bufnr()
    var name = bufname(src)
    if &buftype != '' || (&filetype !~ '^\(yaml\|json\)$' && name !~ '\.\(ya\?ml\|json\)$')
      Say('the current buffer is not a YAML file; give a file: :Outline FILE', 'ErrorMsg')
      return
    endif
    path = name == '' ? '' : fnamemodify(name, ':p')
  endif
  var uri = path == '' ? 'untitled:' .. src : Uri(path)
  for pane in values(panes)
    if pane.uri == uri
      var win = PaneWin(pane.buf)
      if win >= 0
        win_gotoid(win)
      else
        execute 'botright vertical sbuffer ' .. pane.buf
        execute 'vertical resize ' .. Opt('width', 40)
      endif
      Reopen()
      return
    endif
  endfor
  if !Start()
    return
  endif
  botright vnew
  var buf = bufnr()
  execute 'vertical resize ' .. Opt('width', 40)
  silent! execute 'file ' .. fnameescape('outline://' .. (path == '' ? uri : path))
  setlocal buftype=nofile bufhidden=wipe noswapfile nobuflisted undolevels=-1
  setlocal nonumber norelativenumber nowrap nolist nospell winfixwidth cursorline
  setlocal foldcolumn=0 nofoldenable signcolumn=no nomodifiable
  setlocal statusline=%{outline#Status()}
  setlocal filetype=outline
  Syntax()
  var pane: dict<any> = {buf: buf, src: src, path: path, uri: uri, open: false, closed: false,
    version: -1, width: winwidth(0), chunks: [], nlines: 0, queue: [], busy: false,
    dirty: {}, need_text: false, timer: -1, follow_timer: -1, follow_pos: [0, 0],
    poll_timer: -1, fill_timer: -1, missing: 0, file_stamp: [], listener: 0, query: '', diagnostics: [],
    focus: v:null, typed: '', typed_at: reltime(), shown_once: false, sent: {text: 0, edits: 0},
    fill_page: Opt('fill_page', 500)}
  panes[string(buf)] = pane
  store[string(buf)] = pane
  match_store[string(buf)] = {}
  Keys()
  Clear(pane.buf, '(opening ' .. fnamemodify(path == '' ? uri : path, ':~:.') .. '…)')
  execute 'autocmd BufWipeout <buffer=' .. buf .. '> ++once call outline#ClosedPane(' .. buf .. ')'
  augroup OutlineFollow
    autocmd!
    autocmd CursorMoved,CursorMovedI * outline#CursorMoved()
    autocmd WinScrolled * outline#Scrolled()
  augroup END
  if src > 0
    pane.listener = listener_add(function(OnLines, [buf]), src)
    augroup OutlineSource
      execute 'autocmd BufReadPost <buffer=' .. src .. '> call outline#SourceReloaded(' .. src .. ')'
      execute 'autocmd BufWipeout <buffer=' .. src .. '> call outline#SourceWiped(' .. src .. ')'
    augroup END
  endif
  Enqueue(pane.buf, OpenOp)
enddef
