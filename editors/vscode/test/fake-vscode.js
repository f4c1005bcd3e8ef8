'use strict';
// A small stand-in for the `vscode` module, for testing extension.js
// without VS Code (not packaged in Debian; its own test harness downloads
// VS Code when it runs). It is written from VS Code's
// documented API and behaviour, not from its code, and models only what
// the extension uses:
//
// - commands and the keybindings of package.json: `press(key)` runs the
//   command a keybinding binds to that key when its `when` clause holds,
//   else the focused tree view handles the key as VS Code's trees do
//   (arrows, Home/End, Enter, Space, type-to-navigate);
// - a tree view that drives the TreeDataProvider as VS Code does: it asks
//   for the children of every node it shows open, keeps each node's
//   expanded state by TreeItem id across refreshes ("user state wins": a
//   known id keeps the state the user gave it, whatever collapsibleState
//   says), refreshes the elements onDidChangeTreeData names (a refreshed
//   node shown open lists its children again; one shown closed forgets
//   them), refuses two elements with the same id, and reveals through
//   getParent;
// - text documents and editors: edits fire onDidChangeTextDocument with
//   contentChanges, save and revert, selections;
// - input boxes, messages and progress the test answers or inspects.
//
// `workbench()` gives the current stand-in; `reset()` starts a new one.
const fs = require('node:fs');
const path = require('node:path');

// ------------------------------------------------------------------ basics

class Disposable {
  constructor(fn) { this._fn = fn; }
  static from(...ds) { return new Disposable(() => ds.forEach((d) => d && d.dispose && d.dispose())); }
  dispose() { if (this._fn) { const f = this._fn; this._fn = null; f(); } }
}

class EventEmitter {
  constructor() {
    this._listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const l = thisArg ? listener.bind(thisArg) : listener;
      this._listeners.add(l);
      const d = new Disposable(() => this._listeners.delete(l));
      if (disposables) disposables.push(d);
      return d;
    };
  }

  fire(data) { for (const l of [...this._listeners]) l(data); }

  dispose() { this._listeners.clear(); }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }

  cancel() {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this._emitter.fire();
  }

  dispose() { this._emitter.dispose(); }
}

class Position {
  constructor(line, character) {
    if (line < 0 || character < 0) throw new Error('Illegal argument: line and character must be non-negative');
    this.line = line;
    this.character = character;
  }

  isEqual(o) { return this.line === o.line && this.character === o.character; }

  isBefore(o) { return this.line < o.line || (this.line === o.line && this.character < o.character); }

  toJSON() { return { line: this.line, character: this.character }; }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') { a = new Position(a, b); b = new Position(c, d); }
    [this.start, this.end] = b.isBefore(a) ? [b, a] : [a, b];
  }

  get isEmpty() { return this.start.isEqual(this.end); }

  // As VS Code's Range does: a range serialises as [start, end].
  toJSON() { return [this.start, this.end]; }
}

class Selection extends Range {
  constructor(anchor, active) {
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
}

class Uri {
  constructor(scheme, p) { this.scheme = scheme; this.path = p; }

  static file(p) { return new Uri('file', path.resolve(p)); }

  static parse(s) {
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/[^/]*)?(.*)$/i.exec(s);
    return m ? new Uri(m[1], decodeURIComponent(m[2])) : new Uri('file', s);
  }

  get fsPath() { return this.path; }

  toString() {
    if (this.scheme === 'file') return `file://${this.path.split('/').map(encodeURIComponent).join('/')}`;
    return `${this.scheme}:${this.path}`;
  }
}

class ThemeIcon { constructor(id, color) { this.id = id; this.color = color; } }

class ThemeColor { constructor(id) { this.id = id; } }

const TreeItemCollapsibleState = Object.freeze({ None: 0, Collapsed: 1, Expanded: 2 });

class TreeItem {
  constructor(label, collapsibleState = TreeItemCollapsibleState.None) {
    this.label = label;
    this.collapsibleState = collapsibleState;
  }
}

