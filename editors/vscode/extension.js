'use strict';
// VS Code extension: an "Outline (outline-server)" view in the Explorer
// showing the outline of the active YAML group file, driven by
// outline-server. This file only wires lib/ (which does not import
// `vscode`) to the vscode API: the TreeDataProvider, TreeView.reveal,
// commands, documents and editors, diagnostics, progress and messages.
const vscode = require('vscode');
const { OutlineClient, ErrorCodes, serverArgs } = require('./lib/client');
const { OutlineSession } = require('./lib/session');
const { DocumentSync } = require('./lib/document-sync');
const { OutlineTreeModel } = require('./lib/tree-model');
const { friendlyMessage, invalidText, fileName } = require('./lib/messages');

const VIEW = 'outlineServer.pane';
const SECTION = 'outlineServer';
/** An operation still running after this long gets a notification with a Cancel button. */
const SLOW_MS = 800;

/** Whether a document is followed when its editor becomes active: a YAML or
 *  JSON file with a top-level `groups` key near its start. */
function looksLikeOutline(doc) {
  if (!doc || doc.uri.scheme === 'output' || doc.uri.scheme === 'vscode') return false;
  if (!(doc.languageId === 'yaml' || doc.languageId === 'json' || /\.(ya?ml|json)$/i.test(doc.fileName || ''))) return false;
  const lines = Math.min(doc.lineCount, 400);
  for (let i = 0; i < lines; i++) {
    if (/^(\s*\{)?\s*"?groups"?\s*:/.test(doc.lineAt(i).text)) return true;
  }
  return false;
}

function config() { return vscode.workspace.getConfiguration(SECTION); }

class OutlineExtension {
  constructor(context) {
    this.context = context;
    this.client = null;
    this.pane = null;
    this.output = vscode.window.createOutputChannel('outline-server');
    this.diagnostics = vscode.languages.createDiagnosticCollection('outline');
    this.changed = new vscode.EventEmitter();
    this.followTimer = null;
    this.followGeneration = 0;
    this.jumpedTo = null;
    this.operations = new Map(); // kind -> CancellationTokenSource of the running request
    this.work = new Set(); // promises of handlers still running (see whenIdle)

    const provider = {
      onDidChangeTreeData: this.changed.event,
      getChildren: (element) => this.track(this.getChildren(element)),
      getTreeItem: (element) => this.getTreeItem(element),
      getParent: (element) => (this.pane ? this.pane.model.parent(element) : undefined),
    };
    this.view = vscode.window.createTreeView(VIEW, { treeDataProvider: provider, showCollapseAll: false });
    this.view.message = 'Open a YAML group file to see its outline.';

    const command = (name, fn) => vscode.commands.registerCommand(`${SECTION}.${name}`, (...args) => this.track(fn(...args)));
    context.subscriptions.push(
      this.output, this.diagnostics, this.view, this.changed,
      this.view.onDidExpandElement((e) => this.track(this.viewToggled(e.element, true))),
      this.view.onDidCollapseElement((e) => this.track(this.viewToggled(e.element, false))),
      command('open', () => this.openCommand()),
      command('expandAll', () => this.operation('expandAll', 'Expanding every group', (p, token) => p.session.expandAll({ token }))),
      command('collapseAll', () => this.operation('collapseAll', 'Collapsing every group', (p, token) => p.session.collapseAll({ token }))),
      command('filter', () => this.askFilter()),
      command('clearFilter', () => this.setFilter('')),
      command('expandSiblings', (element) => this.expandSiblings(element)),
      command('toggle', (element) => this.toggle(element)),
      command('goToSource', (element, options) => this.goToSource(element, options)),
      command('goToItem', () => this.goToItem()),
      command('restartServer', () => this.restartServer()),
      command('showLog', () => this.output.show(true)),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && looksLikeOutline(editor.document)) this.track(this.openPane(editor.document));
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => this.selectionChanged(e)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        const pane = this.pane;
        if (!pane || e.contentChanges.length === 0 || !this.isPaneDoc(pane, e.document)) return;
        pane.sync.onChange(e.contentChanges, !e.document.isDirty);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => { if (this.pane && this.isPaneDoc(this.pane, doc)) this.pane.sync.onSaved(); }),
      vscode.workspace.onDidCloseTextDocument((doc) => { if (this.pane && doc === this.pane.doc) this.closePane('The file was closed.'); }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.server`)) this.output.appendLine('The server settings changed: run "Outline: Restart the server" to use them.');
      }),
      { dispose: () => this.dispose() },
    );
  }

  // ---------------------------------------------------------------- server

  serverCommand() {
    const c = config();
    return {
      command: c.get('server.path') || process.env.OUTLINE_SERVER || 'outline-server',
      args: serverArgs(c.get('server.args') || []),
    };
  }

  /** The running server, started once (concurrent callers share the start). */
  getClient() {
    if (this.client && this.client.running && this.client.serverInfo) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.startClient().finally(() => { this.starting = null; });
    }
    return this.starting;
  }

  async startClient() {
    const { command, args } = this.serverCommand();
    const trace = config().get('trace.server') || 'off';
    this.output.appendLine(`Starting ${command} ${args.join(' ')}`);
    const client = new OutlineClient(command, args, {
      trace: trace === 'off' ? null : (line) => this.output.appendLine(trace === 'verbose' ? line : line.slice(0, 200)),
    });
    this.client = client;
    client.on('stderr', (text) => this.output.append(text));
    client.on('exit', ({ code, signal, error, expected }) => {
      // A server that could not be started is reported by whoever started it.
      if (expected || this.client !== client || error) return;
      const last = client.stderr.trim().split('\n').pop() || '';
      const why = `outline-server stopped (${signal || `exit status ${code}`})${last ? `: ${last}` : ''}.`;
      this.output.appendLine(why);
      const pane = this.pane;
      if (pane && pane.session.client === client) {
        pane.session.state = 'closed';
        pane.closedMessage = `${why} Run "Outline: Restart the server".`;
        this.updateView(pane);
      }
      vscode.window.showErrorMessage(why, 'Restart', 'Show Log').then((choice) => {
        if (choice === 'Restart') this.restartServer();
        else if (choice === 'Show Log') this.output.show(true);
      });
    });
    await client.initialize('vscode-outline-pane', this.context.extension ? this.context.extension.packageJSON.version : undefined);
    this.output.appendLine(`${client.serverInfo.name} ${client.serverInfo.version}`);
    return client;
  }

  async restartServer() {
    const target = this.pane && (this.pane.doc || this.pane.vuri);
    await this.closePane();
    if (this.client) { const c = this.client; this.client = null; await c.stop().catch(() => c.kill()); }
    if (target) await this.openPane(target, { explicit: true });
  }

  // ---------------------------------------------------------------- panes

  /** "Outline: Show the outline of this file": the active editor's file,
   *  or, without one, a file chosen in a dialog (a file too large for VS
   *  Code to hand to extensions is opened by the server alone). */
  async openCommand() {
    const editor = vscode.window.activeTextEditor;
    if (editor) return this.openPane(editor.document, { explicit: true });
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Show its outline',
      filters: { 'Outline files': ['yaml', 'yml', 'json'] },
    });
    if (picked && picked[0]) return this.openPane(picked[0], { explicit: true });
    return undefined;
  }

  /** Whether `doc` is the buffer of `pane` (adopted when the pane was
   *  opened from a file before any editor had it). */
  isPaneDoc(pane, doc) {
    if (pane.doc) return doc === pane.doc;
    if (doc.uri.toString() !== pane.uri) return false;
    pane.doc = doc;
    return true;
  }

  /** Opens the pane of a document, or of a file (a Uri) without a buffer.
   *  One open at a time: a new one cancels the open under way. */
  openPane(target, options = {}) {
    const key = target && (target.uri || target).toString();
    this.openTarget = key;
    if (this.pane && this.pane.uri !== key && this.operations.has('open')) this.operations.get('open').cancel();
    // Only the latest of the opens asked for meanwhile is done.
    const run = (this.openChain || Promise.resolve()).then(() => (this.openTarget === key ? this.openPaneNow(target, options) : undefined));
    this.openChain = run.catch(() => {});
    return run;
  }

  async openPaneNow(target, { explicit = false } = {}) {
    if (!target) {
      if (explicit) vscode.window.showInformationMessage('Open a YAML group file first, then run "Outline: Show the outline of this file".');
      return;
    }
    const isUri = target instanceof vscode.Uri;
    const doc = isUri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString()) : target;
    const vuri = isUri ? target : target.uri;
    if (this.pane && this.pane.uri === vuri.toString() && this.pane.session.state !== 'closed') return this.pane.ready;
    await this.closePane();
    let client;
    try {
      client = await this.getClient();
    } catch (err) {
      this.view.message = friendlyMessage(err);
      vscode.window.showErrorMessage(friendlyMessage(err), 'Show Log').then((c) => c && this.output.show(true));
      return;
    }
    const uri = vuri.toString();
    const session = new OutlineSession(client, uri);
    const sync = new DocumentSync(session, {
      uri,
      isFile: vuri.scheme === 'file',
      isDirty: () => !!(pane.doc && pane.doc.isDirty),
      getText: () => {
        if (!pane.doc) throw new Error(`${fileName(uri)} has no buffer`);
        return pane.doc.getText();
      },
    }, { debounceMs: config().get('debounceMs') ?? 150 });
    this.paneCount = (this.paneCount || 0) + 1;
    const model = new OutlineTreeModel(session, { prefix: `${this.paneCount}:` });
    const pane = { doc, uri, vuri, session, sync, model, expanding: new Map() };
    this.pane = pane;
    session.on('settled', (rec) => { if (this.pane === pane) this.settled(pane, rec); });
    session.on('log', (line) => this.output.appendLine(`${fileName(uri)}: ${line}`));
    session.on('fetchError', (err) => this.showError(err, pane));
    session.on('outlineChanged', () => { if (this.pane === pane) this.showDiagnostics(pane, session.diagnostics); });
    sync.on('diagnostics', (list) => { if (this.pane === pane) this.showDiagnostics(pane, list); });
    sync.on('invalid', () => this.updateView(pane));
    sync.on('error', (err) => this.showError(err, pane));
    sync.on('warning', (text) => vscode.window.showWarningMessage(text));
    sync.on('log', (line) => this.output.appendLine(`${fileName(uri)}: ${line}`));

    this.updateView(pane);
    pane.ready = this.withCancel('open', `Opening the outline of ${fileName(uri)}`, async (token, progress) => {
      let last = 0;
      await sync.attach({
        token,
        onProgress: (v) => {
          if (typeof v.percentage === 'number') { progress.report({ increment: v.percentage - last }); last = v.percentage; }
        },
      });
    }).then(() => {
      // The rows are drawn on the session's 'settled', which the open emits.
      if (this.pane === pane) this.showDiagnostics(pane, session.diagnostics);
    }, (err) => {
      if (this.pane !== pane) return;
      if (err.code === ErrorCodes.InvalidOutline) {
        this.showDiagnostics(pane, session.diagnostics);
      } else if (err.code === ErrorCodes.RequestCancelled) {
        this.closePane(`Opening ${fileName(uri)} was cancelled. Run "Outline: Show the outline of this file" to open it.`);
        return;
      } else {
        pane.closedMessage = friendlyMessage(err, { uri });
        this.showError(err, pane);
      }
      this.updateView(pane);
      this.changed.fire(undefined);
    });
    return pane.ready;
  }

  async closePane(message) {
    const pane = this.pane;
    if (!pane) return;
    this.pane = null;
    for (const source of this.operations.values()) source.cancel();
    pane.sync.dispose();
    this.diagnostics.delete(pane.vuri);
    this.view.description = undefined;
    this.setFiltered(false);
    this.view.message = message || 'Open a YAML group file to see its outline.';
    this.changed.fire(undefined);
    await pane.session.close();
  }

  // ---------------------------------------------------------------- the tree

  async getChildren(element) {
    const pane = this.pane;
    if (!pane) return [];
    try {
      await pane.ready;
      if (this.pane !== pane || !pane.session.isOpen) return [];
      if (element) {
        const row = pane.model.row(element);
        if (!row) return [];
        // The view asks for children of a group it shows open: the server
        // follows the view.
        pane.model.viewToggled(element, true);
        if (row.kind === 'group' && !row.expanded) await this.expandFromView(pane, element);
      }
      await pane.session.settled();
      return pane.model.children(element);
    } catch (err) {
      this.showError(err, pane);
      return [];
    }
  }

  getTreeItem(element) {
    const pane = this.pane;
    const d = pane && pane.model.item(element);
    if (!d) {
      const gone = new vscode.TreeItem('…', vscode.TreeItemCollapsibleState.None);
      gone.id = `${element.id}#gone`;
      return gone;
    }
    const label = d.highlights.length ? { label: d.label, highlights: d.highlights } : d.label;
    const state = d.collapsible === 'expanded' ? vscode.TreeItemCollapsibleState.Expanded
      : d.collapsible === 'collapsed' ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(label, state);
    item.id = d.id;
    item.description = d.description;
    item.tooltip = d.tooltip;
    item.contextValue = d.contextValue;
    if (d.icon) item.iconPath = new vscode.ThemeIcon(d.icon.id, new vscode.ThemeColor(d.icon.color));
    if (d.kind === 'row') {
      item.command = { command: `${SECTION}.goToSource`, title: 'Go to Source', arguments: [element, { preserveFocus: true }] };
    }
    return item;
  }

  expandFromView(pane, element) {
    let p = pane.expanding.get(element.id);
    if (!p) {
      p = pane.session.toggle(element.id, { expanded: true }).finally(() => pane.expanding.delete(element.id));
      pane.expanding.set(element.id, p);
    }
    return p;
  }

  async viewToggled(element, expanded) {
    const pane = this.pane;
    if (!pane || !pane.session.isOpen) return;
    pane.model.viewToggled(element, expanded);
    const row = pane.model.row(element);
    if (!row || row.kind !== 'group') return;
    try {
      if (expanded && !row.expanded) await this.expandFromView(pane, element);
      if (!expanded && row.expanded) {
        await pane.session.toggle(element.id, { expanded: false });
        // The view keeps the children it had under a closed group: let it
        // forget them, so that opening it again lists them afresh.
        if (this.pane === pane && pane.session.row(element.id)) this.changed.fire([element]);
      }
    } catch (err) {
      this.showError(err, pane);
    }
  }

  settled(pane, rec) {
    const plan = pane.model.planRefresh(rec);
    if (plan.all) this.changed.fire(undefined);
    else if (plan.elements.length) this.changed.fire(plan.elements);
    this.updateView(pane);
  }

  /** The view's message (what is there instead of rows: opening, errors,
   *  no match) and description (the filter, errors under the last good
   *  outline). */
  updateView(pane) {
    if (this.pane !== pane) return;
    const s = pane.session;
    const name = fileName(pane.uri);
    let message;
    if (s.state === 'opening') message = `Opening ${name}…`;
    else if (s.state === 'invalid') message = invalidText(pane.uri, s.diagnostics);
    else if (s.state === 'closed') message = pane.closedMessage || `The outline of ${name} is not open.`;
    else if (s.query && s.list.length === 0) message = `No item matches "${s.query}". Press / to change the filter, or Escape to clear it.`;
    this.view.message = message;
    const errors = (pane.diagnostics || []).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    const parts = [];
    if (s.query) parts.push(`filter: ${s.query}`);
    if (s.state === 'open' && errors) parts.push(`${errors} error${errors > 1 ? 's' : ''}: showing the last good outline`);
    this.view.description = parts.length ? parts.join(' · ') : undefined;
    this.setFiltered(!!s.query);
  }

  /** The `outlineServer.filtered` context key: Esc clears the filter, and
   *  the title bar shows "Clear the filter", only while there is one. */
  setFiltered(on) {
    if (this.filtered === on) return;
    this.filtered = on;
    vscode.commands.executeCommand('setContext', 'outlineServer.filtered', on);
  }

  // ---------------------------------------------------------------- commands

  /** Runs `fn(token, progress)`; a second call of the same kind cancels the
   *  first (its request gets $/cancelRequest). Still running after a
   *  moment, it shows a notification with a Cancel button. */
  withCancel(kind, title, fn) {
    const previous = this.operations.get(kind);
    if (previous) previous.cancel();
    const source = new vscode.CancellationTokenSource();
    this.operations.set(kind, source);
    let done = false;
    let reporter = { report: () => {} };
    const reports = [];
    const work = Promise.resolve().then(() => fn(source.token, { report: (v) => { reports.push(v); reporter.report(v); } }));
    const timer = setTimeout(() => {
      if (done) return;
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
        reporter = progress;
        for (const v of reports) progress.report(v);
        token.onCancellationRequested(() => source.cancel());
        return work.catch(() => {});
      });
    }, config().get('progressDelayMs', SLOW_MS));
    return work.finally(() => {
      done = true;
      clearTimeout(timer);
      if (this.operations.get(kind) === source) this.operations.delete(kind);
      source.dispose();
    });
  }

  /** Runs a request on the pane's outline (cancellable, errors shown in
   *  words). The item selected before keeps the selection afterwards, or
   *  its nearest visible group when it was hidden: groups whose state the
   *  server changed get new TreeItem ids, which drops VS Code's selection. */
  async operation(kind, title, fn, { action } = {}) {
    const pane = this.pane;
    if (!pane) { vscode.window.showInformationMessage('No outline is shown: open a YAML group file first.'); return undefined; }
    const selected = this.view.selection[0];
    const path = selected ? pane.model.path(selected) : [];
    try {
      await pane.ready;
      if (!pane.session.isOpen) { vscode.window.showInformationMessage(this.view.message || 'The outline is not loaded.'); return undefined; }
      const result = await this.withCancel(kind, title, (token) => fn(pane, token));
      if (path.length && this.pane === pane) {
        const keep = path.find((id) => pane.session.row(id));
        if (keep) await this.view.reveal(pane.model.element(keep), { select: true, focus: false });
      }
      return result;
    } catch (err) {
      this.showError(err, pane, action || kind);
      return undefined;
    }
  }

  async askFilter() {
    const pane = this.pane;
    if (!pane) return;
    const query = await vscode.window.showInputBox({
      title: 'Filter the outline',
      prompt: 'Items whose title or detail contains this text, and their groups (case-insensitive). Empty clears the filter; Esc keeps it.',
      value: pane.session.query,
      valueSelection: [0, pane.session.query.length],
    });
    if (query === undefined) return; // Esc: the filter stays as it was
    await this.setFilter(query);
  }

  async setFilter(query) {
    const result = await this.operation('filter', `Filtering by "${query}"`, (pane, token) => pane.session.filter(query, { token }));
    const pane = this.pane;
    if (!result || !pane) return;
    this.updateView(pane);
    const first = result.matches && result.matches[0];
    if (first && pane.session.row(first.id)) {
      await this.view.reveal(pane.model.element(first.id), { select: true, focus: true });
    }
  }

  focusedElement(element) {
    if (element && element.id) return element;
    const pane = this.pane;
    if (!pane) return undefined;
    const selected = this.view.selection[0];
    if (selected && pane.session.row(selected.id)) return selected;
    const first = pane.session.rows[0];
    return first ? pane.model.element(first.id) : undefined;
  }

  async expandSiblings(element) {
    const from = this.focusedElement(element);
    if (!from) return;
    await this.operation('navigate', 'Expanding the sibling groups', (pane, token) => pane.session.navigate(from.id, 'expandSiblings', { token }), { action: 'expandSiblings' });
  }

  async toggle(element) {
    const target = this.focusedElement(element);
    const pane = this.pane;
    if (!target || !pane) return;
    const row = pane.session.row(target.id);
    const id = row && row.kind === 'group' ? row.id : row && row.parent;
    if (!id) return;
    await this.operation('toggle', 'Toggling a group', (p, token) => p.session.toggle(id, { token }));
    if (this.pane === pane && pane.session.row(id)) await this.view.reveal(pane.model.element(id), { select: true, focus: true });
  }

  /** Shows the item's source in its editor: the cursor at the start of its
   *  mapping, the line revealed. */
  async goToSource(element, { preserveFocus = false } = {}) {
    const target = this.focusedElement(element);
    const pane = this.pane;
    if (!target || !pane) return;
    try {
      await pane.sync.whenSynced();
      const range = await pane.session.rangeOf(target.id);
      if (!range || this.pane !== pane) return;
      const start = new vscode.Position(range.start.line, range.start.character);
      this.jumpedTo = start;
      await vscode.window.showTextDocument(pane.doc || pane.vuri, {
        selection: new vscode.Range(start, start),
        preserveFocus,
        preview: false,
      });
    } catch (err) {
      this.showError(err, pane);
    }
  }

  /** Type-ahead: the next visible item whose title starts with the text
   *  (the server's navigate {type}). */
  async goToItem() {
    const pane = this.pane;
    if (!pane) return;
    const text = await vscode.window.showInputBox({ title: 'Go to item', prompt: 'The next item whose title starts with this text' });
    if (!text) return;
    const from = this.focusedElement();
    if (!from) return;
    const result = await this.operation('navigate', 'Finding the item', (p, token) => p.session.navigate(from.id, { type: text }, { token }));
    if (result && this.pane === pane && pane.session.row(result.focus)) {
      await this.view.reveal(pane.model.element(result.focus), { select: true, focus: true });
    }
  }

  // ---------------------------------------------------------------- the editor side

  selectionChanged(e) {
    const pane = this.pane;
    if (!pane || !this.isPaneDoc(pane, e.textEditor.document) || !config().get('followCursor', true)) return;
    const position = e.selections[0] && e.selections[0].active;
    if (!position) return;
    if (this.jumpedTo && this.jumpedTo.line === position.line && this.jumpedTo.character === position.character) {
      this.jumpedTo = null;
      return; // the cursor is where a jump from the pane put it
    }
    clearTimeout(this.followTimer);
    const generation = ++this.followGeneration;
    this.followPending = true;
    this.followTimer = setTimeout(() => {
      this.followPending = false;
      this.track(this.follow(pane, { line: position.line, character: position.character }, generation));
    }, 200);
  }

  /** Highlights the item under the cursor: itemAtPosition, revealItem when
   *  it is hidden, then TreeView.reveal. Dropped when the cursor moved or
   *  the buffer changed meanwhile. */
  async follow(pane, position, generation) {
    try {
      await pane.sync.whenSynced();
      const bufferGeneration = pane.sync.generation;
      const stale = () => this.pane !== pane || generation !== this.followGeneration || bufferGeneration !== pane.sync.generation;
      if (stale() || !pane.session.isOpen) return;
      const hit = await pane.session.itemAtPosition(position);
      if (!hit || stale()) return;
      if (hit.index === null) {
        await pane.session.reveal(hit.id);
        if (stale()) return;
      }
      if (!pane.session.row(hit.id)) return; // hidden by the filter
      await this.view.reveal(pane.model.element(hit.id), { select: true, focus: false });
    } catch (err) {
      if (err.code !== ErrorCodes.UnknownSection) this.showError(err, pane);
    }
  }

  showDiagnostics(pane, list) {
    if (this.pane !== pane) return;
    const toPosition = (p) => new vscode.Position(p.line, p.character);
    pane.diagnostics = (list || []).map((d) => {
      const diag = new vscode.Diagnostic(new vscode.Range(toPosition(d.range.start), toPosition(d.range.end)), d.message,
        d.severity === 1 ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diag.source = d.source || 'outline';
      diag.code = d.code;
      return diag;
    });
    this.diagnostics.set(pane.vuri, pane.diagnostics);
    this.updateView(pane);
  }

  showError(err, pane, action) {
    const text = friendlyMessage(err, { uri: pane && pane.uri, action });
    this.output.appendLine(`${pane ? `${fileName(pane.uri)}: ` : ''}${err && err.message}`);
    if (!text) return;
    if (err && err.code === ErrorCodes.UnknownOutline && pane && this.pane === pane) {
      pane.session.state = 'closed';
      pane.sync.flushNow();
      return;
    }
    vscode.window.showErrorMessage(text);
  }

  dispose() {
    clearTimeout(this.followTimer);
    const pane = this.pane;
    this.pane = null;
    if (pane) pane.sync.dispose();
    const client = this.client;
    this.client = null;
    return client ? client.stop().catch(() => client.kill()) : undefined;
  }

  /** Keeps `promise` among the work under way until it ends. */
  track(promise) {
    const p = Promise.resolve(promise);
    this.work.add(p);
    const done = () => this.work.delete(p);
    p.then(done, done);
    return promise;
  }

  /** Resolves when no handler is running, no edit waits to go out, every
   *  row is fetched and no cursor follow is pending. */
  async whenIdle() {
    for (;;) {
      const pane = this.pane;
      if (this.work.size) await Promise.allSettled([...this.work]);
      else if (pane && !pane.sync._idle()) await pane.sync.whenSynced();
      else if (pane && pane.session._filling) await pane.session.settled().catch(() => {});
      else if (this.followPending) await new Promise((r) => setTimeout(r, 20));
      else return;
    }
  }

  /** For tests and the benchmark: the pane shown now, and a wait for quiet. */
  api() {
    return {
      pane: () => this.pane,
      client: () => this.client,
      view: this.view,
      whenIdle: () => this.whenIdle(),
      isIdle: () => this.work.size === 0 && !this.followPending
        && (!this.pane || (this.pane.sync._idle() && !this.pane.session._filling)),
    };
  }
}

let extension = null;

function activate(context) {
  extension = new OutlineExtension(context);
  const editor = vscode.window.activeTextEditor;
  if (editor && looksLikeOutline(editor.document)) extension.track(extension.openPane(editor.document));
  return extension.api();
}

async function deactivate() {
  if (extension) { const e = extension; extension = null; await e.dispose(); }
}

module.exports = { activate, deactivate, looksLikeOutline };
