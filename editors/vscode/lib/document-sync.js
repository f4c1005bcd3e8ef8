'use strict';
// Keeps the server's text of one outline equal to an editor's buffer, as
// an LSP client keeps didChange: edits go out after a pause in typing, as
// `changeOutline {edits}` (UTF-16 ranges, as VS Code's contentChanges), one
// request at a time; the whole text only when the server's copy cannot be
// trusted any more. No `vscode` import.
//
// When the whole text goes out instead of edits:
// - an edit answered -32602 (the texts drifted apart), -32013 (the file
//   changed under an outline opened from disk) or -32800;
// - an `outlineChanged` (the server re-read the file) while the buffer has
//   unsaved changes, or while edits were on their way;
// - attaching to a buffer that already has unsaved changes.
// A buffer that becomes clean by a change (revert, a reload from disk, undo
// back to the saved text) equals its file: the outline is opened again from
// the file, by uri, so nothing big crosses the pipe.
const { EventEmitter } = require('node:events');
const { ErrorCodes } = require('./client');

/** The server's default --max-message-bytes is 64 MiB; a text this long
 *  (in UTF-8 bytes, with the JSON around it) is never sent. */
const MAX_TEXT_BYTES = 60 * 1024 * 1024;

class DocumentSync extends EventEmitter {
  /**
   * @param {import('./session').OutlineSession} session
   * @param {{uri: string, isFile: boolean, isDirty: () => boolean, getText: () => string}} doc
   *   the buffer, in the host's terms
   * @param {{debounceMs?: number, maxTextBytes?: number}} options
   */
  constructor(session, doc, options = {}) {
    super();
    this.session = session;
    this.doc = doc;
    this.debounceMs = options.debounceMs ?? 150;
    this.maxTextBytes = options.maxTextBytes ?? MAX_TEXT_BYTES;
    this.pending = [];
    /** 'edits' | 'text' | 'reopen': what the next flush sends */
    this.mode = 'edits';
    this.inFlight = false;
    this.timer = null;
    /** Grows with every buffer change: an answer about an older buffer is stale. */
    this.generation = 0;
    this.sent = { edits: 0, texts: 0, reopens: 0 };
    this.closed = false;
    this.reattach = false;
    this._waiters = [];
    this._onOutlineChanged = () => this._outlineChanged();
    session.on('outlineChanged', this._onOutlineChanged);
  }

  /** Opens the outline for the buffer: by uri (and watched) for a file,
   *  with the text once when the buffer differs from it. Changes made
   *  meanwhile go out when it is open. */
  async attach(options = {}) {
    while (this.inFlight) await this.whenSynced();
    this.inFlight = true;
    try {
      await this._attach(options);
    } finally {
      this.inFlight = false;
      if (this.pending.length || this.mode !== 'edits') this._schedule(0);
      else this._wake();
    }
  }

  async _attach({ token, onProgress } = {}) {
    const dirty = this.doc.isDirty();
    const params = { token, onProgress };
    if (this.doc.isFile) {
      params.watch = true;
      if (dirty) params.text = this._textOrNull();
    } else {
      params.text = this._textOrNull();
    }
    if (params.text === null) {
      // Too big to send: show the file as saved; unsaved changes are not followed.
      delete params.text;
      if (!this.doc.isFile) throw tooBig(this.doc.uri);
      this.emit('warning', tooBig(this.doc.uri).message);
    }
    this.pending = [];
    this.mode = 'edits';
    try {
      await this.session.open(params);
      if (params.text !== undefined) this.sent.texts++;
      else this.sent.reopens++;
    } catch (err) {
      if (err.code === ErrorCodes.FileError && this.doc.isFile && params.text === undefined) {
        // The file cannot be read (not saved yet, removed): follow the buffer.
        const text = this._textOrNull();
        if (text === null) throw err;
        await this.session.open({ text, token, onProgress });
        this.sent.texts++;
        return;
      }
      throw err;
    }
  }

  /**
   * The buffer changed. Cheap: no text is read and nothing is sent here.
   * @param {{range: {start: {line, character}, end: {line, character}}, text: string}[]} changes
   *   in order, each against the text the ones before it left (LSP's
   *   TextDocumentContentChangeEvent; VS Code's contentChanges)
   * @param {boolean} clean the buffer equals its file after the change
   */
  onChange(changes, clean) {
    if (this.closed) return;
    this.generation++;
    if (clean && this.doc.isFile) {
      this.mode = 'reopen';
      this.pending = [];
    } else if (this.mode === 'edits') {
      // Plain objects: VS Code's Range serialises as [start, end].
      for (const c of changes) {
        const { start, end } = c.range;
        this.pending.push({
          range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
          text: c.text,
        });
      }
    }
    this._schedule();
  }

