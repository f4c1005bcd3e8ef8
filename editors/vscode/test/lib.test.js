'use strict';
// The modules under lib/ (no vscode): framing, the visible list, the
// session's list against the server's after every kind of change, and the
// buffer sync's edits and fallbacks, against the real server.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { EventEmitter } = require('node:events');
const { OutlineClient, FrameReader, serverArgs, CancellationTokenSource } = require('../lib/client');
const { VisibleList } = require('../lib/visible-list');
const { OutlineSession } = require('../lib/session');
const { DocumentSync } = require('../lib/document-sync');
const { friendlyMessage, invalidText } = require('../lib/messages');
const { describeItem } = require('../lib/items');
const { serverRows, copyToTemp, waitFor, root } = require('./harness');

const server = process.env.OUTLINE_SERVER;
const contactsFile = path.join(root, 'examples', 'contacts.yaml');
const contactsText = fs.readFileSync(contactsFile, 'utf8');
const accordionText = fs.readFileSync(path.join(root, 'examples', 'accordion.yaml'), 'utf8');

test('lib/ does not import vscode', () => {
  for (const f of fs.readdirSync(path.join(__dirname, '..', 'lib'))) {
    const src = fs.readFileSync(path.join(__dirname, '..', 'lib', f), 'utf8');
    assert.doesNotMatch(src, /require\(['"]vscode['"]\)/, f);
  }
});

test('frames: split anywhere, several in a chunk, header names in any case', () => {
  const got = [];
  const r = new FrameReader((body) => got.push(JSON.parse(body)));
  const frame = (obj, header = 'Content-Length') => {
    const body = Buffer.from(JSON.stringify(obj));
    return Buffer.concat([Buffer.from(`${header}: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n`), body]);
  };
  const all = Buffer.concat([frame({ a: '☀️ one' }), frame({ b: 2 }, 'content-length'), frame({ c: 'x'.repeat(70000) })]);
  for (let i = 0; i < all.length; i += 7) r.push(all.subarray(i, i + 7));
  assert.deepEqual(got.map((m) => Object.keys(m)[0]), ['a', 'b', 'c']);
  assert.equal(got[0].a, '☀️ one');
  assert.equal(got[2].c.length, 70000);
  assert.throws(() => new FrameReader(() => {}).push(Buffer.from('Content-Type: x\r\n\r\n{}')), /without Content-Length/);
});

test('serverArgs: the user\'s arguments, then --stdio and the client\'s pid', () => {
  assert.deepEqual(serverArgs(['--log-level', 'debug'], 42), ['--log-level', 'debug', '--stdio', '--clientProcessId=42']);
});

test('the visible list: changes, holes, runs, children', () => {
  const l = new VisibleList();
  l.reset(3);
  assert.deepEqual(l.holeRuns(), [{ start: 0, count: 3 }]);
  l.fill(0, [{ id: 'g', parent: null }, { id: 'a', parent: 'g' }, { id: 'h', parent: null }]);
  assert.equal(l.holeCount, 0);
  l.apply({ kind: 'insert', start: 3, count: 2 });
  assert.deepEqual(l.apply({ kind: 'delete', start: 1, count: 1 }).map((r) => r.id), ['a']);
  assert.deepEqual(l.holeRuns(), [{ start: 2, count: 2 }]);
  l.fill(2, [{ id: 'b', parent: 'h' }, { id: 'c', parent: 'h' }]);
  assert.deepEqual(l.children(null).map((r) => r.id), ['g', 'h']);
  assert.deepEqual(l.children('h').map((r) => r.id), ['b', 'c']);
  assert.equal(l.indexOf('c'), 3);
  l.punch(0);
  assert.equal(l.get('g'), undefined);
  assert.equal(l.indexOf('c'), 3);
  // Runs closer than the gap are fetched as one; long runs in pages.
  const m = new VisibleList();
  m.reset(25);
  m.fill(0, Array.from({ length: 25 }, (_, i) => ({ id: `r${i}` })));
  m.punch(2); m.punch(5); m.punch(20);
  assert.deepEqual(m.holeRuns(10000, 3), [{ start: 2, count: 4 }, { start: 20, count: 1 }]);
  const n = new VisibleList();
  n.reset(25);
  assert.deepEqual(n.holeRuns(10), [{ start: 0, count: 10 }, { start: 10, count: 10 }, { start: 20, count: 5 }]);
  assert.throws(() => n.apply({ kind: 'delete', start: 20, count: 6 }), /past the end/);
  assert.throws(() => n.apply({ kind: 'insert', start: 26, count: 1 }), /past the end/);
});

test('the visible list: holes found where they are after any mix of changes (2,000 seeded steps)', () => {
  const l = new VisibleList();
  l.reset(50);
  let next = 0;
  const fresh = (n) => Array.from({ length: n }, () => ({ id: `r${next++}`, parent: null, depth: 0 }));
  let seed = 99;
  const rnd = (k) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; };
  for (let step = 0; step < 2000; step++) {
    const n = l.length;
    const op = rnd(4);
    if (op === 0) l.apply({ kind: 'insert', start: rnd(n + 1), count: rnd(5) });
    else if (op === 1 && n) { const s0 = rnd(n); l.apply({ kind: 'delete', start: s0, count: rnd(Math.min(5, n - s0) + 1) }); }
    else if (op === 2 && n) { const i = rnd(n); if (l.rows[i]) l.punch(i); }
    else {
      const runs = l.holeRuns(7, rnd(3));
      const brute = l.rows.reduce((k, r) => k + (r === null ? 1 : 0), 0);
      assert.equal(l.holeCount, brute);
      const covered = new Set();
      for (const r of runs) { assert.ok(r.count <= 7); for (let i = r.start; i < r.start + r.count; i++) covered.add(i); }
      l.rows.forEach((r, i) => { if (r === null) assert.ok(covered.has(i), `hole ${i} in a run (step ${step})`); });
      if (rnd(2)) for (const r of runs) l.fill(r.start, fresh(r.count));
    }
    for (const [id, r] of l.byId) assert.equal(r.id, id);
  }
});

/** The session's list against a fresh fetch of every row: equal item by
 *  item (the positional fields `index` and `top` aside). */
async function assertListIsServers(client, session, what) {
  const { rows } = await serverRows(client, session.uri);
  const strip = ({ index, top, ...rest }) => rest;
  const mine = session.rows.map(strip);
  const theirs = rows.map(strip);
  if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
    const i = mine.findIndex((r, k) => JSON.stringify(r) !== JSON.stringify(theirs[k]));
    assert.fail(`after ${what}: item ${i} is ${JSON.stringify(mine[i])}, the server has ${JSON.stringify(theirs[i])} (${mine.length} and ${theirs.length} items)`);
  }
}

async function newClient(t) {
  assert.ok(server, 'OUTLINE_SERVER is set');
  const client = new OutlineClient(server, serverArgs());
  t.after(() => client.kill());
  await client.initialize('lib-test');
  return client;
}

for (const [name, text] of [['contacts', contactsText], ['accordion', accordionText]]) {
  test(`${name}: after every kind of change the kept list is the server's (200 seeded steps)`, async (t) => {
    const client = await newClient(t);
    const session = new OutlineSession(client, `untitled:${name}`);
    await session.open({ text });
    await assertListIsServers(client, session, 'open');
    let seed = 20240601;
    const rnd = (k) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; };
    const queries = ['', 'li', 'family', 'zzz', 'a', '', 'wang', 'account', ''];
    const ids = text.match(/- id: "?[\w-]+/g).map((s) => s.replace(/- id: "?/, ''));
    const kinds = new Set();
    for (let step = 0; step < 200; step++) {
      const groups = session.rows.filter((r) => r.kind === 'group');
      const op = rnd(9);
      let what = '';
      try {
        if (op === 0 && groups.length) { const g = groups[rnd(groups.length)]; what = `toggle ${g.id}`; await session.toggle(g.id); }
        else if (op === 1) { what = 'expandAll'; await session.expandAll(); }
        else if (op === 2) { what = 'collapseAll'; await session.collapseAll(); }
        else if (op === 3) { const q = queries[rnd(queries.length)]; what = `filter ${q}`; await session.filter(q); }
        else if (op === 4 && session.rows.length) {
          const r = session.rows[rnd(session.rows.length)];
          const k = ['right', 'left', 'expandSiblings', 'down'][rnd(4)];
          what = `navigate ${r.id} ${k}`;
          await session.navigate(r.id, k);
        } else if (op === 5) { const id = ids[rnd(ids.length)]; what = `reveal ${id}`; await session.reveal(id); }
        else if (op === 6) {
          what = 'change';
          await session.change({ text: text.replace(/title: (\w+)/, `title: $1 ${rnd(5)}`).replace('active: false', 'active: true') });
        } else if (op === 7) { what = 'change back'; await session.change({ text }); }
        else if (op === 8 && groups.length) { const g = groups[rnd(groups.length)]; what = `open ${g.id}`; await session.toggle(g.id, { expanded: true }); }
        else continue;
      } catch (err) {
        // expandAll and expandSiblings are refused in an accordion.
        assert.equal(err.code, -32602, `${what}: ${err.message}`);
        assert.equal(name, 'accordion');
      }
      kinds.add(what.split(' ')[0]);
      await assertListIsServers(client, session, what);
    }
    assert.ok(kinds.size >= 8, [...kinds].join(' '));
  });
}

