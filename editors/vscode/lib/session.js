'use strict';
// One open outline on the server and its whole visible list. No `vscode`
// import.
//
// The list is kept by applying the `changes` of every answer that has them
// (toggles, expand/collapse all, filter, navigate, revealItem, edits) and of
// `outlineChanged`, at the moment the message is read, in the server's
// order; inserted items are fetched afterwards by `visibleRows {start,
// count}`, in pages of at most 10,000, never the whole list again. A page
// whose answer comes back at another version than the list had when it was
// asked for is dropped and asked for again.
const { EventEmitter } = require('node:events');
const { VisibleList } = require('./visible-list');
const { ErrorCodes } = require('./client');

/** The most rows one visibleRows answer holds (docs/protocol.md). */
const PAGE = 10000;

class OutlineSession extends EventEmitter {
  /**
   * @param {import('./client').OutlineClient} client
   * @param {string} uri
   * @param {{page?: number, include?: string[]}} options `include` is
   *   passed to visibleRows (the view needs none of "range", "lines").
   */
  constructor(client, uri, options = {}) {
    super();
    this.client = client;
    this.uri = uri;
    this.page = Math.min(options.page || PAGE, PAGE);
    this.include = options.include || [];
    this.list = new VisibleList();
    this.version = 0;
    /** 'closed' | 'opening' | 'open' | 'invalid' (the text has errors and no outline was ever loaded) */
    this.state = 'closed';
    this.diagnostics = [];
    this.query = '';
    /** @type {Map<string, {field: string, start: number, length: number}[]>} */
    this.matches = new Map();
    this.focus = null;
    this._record = newRecord();
    this._filling = null;
    this._progressTokens = 0;
    this._onOutlineChanged = (params) => {
      if (!params || params.uri !== this.uri || this.state !== 'open') return;
      if (params.diagnostics) this.diagnostics = params.diagnostics;
      this._apply(params, 'outlineChanged');
      this.emit('outlineChanged', params);
      // The filter's matches are of the text before: ask for them again.
      if (this.query && params.changes && params.changes.length) this.filter(this.query).catch(() => {});
    };
    client.on('outlineChanged', this._onOutlineChanged);
  }

  get isOpen() { return this.state === 'open'; }

  /** The rows in visible order (fetched: holes only while a fetch is under way). */
  get rows() { return this.list.rows; }

  row(id) { return this.list.get(id); }

  children(parentId) { return this.list.children(parentId); }

  /**
   * openOutline. `text` for documents that are not files or whose buffer
   * differs from the file; `watch` for file: uris (the server then follows
   * the file and sends outlineChanged). Resolves once every visible row is
   * fetched. On -32011 keeps the diagnostics (`state` 'invalid') and
   * rethrows.
   */
  async open({ text, watch, token, onProgress } = {}) {
    const params = { uri: this.uri };
    if (watch) params.watch = true;
    if (text !== undefined) params.text = text;
    if (onProgress) params.workDoneToken = `open-${process.pid}-${++this._progressTokens}`;
    if (this.state !== 'open') this.state = 'opening';
    try {
      await this.client.request('openOutline', params, {
        token,
        onProgress,
        onResult: (result) => {
          const wasOpen = this.state === 'open';
          this.state = 'open';
          this.diagnostics = result.diagnostics || [];
          // A re-open has no `changes`: the list is fetched again when what
          // is shown changed (the version moved) or was never fetched.
          if (!wasOpen || result.version !== this.version || result.total !== this.list.length) {
            this.version = result.version;
            this._reset(result.total);
          }
        },
      });
    } catch (err) {
      if (this.state === 'opening') this.state = err.code === ErrorCodes.InvalidOutline ? 'invalid' : 'closed';
      if (err.code === ErrorCodes.InvalidOutline) this.diagnostics = (err.data && err.data.diagnostics) || [];
      throw err;
    }
    await this.settled();
    return this.diagnostics;
  }

