'use strict';
// How one visible item looks in the VS Code view, as plain data (the
// extension turns it into a vscode.TreeItem). No `vscode` import.
//
// - A group: its title (and badge) as the label, "active/rows" as the
//   description ("My Friends  4/10"), open or closed as the server says.
// - A row: a filled circle when active, a hollow one when not, a star for
//   an emphasis (VIP) row; its title as the label, its detail (on one
//   line) as the description. Selecting it (Enter, click) jumps to its
//   source.
// - Filter matches in a title are highlighted in the label (TreeItemLabel
//   highlights); matches in a detail are marked in the tooltip.
// The tree draws one line per item and does its own clipping, so no text is
// wrapped here.

/** Icon ids (VS Code codicons) and the theme colours they are drawn in;
 *  the colours are contributed by package.json. */
const ICONS = Object.freeze({
  active: { id: 'circle-filled', color: 'outlineServer.activeForeground' },
  inactive: { id: 'circle-outline', color: 'outlineServer.inactiveForeground' },
  emphasis: { id: 'star-full', color: 'outlineServer.emphasisForeground' },
});

/** A text on one line: line breaks (\r\n, \n, \r, U+2028, U+2029) as spaces. */
function oneLine(text) {
  return text.replace(/\r\n|[\n\r\u2028\u2029]/g, ' ');
}

/** [start, end) pairs of the ranges of `field` (UTF-16 code units, which
 *  are JavaScript string indices), clipped to `length`. */
function highlightsOf(ranges, field, length) {
  if (!ranges) return [];
  return ranges
    .filter((r) => r.field === field && r.start < length)
    .map((r) => [r.start, Math.min(length, r.start + r.length)]);
}

function marked(text, spans) {
  if (!spans.length) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of spans) { out += `${text.slice(at, s)}«${text.slice(s, e)}»`; at = e; }
  return out + text.slice(at);
}

/**
 * @param {object} row a visibleRows item
 * @param {{id: string, matches?: object[]}} options `id` the TreeItem id;
 *   `matches` the filter's ranges for this item
 * @returns {{id, itemId, kind, label, highlights, description, collapsible, icon, tooltip, contextValue, emphasis}}
 */
function describeItem(row, { id, matches } = {}) {
  const d = {
    id: id ?? row.id,
    itemId: row.id,
    kind: row.kind,
    label: row.title,
    highlights: highlightsOf(matches, 'title', row.title.length),
    description: '',
    collapsible: 'none',
    icon: null,
    tooltip: '',
    contextValue: row.kind,
    emphasis: false,
  };
  if (row.kind === 'group') {
    if (row.badge) d.label = `${row.title} ${row.badge}`;
    d.description = `${row.activeCount}/${row.rowCount}`;
    d.collapsible = row.childCount > 0 ? (row.expanded ? 'expanded' : 'collapsed') : 'none';
    d.tooltip = `${d.label}: ${row.activeCount} of ${row.rowCount} active`;
  } else {
    d.emphasis = !!row.emphasis;
    d.icon = d.emphasis ? ICONS.emphasis : row.active ? ICONS.active : ICONS.inactive;
    if (row.detail) d.description = oneLine(row.detail);
    const detailSpans = row.detail ? highlightsOf(matches, 'detail', row.detail.length) : [];
    d.tooltip = row.detail ? `${row.title}\n${marked(row.detail, detailSpans)}` : row.title;
    if (d.emphasis) d.contextValue = 'row.emphasis';
  }
  return d;
}

/** Whether two versions of an item look the same in the view (its
 *  open/closed state aside, which the view tracks itself): a refresh is
 *  needed only when they do not. Filter highlights are compared apart. */
function sameLook(a, b) {
  if (a === b) return true;
  if (!a || !b || a.kind !== b.kind || a.title !== b.title || a.detail !== b.detail) return false;
  if (a.kind === 'group') {
    return a.badge === b.badge && a.activeCount === b.activeCount && a.rowCount === b.rowCount
      && (a.childCount > 0) === (b.childCount > 0);
  }
  return !!a.active === !!b.active && !!a.emphasis === !!b.emphasis;
}

module.exports = { describeItem, sameLook, oneLine, ICONS };
