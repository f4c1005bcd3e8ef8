-- How an item of the visible list is drawn in the pane: its lines, exactly
-- `height` of them, from the lines the server broke (`visibleRows {include:
-- ["lines"]}`), and the highlights of each line.
--
--   ▾ Group title badge  3/10      a group: arrow, title, badge, active/rows
--     ● Row title                  a row: ● active, ○ not
--       detail, as the server      detail lines under the title
--       broke it
--
-- Each level of depth indents by 2 cells and the arrow or marker takes 2
-- more: the layout the pane sets (indent 2, padding.left 2) gives the server
-- the same room, so its lines fit the window as they are.
local M = {}

M.ARROW_OPEN = '▾ '
M.ARROW_CLOSED = '▸ '
M.ACTIVE = '● '
M.INACTIVE = '○ '
local MARK = #M.ACTIVE -- bytes of an arrow or a marker with its space (all 4)

local indents = {}
local function indent(depth)
  local s = indents[depth]
  if not s then
    s = string.rep(' ', 2 * depth)
    indents[depth] = s
  end
  return s
end

-- One line of text as a buffer line: a line cannot hold a line break.
local function clean(s)
  if s:find('[\r\n]') then s = s:gsub('\r?\n', ' '):gsub('\r', ' ') end
  return s
end

-- A header drawn on one line shows the whole title (the window cuts what
-- does not fit); a taller header draws the server's lines.
local function header_title(row)
  local lines = row.lines and row.lines.title
  if lines and #lines == 1 then return lines[1] end
  local t = clean(row.title or '')
  if t:find('\226\128\168', 1, true) then t = t:gsub('\226\128\168', ' ') end -- U+2028
  return t
end

local function header_tail(row)
  local tail = ''
  if row.badge then tail = ' ' .. clean(row.badge) end
  return tail .. '  ' .. tostring(row.activeCount or 0) .. '/' .. tostring(row.rowCount or 0)
end

-- Appends the lines of `row` to `out`: exactly row.height lines. A stub (an
-- item whose height is known but whose text has not arrived) is blank.
function M.lines(row, out)
  local n = #out
  local stop = n + row.height
  if not row.stub then
    local pad = indent(row.depth)
    local title = row.lines and row.lines.title or { row.title or '' }
    if row.kind == 'group' then
      if row.height <= 1 then
        n = n + 1
        out[n] = pad .. (row.expanded and M.ARROW_OPEN or M.ARROW_CLOSED) .. header_title(row) .. header_tail(row)
      else
        n = n + 1
        out[n] = pad .. (row.expanded and M.ARROW_OPEN or M.ARROW_CLOSED) .. clean(title[1] or '') .. header_tail(row)
        for k = 2, #title do
          if n >= stop then break end
          n = n + 1
          out[n] = pad .. '  ' .. clean(title[k])
        end
      end
    else
      n = n + 1
      out[n] = pad .. (row.active and M.ACTIVE or M.INACTIVE) .. clean(title[1] or '')
      for k = 2, #title do
        if n >= stop then break end
        n = n + 1
        out[n] = pad .. '  ' .. clean(title[k])
      end
      local detail = row.lines and row.lines.detail
      if detail then
        for k = 1, #detail do
          if n >= stop then break end
          n = n + 1
          out[n] = pad .. '  ' .. clean(detail[k])
        end
      end
    end
  end
  -- A fixed height taller than the text: blank lines; shorter: cut.
  while n < stop do
    n = n + 1
    out[n] = ''
  end
  for k = #out, stop + 1, -1 do out[k] = nil end
  return out
end

-- Where each drawn line of a field's lines starts in the field's text
-- (byte offsets), or false for a line that is not found as it is (a tab
-- the layout expanded).
local function line_offsets(text, lines)
  local offsets, pos = {}, 1
  for k, l in ipairs(lines) do
    local s = text:find(l, pos, true)
    if s then
      offsets[k] = s - 1
      pos = s + #l
    else
      offsets[k] = false
    end
  end
  return offsets