test('a page answered at another version is asked for again', async () => {
  // A scripted server: the first page comes back at a version the list has
  // moved past (an outlineChanged came first).
  const client = new EventEmitter();
  const calls = [];
  let version = 1;
  const rowsAt = (v) => [{ index: 0, id: `g${v}`, kind: 'group', depth: 0, parent: null }];
  client.request = (method, params, { onResult } = {}) => {
    calls.push([method, params]);
    let result;
    if (method === 'openOutline') result = { version: 1, total: 1, diagnostics: [] };
    else if (method === 'visibleRows') {
      if (calls.filter((c) => c[0] === 'visibleRows').length === 1) {
        // The server moved to version 2 before answering this page.
        version = 2;
        client.emit('outlineChanged', { uri: 'untitled:x', version: 2, changes: [{ kind: 'delete', start: 0, count: 1 }, { kind: 'insert', start: 0, count: 1 }], diagnostics: [] });
      }
      result = { version, total: 1, rows: rowsAt(version) };
    }
    return new Promise((resolve) => setImmediate(() => { if (onResult) onResult(result); resolve(result); }));
  };
  const session = new OutlineSession(client, 'untitled:x');
  await session.open({ text: '' });
  assert.deepEqual(session.rows.map((r) => r.id), ['g2']);
  assert.equal(calls.filter((c) => c[0] === 'visibleRows').length, 2);
});