const DiagnosticSeverity = Object.freeze({ Error: 0, Warning: 1, Information: 2, Hint: 3 });

class Diagnostic {
  constructor(range, message, severity = DiagnosticSeverity.Error) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

const ProgressLocation = Object.freeze({ SourceControl: 1, Window: 10, Notification: 15 });
const TextEditorRevealType = Object.freeze({ Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 });

// ------------------------------------------------------------------ documents

class TextDocument {
  constructor(wb, uri, text, languageId) {
    this._wb = wb;
    this.uri = uri;
    this.fileName = uri.fsPath;
    this.languageId = languageId;
    this._text = text;
    this._saved = text;
    this.version = 1;
    this.isClosed = false;
    this.getTextCalls = 0;
    this._lineStarts = null;
  }

  get isDirty() { return this._text !== this._saved; }

  get isUntitled() { return this.uri.scheme === 'untitled'; }

  getText() { this.getTextCalls++; return this._text; }

  _starts() {
    if (!this._lineStarts) {
      const s = [0];
      const t = this._text;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        if (c === 10) s.push(i + 1);
        else if (c === 13) { if (t.charCodeAt(i + 1) === 10) i++; s.push(i + 1); }
      }
      this._lineStarts = s;
    }
    return this._lineStarts;
  }

  get lineCount() { return this._starts().length; }

  lineAt(line) {
    const s = this._starts();
    const start = s[line];
    let end = line + 1 < s.length ? s[line + 1] : this._text.length;
    while (end > start && (this._text[end - 1] === '\n' || this._text[end - 1] === '\r')) end--;
    return { lineNumber: line, text: this._text.slice(start, end) };
  }

  offsetAt(pos) {
    const s = this._starts();
    const line = Math.min(pos.line, s.length - 1);
    const lineEnd = line + 1 < s.length ? s[line + 1] : this._text.length;
    return Math.min(s[line] + pos.character, lineEnd);
  }

  positionAt(offset) {
    const s = this._starts();
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (s[mid] <= offset) lo = mid; else hi = mid - 1; }
    return new Position(lo, offset - s[lo]);
  }

  /** Keeps the line starts through a replacement of [a, b) by `text`
   *  (texts with \n line breaks; else they are counted again). */
  _spliceLines(a, b, text) {
    const s = this._lineStarts;
    if (!s || /\r/.test(text) || /\r/.test(this._text.slice(Math.max(0, a - 1), a + text.length + 1))) { this._lineStarts = null; return; }
    let first = 0;
    while (first + 1 < s.length && s[first + 1] <= a) first++; // line of a (a walk: small edits near the cursor are the case)
    let last = first;
    while (last + 1 < s.length && s[last + 1] <= b) last++;
    const added = [];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) added.push(a + i + 1);
    const delta = text.length - (b - a);
    const tail = s.slice(last + 1).map((x) => x + delta);
    s.length = first + 1;
    s.push(...added);
    for (const x of tail) s.push(x);
  }

  /** Replaces `range` by `text`, as a keystroke or a paste does; fires
   *  onDidChangeTextDocument. Returns the position after the new text. */
  _replace(range, text, { reason } = {}) {
    const a = this.offsetAt(range.start);
    const b = this.offsetAt(range.end);
    const change = { range: new Range(this.positionAt(a), this.positionAt(b)), rangeOffset: a, rangeLength: b - a, text };
    this._text = this._text.slice(0, a) + text + this._text.slice(b);
    this._spliceLines(a, b, text);
    this.version++;
    const after = this.positionAt(a + text.length);
    this._wb._onDidChangeTextDocument.fire({ document: this, contentChanges: [change], reason });
    return after;
  }

  /** Saves to disk; VS Code then fires a change event without content
   *  changes (the dirty state moved) and onDidSaveTextDocument. */
  save() {
    if (this.uri.scheme !== 'file') throw new Error('only file: documents are saved here');
    fs.writeFileSync(this.uri.fsPath, this._text);
    const wasDirty = this.isDirty;
    this._saved = this._text;
    if (wasDirty) this._wb._onDidChangeTextDocument.fire({ document: this, contentChanges: [], reason: undefined });
    this._wb._onDidSaveTextDocument.fire(this);
  }

  /** "File: Revert File" (and what VS Code does when a clean file changes
   *  on disk): the text becomes the file's, as one change of the whole text. */
  revert() {
    const disk = fs.readFileSync(this.uri.fsPath, 'utf8');
    this._saved = disk;
    if (disk === this._text) return;
    const end = this.positionAt(this._text.length);
    const change = { range: new Range(new Position(0, 0), end), rangeOffset: 0, rangeLength: this._text.length, text: disk };
    this._text = disk;
    this._lineStarts = null;
    this.version++;
    this._wb._onDidChangeTextDocument.fire({ document: this, contentChanges: [change], reason: undefined });
  }
}

