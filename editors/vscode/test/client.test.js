'use strict';
// node --test editors/vscode/test/ — drives the real server ($OUTLINE_SERVER).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { OutlineClient } = require('../lib/client');
const { OutlineSession } = require('../lib/session');
const { wrap, paneText } = require('../lib/pane');

const server = process.env.OUTLINE_SERVER;
const contacts = path.join(__dirname, '..', '..', '..', 'examples', 'contacts.yaml');
const text = fs.readFileSync(contacts, 'utf8');

test('the client module does not import vscode', () => {
  for (const f of ['client.js', 'session.js', 'pane.js']) {
    const src = fs.readFileSync(path.join(__dirname, '..', 'lib', f), 'utf8');
    assert.doesNotMatch(src, /require\(['"]vscode['"]\)/, f);
  }
});

test('wrap', () => {
  assert.deepEqual(wrap('aaa bbb ccc', 7), ['aaa bbb', 'ccc']);
  assert.deepEqual(wrap('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
  assert.deepEqual(wrap('一二三', 4), ['一二', '三']);
  assert.deepEqual(wrap('', 4), []);
});

test('pane against the real server', async (t) => {
  assert.ok(server, 'OUTLINE_SERVER is set');
  const client = new OutlineClient(server);
  t.after(() => client.kill());
  const init = await client.initialize();
  assert.equal(init.serverInfo.name, 'outline-server');

  const session = new OutlineSession(client, 'untitled:contacts.yaml');
  await session.open(text, 40);
  let pane = session.text();
  assert.ok(pane.startsWith('▾ My Friends  4/10\n  ● 张伟 / Zhang Wei\n'), pane);
  assert.match(pane, /\n {4}Working from Lisbon this week, back\n {4}on the Tuesday flight if the strike\n/);
  assert.deepEqual(session.children(null).map((r) => r.id), ['friends', 'family', 'colleagues', 'vip', 'blacklist']);

  // toggle Family, anchored
  const familyTop = session.row('family').top;
  const result = await session.toggle('family', { scrollTop: familyTop - 2 });
  assert.equal(result.id, 'family');
  assert.equal(result.expanded, true);
  assert.equal(result.scrollTop, familyTop - 2);
  pane = session.text();
  assert.match(pane, /\n▾ Family ♥ {2}2\/5\n {2}● 妈妈\n {4}记得周日回家吃饭\n {2}○ 爸爸\n/);
  assert.deepEqual(session.children('family').map((r) => r.id).slice(0, 2), ['mum', 'dad']);

  await session.collapseAll();
  assert.equal(session.text(), '▸ My Friends  4/10\n▸ Family ♥  2/5\n▸ Colleagues  8/13\n▸ VIP ★  2/4\n▸ Blacklist  0/3\n');
  await session.expandAll();
  assert.match(session.text(), /\n {2}▾ Engineering 12 {2}4\/6\n/);
  await session.collapseAll();
  await session.toggle('family');
  const good = session.text();

  // filter: only the matching rows and their groups; '' clears
  const before = session.text();
  const f = await session.filter('lisbon');
  assert.deepEqual(f.matches.map((m) => m.id), ['alice-chen']);
  const lines = session.text().split('\n').filter(Boolean);
  assert.equal(lines[0], '▾ My Friends  4/10');
  assert.equal(lines[1], '  ● Alice Chen');
  assert.ok(lines.slice(2).every((l) => l.startsWith('    ')), session.text());
  assert.equal(session.query, 'lisbon');
  await session.filter('');
  assert.equal(session.text(), before);

  // navigate: the server moves the focus and applies expansion changes
  await session.toggle('friends', { expanded: true });
  const ids = session.rows.map((r) => r.id);
  assert.equal((await session.navigate(ids[0], 'down')).focus, ids[1]);
  assert.equal((await session.navigate(ids[1], 'up')).focus, ids[0]);
  assert.equal((await session.navigate(ids[0], 'end')).focus, ids[ids.length - 1]);
  assert.equal((await session.navigate(ids[ids.length - 1], 'home')).focus, ids[0]);
  assert.equal((await session.navigate('zhang-wei', 'left')).focus, 'friends');
  const closed = await session.navigate('friends', 'left');
  assert.equal(closed.expanded, false);
  assert.ok(session.text().startsWith('▸ My Friends  4/10\n'));
  await session.navigate('friends', 'right');
  assert.ok(session.text().startsWith('▾ My Friends  4/10\n'));
  assert.equal((await session.navigate('friends', 'right')).focus, 'zhang-wei');
  await session.collapseAll();
  await session.navigate('friends', 'expandSiblings');
  assert.ok(session.children(null).every((g) => g.expanded));
  assert.equal(session.focus, 'friends');
  await session.collapseAll();
  await session.toggle('family');
  assert.equal(session.text(), good);

  // resize: re-layout
  await session.setWidth(60);
  assert.equal(session.width, 60);
  await session.setWidth(40);

  // a YAML error: diagnostics, last good outline kept
  const bad = text.replace('    title: Family\n', '    title: Family\n    title: Again\n');
  const change = await session.change(bad);
  assert.equal(change.applied, false);
  assert.equal(change.diagnostics.length, 1);
  const d = change.diagnostics[0];
  assert.equal(d.message, 'duplicate key "title"');
  assert.equal(d.severity, 1);
  assert.equal(d.range.start.line, bad.split('\n').indexOf('    title: Again'));
  assert.equal(d.range.start.character, 4);
  await session.refresh();
  assert.equal(session.text(), good);

  // restore
  const restored = await session.change(text);
  assert.equal(restored.applied, true);
  assert.deepEqual(restored.diagnostics, []);
  assert.equal(session.text(), good);

  await session.close();
  assert.equal(await client.stop(), 0);
});

test('pane text matches for a file: uri opened from disk', async (t) => {
  const client = new OutlineClient(server);
  t.after(() => client.kill());
  await client.initialize();
  const session = new OutlineSession(client, `file://${contacts}`);
  await session.open(undefined, 40);
  assert.equal(paneText(session.rows, 40).split('\n')[0], '▾ My Friends  4/10');
  assert.equal(await client.stop(), 0);
});