test('the buffer sync: edits keep the server\'s text; a drift sends the whole text once', async (t) => {
  const client = await newClient(t);
  const session = new OutlineSession(client, 'untitled:sync');
  let text = contactsText;
  const doc = { uri: session.uri, isFile: false, isDirty: () => true, getText: () => text };
  const sync = new DocumentSync(session, doc, { debounceMs: 5 });
  t.after(() => sync.dispose());
  await sync.attach();
  const lineStarts = () => { const s = [0]; for (let i = 0; i < text.length; i++) if (text[i] === '\n') s.push(i + 1); return s; };
  const pos = (offset) => { const s = lineStarts(); let l = 0; while (l + 1 < s.length && s[l + 1] <= offset) l++; return { line: l, character: offset - s[l] }; };
  const edit = (from, to, insert) => {
    const change = { range: { start: pos(from), end: pos(to) }, text: insert };
    text = text.slice(0, from) + insert + text.slice(to);
    sync.onChange([change], false);
  };
  // Renames, with a character outside the BMP (two UTF-16 units) before them.
  let at = text.indexOf('title: Alice Chen') + 'title: '.length;
  edit(at, at, '🌴 ');
  at = text.indexOf('title: Family') + 'title: '.length;
  edit(at, at + 'Family'.length, 'Famille');
  await sync.whenSynced();
  assert.deepEqual(sync.sent, { edits: 1, texts: 1, reopens: 0 });
  const check = new OutlineSession(client, 'untitled:check');
  await check.open({ text });
  await session.expandAll();
  await check.expandAll();
  assert.deepEqual(session.rows.map((r) => r.title), check.rows.map((r) => r.title));
  assert.ok(session.rows.some((r) => r.title === '🌴 Alice Chen'));
  // An edit the server cannot place (the buffer and the server drifted).
  sync.onChange([{ range: { start: { line: 9999, character: 0 }, end: { line: 9999, character: 0 } }, text: 'x' }], false);
  await waitFor(() => sync.sent.texts === 2, { what: 'the whole text sent after the refused edit' });
  await sync.whenSynced();
  await check.change({ text });
  await check.expandAll();
  assert.deepEqual(session.rows.map((r) => r.title), check.rows.map((r) => r.title));
});

