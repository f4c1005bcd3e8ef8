'use strict';
// JSON-RPC 2.0 client for outline-server, with LSP framing, over a child
// process. Plain Node.js: it does not import `vscode`, so it is tested with
// `node --test` and can serve any Node host.
const { spawn } = require('node:child_process');
const { EventEmitter } = require('node:events');

class RpcError extends Error {
  constructor(error) {
    super(`${error.message} (${error.code})`);
    this.code = error.code;
    this.data = error.data;
  }
}

class OutlineClient extends EventEmitter {
  /** @param {string} command path of outline-server; @param {string[]} args */
  constructor(command, args = []) {
    super();
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.stderr = '';
    this.exitCode = null;
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitCode = code;
        for (const { reject } of this.pending.values()) reject(new Error('outline-server exited'));
        this.pending.clear();
        resolve({ code, signal });
      });
      this.child.on('error', (err) => {
        for (const { reject } of this.pending.values()) reject(err);
        this.pending.clear();
        resolve({ code: null, error: err });
      });
    });
    this.child.stdout.on('data', (chunk) => this._onData(chunk));
    this.child.stderr.on('data', (chunk) => { this.stderr += chunk.toString('utf8'); });
    this.child.stdin.on('error', () => {});
  }

  _onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const m = /content-length:\s*(\d+)/i.exec(header);
      if (!m) { this.buffer = Buffer.alloc(0); return; }
      const length = Number(m[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      let msg;
      try { msg = JSON.parse(body); } catch { continue; }
      this._dispatch(msg);
    }
  }

  _dispatch(msg) {
    if (msg.method !== undefined) {
      if (msg.id !== undefined && msg.id !== null) {
        this._write({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not supported' } });
      } else {
        this.emit('notification', msg.method, msg.params);
        this.emit(msg.method, msg.params);
      }
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new RpcError(msg.error));
    else p.resolve(msg.result);
  }

  _write(msg) {
    if (this.exitCode !== null || !this.child.stdin.writable) return false;
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
    return true;
  }

  /** Sends a request; resolves with the result, rejects with an RpcError. */
  request(method, params = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (!this._write({ jsonrpc: '2.0', id, method, params })) {
        this.pending.delete(id);
        reject(new Error('outline-server is not running'));
      }
    });
  }

  notify(method, params = {}) {
    this._write({ jsonrpc: '2.0', method, params });
  }

  async initialize(clientName = 'vscode-outline') {
    const result = await this.request('initialize', {
      clientInfo: { name: clientName },
      capabilities: { general: { positionEncodings: ['utf-16'] } },
    });
    this.notify('initialized');
    return result;
  }

  /** shutdown, exit; resolves with the server's exit status. */
  async stop(timeoutMs = 3000) {
    if (this.exitCode === null) {
      try { await this.request('shutdown'); } catch { /* already gone */ }
      this.notify('exit');
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGTERM'), timeoutMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exitCode;
  }

  /** Ends the process without ceremony (for cleanup). */
  kill() {
    if (this.exitCode === null) this.child.kill('SIGKILL');
  }
}

module.exports = { OutlineClient, RpcError };
