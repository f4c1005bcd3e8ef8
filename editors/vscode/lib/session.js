'use strict';
// One open outline on the server and its visible rows. No `vscode` import.
const { paneText, childrenOf } = require('./pane');

class OutlineSession {
  /** @param {import('./client').OutlineClient} client */
  constructor(client, uri) {
    this.client = client;
    this.uri = uri;
    this.rows = [];
    this.width = 80;
    this.isOpen = false;
    this.diagnostics = [];
  }

  /** openOutline (text optional for file: uris); on YAML errors, rethrows
   *  with `diagnostics` kept on the session. */
  async open(text, width = this.width) {
    const params = { uri: this.uri };
    if (text !== undefined) params.text = text;
    try {
      const result = await this.client.request('openOutline', params);
      this.isOpen = true;
      this.diagnostics = result.diagnostics;
    } catch (err) {
      this.diagnostics = (err.data && err.data.diagnostics) || [];
      throw err;
    }
    this.width = null;
    await this.setWidth(width);
    return this.diagnostics;
  }

  async setWidth(width) {
    if (width === this.width) return;
    this.width = width;
    await this.client.request('setLayout', { uri: this.uri, width, padding: { left: 2 } });
    await this.refresh();
  }

  async refresh() {
    const result = await this.client.request('visibleRows', { uri: this.uri });
    this.rows = result.rows;
    this.version = result.version;
    return this.rows;
  }

  /** Toggles a group (or sets it with `expanded`); returns the server's
   *  answer, whose scrollTop keeps the group in place. */
  async toggle(id, { expanded, scrollTop, viewportHeight } = {}) {
    const params = { uri: this.uri, section: id };
    if (expanded !== undefined) params.expanded = expanded;
    if (scrollTop !== undefined) params.scrollTop = scrollTop;
    if (viewportHeight !== undefined) params.viewportHeight = viewportHeight;
    const result = await this.client.request('toggleSection', params);
    await this.refresh();
    return result;
  }

  /** filterOutline: only rows containing `query` (case-insensitive) and
   *  their groups stay; '' clears. Keeps `query` and `matches`. */
  async filter(query) {
    const result = await this.client.request('filterOutline', { uri: this.uri, query });
    this.query = query || undefined;
    this.matches = result.matches;
    await this.refresh();
    return result;
  }

  /** navigate from the item `from` with `key` ('down', 'up', 'right',
   *  'left', 'home', 'end', 'pageDown', 'pageUp', 'expandSiblings' or
   *  {type: text}); refreshes when the expansion changed. Returns the
   *  server's answer; `focus` is the new focused id. */
  async navigate(from, key) {
    const result = await this.client.request('navigate', { uri: this.uri, from, key });
    this.focus = result.focus;
    if (result.changes) await this.refresh();
    return result;
  }

  async expandAll() { const r = await this.client.request('expandAll', { uri: this.uri }); await this.refresh(); return r; }

  async collapseAll() { const r = await this.client.request('collapseAll', { uri: this.uri }); await this.refresh(); return r; }

  /** Sends new text. Returns {applied, diagnostics}; the rows stay the last
   *  good outline when the text has errors. */
  async change(text) {
    if (!this.isOpen) {
      try {
        await this.open(text, this.width || 80);
        return { applied: true, diagnostics: this.diagnostics };
      } catch (err) {
        if (err.code === -32011) return { applied: false, diagnostics: this.diagnostics };
        throw err;
      }
    }
    const result = await this.client.request('changeOutline', { uri: this.uri, text });
    this.diagnostics = result.diagnostics;
    if (result.applied) await this.refresh();
    return result;
  }

  async close() {
    if (this.isOpen) await this.client.request('closeOutline', { uri: this.uri });
    this.isOpen = false;
  }

  text() { return paneText(this.rows, this.width); }

  children(parentId) { return childrenOf(this.rows, parentId); }

  row(id) { return this.rows.find((r) => r.id === id); }
}

module.exports = { OutlineSession };
