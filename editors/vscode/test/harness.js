'use strict';
// Runs extension.js against the `vscode` stand-in (fake-vscode.js) and the
// real server ($OUTLINE_SERVER), and draws the pane the server's answers
// call for, to compare with what the view shows.
const Module = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const fakePath = require.resolve('./fake-vscode');
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveVscode(request, ...rest) {
  if (request === 'vscode') return fakePath;
  return resolve.call(this, request, ...rest);
};
const fake = require('./fake-vscode');

const root = path.resolve(__dirname, '..', '..', '..');
const extensionDir = path.resolve(__dirname, '..');
const packageJson = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
const VIEW = 'outlineServer.pane';

/** A fresh workbench with the extension activated in it. */
function start({ configuration = {} } = {}) {
  const wb = fake.reset();
  wb.loadKeybindings(packageJson);
  wb.configuration = { 'outlineServer.trace.server': 'verbose', 'outlineServer.debounceMs': 100, ...configuration };
  for (const k of Object.keys(require.cache)) {
    if (k.startsWith(extensionDir) && !k.includes(`${path.sep}test${path.sep}`)) delete require.cache[k];
  }
  const ext = require(path.join(extensionDir, 'extension.js'));
  const context = { subscriptions: [], extension: { packageJSON: packageJson } };
  const api = ext.activate(context);
  const view = wb.treeViews.get(VIEW);
  return {
    wb,
    api,
    view,
    ext,
    async stop() {
      await ext.deactivate();
      for (const d of context.subscriptions) { try { d.dispose(); } catch { /* already */ } }
    },
    /** The JSON-RPC messages sent so far (from the trace in the output channel). */
    sent() {
      const out = wb.output.get('outline-server');
      return out.lines.join('').split('\n').filter((l) => l.startsWith('-> ')).map((l) => l.slice(3));
    },
  };
}

/** Waits until `condition()` is true (polling an event loop turn at a
 *  time), failing with `describe()` after a generous deadline. */
async function waitFor(condition, { timeout = 60000, what = 'the condition', describe } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    let last;
    try { if (await condition()) return; } catch (err) { last = err; }
    if (Date.now() > deadline) {
      const extra = describe ? `\n${await describe()}` : '';
      throw new Error(`timed out waiting for ${what}${last ? ` (${last.message})` : ''}${extra}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every visible row, asked of the server directly (pages of 10,000). */
async function serverRows(client, uri) {
  const head = await client.request('visibleRows', { uri, start: 0, count: 0 });
  const rows = [];
  for (let s = 0; s < head.total; s += 10000) {
    const page = await client.request('visibleRows', { uri, start: s, count: 10000 });
    if (page.version !== head.version) return serverRows(client, uri); // moved meanwhile: again
    rows.push(...page.rows);
  }
  return { rows, version: head.version };
}

function oneLine(t) { return t.replace(/\r\n|[\n\r\u2028\u2029]/g, ' '); }

/** Occurrences of `query` in `text`, case-insensitive, as [start, end). */
function occurrences(text, query) {
  if (!query) return [];
  const t = text.toLowerCase();
  const q = query.toLowerCase();
  const out = [];
  for (let i = t.indexOf(q); i >= 0; i = t.indexOf(q, i + q.length)) out.push([i, i + q.length]);
  return out;
}

/**
 * The pane the server's rows call for, drawn as the stand-in draws a tree
 * view (see FakeTreeView.text), from the rows alone: groups "▾ Title badge
 * active/rows", rows "●/○/★ title  detail", two spaces a level; with a
 * filter, the query's occurrences in the titles of the first 10,000
 * matching items between « and ».
 */
function drawPane(rows, { query = '' } = {}) {
  let matched = 0;
  const lines = rows.map((r) => {
    const indent = '  '.repeat(r.depth);
    const own = query && (occurrences(r.title, query).length || (r.detail && occurrences(r.detail, query).length));
    const marks = own && matched++ < 10000 ? occurrences(r.title, query) : [];
    let title = '';
    let at = 0;
    for (const [s, e] of marks) { title += `${r.title.slice(at, s)}«${r.title.slice(s, e)}»`; at = e; }
    title += r.title.slice(at);
    if (r.kind === 'group') {
      const twistie = r.childCount > 0 ? (r.expanded ? '▾ ' : '▸ ') : '';
      return `${indent}${twistie}${title}${r.badge ? ` ${r.badge}` : ''}  ${r.activeCount}/${r.rowCount}`;
    }
    const icon = r.emphasis ? '★' : r.active ? '●' : '○';
    return `${indent}${icon} ${title}${r.detail ? `  ${oneLine(r.detail)}` : ''}`;
  });
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The first lines where two texts differ, for a failure message. */
function diff(a, b, context = 2) {
  const x = a.split('\n');
  const y = b.split('\n');
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) {
      const from = Math.max(0, i - context);
      const show = (lines) => lines.slice(from, i + context + 1).map((l, k) => `${from + k + 1}: ${l}`).join('\n');
      return `first difference at line ${i + 1} (of ${x.length} and ${y.length}):\n--- view\n${show(x)}\n--- server\n${show(y)}`;
    }
  }
  return 'no difference';
}

const tempDirs = [];
process.on('exit', () => {
  for (const d of tempDirs) { try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* gone */ } }
});

/** A fresh temporary directory, removed when the process ends. */
function tempDir(prefix = 'outline-vscode-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** A copy of `file` in a fresh temporary directory (removed at exit). */
function copyToTemp(file, name = path.basename(file)) {
  const dir = tempDir();
  const to = path.join(dir, name);
  fs.copyFileSync(file, to);
  return to;
}

/** The Debian package outline: made by scripts/make-examples when missing;
 *  null (with the reason) where this machine has no package lists. */
function debianOutline() {
  const file = path.join(root, 'examples', 'generated', 'debian-packages.yaml');
  if (fs.existsSync(file)) return { file };
  const lists = fs.existsSync('/var/lib/apt/lists') && fs.readdirSync('/var/lib/apt/lists').some((f) => /_Packages/.test(f));
  if (!lists) return { skip: 'no apt package lists on this machine (run apt-get update), so no Debian package outline' };
  const r = require('node:child_process').spawnSync(path.join(root, 'scripts', 'make-examples'), [], { stdio: 'inherit' });
  if (r.status !== 0 || !fs.existsSync(file)) throw new Error(`scripts/make-examples failed (status ${r.status})`);
  return { file };
}

module.exports = { start, waitFor, serverRows, drawPane, diff, copyToTemp, tempDir, debianOutline, root, VIEW, fake };

/** Waits until the extension and the view are both quiet. */
async function settle(h) {
  for (;;) {
    await h.api.whenIdle();
    await h.view.idle();
    if (h.api.isIdle() && h.view.busy === 0 && !h.view.pendingRefresh) return;
  }
}

/** The view's text once quiet, and the pane drawn from the server's rows
 *  asked for now; fails with the first difference. */
async function expectPane(h, assert, { query } = {}) {
  await settle(h);
  const pane = h.api.pane();
  const { rows } = await serverRows(h.api.client(), pane.uri);
  const want = drawPane(rows, { query: query ?? pane.session.query });
  const got = h.view.text();
  if (got !== want) assert.fail(diff(got, want));
  assert.deepEqual(h.view.errors, [], 'the view met no error');
  return { text: got, rows };
}

module.exports.settle = settle;
module.exports.expectPane = expectPane;