  /** The buffer was saved: an outline that could not be loaded is tried
   *  again from the file. */
  onSaved() {
    if (this.closed) return;
    if (!this.session.isOpen) { this.mode = 'reopen'; this._schedule(0); }
  }

  /** Resolves when the server has every change made so far. */
  whenSynced() {
    if (this._idle()) return Promise.resolve();
    return new Promise((resolve) => this._waiters.push(resolve));
  }

  /** Sends what is waiting now, without the pause. */
  flushNow() { this._schedule(0); return this.whenSynced(); }

  dispose() {
    this.closed = true;
    clearTimeout(this.timer);
    this.session.removeListener('outlineChanged', this._onOutlineChanged);
    this._wake();
  }

  _idle() {
    return this.closed || (!this.inFlight && !this.timer && this.pending.length === 0 && this.mode === 'edits' && !this.reattach);
  }

  _wake() {
    if (!this._idle()) return;
    const w = this._waiters;
    this._waiters = [];
    w.forEach((r) => r());
  }

  _outlineChanged() {
    // The server loaded the file again. Edits queued or on their way were
    // made against the text before it: they cannot be applied to the new one.
    const racing = this.inFlight || this.pending.length > 0;
    this.pending = [];
    if (this.doc.isDirty()) this.mode = 'text';
    else if (racing) this.mode = 'reopen';
    else return;
    this._schedule();
  }

  _schedule(delay = this.debounceMs) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this._flush(); }, delay);
  }

  async _flush() {
    if (this.inFlight || this.closed) return;
    if (!this.session.client.running) {
      // The server is gone: nothing can be sent until it is started again
      // (a new pane opens the buffer afresh).
      this.pending = [];
      this.mode = 'edits';
      this._wake();
      return;
    }
    const state = this.session.state;
    let what;
    this.reattach = false;
    if (state !== 'open') what = 'attach';
    else if (this.mode === 'reopen') what = 'reopen';
    else if (this.mode === 'text') what = 'text';
    else if (this.pending.length) what = 'edits';
    else { this._wake(); return; }

    this.inFlight = true;
    const generation = this.generation;
    let edits = null;
    try {
      if (what === 'attach') {
        await this._attach();
        this.emit('diagnostics', this.session.diagnostics, { applied: true });
      } else if (what === 'reopen') {
        this.mode = 'edits';
        this.pending = [];
        await this.session.open({ watch: true });
        this.sent.reopens++;
        this.emit('diagnostics', this.session.diagnostics, { applied: true });
      } else if (what === 'text') {
        const text = this._textOrNull();
        this.mode = 'edits';
        this.pending = [];
        if (text === null) {
          this.emit('warning', tooBig(this.doc.uri).message);
          if (this.doc.isFile) await this.session.open({ watch: true });
        } else {
          await this._change({ text }, generation);
          this.sent.texts++;
        }
      } else {
        edits = this.pending;
        this.pending = [];
        await this._change({ edits }, generation);
        this.sent.edits++;
      }
    } catch (err) {
      this._failed(err, what);
    } finally {
      this.inFlight = false;
    }
    if (this.pending.length || this.mode !== 'edits' || this.reattach) this._schedule(0);
    else this._wake();
  }

  async _change(params, generation) {
    const result = await this.session.change(params);
    this.emit('diagnostics', result.diagnostics || [], { generation, applied: result.applied });
    return result;
  }

  _failed(err, what) {
    const code = err && err.code;
    if (what === 'attach' || what === 'reopen') {
      if (code === ErrorCodes.InvalidOutline) {
        this.emit('diagnostics', this.session.diagnostics, { invalid: true });
        this.emit('invalid', err);
      } else {
        this.emit('error', err);
      }
      return;
    }
    if (code === ErrorCodes.InvalidParams || code === ErrorCodes.FileError || code === ErrorCodes.RequestCancelled) {
      // The server's copy is not the buffer's any more: send it whole.
      this.pending = [];
      this.mode = this.doc.isDirty() || !this.doc.isFile ? 'text' : 'reopen';
      this.emit('log', `${what} refused (${err.message}): sending the ${this.mode === 'text' ? 'whole text' : 'file'}`);
      if (what === 'text' && code === ErrorCodes.InvalidParams) { this.mode = 'edits'; this.emit('error', err); }
      return;
    }
    if (code === ErrorCodes.UnknownOutline) {
      // The server forgot the outline (it was restarted): open it again.
      this.session.state = 'closed';
      this.pending = [];
      this.mode = 'edits';
      this.reattach = true;
      return;
    }
    this.emit('error', err);
  }

  _textOrNull() {
    const text = this.doc.getText();
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (text.length * 3 > this.maxTextBytes && Buffer.byteLength(text, 'utf8') > this.maxTextBytes) return null;
    return text;
  }
}

function tooBig(uri) {
  return new Error(`${uri} is too large to send whole; the outline shows the file as saved`);
}

module.exports = { DocumentSync, MAX_TEXT_BYTES };
