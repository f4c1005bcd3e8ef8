'use strict';
// VS Code extension: an "Outline (outline-server)" view in the Explorer,
// showing the outline of the active YAML editor. The protocol work is in
// lib/ (no `vscode` import there).
const vscode = require('vscode');
const { OutlineClient } = require('./lib/client');
const { OutlineSession } = require('./lib/session');
const { headerLabel, wrap } = require('./lib/pane');

let client = null;
let session = null;
let sessionDoc = null;
let changeTimer = null;
const emitter = new vscode.EventEmitter();
let diagnostics;

function serverPath() {
  return vscode.workspace.getConfiguration('outlineServer').get('path') || process.env.OUTLINE_SERVER || 'outline-server';
}

async function getClient() {
  if (client && client.exitCode === null) return client;
  client = new OutlineClient(serverPath());
  client.on('outlineChanged', async (params) => {
    if (session && params.uri === session.uri) { await session.refresh(); emitter.fire(); }
  });
  await client.initialize('vscode-outline');
  return client;
}

function toDiagnostics(list) {
  return list.map((d) => {
    const range = new vscode.Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character);
    const diag = new vscode.Diagnostic(range, d.message,
      d.severity === 1 ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
    diag.source = d.source || 'outline';
    diag.code = d.code;
    return diag;
  });
}

function isYaml(doc) {
  return doc && (doc.languageId === 'yaml' || /\.(ya?ml|json)$/.test(doc.fileName));
}

async function showDocument(doc) {
  if (!isYaml(doc)) return;
  if (sessionDoc === doc && session) return;
  const c = await getClient();
  if (session) await session.close().catch(() => {});
  sessionDoc = doc;
  session = new OutlineSession(c, doc.uri.toString());
  const width = vscode.workspace.getConfiguration('outlineServer').get('width') || 40;
  try {
    await session.open(doc.getText(), width);
  } catch (err) {
    if (err.code !== -32011) vscode.window.showErrorMessage(`outline-server: ${err.message}`);
  }
  diagnostics.set(doc.uri, toDiagnostics(session.diagnostics));
  emitter.fire();
}

class OutlineTree {
  constructor() { this.onDidChangeTreeData = emitter.event; }

  getChildren(element) {
    if (!session) return [];
    return session.children(element ? element.id : null);
  }

  getParent(element) {
    return session && element.parent ? session.row(element.parent) : undefined;
  }

  getTreeItem(row) {
    if (row.kind === 'group') {
      const item = new vscode.TreeItem(headerLabel(row),
        row.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${session.version}:${row.id}`;
      item.contextValue = 'group';
      return item;
    }
    const item = new vscode.TreeItem(row.title, vscode.TreeItemCollapsibleState.None);
    item.id = `${session.version}:${row.id}`;
    item.iconPath = new vscode.ThemeIcon(row.active ? 'circle-filled' : 'circle-outline');
    if (row.detail) {
      item.description = row.detail;
      const width = Math.max(20, (session.width || 40) - 2 * row.depth - 2);
      item.tooltip = [row.title, ...wrap(row.detail, width)].join('\n');
    }
    return item;
  }
}

async function toggleTo(row, expanded) {
  if (!session || !row || row.kind !== 'group') return;
  await session.toggle(row.id, { expanded });
  emitter.fire();
}

function activate(context) {
  diagnostics = vscode.languages.createDiagnosticCollection('outline');
  const tree = new OutlineTree();
  const view = vscode.window.createTreeView('outlineServer.pane', { treeDataProvider: tree, showCollapseAll: false });
  context.subscriptions.push(diagnostics, view,
    view.onDidExpandElement((e) => toggleTo(e.element, true)),
    view.onDidCollapseElement((e) => toggleTo(e.element, false)),
    vscode.commands.registerCommand('outlineServer.open', () => showDocument(vscode.window.activeTextEditor?.document)),
    vscode.commands.registerCommand('outlineServer.toggle', (row) => {
      const target = row || view.selection[0];
      if (target) toggleTo(target.kind === 'group' ? target : session.row(target.parent));
    }),
    vscode.commands.registerCommand('outlineServer.expandAll', async () => { if (session) { await session.expandAll(); emitter.fire(); } }),
    vscode.commands.registerCommand('outlineServer.collapseAll', async () => { if (session) { await session.collapseAll(); emitter.fire(); } }),
    vscode.commands.registerCommand('outlineServer.filter', async () => {
      if (!session) return;
      const query = await vscode.window.showInputBox({ prompt: 'Filter the outline (empty clears)', value: session.query || '' });
      if (query === undefined) return;
      const result = await session.filter(query);
      emitter.fire();
      const first = result.matches[0] && session.row(result.matches[0].id);
      if (first) view.reveal(first, { select: true, focus: true });
    }),
    ...['down', 'up', 'right', 'left', 'home', 'end', 'expandSiblings'].map((key) =>
      vscode.commands.registerCommand(`outlineServer.navigate.${key}`, async () => {
        const from = view.selection[0];
        if (!session || !from) return;
        const result = await session.navigate(from.id, key);
        if (result.changes) emitter.fire();
        const row = session.row(result.focus);
        if (row) view.reveal(row, { select: true, focus: true });
      })),
    vscode.window.onDidChangeActiveTextEditor((ed) => ed && showDocument(ed.document)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== sessionDoc) return;
      clearTimeout(changeTimer);
      changeTimer = setTimeout(async () => {
        const result = await session.change(e.document.getText());
        diagnostics.set(e.document.uri, toDiagnostics(result.diagnostics));
        if (result.applied) emitter.fire();
      }, 150);
    }),
    { dispose: () => client && client.stop() });
  showDocument(vscode.window.activeTextEditor?.document);
}

async function deactivate() {
  if (client) await client.stop();
}

module.exports = { activate, deactivate };
