'use strict';
// JSON-RPC 2.0 client for outline-server, with LSP framing, over a child
// process. Plain Node.js: it does not import `vscode`, so it is tested with
// `node --test` and can serve any Node host.
//
// The server is started as vscode-languageclient starts a stdio server:
// `outline-server [args] --stdio --clientProcessId=<pid>`, and `initialize`
// carries `processId`, so the server ends when the editor does.
const { spawn } = require('node:child_process');
const { EventEmitter } = require('node:events');

/** A JSON-RPC error answer: `code`, `message` (the server's words), `data`. */
class RpcError extends Error {
  constructor(error, method) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
    this.method = method;
  }
}

/** The error codes of docs/protocol.md ("Errors"). */
const ErrorCodes = Object.freeze({
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  RequestCancelled: -32800,
  UnknownOutline: -32010,
  InvalidOutline: -32011,
  UnknownSection: -32012,
  FileError: -32013,
});

/** The command line arguments of a stdio server, as vscode-languageclient
 *  passes them: the user's own first, then `--stdio` and the client's pid. */
function serverArgs(extra = [], pid = process.pid) {
  return [...extra, '--stdio', `--clientProcessId=${pid}`];
}

/** Reads LSP frames (`Content-Length: N\r\n\r\n` + N bytes) from a byte
 *  stream. Chunks are kept as they come and joined once per message, so a
 *  3 MB answer arriving in 64 KB pieces is copied once, not 50 times. */
class FrameReader {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.chunks = [];
    this.length = 0;
    this.bodyLength = -1;
  }

  push(chunk) {
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      if (this.bodyLength < 0) {
        const head = this._joined();
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const m = /(?:^|\r\n)content-length:[ \t]*(\d+)/i.exec(head.toString('ascii', 0, end));
        if (!m) throw new Error(`outline-server sent a header without Content-Length: ${JSON.stringify(head.toString('ascii', 0, end))}`);
        this.bodyLength = Number(m[1]);
        this._drop(end + 4);
      }
      if (this.length < this.bodyLength) return;
      const all = this._joined();
      const body = all.toString('utf8', 0, this.bodyLength);
      this._drop(this.bodyLength);
      this.bodyLength = -1;
      this.onMessage(body);
    }
  }

  _joined() {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.length)];
    return this.chunks[0];
  }

  _drop(n) {
    const rest = this._joined().subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.length = rest.length;
  }
}

