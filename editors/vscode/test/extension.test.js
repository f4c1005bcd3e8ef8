'use strict';
// extension.js in the `vscode` stand-in, against the real server: keys are
// pressed as a user presses them (package.json's keybindings, else the
// tree's own keys), and after each step the whole view is compared with the
// pane drawn from the server's own visibleRows answers.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {
  start, settle, expectPane, waitFor, copyToTemp, root, VIEW,
} = require('./harness');

const contactsFile = path.join(root, 'examples', 'contacts.yaml');
const accordionFile = path.join(root, 'examples', 'accordion.yaml');
const contactsText = fs.readFileSync(contactsFile, 'utf8');

// Long messages are cut in the trace: their method is read off the start.
const methodOf = (line) => { const m = /^\{"jsonrpc":"2\.0",(?:"id":\d+,)?"method":"([^"]+)"/.exec(line); return m ? m[1] : undefined; };
const paramsOf = (line) => JSON.parse(line).params;

/** The line of `text` (0-based) that contains `needle`. */
function lineOf(doc, needle) {
  for (let i = 0; i < doc.lineCount; i++) if (doc.lineAt(i).text.includes(needle)) return i;
  throw new Error(`no line contains ${needle}`);
}

async function openContacts(t, { file = copyToTemp(contactsFile) } = {}) {
  const h = start();
  t.after(() => h.stop());
  const editor = await h.wb.openDocument(file);
  await settle(h);
  return { h, editor, doc: editor.document, file };
}

test('a file is opened by its uri, watched, and the view shows every row as the server lists them', async (t) => {
  const { h } = await openContacts(t);
  const open = h.sent().filter((l) => methodOf(l) === 'openOutline');
  assert.equal(open.length, 1);
  const params = paramsOf(open[0]);
  assert.equal(params.watch, true);
  assert.equal(params.text, undefined, 'the text of a saved file is not sent');
  const { text } = await expectPane(h, assert);
  assert.equal(text.split('\n')[0], '▾ My Friends  4/10');
  // The server was started as vscode-languageclient starts a stdio server.
  const client = h.api.client();
  assert.deepEqual(client.child.spawnargs.slice(-2), ['--stdio', `--clientProcessId=${process.pid}`]);
});

test('keys in the view: the tree\'s arrows, `*` on the keypad, expand and collapse all', async (t) => {
  const { h } = await openContacts(t);
  const { wb } = h;
  wb.focus(VIEW);
  await wb.press('home');
  assert.equal(h.view.selection[0].id, 'friends');
  assert.deepEqual(h.view.refreshes, [[null]], 'the open drew the tree once');
  // Left on an open group closes it (the tree's own key; the server follows).
  await wb.press('left');
  let { text } = await expectPane(h, assert);
  assert.ok(text.startsWith('▸ My Friends  4/10\n▸ Family ♥  2/5\n'), text);
  // Right opens it again, Down goes to its first row.
  await wb.press('right');
  await wb.press('right');
  assert.equal(h.view.selection[0].id, 'zhang-wei');
  await expectPane(h, assert);
  // The view's own toggles keep the group's TreeItem (same id, no refresh
  // of the whole tree): no flicker, the selection stays.
  assert.equal(h.view.roots[0].handle, '1/1:friends');
  assert.ok(h.view.refreshes.slice(1).every((r) => !r.includes(null)), JSON.stringify(h.view.refreshes));
  // End reaches the last row shown; `*` on the keypad opens every sibling
  // group of the focused one (the server's expandSiblings).
  await wb.press('end');
  assert.equal(h.view.selection[0].id, 'blacklist');
  const before = wb.executed.length;
  await wb.press('shift+8'); // `*` on a US keyboard only: not bound, a layout-dependent key
  assert.equal(wb.executed.length, before, 'shift+8 runs no command');
  await wb.press('numpad_multiply');
  ({ text } = await expectPane(h, assert));
  assert.match(text, /\n▾ Family ♥ {2}2\/5\n {2}● 妈妈 {2}记得周日回家吃饭\n/);
  assert.match(text, /\n▾ Colleagues {2}8\/13\n {2}▸ Engineering 12 {2}4\/6\n/);
  assert.match(text, /\n▾ Blacklist {2}0\/3\n {2}○ 推销电话 {2}已屏蔽\n/);
  assert.equal(h.view.selection[0].id, 'blacklist', 'the selection stays on the group');
  // The title bar's buttons: collapse all, then expand all (every level).
  await wb.commands.executeCommand('outlineServer.collapseAll');
  ({ text } = await expectPane(h, assert));
  assert.equal(text, '▸ My Friends  4/10\n▸ Family ♥  2/5\n▸ Colleagues  8/13\n▸ VIP ★  2/4\n▸ Blacklist  0/3\n');
  await wb.commands.executeCommand('outlineServer.expandAll');
  ({ text } = await expectPane(h, assert));
  assert.match(text, /\n {2}▾ Engineering 12 {2}4\/6\n {4}● David Kim/);
  // Type-to-navigate is the tree's own: "v" goes to VIP.
  await wb.press('v');
  assert.equal(h.view.selection[0].id, 'vip');
  // And the server's type-ahead, as a command.
  wb.answerInput('Fro');
  await wb.commands.executeCommand('outlineServer.goToItem');
  await settle(h);
  assert.equal(h.view.selection[0].id, 'reception');
  assert.deepEqual(wb.messages, []);
});