test('the buffer sync: a file changed on disk while the buffer has unsaved changes gets the buffer back', async (t) => {
  const client = await newClient(t);
  const file = copyToTemp(contactsFile);
  const uri = `file://${file}`;
  const session = new OutlineSession(client, uri);
  let text = contactsText;
  let dirty = false;
  const doc = { uri, isFile: true, isDirty: () => dirty, getText: () => text };
  const sync = new DocumentSync(session, doc, { debounceMs: 5 });
  t.after(() => sync.dispose());
  await sync.attach();
  assert.deepEqual(sync.sent, { edits: 0, texts: 0, reopens: 1 });
  // The buffer changes (not saved), then the file changes under it.
  text = contactsText.replace('title: Family', 'title: Buffer');
  dirty = true;
  const changed = new Promise((resolve) => session.once('outlineChanged', resolve));
  fs.writeFileSync(file, contactsText.replace('title: Family', 'title: Disk'));
  await changed;
  await waitFor(() => sync.sent.texts === 1, { what: 'the buffer sent whole' });
  await sync.whenSynced();
  assert.ok(session.rows.some((r) => r.title === 'Buffer'), session.rows.map((r) => r.title).join());
});

test('a request is cancelled by its token: $/cancelRequest, answered -32800', async (t) => {
  const client = await newClient(t);
  const groups = Array.from({ length: 3000 }, (_, g) => `  - title: G${g}\n    rows:\n${Array.from({ length: 10 }, (_, r) => `      - title: R${r}\n`).join('')}`).join('');
  const source = new CancellationTokenSource();
  const open = client.request('openOutline', { uri: 'untitled:big', text: `groups:\n${groups}` }, { token: source.token });
  source.cancel();
  await assert.rejects(open, (err) => err.code === -32800);
  await assert.rejects(client.request('visibleRows', { uri: 'untitled:big' }), (err) => err.code === -32010);
});

test('messages: words for the user, nothing for a cancel', () => {
  assert.equal(friendlyMessage({ code: -32800 }), null);
  assert.match(friendlyMessage({ code: -32602, method: 'expandAll', message: 'x' }, { uri: 'file:///a/faq.yaml' }),
    /^faq.yaml is an accordion \(expansion: single\)/);
  assert.match(friendlyMessage({ code: -32602, method: 'navigate', message: 'x' }, { uri: 'file:///a/faq.yaml', action: 'expandSiblings' }),
    /"Expand sibling groups" is not possible/);
  assert.equal(invalidText('file:///a/b%20c.yaml', [{ severity: 1, message: 'duplicate key "title"', range: { start: { line: 7, character: 4 } } }]),
    'b c.yaml has an error (duplicate key "title", line 8). The outline appears when the file is fixed; the Problems panel lists every error.');
  assert.match(friendlyMessage(Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' })), /not found. Set "outlineServer.server.path"/);
});

test('items: labels, descriptions, icons and highlights as the view shows them', () => {
  const group = describeItem({ id: 'f', kind: 'group', title: 'Family', badge: '♥', expanded: false, childCount: 5, rowCount: 5, activeCount: 2 }, { matches: [{ field: 'title', start: 0, length: 3 }] });
  assert.deepEqual([group.label, group.description, group.collapsible, group.highlights], ['Family ♥', '2/5', 'collapsed', [[0, 3]]]);
  const row = describeItem({ id: 'r', kind: 'row', title: '🌴 Sun', detail: 'a\nb', active: false, emphasis: true }, { matches: [{ field: 'title', start: 3, length: 3 }, { field: 'detail', start: 2, length: 1 }] });
  assert.deepEqual([row.label, row.description, row.icon.id, row.highlights, row.tooltip], ['🌴 Sun', 'a b', 'star-full', [[3, 6]], '🌴 Sun\na\n«b»']);
  const empty = describeItem({ id: 'e', kind: 'group', title: 'E', expanded: true, childCount: 0, rowCount: 0, activeCount: 0 });
  assert.equal(empty.collapsible, 'none');
});