class TextEditor {
  constructor(document) {
    this.document = document;
    this.selections = [new Selection(new Position(0, 0), new Position(0, 0))];
  }

  get selection() { return this.selections[0]; }
}

// ------------------------------------------------------------------ when clauses

function evalWhen(expr, context) {
  if (!expr) return true;
  return expr.split('||').some((alt) => alt.split('&&').every((term) => {
    const t = term.trim();
    let m = /^(\S+)\s*(==|!=)\s*(\S+)$/.exec(t);
    if (m) {
      const v = String(context[m[1]] ?? '');
      const want = m[3].replace(/^'(.*)'$/, '$1');
      return m[2] === '==' ? v === want : v !== want;
    }
    m = /^!(\S+)$/.exec(t);
    if (m) return !context[m[1]];
    return !!context[t];
  }));
}

// ------------------------------------------------------------------ the tree view

const GLYPHS = { 'circle-filled': '●', 'circle-outline': '○', 'star-full': '★' };

class TreeNode {
  constructor(handle, element, item, parent) {
    this.handle = handle;
    this.element = element;
    this.item = item;
    this.parent = parent;
    this.children = null; // null: not listed (or forgotten)
    this.expanded = false;
  }

  get collapsible() { return (this.item.collapsibleState || 0) !== TreeItemCollapsibleState.None; }

  get depth() { let d = 0; let p = this.parent; while (p) { d++; p = p.parent; } return d; }

  get label() { const l = this.item.label; return typeof l === 'string' ? l : l ? l.label : ''; }
}

class FakeTreeView {
  constructor(wb, viewId, options) {
    this._wb = wb;
    this.id = viewId;
    this.provider = options.treeDataProvider;
    this.roots = null;
    this.byHandle = new Map();
    this.byElement = new Map();
    this.memory = new Map(); // handle -> expanded, as the user left it
    this.selectionNodes = [];
    this.focusNode = null;
    this.message = undefined;
    this.description = undefined;
    this.title = undefined;
    this._onDidExpandElement = new EventEmitter();
    this._onDidCollapseElement = new EventEmitter();
    this._onDidChangeSelection = new EventEmitter();
    this._onDidChangeVisibility = new EventEmitter();
    this.onDidExpandElement = this._onDidExpandElement.event;
    this.onDidCollapseElement = this._onDidCollapseElement.event;
    this.onDidChangeSelection = this._onDidChangeSelection.event;
    this.onDidChangeVisibility = this._onDidChangeVisibility.event;
    this.visible = true;
    this.queue = Promise.resolve();
    this.busy = 0;
    this.errors = [];
    this.refreshes = [];
    this.pendingRefresh = null;
    this.typed = '';
    if (this.provider.onDidChangeTreeData) {
      this._sub = this.provider.onDidChangeTreeData((e) => this._onData(e));
    }
    this._run(() => this._listRoots());
  }

  get selection() { return this.selectionNodes.map((n) => n.element); }

  dispose() { if (this._sub) this._sub.dispose(); this._wb.treeViews.delete(this.id); }

  /** Serialises the view's work, as VS Code queues its refreshes. */
  _run(fn) {
    this.busy++;
    const p = this.queue.then(fn).catch((err) => { this.errors.push(err); });
    this.queue = p.finally(() => { this.busy--; });
    return p;
  }