test('filter: `/` asks, Esc at the prompt keeps the filter, Escape in the view clears it, no match says so', async (t) => {
  const { h } = await openContacts(t);
  const { wb } = h;
  wb.focus(VIEW);
  wb.answerInput('lisbon');
  await wb.press('/');
  let { text } = await expectPane(h, assert);
  assert.equal(text, '▾ My Friends  4/10\n  ● Alice Chen  Working from Lisbon this week, back on the Tuesday flight if the strike is over\n');
  assert.equal(h.view.description, 'filter: lisbon');
  assert.equal(h.view.selection[0].id, 'alice-chen', 'the first match is selected');
  // A match in a title is highlighted.
  wb.answerInput('ali');
  await wb.press('ctrl+f');
  ({ text } = await expectPane(h, assert));
  assert.match(text, /● «Ali»ce Chen/);
  // Esc at the prompt: the filter stays.
  wb.answerInput(undefined);
  await wb.press('/');
  assert.equal(wb.inputBoxes.at(-1).value, 'ali');
  ({ text } = await expectPane(h, assert, { query: 'ali' }));
  assert.match(text, /«Ali»ce/);
  // A group's name shows the group and everything in it.
  wb.answerInput('family');
  await wb.press('/');
  ({ text } = await expectPane(h, assert));
  assert.equal(text.split('\n')[0], '▾ «Family» ♥  2/5');
  assert.equal(text.split('\n').length, 7, text);
  // No match: the view says so instead of going blank.
  wb.answerInput('no such contact');
  await wb.press('/');
  await expectPane(h, assert);
  assert.match(h.view.message, /No item matches "no such contact"/);
  // Escape in the view clears the filter (bound only while there is one).
  await wb.press('escape');
  ({ text } = await expectPane(h, assert, { query: '' }));
  assert.equal(h.view.message, undefined);
  assert.equal(h.view.description, undefined);
  assert.ok(text.startsWith('▾ My Friends  4/10\n  ● 张伟'), text);
  assert.equal(wb.context['outlineServer.filtered'], false);
});

test('an accordion: expand all and `*` say why they cannot, in words', async (t) => {
  const h = start();
  t.after(() => h.stop());
  await h.wb.openDocument(copyToTemp(accordionFile));
  await expectPane(h, assert);
  await h.wb.commands.executeCommand('outlineServer.expandAll');
  h.wb.focus(VIEW);
  await h.wb.press('home');
  await h.wb.press('numpad_multiply');
  await expectPane(h, assert);
  assert.equal(h.wb.messages.length, 2);
  for (const m of h.wb.messages) {
    assert.equal(m.severity, 'error');
    assert.match(m.text, /accordion.yaml is an accordion \(expansion: single\): one group is open at a time/);
    assert.doesNotMatch(m.text, /-326|expandAll is not allowed/);
  }
});

