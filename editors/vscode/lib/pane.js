'use strict';
// The pane's text, built from visibleRows: "▸"/"▾" headers with
// active/rows counts, "●"/"○" rows, titles and details wrapped to a width.
// Each row takes exactly `row.height` lines, as the server lays it out.
// No `vscode` import.

const WIDE = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0],
  [0x23f3, 0x23f3], [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f],
  [0x2693, 0x2693], [0x26a1, 0x26a1], [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5],
  [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3], [0x26f5, 0x26f5],
  [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b], [0x2728, 0x2728],
  [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55],
  [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f],
  [0xff00, 0xff60], [0xffe0, 0xffe6], [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

function charWidth(ch) {
  const cp = ch.codePointAt(0);
  if (/^[\p{Mn}\p{Me}\u200b-\u200f\ufe00-\ufe0f]$/u.test(ch)) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

const textWidth = (s) => [...s].reduce((w, c) => w + charWidth(c), 0);

/** Lines of `text` wrapped at `width` cells; an empty text has no lines. */
function wrap(text, width) {
  const out = [];
  if (!text) return out;
  width = Math.max(1, width);
  for (const para of text.replace(/\r\n|\u2028/g, '\n').split('\n')) {
    const tokens = [];
    let cur = '';
    for (const ch of para) {
      if (ch === ' ' || ch === '\t') cur += ch;
      else if (charWidth(ch) >= 2) { if (cur) tokens.push(cur); cur = ch; }
      else {
        const last = [...cur].pop();
        if (cur && (last === ' ' || last === '\t' || charWidth(last) >= 2)) { tokens.push(cur); cur = ''; }
        cur += ch;
      }
    }
    if (cur) tokens.push(cur);
    let line = '';
    let used = 0;
    const flush = () => { out.push(line.replace(/[ \t]+$/, '')); line = ''; used = 0; };
    for (let tok of tokens) {
      const core = tok.replace(/[ \t]+$/, '');
      if (used && used + textWidth(core) > width) flush();
      if (textWidth(core) > width) {
        for (const ch of core) {
          if (used && used + charWidth(ch) > width) flush();
          line += ch; used += charWidth(ch);
        }
        tok = tok.slice(core.length);
      }
      line += tok; used += textWidth(tok);
    }
    flush();
  }
  return out;
}

function joinLines(a, b) {
  const last = [...a].pop();
  const first = [...b][0];
  if (a && b && charWidth(last) < 2 && charWidth(first) < 2) return `${a} ${b}`;
  return a + b;
}

// The server's height is the truth for positions; where this wrapping gives
// more lines, the last lines of a text are joined back.
function fit(title, detail, height) {
  while (title.length + detail.length > height) {
    if (detail.length > 1) { const b = detail.pop(); detail.push(joinLines(detail.pop(), b)); }
    else if (title.length > 1) { const b = title.pop(); title.push(joinLines(title.pop(), b)); }
    else if (detail.length === 1) title.push(joinLines(title.pop(), detail.pop()));
    else break;
  }
  return title.concat(detail);
}

/** The header text of a group: "My Friends ♥  4/10". */
function headerLabel(row) {
  return `${row.title}${row.badge ? ` ${row.badge}` : ''}  ${row.activeCount}/${row.rowCount}`;
}

/** The lines of one visible row, exactly row.height of them. */
function rowLines(row, width) {
  const indent = '  '.repeat(row.depth);
  const height = row.height ?? 1;
  let lines;
  if (row.kind === 'group') {
    lines = [`${indent}${row.expanded ? '▾' : '▸'} ${headerLabel(row)}`];
  } else {
    const w = width - 2 * row.depth - 2;
    const title = wrap(row.title, w);
    if (title.length === 0) title.push('');
    const texts = fit(title, wrap(row.detail || '', w), height);
    lines = texts.map((t, i) => indent + (i === 0 ? (row.active ? '● ' : '○ ') : '  ') + t);
  }
  while (lines.length < height) lines.push('');
  return lines.slice(0, height);
}

/** The whole pane: one string, each line ending in "\n". */
function paneText(rows, width) {
  return rows.flatMap((r) => rowLines(r, width)).map((l) => `${l}\n`).join('');
}

/** The visible rows whose parent is `parentId` (null: top level), in order. */
function childrenOf(rows, parentId) {
  return rows.filter((r) => (r.parent ?? null) === (parentId ?? null));
}

module.exports = { wrap, rowLines, paneText, headerLabel, childrenOf, charWidth };