  _onData(e) {
    // Gathered and run together a moment later, as VS Code debounces them.
    if (!this.pendingRefresh) {
      this.pendingRefresh = [];
      this.busy++;
      setImmediate(() => {
        const elements = this.pendingRefresh;
        this.pendingRefresh = null;
        this.busy--;
        this.refreshes.push(elements);
        this._run(() => this._refresh(elements));
      });
    }
    if (Array.isArray(e)) this.pendingRefresh.push(...e);
    else this.pendingRefresh.push(e ?? null);
  }

  async _refresh(elements) {
    if (elements.some((e) => e === null)) { await this._listRoots(); return; }
    for (const el of new Set(elements)) {
      const node = this.byElement.get(el);
      if (!node || !this._attached(node)) continue;
      const item = await this.provider.getTreeItem(el);
      const handle = handleOf(item);
      if (handle !== node.handle) throw new Error(`refreshing ${node.handle} gave a TreeItem with another id (${handle})`);
      node.item = item;
      this._forget(node);
      if (node.expanded) await this._listChildren(node);
    }
  }

  _attached(node) {
    for (let n = node; n; n = n.parent) {
      const siblings = n.parent ? n.parent.children : this.roots;
      if (!siblings || !siblings.includes(n)) return false;
    }
    return true;
  }

  _forget(node) {
    if (node.children) for (const c of node.children) { this._forget(c); this._unregister(c); }
    node.children = null;
  }

  _unregister(node) {
    if (this.byHandle.get(node.handle) === node) this.byHandle.delete(node.handle);
    if (this.byElement.get(node.element) === node) this.byElement.delete(node.element);
  }

  async _listRoots() {
    const old = this.roots || [];
    old.forEach((n) => { this._forget(n); this._unregister(n); });
    this.roots = await this._fetch(null);
    for (const n of this.roots) if (n.expanded) await this._listChildren(n);
    this._fixSelection();
  }

  async _listChildren(node) {
    const children = await this._fetch(node);
    if (node.children) node.children.forEach((c) => { this._forget(c); this._unregister(c); });
    node.children = children;
    for (const c of children) if (c.expanded) await this._listChildren(c);
  }

  async _fetch(parent) {
    const elements = (await this.provider.getChildren(parent ? parent.element : undefined)) || [];
    const items = await Promise.all(elements.map((e) => this.provider.getTreeItem(e)));
    const seen = new Set();
    return elements.map((element, i) => {
      const item = items[i];
      const handle = handleOf(item);
      if (seen.has(handle)) throw new Error(`Element with id ${item.id} is already registered`);
      seen.add(handle);
      const node = new TreeNode(handle, element, item, parent);
      if (node.collapsible) {
        node.expanded = this.memory.has(handle) ? this.memory.get(handle) : item.collapsibleState === TreeItemCollapsibleState.Expanded;
        this.memory.set(handle, node.expanded);
      }
      this.byHandle.set(handle, node);
      this.byElement.set(element, node);
      return node;
    });
  }

  _fixSelection() {
    const alive = (n) => this.byHandle.get(n.handle) === n && this._attached(n);
    const remap = (n) => (n && !alive(n) ? this.byHandle.get(n.handle) : n);
    this.selectionNodes = this.selectionNodes.map(remap).filter(Boolean);
    this.focusNode = remap(this.focusNode) || null;
  }