test('typing goes out as edits after a pause, without reading the buffer; revert re-syncs; edits go on', async (t) => {
  const { h, editor, doc } = await openContacts(t);
  const { wb } = h;
  const line = lineOf(doc, 'detail: Working from Lisbon');
  const column = doc.lineAt(line).text.indexOf('Working');
  wb.select(editor, new (require('./fake-vscode').Position)(line, column));
  await settle(h);
  const reads = doc.getTextCalls;
  const sentBefore = h.sent().length;
  wb.focus('editor');
  for (const ch of 'Porto, then ') {
    wb.type(ch);
    // The keystroke returned without a request: the change waits for the pause.
    assert.equal(h.sent().slice(sentBefore).filter((l) => methodOf(l) === 'changeOutline').length, 0);
  }
  let { text } = await expectPane(h, assert);
  assert.match(text, / {2}● Alice Chen {2}Porto, then Working from Lisbon/);
  const changes = h.sent().slice(sentBefore).filter((l) => methodOf(l) === 'changeOutline').map(paramsOf);
  assert.equal(changes.length, 1, 'one request for the burst');
  assert.equal(changes[0].text, undefined);
  assert.equal(changes[0].edits.length, 'Porto, then '.length);
  assert.deepEqual(changes[0].edits[0].range, { start: { line, character: column }, end: { line, character: column } });
  assert.equal(doc.getTextCalls, reads, 'the buffer was not read');

  // File: Revert File. The buffer is the file again: the outline follows.
  const beforeRevert = h.sent().length;
  doc.revert();
  ({ text } = await expectPane(h, assert));
  assert.doesNotMatch(text, /Porto/);
  const afterRevert = h.sent().slice(beforeRevert).filter((l) => /^(openOutline|changeOutline)$/.test(methodOf(l)));
  assert.equal(afterRevert.length, 1);
  assert.equal(methodOf(afterRevert[0]), 'openOutline', 'opened again from the file');
  assert.deepEqual(paramsOf(afterRevert[0]), { uri: doc.uri.toString(), watch: true }, 'by uri, without the text');
  // Edits after the revert apply to the text the server now has.
  wb.select(editor, new (require('./fake-vscode').Position)(line, doc.lineAt(line).text.indexOf('Lisbon')));
  wb.type('sunny ');
  ({ text } = await expectPane(h, assert));
  assert.match(text, /Working from sunny Lisbon/);
  assert.deepEqual(h.wb.messages, []);
  assert.doesNotMatch(h.wb.output.get('outline-server').lines.join(''), /refused/);
});

test('a file changed on disk under the pane; a broken file and its fix', async (t) => {
  const { h, doc, file } = await openContacts(t);
  const added = contactsText.replace('  - id: blacklist\n', '  - id: newcomers\n    title: Newcomers\n    expanded: true\n    rows:\n      - title: Zoe\n        detail: joined today\n  - id: blacklist\n');
  assert.notEqual(added, contactsText);
  fs.writeFileSync(file, added);
  // The server's watcher sees it (outlineChanged); VS Code reloads the clean buffer.
  await waitFor(async () => /\n▾ Newcomers {2}1\/1\n {2}● Zoe {2}joined today\n/.test(h.view.text()), { what: 'the new group in the view' });
  doc.revert();
  await expectPane(h, assert);
  // Broken on disk: the last good outline stays, the error is in Problems.
  fs.writeFileSync(file, added.replace('    title: Newcomers\n', '    title: Newcomers\n    title: Again\n'));
  doc.revert();
  await settle(h);
  await waitFor(() => (h.wb.diagnostics.get('outline').get(doc.uri) || []).length === 1, { what: 'the diagnostic' });
  const [d] = h.wb.diagnostics.get('outline').get(doc.uri);
  assert.equal(d.message, 'duplicate key "title"');
  assert.equal(d.range.start.line, lineOf(doc, 'title: Again'));
  assert.match(h.view.text(), /▾ Newcomers {2}1\/1/);
  assert.match(h.view.description, /1 error/);
  // Fixed: the outline follows and the error goes.
  fs.writeFileSync(file, contactsText);
  doc.revert();
  await waitFor(() => !/Newcomers/.test(h.view.text()), { what: 'the fixed file in the view' });
  await expectPane(h, assert);
  assert.deepEqual(h.wb.diagnostics.get('outline').get(doc.uri), []);
  assert.equal(h.view.description, undefined);
});

