'use strict';
// The Debian package outline (65,119 items, 15 MB) in the view: every row
// is reachable, toggles and filters keep the list without fetching it
// again, typing in the buffer goes out as edits. Each costly step (the
// open, expand all, a whole-list comparison) is done once.
const test = require('node:test');
const assert = require('node:assert/strict');
const { Position } = require('./fake-vscode');
const {
  start, settle, expectPane, waitFor, debianOutline, copyToTemp, drawPane, VIEW,
} = require('./harness');

const methodOf = (line) => { try { return JSON.parse(line).method; } catch { return undefined; } };

const debian = debianOutline();

test('the Debian package outline: every row, toggles, filters and typing', { skip: debian.skip }, async (t) => {
  const file = copyToTemp(debian.file);
  const h = start();
  t.after(() => h.stop());
  const { wb, view } = h;
  const editor = await wb.openDocument(file);
  const doc = editor.document;
  await settle(h);
  const pane = h.api.pane();
  const client = h.api.client();

  // Closed, the top-level sections; one toggle, by the tree's own key.
  let { rows } = await expectPane(h, assert);
  assert.ok(rows.every((r) => r.depth === 0), 'the sections, closed');
  wb.focus(VIEW);
  await wb.press('home');
  await wb.press('right');
  ({ rows } = await expectPane(h, assert));
  assert.ok(rows[1].depth === 1 && rows[1].parent === rows[0].id);
  // Into its first subgroup, opened.
  await wb.press('right');
  await wb.press('right');
  ({ rows } = await expectPane(h, assert));
  assert.ok(rows[2].depth === 2 && rows[2].kind === 'row');

  // Typing in the buffer: edits, sent after the pause; the row follows.
  // (Before expand all: the server then compares fewer visible rows.)
  const row = rows.find((r) => r.kind === 'row' && r.detail);
  const range = await pane.session.rangeOf(row.id);
  let line = range.start.line;
  while (!doc.lineAt(line).text.includes('detail:')) line++;
  const column = doc.lineAt(line).text.indexOf('detail: "') + 'detail: "'.length;
  wb.select(editor, new Position(line, column));
  wb.focus('editor');
  const reads = doc.getTextCalls;
  const before = h.sent().length;
  wb.type('NEW ');
  assert.equal(h.sent().slice(before).filter((l) => methodOf(l) === 'changeOutline').length, 0, 'nothing sent while typing');
  await waitFor(() => view.text().includes(`${row.title}  NEW ${row.detail}`), { timeout: 90000, what: 'the edit in the view' });
  await settle(h);
  assert.equal(doc.getTextCalls, reads, 'the 15 MB buffer was not read');
  const change = h.sent().slice(before).filter((l) => methodOf(l) === 'changeOutline').map((l) => JSON.parse(l).params);
  assert.equal(change.length, 1);
  assert.equal(change[0].edits.length, 4);
  const i = pane.session.list.indexOf(row.id);
  const [now] = (await client.request('visibleRows', { uri: pane.uri, start: i, count: 1 })).rows;
  assert.equal(now.detail, `NEW ${row.detail}`);
  assert.ok(view.text().split('\n').includes(drawPane([now]).trimEnd()));
  wb.focus(VIEW);

  // Expand all: the whole list, and End reaches its last row.
  const fetchedBefore = h.sent().filter((l) => methodOf(l) === 'visibleRows').length;
  await wb.commands.executeCommand('outlineServer.expandAll');
  ({ rows } = await expectPane(h, assert));
  assert.equal(rows.length, 65119);
  const pages = h.sent().filter((l) => methodOf(l) === 'visibleRows').slice(fetchedBefore).map((l) => JSON.parse(l).params);
  assert.ok(pages.every((p) => p.count <= 10000), 'pages of at most 10,000 rows');
  await wb.press('end');
  assert.equal(view.selection[0].id, rows.at(-1).id);
  assert.equal(view.text().trimEnd().split('\n').at(-1), drawPane([rows.at(-1)]).trimEnd());

  // A toggle of a big group: the view follows, without the list fetched again.
  const lib = rows.find((r) => r.kind === 'group' && r.rowCount > 5000);
  const sentBefore = h.sent().length;
  await view.reveal(pane.model.element(lib.id), { select: true, focus: true });
  await wb.press('left');
  await settle(h);
  const toggleFetches = h.sent().slice(sentBefore).filter((l) => methodOf(l) === 'visibleRows').map((l) => JSON.parse(l).params);
  assert.deepEqual(toggleFetches, [{ uri: pane.uri, start: rows.indexOf(lib), count: 1 }], 'only the toggled header is fetched again');
  const shown = view.text().split('\n').length - 1;
  assert.equal(shown, pane.session.list.length);
  assert.equal(pane.session.list.length, 65119 - descendants(rows, lib));
  await wb.press('right');
  await settle(h);

  // Filter "lib": every match, the last one reachable.
  wb.answerInput('lib');
  await wb.press('/');
  await settle(h);
  const total = (await client.request('visibleRows', { uri: pane.uri, start: 0, count: 0 })).total;
  assert.ok(total > 10000, `filter lib shows ${total} items`);
  assert.equal(view.text().split('\n').length - 1, total);
  const [last] = (await client.request('visibleRows', { uri: pane.uri, start: total - 1, count: 1 })).rows;
  await wb.press('end');
  assert.equal(view.selection[0].id, last.id);

  // Filter by a group's name: the section and everything in it.
  const section = rows.find((r) => r.depth === 0 && r.rowCount < 300 && r.rowCount > 20);
  wb.answerInput(section.title);
  await wb.press('/');
  const shownSection = await expectPane(h, assert);
  assert.ok(shownSection.rows.some((r) => r.id === section.id));
  assert.ok(shownSection.rows.length >= section.rowCount);
});

/** How many items follow `group` inside it in the visible list. */
function descendants(rows, group) {
  const i = rows.indexOf(group);
  let j = i + 1;
  while (j < rows.length && rows[j].depth > group.depth) j++;
  return j - i - 1;
}