end

-- Highlights of match ranges ({field, start, length}, UTF-8 bytes within
-- the field) on the drawn line `k` of `field`, whose text starts at byte
-- `col` of the buffer line.
local function match_spans(out, row, ranges, field, text, lines, k, col)
  if not ranges or not text then return end
  local offsets = line_offsets(text, lines)
  local o = offsets[k]
  if not o then return end
  local len = #lines[k]
  for _, r in ipairs(ranges) do
    if r.field == field then
      local s, e = math.max(r.start, o), math.min(r.start + r.length, o + len)
      if s < e then out[#out + 1] = { col + s - o, col + e - o, 'OutlineMatch' } end
    end
  end
end

-- The highlights of line `k` (1-based, within the row) of `row`, as a list
-- of {start column, end column (bytes, end exclusive), group}. `ranges` are
-- the row's filter matches, `current` says it is the item under the cursor
-- of the YAML buffer.
function M.highlights(row, k, line, ranges, current)
  local out = {}
  if row.stub then return out end
  local pad = 2 * row.depth
  local title = row.lines and row.lines.title or { row.title or '' }
  if row.kind == 'group' then
    if k == 1 then
      local text = row.height <= 1 and header_title(row) or clean(title[1] or '')
      local stop = pad + MARK + #text
      out[#out + 1] = { pad, stop, 'OutlineGroup' }
      if row.badge then
        out[#out + 1] = { stop + 1, stop + 1 + #clean(row.badge), 'OutlineBadge' }
      end
      local count = #tostring(row.activeCount or 0) + 1 + #tostring(row.rowCount or 0)
      out[#out + 1] = { #line - count, #line, 'OutlineCount' }
      if row.height <= 1 then
        if ranges then
          for _, r in ipairs(ranges) do
            if r.field == 'title' then
              out[#out + 1] = { pad + MARK + r.start, math.min(stop, pad + MARK + r.start + r.length), 'OutlineMatch' }
            end
          end
        end
      else
        match_spans(out, row, ranges, 'title', row.title, title, 1, pad + MARK)
      end
    elseif k <= #title then
      out[#out + 1] = { pad + 2, #line, 'OutlineGroup' }
      match_spans(out, row, ranges, 'title', row.title, title, k, pad + 2)
    end
  else
    local ntitle = #title
    if k == 1 then
      out[#out + 1] = { pad, pad + MARK - 1, row.active and 'OutlineActive' or 'OutlineInactive' }
    end
    if k <= ntitle then
      local col = k == 1 and pad + MARK or pad + 2
      local group = row.emphasis and 'OutlineEmphasis' or (not row.active and 'OutlineInactive') or nil
      if group then out[#out + 1] = { col, #line, group } end
      match_spans(out, row, ranges, 'title', row.title, title, k, col)
    else
      local detail = row.lines and row.lines.detail
      if detail and detail[k - ntitle] then
        out[#out + 1] = { pad + 2, #line, 'OutlineDetail' }
        match_spans(out, row, ranges, 'detail', row.detail, detail, k - ntitle, pad + 2)
      end
    end
  end
  if current and k == 1 then out[#out + 1] = { 0, #line, 'OutlineCurrent' } end
  return out
end

-- The highlight groups, linked to standard ones unless the user set them.
function M.define_highlights()
  local links = {
    OutlineGroup = 'Title',
    OutlineBadge = 'Constant',
    OutlineCount = 'Comment',
    OutlineActive = 'String',
    OutlineInactive = 'NonText',
    OutlineEmphasis = 'Special',
    OutlineDetail = 'Comment',
    OutlineMatch = 'Search',
    OutlineCurrent = 'Visual',
    OutlineMessage = 'WarningMsg',
  }
  for name, target in pairs(links) do
    vim.cmd(('highlight default link %s %s'):format(name, target))
  end
end

return M