  /** Resolves when the view has done everything asked of it so far. */
  async idle() {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (this.busy === 0 && !this.pendingRefresh) {
        await this.queue;
        if (this.busy === 0 && !this.pendingRefresh) return;
      }
    }
  }

  /** The nodes shown, in order. */
  visibleNodes() {
    const out = [];
    const walk = (nodes) => {
      for (const n of nodes || []) {
        out.push(n);
        if (n.expanded && n.children) walk(n.children);
      }
    };
    walk(this.roots);
    return out;
  }

  /** The view as text: one line per item shown, indented two spaces a
   *  level, "▾"/"▸" for open/closed groups, the item's icon, its label
   *  (highlights between « and ») and its description after two spaces. */
  text() {
    return this.visibleNodes().map((n) => renderNode(n)).join('\n') + (this.roots && this.roots.length ? '\n' : '');
  }

  // ---- what the user does

  _select(node, { focusView = true } = {}) {
    this.focusNode = node;
    const changed = this.selectionNodes.length !== 1 || this.selectionNodes[0] !== node;
    this.selectionNodes = node ? [node] : [];
    if (focusView) this._wb.focus(this.id);
    if (changed) this._onDidChangeSelection.fire({ selection: this.selection });
  }

  /** The user opens a node: its children are asked for, and
   *  onDidExpandElement fires (after the request for the children: the
   *  extension must not count on hearing of the expansion first). */
  expandNode(node) {
    if (!node.collapsible || node.expanded) return Promise.resolve();
    node.expanded = true;
    this.memory.set(node.handle, true);
    return this._run(async () => {
      const listing = node.expanded && !node.children && this._attached(node) ? this._listChildren(node) : null;
      this._onDidExpandElement.fire({ element: node.element });
      if (listing) await listing;
    });
  }

  collapseNode(node) {
    if (!node.collapsible || !node.expanded) return;
    node.expanded = false;
    this.memory.set(node.handle, false);
    if (this.focusNode && this._isUnder(this.focusNode, node)) this._select(node);
    this._onDidCollapseElement.fire({ element: node.element });
  }

  _isUnder(n, ancestor) { for (let p = n.parent; p; p = p.parent) if (p === ancestor) return true; return false; }

  /** A key pressed while the view has the focus and no keybinding took it. */
  async key(k) {
    const nodes = this.visibleNodes();
    const i = this.focusNode ? nodes.indexOf(this.focusNode) : -1;
    const node = i >= 0 ? nodes[i] : null;
    if (k !== 'typed') this.typed = '';
    switch (k) {
      case 'down': if (nodes.length) this._select(nodes[Math.min(nodes.length - 1, i + 1)]); return;
      case 'up': if (nodes.length) this._select(nodes[Math.max(0, i - 1)]); return;
      case 'home': if (nodes.length) this._select(nodes[0]); return;
      case 'end': if (nodes.length) this._select(nodes[nodes.length - 1]); return;
      case 'right':
        if (!node) return;
        if (node.collapsible && !node.expanded) await this.expandNode(node);
        else if (node.expanded && node.children && node.children.length) this._select(node.children[0]);
        return;
      case 'left':
        if (!node) return;
        if (node.collapsible && node.expanded) this.collapseNode(node);
        else if (node.parent) this._select(node.parent);
        return;
      case 'space':
        if (node && node.collapsible) { if (node.expanded) this.collapseNode(node); else await this.expandNode(node); }
        return;
      case 'enter':
        if (!node) return;
        if (node.item.command) {
          await this._wb.commands.executeCommand(node.item.command.command, ...(node.item.command.arguments || []));
        } else if (node.collapsible) {
          if (node.expanded) this.collapseNode(node); else await this.expandNode(node);
        }
        return;
      default:
        throw new Error(`the tree view has no handling of ${k}`);
    }
  }

  /** Type-to-navigate: the next shown item whose label starts with the
   *  characters typed so far. */
  type(ch) {
    this.typed += ch.toLowerCase();
    const nodes = this.visibleNodes();
    const from = this.focusNode ? nodes.indexOf(this.focusNode) : -1;
    for (let k = 1; k <= nodes.length; k++) {
      const n = nodes[(from + (this.typed.length > 1 ? 0 : 1) + k - 1 + nodes.length) % nodes.length];
      if (n.label.toLowerCase().startsWith(this.typed)) { this._select(n); return; }
    }
  }

  reveal(element, options = {}) {
    const select = options.select ?? true;
    const focus = options.focus ?? false;
    if (typeof this.provider.getParent !== 'function') return Promise.reject(new Error('getParent is required to reveal'));
    // After the refreshes asked for before it, as VS Code's reveal waits for them.
    return new Promise((r) => setImmediate(r)).then(() => this._run(async () => {
      const chain = [];
      for (let e = await this.provider.getParent(element); e; e = await this.provider.getParent(e)) chain.unshift(e);
      if (!this.roots) await this._listRoots();
      let siblings = this.roots;
      let node = null;
      for (const e of [...chain, element]) {
        node = await this._find(siblings, e);
        if (!node) throw new Error(`reveal: ${JSON.stringify(e)} is not among the children of its parent`);
        if (e !== element || options.expand) {
          if (node.collapsible && !node.expanded) {
            node.expanded = true;
            this.memory.set(node.handle, true);
            this._onDidExpandElement.fire({ element: node.element });
          }
          if (e !== element && !node.children) await this._listChildren(node);
          siblings = node.children;
        }
      }
      if (select) this._select(node, { focusView: focus });
      else if (focus) this._wb.focus(this.id);
      this.revealed = node;
    }));
  }

  async _find(nodes, element) {
    return (nodes || []).find((n) => n.element === element) || null;
  }
}