  async close() {
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    this.client.removeListener('outlineChanged', this._onOutlineChanged);
    if (wasOpen && this.client.running) {
      try { await this.client.request('closeOutline', { uri: this.uri }); } catch { /* gone */ }
    }
  }

  /** A request on this outline whose answer's `changes` are applied as it
   *  is read; resolves with the answer once the inserted rows are fetched. */
  async request(method, params = {}, { token } = {}) {
    const result = await this.client.request(method, { uri: this.uri, ...params }, {
      token,
      onResult: (r) => this._apply(r, method, params),
    });
    await this.settled();
    return result;
  }

  /** toggleSection; `expanded` sets instead of flipping. */
  toggle(id, { expanded, token } = {}) {
    const params = { section: id };
    if (expanded !== undefined) params.expanded = expanded;
    return this.request('toggleSection', params, { token });
  }

  expandAll({ token } = {}) { return this.request('expandAll', {}, { token }); }

  collapseAll({ token } = {}) { return this.request('collapseAll', {}, { token }); }

  /** filterOutline: keeps `query` and the `matches` (id -> ranges in
   *  UTF-16 code units, the encoding this client negotiates). '' clears. */
  async filter(query, { token } = {}) {
    const result = await this.client.request('filterOutline', { uri: this.uri, query }, {
      token,
      onResult: (r) => {
        const old = this.matches;
        this.query = query;
        this.matches = new Map((r.matches || []).map((m) => [m.id, m.ranges]));
        for (const id of old.keys()) this._record.matchesChanged.add(id);
        for (const id of this.matches.keys()) this._record.matchesChanged.add(id);
        this._apply(r, 'filterOutline');
      },
    });
    await this.settled();
    return result;
  }

  /** navigate from `from` with `key` ('down', …, 'expandSiblings' or
   *  {type: text}); the answer's `focus` is kept in `focus`. */
  async navigate(from, key, { token } = {}) {
    const result = await this.request('navigate', { from, key }, { token });
    this.focus = result.focus;
    return result;
  }

  /** revealItem: opens the item's closed ancestors. */
  reveal(id, { token } = {}) { return this.request('revealItem', { id }, { token }); }

  /** itemAtPosition; `position` in UTF-16 code units. */
  itemAtPosition(position, { token } = {}) {
    return this.client.request('itemAtPosition', { uri: this.uri, position }, { token });
  }