class OutlineClient extends EventEmitter {
  /**
   * Starts the server.
   * @param {string} command path of outline-server
   * @param {string[]} args its arguments (see serverArgs)
   * @param {{env?: object, trace?: (line: string) => void}} options
   *   `trace` receives one line per message sent and received (the
   *   `outlineServer.trace.server` setting).
   */
  constructor(command, args = [], options = {}) {
    super();
    this.command = command;
    this.nextId = 1;
    this.pending = new Map();
    this.progress = new Map();
    this.stderr = '';
    this.exitCode = null;
    this.exitSignal = null;
    this.stopping = false;
    this.trace = options.trace || null;
    this.reader = new FrameReader((body) => this._onBody(body));
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env || process.env });
    this.exited = new Promise((resolve) => {
      const end = (code, signal, error) => {
        if (this.exitCode !== null || this.exitSignal !== null || this.startError) return;
        this.exitCode = code;
        this.exitSignal = signal;
        if (error) this.startError = error;
        const why = error ? error : new Error(`outline-server exited (${signal || `status ${code}`})`);
        for (const p of this.pending.values()) p.reject(why);
        this.pending.clear();
        resolve({ code, signal, error });
        this.emit('exit', { code, signal, error, expected: this.stopping });
      };
      this.child.on('exit', (code, signal) => end(code, signal));
      this.child.on('error', (err) => end(null, null, err));
    });
    this.child.stdout.on('data', (chunk) => {
      try { this.reader.push(chunk); } catch (err) { this._protocolError(err); }
    });
    this.child.stderr.on('data', (chunk) => {
      const text = chunk.toString('utf8');
      this.stderr = (this.stderr + text).slice(-64 * 1024);
      this.emit('stderr', text);
    });
    this.child.stdin.on('error', () => {});
  }

  get running() { return this.exitCode === null && this.exitSignal === null && !this.startError; }

  _protocolError(err) {
    this.stderr += `\n${err.message}`;
    this.kill();
  }

  _onBody(body) {
    let msg;
    try { msg = JSON.parse(body); } catch (err) { this._protocolError(new Error(`outline-server sent invalid JSON: ${err.message}`)); return; }
    if (this.trace) this.trace(`<- ${body.length > 2000 ? `${body.slice(0, 2000)}… (${body.length} characters)` : body}`);
    for (const m of Array.isArray(msg) ? msg : [msg]) this._dispatch(m);
  }

  _dispatch(msg) {
    if (msg.method !== undefined) {
      if (msg.id !== undefined && msg.id !== null) {
        this._write({ jsonrpc: '2.0', id: msg.id, error: { code: ErrorCodes.MethodNotFound, message: `${msg.method} is not supported by this client` } });
        return;
      }
      if (msg.method === '$/progress' && msg.params) {
        const handler = this.progress.get(msg.params.token);
        if (handler) handler(msg.params.value || {});
      }
      this.emit('notification', msg.method, msg.params);
      this.emit(msg.method, msg.params);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (p.dispose) p.dispose();
    if (msg.error) {
      p.reject(new RpcError(msg.error, p.method));
      return;
    }
    // onResult runs here, as the answer is read, before any message read
    // after it: a caller that keeps state from answers and notifications
    // sees them in the server's order.
    if (p.onResult) {
      try { p.onResult(msg.result); } catch (err) { p.reject(err); return; }
    }
    p.resolve(msg.result);
  }

  _write(msg) {
    if (!this.running || !this.child.stdin.writable) return false;
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    if (this.trace) {
      const text = body.length > 2000 ? `${body.toString('utf8', 0, 2000)}… (${body.length} bytes)` : body.toString('utf8');
      this.trace(`-> ${text}`);
    }
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
    return true;
  }

  /**
   * Sends a request; resolves with the result, rejects with an RpcError
   * (or an Error when the server is gone).
   * @param {object} [options]
   * @param {{isCancellationRequested: boolean, onCancellationRequested: Function}} [options.token]
   *   a cancellation token (VS Code's shape): cancelling it sends
   *   `$/cancelRequest {id}`; the server then answers -32800.
   * @param {(result: any) => void} [options.onResult] runs synchronously
   *   when the answer is read, before later messages are dispatched.
   * @param {(value: object) => void} [options.onProgress] receives the
   *   `$/progress` values of `params.workDoneToken`.
   */
  request(method, params = {}, options = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, method, onResult: options.onResult, dispose: null };
      const { token } = options;
      if (token && token.isCancellationRequested) {
        reject(new RpcError({ code: ErrorCodes.RequestCancelled, message: 'cancelled before it was sent' }, method));
        return;
      }
      const disposers = [];
      if (token) {
        const sub = token.onCancellationRequested(() => {
          if (this.pending.has(id)) this.notify('$/cancelRequest', { id });
        });
        disposers.push(() => sub && sub.dispose && sub.dispose());
      }
      if (options.onProgress && params.workDoneToken !== undefined) {
        this.progress.set(params.workDoneToken, options.onProgress);
        disposers.push(() => this.progress.delete(params.workDoneToken));
      }
      entry.dispose = () => disposers.forEach((d) => d());
      this.pending.set(id, entry);
      if (!this._write({ jsonrpc: '2.0', id, method, params })) {
        this.pending.delete(id);
        entry.dispose();
        reject(new Error('outline-server is not running'));
      }
    });
  }

  notify(method, params = {}) {
    return this._write({ jsonrpc: '2.0', method, params });
  }

  /** initialize (positions in UTF-16 code units, as VS Code counts them),
   *  then initialized. */
  async initialize(clientName = 'vscode-outline', version = undefined) {
    const result = await this.request('initialize', {
      processId: process.pid,
      clientInfo: version ? { name: clientName, version } : { name: clientName },
      capabilities: { general: { positionEncodings: ['utf-16'] } },
    });
    this.serverInfo = result.serverInfo;
    this.capabilities = result.capabilities;
    this.notify('initialized');
    return result;
  }

  /** shutdown, exit; resolves with the server's exit status. */
  async stop(timeoutMs = 3000) {
    this.stopping = true;
    if (this.running) {
      try { await this.request('shutdown'); } catch { /* already gone */ }
      this.notify('exit');
      this.child.stdin.end();
      const timer = setTimeout(() => this.kill(), timeoutMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exitCode;
  }

  /** Ends the process at once (cleanup). */
  kill() {
    this.stopping = true;
    if (this.running) this.child.kill('SIGKILL');
  }
}

/** A cancellation token source in VS Code's shape, for hosts without one. */
class CancellationTokenSource {
  constructor() {
    const listeners = new Set();
    this._listeners = listeners;
    this.token = {
      isCancellationRequested: false,
      onCancellationRequested(listener) {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    };
  }

  cancel() {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    for (const l of [...this._listeners]) l();
  }

  dispose() { this._listeners.clear(); }
}

module.exports = { OutlineClient, RpcError, ErrorCodes, FrameReader, serverArgs, CancellationTokenSource };