function handleOf(item) {
  if (!item.id) throw new Error('every TreeItem of this extension has an id');
  return `1/${item.id}`;
}

function renderNode(n) {
  const item = n.item;
  const indent = '  '.repeat(n.depth);
  const twistie = n.collapsible ? (n.expanded ? '▾ ' : '▸ ') : '';
  const icon = item.iconPath instanceof ThemeIcon ? `${GLYPHS[item.iconPath.id] || `$(${item.iconPath.id})`} ` : '';
  let label = typeof item.label === 'string' ? item.label : item.label.label;
  if (item.label && item.label.highlights) {
    let out = '';
    let at = 0;
    for (const [s, e] of item.label.highlights) { out += `${label.slice(at, s)}«${label.slice(s, e)}»`; at = e; }
    label = out + label.slice(at);
  }
  return `${indent}${twistie}${icon}${label}${item.description ? `  ${item.description}` : ''}`;
}

// ------------------------------------------------------------------ the workbench

class Workbench {
  constructor() {
    this.commandsRegistry = new Map();
    this.context = { focusedView: '' };
    this.keybindings = [];
    this.treeViews = new Map();
    this.documents = [];
    this.activeTextEditor = undefined;
    this.messages = [];
    this.inputAnswers = [];
    this.inputBoxes = [];
    this.openDialogs = [];
    this.openDialogAnswers = [];
    this.progress = [];
    this.output = new Map();
    this.diagnostics = new Map();
    this.configuration = {};
    this.executed = [];
    this._onDidChangeTextDocument = new EventEmitter();
    this._onDidSaveTextDocument = new EventEmitter();
    this._onDidCloseTextDocument = new EventEmitter();
    this._onDidChangeActiveTextEditor = new EventEmitter();
    this._onDidChangeTextEditorSelection = new EventEmitter();
    this._onDidChangeConfiguration = new EventEmitter();
    const wb = this;

    this.commands = {
      registerCommand(id, fn) {
        if (wb.commandsRegistry.has(id)) throw new Error(`command '${id}' already exists`);
        wb.commandsRegistry.set(id, fn);
        return new Disposable(() => wb.commandsRegistry.delete(id));
      },
      async executeCommand(id, ...args) {
        wb.executed.push(id);
        if (id === 'setContext') { wb.context[args[0]] = args[1]; return undefined; }
        const fn = wb.commandsRegistry.get(id);
        if (!fn) throw new Error(`command '${id}' not found`);
        return fn(...args);
      },
      getCommands: async () => [...wb.commandsRegistry.keys()],
    };

    const message = (severity) => (text, ...items) => {
      const entry = { severity, text, items: items.filter((i) => typeof i === 'string') };
      wb.messages.push(entry);
      return Promise.resolve(entry.answer);
    };

    this.window = {
      createTreeView: (id, options) => {
        const view = new FakeTreeView(wb, id, options);
        wb.treeViews.set(id, view);
        return view;
      },
      createOutputChannel: (name) => {
        const channel = {
          name,
          lines: [],
          append(t) { this.lines.push(t); },
          appendLine(t) { this.lines.push(`${t}\n`); },
          show() {},
          clear() { this.lines = []; },
          dispose() {},
        };
        wb.output.set(name, channel);
        return channel;
      },
      showErrorMessage: message('error'),
      showWarningMessage: message('warning'),
      showInformationMessage: message('info'),
      showOpenDialog: async (options = {}) => {
        wb.openDialogs.push(options);
        const answer = wb.openDialogAnswers.shift();
        return answer === undefined ? undefined : [Uri.file(answer)];
      },
      showInputBox: (options = {}) => new Promise((resolve) => {
        wb.inputBoxes.push(options);
        const answer = () => resolve(wb.inputAnswers.shift());
        if (wb.inputAnswers.length) answer();
        else wb._answerNextInput = answer;
      }),
      showTextDocument: async (doc, options = {}) => {
        let document = doc.document || doc;
        if (doc instanceof Uri) {
          document = wb.documents.find((d) => d.uri.toString() === doc.toString());
          if (!document) {
            document = new TextDocument(wb, doc, fs.readFileSync(doc.fsPath, 'utf8'), /\.json$/.test(doc.path) ? 'json' : 'yaml');
            wb.documents.push(document);
          }
        }
        let editor = wb.activeTextEditor && wb.activeTextEditor.document === document ? wb.activeTextEditor : null;
        if (!editor) {
          editor = new TextEditor(document);
          wb.activeTextEditor = editor;
          wb._onDidChangeActiveTextEditor.fire(editor);
        }
        if (!options.preserveFocus) wb.focus('editor');
        if (options.selection) wb.select(editor, options.selection.start, options.selection.end);
        return editor;
      },
      withProgress: async (options, task) => {
        const source = new CancellationTokenSource();
        const entry = { options, reports: [], source };
        wb.progress.push(entry);
        try {
          return await task({ report: (v) => entry.reports.push(v) }, source.token);
        } finally {
          entry.done = true;
        }
      },
      onDidChangeActiveTextEditor: this._onDidChangeActiveTextEditor.event,
      onDidChangeTextEditorSelection: this._onDidChangeTextEditorSelection.event,
      get activeTextEditor() { return wb.activeTextEditor; },
      get visibleTextEditors() { return wb.activeTextEditor ? [wb.activeTextEditor] : []; },
    };

    this.workspace = {
      getConfiguration: (section) => ({
        get: (key, fallback) => {
          const v = wb.configuration[`${section}.${key}`];
          return v === undefined ? fallback : v;
        },
      }),
      onDidChangeTextDocument: this._onDidChangeTextDocument.event,
      onDidSaveTextDocument: this._onDidSaveTextDocument.event,
      onDidCloseTextDocument: this._onDidCloseTextDocument.event,
      onDidChangeConfiguration: this._onDidChangeConfiguration.event,
      get textDocuments() { return wb.documents; },
    };

    this.languages = {
      createDiagnosticCollection: (name) => {
        const map = new Map();
        const collection = {
          name,
          set: (uri, list) => map.set(uri.toString(), list),
          delete: (uri) => map.delete(uri.toString()),
          get: (uri) => map.get(uri.toString()),
          clear: () => map.clear(),
          dispose: () => map.clear(),
        };
        wb.diagnostics.set(name, collection);
        return collection;
      },
    };
  }