test('a pane opened on a broken file says why, and recovers when the file is fixed', async (t) => {
  const file = copyToTemp(contactsFile);
  fs.writeFileSync(file, contactsText.replace('    title: Family\n', '    title: Family\n    title: Again\n'));
  const h = start();
  t.after(() => h.stop());
  const { document: doc } = await h.wb.openDocument(file);
  await settle(h);
  assert.equal(h.view.text(), '');
  assert.match(h.view.message, /^contacts.yaml has an error \(duplicate key "title", line 72\)\. The outline appears when the file is fixed/);
  assert.equal(h.wb.diagnostics.get('outline').get(doc.uri).length, 1);
  assert.deepEqual(h.wb.messages, [], 'no pop-up for a file with errors');
  fs.writeFileSync(file, contactsText);
  doc.revert();
  await expectPane(h, assert);
  assert.equal(h.view.message, undefined);
  assert.deepEqual(h.wb.diagnostics.get('outline').get(doc.uri), []);
});

test('source and pane side by side: Enter and F12 jump to the source, the cursor is followed', async (t) => {
  const { h, editor, doc } = await openContacts(t);
  const { wb } = h;
  const { Position } = require('./fake-vscode');
  wb.focus(VIEW);
  await wb.press('home');
  await wb.press('down');
  await wb.press('down');
  assert.equal(h.view.selection[0].id, 'alice-chen');
  // Enter on a row: the editor shows its mapping; the focus stays in the view.
  await wb.press('enter');
  await settle(h);
  assert.equal(editor.selection.active.line, lineOf(doc, 'id: alice-chen'));
  assert.equal(editor.selection.active.character, 8);
  assert.equal(wb.context.focusedView, VIEW);
  // F12 on a group: to its mapping, and into the editor.
  await wb.press('end');
  await wb.press('f12');
  await settle(h);
  assert.equal(wb.activeTextEditor.selection.active.line, lineOf(doc, 'id: blacklist'));
  assert.equal(wb.focused, 'editor');
  // The cursor on a row of a closed group: the view opens the group and
  // selects the row.
  const line = lineOf(doc, 'title: Front Desk');
  wb.select(wb.activeTextEditor, new Position(line, 10));
  await waitFor(() => h.view.selection[0] && h.view.selection[0].id === 'reception', { what: 'the cursor\'s row selected' });
  const { text } = await expectPane(h, assert);
  assert.match(text, /\n▾ Colleagues {2}8\/13\n[^]*\n {2}● Front Desk {2}Visitors, parcels, meeting rooms\n/);
  assert.equal(wb.focused, 'editor', 'following the cursor leaves the focus in the editor');
  // The cursor inside a nested group's row.
  wb.select(wb.activeTextEditor, new Position(lineOf(doc, 'id: nina-petrova') + 1, 4));
  await waitFor(() => h.view.selection[0] && h.view.selection[0].id === 'nina-petrova', { what: 'the nested row selected' });
  await expectPane(h, assert);
});

test('the server stopping is said in words, and Restart brings the pane back', async (t) => {
  const { h } = await openContacts(t);
  const client = h.api.client();
  client.child.kill('SIGKILL');
  await waitFor(() => h.wb.messages.length === 1, { what: 'the error message' });
  const [m] = h.wb.messages;
  assert.equal(m.severity, 'error');
  assert.match(m.text, /^outline-server stopped \(SIGKILL\)/);
  assert.deepEqual(m.items, ['Restart', 'Show Log']);
  await h.wb.commands.executeCommand('outlineServer.restartServer');
  await expectPane(h, assert);
  assert.notEqual(h.api.client(), client);
});

test('a slow open can be cancelled: $/cancelRequest, and the view says so', async (t) => {
  const big = copyToTemp(contactsFile, 'big.yaml');
  // Many groups: long enough to open that the cancel arrives first.
  const groups = [];
  for (let g = 0; g < 4000; g++) {
    groups.push(`  - id: g${g}\n    title: Group ${g}\n    rows:\n${Array.from({ length: 10 }, (_, r) => `      - title: Row ${g}.${r}\n        detail: some words to read in row ${r} of group ${g}\n`).join('')}`);
  }
  fs.writeFileSync(big, `groups:\n${groups.join('')}`);
  const h = start({ configuration: { 'outlineServer.progressDelayMs': 0 } });
  t.after(() => h.stop());
  await h.wb.openDocument(big);
  await waitFor(() => h.wb.progress.length === 1, { what: 'the cancellable notification' });
  const [p] = h.wb.progress;
  assert.equal(p.options.cancellable, true);
  assert.match(p.options.title, /Opening the outline of big.yaml/);
  p.source.cancel();
  await settle(h);
  const sent = h.sent();
  const open = sent.map((l) => JSON.parse(l)).find((m) => m.method === 'openOutline');
  assert.deepEqual(sent.filter((l) => methodOf(l) === '$/cancelRequest').map(paramsOf), [{ id: open.id }]);
  assert.equal(h.api.pane(), null);
  assert.match(h.view.message, /^Opening big.yaml was cancelled/);
  assert.deepEqual(h.wb.messages, [], 'a cancel is not an error');
});

