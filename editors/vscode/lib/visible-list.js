'use strict';
// The whole visible list of one outline, kept by applying the `changes` of
// the server's answers (docs/protocol.md, "toggleSection": applied in order
// to the previous list, they give exactly the new one). Inserted items are
// holes until their rows are fetched. No `vscode` import.

/** A slot whose row is not fetched yet. */
const HOLE = null;

class VisibleList {
  constructor() {
    /** @type {(object|null)[]} rows in visible order; null is a hole */
    this.rows = [];
    this.holeCount = 0;
    this._index = null; // id -> position, built on demand
    this._children = null; // parent id (null for the top level) -> rows
  }

  get length() { return this.rows.length; }

  /** Replaces the list by `total` holes (a full fetch follows). */
  reset(total) {
    this.rows = new Array(total).fill(HOLE);
    this.holeCount = total;
    this._invalidate();
  }

  /**
   * Applies one change `{kind: "delete"|"insert", start, count}`.
   * @returns {object[]} the rows a delete removed (holes left out)
   * @throws when the change does not fit the list (the caller resyncs)
   * - Complexity: O(n) for the splice, n the list's length.
   */
  apply(change) {
    const { kind, start, count } = change;
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0) {
      throw new Error(`change ${JSON.stringify(change)} is not a valid block`);
    }
    if (kind === 'delete') {
      if (start + count > this.rows.length) throw new Error(`delete ${start}+${count} past the end (${this.rows.length})`);
      const removed = this.rows.splice(start, count);
      const rows = [];
      for (const r of removed) { if (r === HOLE) this.holeCount--; else rows.push(r); }
      this._invalidate();
      return rows;
    }
    if (kind === 'insert') {
      if (start > this.rows.length) throw new Error(`insert at ${start} past the end (${this.rows.length})`);
      if (count > 0) {
        // splice with a spread is limited by the argument count: concat.
        const holes = new Array(count).fill(HOLE);
        this.rows = this.rows.slice(0, start).concat(holes, this.rows.slice(start));
        this.holeCount += count;
        this._invalidate();
      }
      return [];
    }
    throw new Error(`unknown change kind ${JSON.stringify(kind)}`);
  }

  /** Turns the row at `i` into a hole, so it is fetched again. Positions
   *  do not move: the id index stays (get gives null until it is filled). */
  punch(i) {
    if (this.rows[i] !== HOLE) { this.rows[i] = HOLE; this.holeCount++; this._children = null; }
  }

  /** Puts fetched rows at `start`. */
  fill(start, rows) {
    const index = this._index;
    for (let k = 0; k < rows.length; k++) {
      const old = this.rows[start + k];
      if (old === HOLE) this.holeCount--;
      else if (index && old.id !== rows[k].id) index.delete(old.id);
      this.rows[start + k] = rows[k];
      if (index) index.set(rows[k].id, start + k);
    }
    this._children = null;
  }

  /** The holes as runs `{start, count}`, runs closer than `gap` merged
   *  (the rows between them are fetched again: one request instead of
   *  many), each at most `page` long.
   *  - Complexity: O(n). */
  holeRuns(page = 10000, gap = 32) {
    const runs = [];
    if (this.holeCount === 0) return runs;
    let cur = null;
    for (let i = 0; i < this.rows.length; i++) {
      if (this.rows[i] !== HOLE) continue;
      if (cur && i - (cur.start + cur.count) <= gap) cur.count = i - cur.start + 1;
      else { cur = { start: i, count: 1 }; runs.push(cur); }
    }
    const paged = [];
    for (const r of runs) {
      for (let s = r.start; s < r.start + r.count; s += page) paged.push({ start: s, count: Math.min(page, r.start + r.count - s) });
    }
    return paged;
  }

  _invalidate() { this._index = null; this._children = null; }

  /** Position of the item `id` in the list, or -1. O(1) after an O(n)
   *  index built once per change. */
  indexOf(id) {
    if (!this._index) {
      this._index = new Map();
      for (let i = 0; i < this.rows.length; i++) { const r = this.rows[i]; if (r) this._index.set(r.id, i); }
    }
    const i = this._index.get(id);
    return i === undefined ? -1 : i;
  }

  /** The row of item `id`, or undefined. */
  get(id) {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.rows[i];
  }

  /** The visible rows whose parent is `parentId` (null: the top level), in
   *  order. O(1) after an O(n) index built once per change. */
  children(parentId) {
    if (!this._children) {
      this._children = new Map();
      for (const r of this.rows) {
        if (!r) continue;
        const key = r.parent ?? null;
        let list = this._children.get(key);
        if (!list) { list = []; this._children.set(key, list); }
        list.push(r);
      }
    }
    return this._children.get(parentId ?? null) || [];
  }
}

module.exports = { VisibleList, HOLE };