  /** Loads the keybindings of an extension's package.json. */
  loadKeybindings(packageJson) {
    this.keybindings = (packageJson.contributes.keybindings || []).map((k) => ({ ...k, key: normalizeKey(k.key) }));
  }

  focus(what) { this.context.focusedView = what === 'editor' ? '' : what; this.focused = what; }

  /**
   * Presses a key as the user would: a keybinding whose key and `when`
   * match runs its command; otherwise the focused view handles it.
   * Keys are VS Code's names: "down", "numpad_multiply", "ctrl+f", "/", "a".
   */
  async press(key) {
    const k = normalizeKey(key);
    const binding = [...this.keybindings].reverse().find((b) => b.key === k && evalWhen(b.when, this.context));
    if (binding) return this.commands.executeCommand(binding.command, ...(binding.args !== undefined ? [binding.args] : []));
    const view = this.treeViews.get(this.context.focusedView);
    if (view) {
      if (['down', 'up', 'left', 'right', 'home', 'end', 'enter', 'space'].includes(k)) return view.key(k);
      if ([...k].length === 1) return view.type(k);
      return undefined; // an unbound key does nothing
    }
    if (this.focused === 'editor' && this.activeTextEditor && [...k].length === 1) return this.type(k);
    return undefined;
  }

  /** Answers the next input box (undefined: Esc). */
  answerInput(value) {
    this.inputAnswers.push(value);
    if (this._answerNextInput) { const a = this._answerNextInput; this._answerNextInput = null; a(); }
  }