test('the pane follows the active editor; back on a file, the view shows the server\'s state, not what it remembered', async (t) => {
  const { h, file } = await openContacts(t);
  const { wb } = h;
  await wb.commands.executeCommand('outlineServer.expandAll');
  wb.focus(VIEW);
  await wb.press('home');
  await wb.press('left'); // the view now remembers "My Friends" closed
  await expectPane(h, assert);
  await wb.openDocument(copyToTemp(accordionFile));
  let { text } = await expectPane(h, assert);
  assert.match(text, /^▾ Account {2}3\/3\n/);
  // Back on contacts.yaml: a new pane, whose TreeItem ids VS Code has not
  // seen. Then the server's state changes under the view and the list is
  // fetched whole (as after a reconnect): the view shows the server's state.
  await wb.openDocument(file);
  await settle(h);
  await h.api.client().request('toggleSection', { uri: h.api.pane().uri, section: 'friends', expanded: true });
  await h.api.pane().session.resync();
  await settle(h);
  ({ text } = await expectPane(h, assert));
  assert.match(text, /^▾ My Friends {2}4\/10\n/);
  // A YAML file that is not an outline leaves the pane as it was.
  const other = copyToTemp(contactsFile, 'compose.yaml');
  fs.writeFileSync(other, 'services:\n  web:\n    image: nginx\n');
  await wb.openDocument(other);
  await settle(h);
  assert.equal(h.api.pane().uri.endsWith('/contacts.yaml'), true);
});

test('a server that cannot be started is said in words', async (t) => {
  const h = start({ configuration: { 'outlineServer.server.path': '/nonexistent/outline-server' } });
  t.after(() => h.stop());
  await h.wb.openDocument(copyToTemp(contactsFile));
  await settle(h);
  assert.equal(h.wb.messages.length, 1);
  assert.match(h.wb.messages[0].text, /^outline-server was not found\. Set "outlineServer.server.path" to its path, or put it on PATH\.$/);
  assert.equal(h.view.message, h.wb.messages[0].text);
});

test('a group closed in the view lists its rows afresh when opened again', async (t) => {
  const { h, doc, file } = await openContacts(t);
  const { wb } = h;
  wb.focus(VIEW);
  await wb.press('home');
  await wb.press('left');
  await expectPane(h, assert);
  // Inside the closed group, a row is renamed on disk (nothing shown changes).
  const changed = new Promise((resolve) => h.api.pane().session.once('outlineChanged', resolve));
  fs.writeFileSync(file, contactsText.replace('title: Alice Chen', 'title: Alice Chan'));
  await changed;
  doc.revert();
  await settle(h);
  await wb.press('right');
  const { text } = await expectPane(h, assert);
  assert.match(text, /\n {2}● Alice Chan {2}Working from Lisbon/);
});

test('a filter stays on while the file changes on disk: new matches are shown and highlighted', async (t) => {
  const { h, doc, file } = await openContacts(t);
  const { wb } = h;
  wb.focus(VIEW);
  wb.answerInput('zoe');
  await wb.press('/');
  await expectPane(h, assert);
  assert.match(h.view.message, /No item matches "zoe"/);
  const changed = new Promise((resolve) => h.api.pane().session.once('outlineChanged', resolve));
  fs.writeFileSync(file, contactsText.replace('title: Bob Li', 'title: Zoe Li'));
  await changed;
  await settle(h);
  const { text } = await expectPane(h, assert);
  assert.equal(text, '▾ My Friends  4/10\n  ○ «Zoe» Li\n');
  assert.equal(h.view.message, undefined);
  doc.revert();
  await expectPane(h, assert);
});