  /** The source range of a visible item, fetched now (ranges move with
   *  edits without moving the version, so they are never cached). Null when
   *  the item is not in the list any more. */
  async rangeOf(id) {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.settled();
      const i = this.list.indexOf(id);
      if (i < 0) return null;
      const r = await this.client.request('visibleRows', { uri: this.uri, start: i, count: 1, include: ['range'] });
      const row = r.rows[0];
      if (row && row.id === id) return row.range;
      // The list moved between the question and the answer: ask again.
    }
    return null;
  }

  /**
   * changeOutline with `{text}` or `{edits}`. Resolves with the answer
   * (`applied`, `diagnostics`); the list follows when applied. While a
   * filter is on, its matches are asked for again.
   */
  async change(params, { token } = {}) {
    const result = await this.client.request('changeOutline', { uri: this.uri, ...params }, {
      token,
      onResult: (r) => {
        this.diagnostics = r.diagnostics || [];
        if (r.applied) this._apply(r, 'changeOutline');
      },
    });
    await this.settled();
    if (result.applied && this.query && result.changes && result.changes.length) {
      await this.filter(this.query).catch(() => {});
    }
    return result;
  }

  /** Resolves when every row is fetched; rejects when a fetch failed. */
  async settled() {
    while (this._filling) await this._filling;
    if (this._fillError) { const e = this._fillError; this._fillError = null; throw e; }
  }

  /** Fetches the whole list again (after a reconnect, or to check it). */
  async resync() {
    const r = await this.client.request('visibleRows', { uri: this.uri, start: 0, count: 0 }, {
      onResult: (res) => { this.version = res.version; this._reset(res.total); },
    });
    await this.settled();
    return r;
  }

  // ---- keeping the list

  _reset(total) {
    this.list.reset(total);
    this._record.reset = true;
    this._scheduleFill();
  }

  /** Applies an answer's changes; runs as the answer is read. */
  _apply(result, method, params) {
    if (!result || !Array.isArray(result.changes)) return;
    const rec = this._record;
    rec.methods.add(method);
    if (method === 'toggleSection' && params) rec.toggled.add(result.id ?? params.section);
    if (result.changes.length === 0 && result.version === this.version) {
      this._noteGroups(result.updatedGroups);
      this._scheduleFill();
      return;
    }
    try {
      for (const change of result.changes) rec.deleted.push(...this.list.apply(change));
    } catch (err) {
      this.emit('log', `resync: ${err.message}`);
      this.version = result.version;
      this._reset(result.total);
      return;
    }
    this.version = result.version;
    if (typeof result.total === 'number' && result.total !== this.list.length) {
      this.emit('log', `resync: the list has ${this.list.length} items, the server says ${result.total}`);
      this._reset(result.total);
      return;
    }
    this._noteGroups(result.updatedGroups);
    this._scheduleFill();
  }

  /** Groups whose arrow turned: visible ones are fetched again. */
  _noteGroups(ids) {
    if (!ids) return;
    for (const id of ids) {
      this._record.updatedGroups.add(id);
      const i = this.list.indexOf(id);
      if (i >= 0) {
        const row = this.list.rows[i];
        if (row) this._record.deleted.push(row);
        this.list.punch(i);
      }
    }
  }

  _scheduleFill() {
    if (this._filling) return;
    this._filling = this._fill().then(
      () => {
        this._filling = null;
        if (this.list.holeCount > 0 && this.state === 'open') this._scheduleFill();
        else this._settle();
      },
      (err) => { this._filling = null; this._fillError = err; this.emit('fetchError', err); },
    );
  }

  async _fill() {
    // Let the answer that made the holes reach its caller first.
    await null;
    while (this.list.holeCount > 0 && this.state === 'open') {
      const version = this.version;
      const runs = this.list.holeRuns(this.page);
      await Promise.all(runs.map((run) => this.client.request('visibleRows',
        { uri: this.uri, start: run.start, count: run.count, ...(this.include.length ? { include: this.include } : {}) },
        {
          onResult: (r) => {
            // Stale: the list changed since this page was asked for.
            if (version !== this.version || r.version !== this.version) return;
            if (r.rows.length !== run.count || (run.count && r.rows[0].index !== run.start)) {
              this.emit('log', `resync: visibleRows ${run.start}+${run.count} answered ${r.rows.length} rows`);
              this._reset(r.total);
              return;
            }
            this.list.fill(run.start, r.rows);
            for (const row of r.rows) this._record.filled.push(row);
          },
        })));
    }
  }

  _settle() {
    if (this.list.holeCount > 0) return;
    const rec = this._record;
    this._record = newRecord();
    // A filter's changes leave out the kept rows whose `isLastChild`
    // turned (a later sibling hidden or shown again): set it from the
    // list, by its definition (no later sibling shown).
    if (rec.methods.has('filterOutline')) markLastChildren(this.list.rows);
    if (rec.reset || rec.deleted.length || rec.filled.length || rec.updatedGroups.size || rec.matchesChanged.size) {
      this.emit('settled', rec);
    }
  }
}

/** Sets `isLastChild` on every row: true when no later sibling is shown.
 *  - Complexity: O(n), one backward pass. */
function markLastChildren(rows) {
  const later = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const d = rows[i].depth;
    later.length = Math.min(later.length, d + 1);
    rows[i].isLastChild = !later[d];
    later[d] = true;
  }
}

function newRecord() {
  return {
    reset: false,
    deleted: [],
    filled: [],
    updatedGroups: new Set(),
    matchesChanged: new Set(),
    toggled: new Set(),
    methods: new Set(),
  };
}

module.exports = { OutlineSession, PAGE };