  /** Opens a document from disk (or untitled with `text`) in the active editor. */
  async openDocument(target, { languageId = 'yaml', text } = {}) {
    const uri = typeof target === 'string' ? (target.includes(':') && !target.startsWith('/') ? Uri.parse(target) : Uri.file(target)) : target;
    let doc = this.documents.find((d) => d.uri.toString() === uri.toString());
    if (!doc) {
      doc = new TextDocument(this, uri, text ?? fs.readFileSync(uri.fsPath, 'utf8'), languageId);
      if (text !== undefined && uri.scheme === 'untitled') doc._saved = '';
      this.documents.push(doc);
    }
    const editor = new TextEditor(doc);
    this.activeTextEditor = editor;
    this.focus('editor');
    this._onDidChangeActiveTextEditor.fire(editor);
    return editor;
  }

  closeDocument(doc) {
    this.documents = this.documents.filter((d) => d !== doc);
    doc.isClosed = true;
    if (this.activeTextEditor && this.activeTextEditor.document === doc) {
      this.activeTextEditor = undefined;
      this._onDidChangeActiveTextEditor.fire(undefined);
    }
    this._onDidCloseTextDocument.fire(doc);
  }

  /** Moves the cursor of `editor` (fires onDidChangeTextEditorSelection). */
  select(editor, anchor, active = anchor) {
    editor.selections = [new Selection(anchor, active)];
    this._onDidChangeTextEditorSelection.fire({ textEditor: editor, selections: editor.selections, kind: 1 });
  }

  /** Types `text` at the cursor of the active editor, one character a
   *  keystroke, as a user does. */
  type(text) {
    const editor = this.activeTextEditor;
    for (const ch of text) {
      const pos = editor.selection.active;
      const after = editor.document._replace(new Range(pos, pos), ch === '\n' ? '\n' : ch);
      this.select(editor, after);
    }
  }

  /** The text a view shows (see FakeTreeView.text). */
  viewText(id) { return this.treeViews.get(id).text(); }
}

/** A key as package.json writes it: lower case, "+" between modifiers;
 *  a single character stays as it is. */
function normalizeKey(key) {
  const k = String(key);
  if ([...k].length === 1) return k;
  return k.toLowerCase().split('+').map((p) => p.trim()).join('+');
}

let current = new Workbench();

function reset() { current = new Workbench(); return current; }

function workbench() { return current; }

module.exports = {
  // the stand-in's own handles
  reset,
  workbench,
  renderNode,
  // the vscode API
  Disposable,
  EventEmitter,
  CancellationTokenSource,
  Position,
  Range,
  Selection,
  Uri,
  ThemeIcon,
  ThemeColor,
  TreeItem,
  TreeItemCollapsibleState,
  Diagnostic,
  DiagnosticSeverity,
  ProgressLocation,
  TextEditorRevealType,
  get commands() { return current.commands; },
  get window() { return current.window; },
  get workspace() { return current.workspace; },
  get languages() { return current.languages; },
};