test('without an editor, "Show the outline" asks for a file and opens it by uri; F12 then opens its editor', async (t) => {
  const h = start();
  t.after(() => h.stop());
  const file = copyToTemp(contactsFile);
  h.wb.openDialogAnswers.push(file);
  await h.wb.commands.executeCommand('outlineServer.open');
  await expectPane(h, assert);
  assert.equal(h.wb.openDialogs.length, 1);
  const open = h.sent().filter((l) => methodOf(l) === 'openOutline').map(paramsOf);
  assert.deepEqual(open, [{ uri: h.api.pane().uri, watch: true, workDoneToken: open[0].workDoneToken }]);
  h.wb.focus(VIEW);
  await h.wb.press('end');
  await h.wb.press('f12');
  await settle(h);
  const editor = h.wb.activeTextEditor;
  assert.equal(editor.document.uri.fsPath, file);
  assert.equal(editor.selection.active.line, lineOf(editor.document, 'id: blacklist'));
  // The buffer is followed from then on.
  const line = lineOf(editor.document, 'title: Blacklist');
  h.wb.select(editor, new (require('./fake-vscode').Position)(line, editor.document.lineAt(line).text.indexOf('list')));
  h.wb.type('ed ');
  const { text } = await expectPane(h, assert);
  assert.match(text, /\n▸ Blacked list {2}0\/3\n$/);
});

test('switching editors quickly leaves one pane, on the last file, and no other outline open on the server', async (t) => {
  const h = start();
  t.after(() => h.stop());
  const files = [copyToTemp(contactsFile), copyToTemp(accordionFile), copyToTemp(contactsFile), copyToTemp(accordionFile)];
  for (const f of files) await h.wb.openDocument(f);
  const { text } = await expectPane(h, assert);
  assert.match(text, /^▾ Account {2}3\/3\n/);
  const sent = h.sent().map((l) => JSON.parse(l)).filter((m) => m.method === 'openOutline' || m.method === 'closeOutline');
  const open = new Set();
  for (const m of sent) { if (m.method === 'openOutline') open.add(m.params.uri); else open.delete(m.params.uri); }
  assert.deepEqual([...open], [h.api.pane().uri], 'every other outline opened was closed');
  assert.ok(sent.length < 2 * files.length - 1, 'files left behind meanwhile were not opened');
  assert.equal(h.api.client().listenerCount('outlineChanged'), 1, 'one session listens to the server');
});

test('a buffer with unsaved changes is sent whole once when its pane opens, then followed by edits', async (t) => {
  const { h, editor, doc, file } = await openContacts(t);
  const { wb } = h;
  const { Position } = require('./fake-vscode');
  await wb.openDocument(copyToTemp(accordionFile));
  await settle(h);
  // Typed while another file's pane is shown: nothing goes to the server.
  const line = lineOf(doc, 'title: Family');
  const before = h.sent().length;
  wb.select(editor, new Position(line, doc.lineAt(line).text.length));
  editor.document._replace(new (require('./fake-vscode').Range)(new Position(line, doc.lineAt(line).text.length), new Position(line, doc.lineAt(line).text.length)), ' Tree');
  await settle(h);
  assert.equal(h.sent().slice(before).filter((l) => methodOf(l) === 'changeOutline').length, 0);
  await wb.openDocument(file);
  let { text } = await expectPane(h, assert);
  assert.match(text, /\n▸ Family Tree ♥ {2}2\/5\n/);
  const open = h.sent().slice(before).filter((l) => methodOf(l) === 'openOutline').at(-1);
  assert.match(open, /^\{"jsonrpc":"2\.0","id":\d+,"method":"openOutline","params":\{"uri":"[^"]+","watch":true,"text":"# yaml-language-server/, 'the unsaved text, once');
  assert.deepEqual(h.api.pane().sync.sent, { edits: 0, texts: 1, reopens: 0 });
  const sentNow = h.sent().length;
  wb.select(wb.activeTextEditor, new Position(line, doc.lineAt(line).text.length));
  wb.type('!');
  ({ text } = await expectPane(h, assert));
  assert.match(text, /\n▸ Family Tree! ♥ {2}2\/5\n/);
  const after = h.sent().slice(sentNow).filter((l) => /^(openOutline|changeOutline)$/.test(methodOf(l))).map(paramsOf);
  assert.equal(after.length, 1);
  assert.equal(after[0].edits.length, 1);
});
