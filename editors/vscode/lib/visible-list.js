'use strict';
// The whole visible list of one outline, kept by applying the `changes` of
// the server's answers (docs/protocol.md, "toggleSection": applied in order
// to the previous list, they give exactly the new one). Inserted items are
// holes until their rows are fetched. No `vscode` import.
//
// Costs, n the list's length: a change is one splice (O(n) pointer moves,
// well under a millisecond for the Debian outline's 65,119 items); ids are
// kept in a map updated with each change, never rebuilt; the position of an
// item is found by identity (Array.indexOf on objects) when it is needed;
// the children of a group are read off the list from the group's position.

/** A slot whose row is not fetched yet. */
const HOLE = null;

class VisibleList {
  constructor() {
    /** @type {(object|null)[]} rows in visible order; null is a hole */
    this.rows = [];
    this.holeCount = 0;
    // Every hole is at a position in [holeLo, holeHi): holeRuns looks there only.
    this.holeLo = 0;
    this.holeHi = 0;
    /** id -> row, for the rows in the list */
    this.byId = new Map();
    this._children = new Map(); // parent id (null: the top level) -> rows, until the next change
  }

  get length() { return this.rows.length; }

  /** Replaces the list by `total` holes (a full fetch follows). */
  reset(total) {
    this.rows = new Array(total).fill(HOLE);
    this.holeCount = total;
    this.holeLo = 0;
    this.holeHi = total;
    this.byId.clear();
    this._children.clear();
  }

  /**
   * Applies one change `{kind: "delete"|"insert", start, count}`.
   * @returns {object[]} the rows a delete removed (holes left out)
   * @throws when the change does not fit the list (the caller resyncs)
   * - Complexity: O(n) pointer moves for the splice, O(count) for the ids.
   */
  apply(change) {
    const { kind, start, count } = change;
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0) {
      throw new Error(`change ${JSON.stringify(change)} is not a valid block`);
    }
    this._children.clear();
    if (kind === 'delete') {
      if (start + count > this.rows.length) throw new Error(`delete ${start}+${count} past the end (${this.rows.length})`);
      const removed = this.rows.splice(start, count);
      if (this.holeHi > start) this.holeHi = Math.max(start, this.holeHi - count);
      if (this.holeLo > start) this.holeLo = Math.max(start, this.holeLo - count);
      const rows = [];
      for (const r of removed) {
        if (r === HOLE) { this.holeCount--; continue; }
        if (this.byId.get(r.id) === r) this.byId.delete(r.id);
        rows.push(r);
      }
      return rows;
    }
    if (kind === 'insert') {
      if (start > this.rows.length) throw new Error(`insert at ${start} past the end (${this.rows.length})`);
      if (count > 0) {
        // A spread into splice is limited by the argument count: concat.
        this.rows = this.rows.slice(0, start).concat(new Array(count).fill(HOLE), this.rows.slice(start));
        this._holesAt(start, start + count, count);
      }
      return [];
    }
    throw new Error(`unknown change kind ${JSON.stringify(kind)}`);
  }

  /** Turns the row at `i` into a hole, so it is fetched again. */
  punch(i) {
    const r = this.rows[i];
    if (r === HOLE) return;
    if (this.byId.get(r.id) === r) this.byId.delete(r.id);
    this.rows[i] = HOLE;
    this._holesAt(i, i + 1, 0);
    this._children.clear();
  }

  /** Notes new holes at [lo, hi), after `shift` items were inserted at lo. */
  _holesAt(lo, hi, shift) {
    const n = hi - lo;
    if (this.holeCount === 0) { this.holeLo = lo; this.holeHi = hi; }
    else {
      if (this.holeHi > lo) this.holeHi += shift;
      this.holeLo = Math.min(this.holeLo, lo);
      this.holeHi = Math.max(this.holeHi, hi);
    }
    this.holeCount += n;
  }

  /** Puts fetched rows at `start`. */
  fill(start, rows) {
    for (let k = 0; k < rows.length; k++) {
      const old = this.rows[start + k];
      if (old === HOLE) this.holeCount--;
      else if (this.byId.get(old.id) === old) this.byId.delete(old.id);
      this.rows[start + k] = rows[k];
      this.byId.set(rows[k].id, rows[k]);
    }
    this._children.clear();
  }

  /** The holes as runs `{start, count}`, runs closer than `gap` merged
   *  (the rows between them are fetched again: one request instead of
   *  many), each at most `page` long.
   *  - Complexity: O(n). */
  holeRuns(page = 10000, gap = 32) {
    const runs = [];
    if (this.holeCount === 0) return runs;
    let cur = null;
    const end = Math.min(this.holeHi, this.rows.length);
    for (let i = this.holeLo; i < end; i++) {
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

  /** The row of item `id`, or undefined (also while it is a hole). */
  get(id) { return this.byId.get(id); }

  /** Position of the item `id` in the list, or -1. O(n) by identity. */
  indexOf(id) {
    const r = this.byId.get(id);
    return r ? this.rows.indexOf(r) : -1;
  }

  /** The visible rows whose parent is `parentId` (null: the top level), in
   *  order; kept until the next change.
   *  - Complexity: O(the group's visible subtree); O(n) for the top level. */
  children(parentId) {
    const key = parentId ?? null;
    let out = this._children.get(key);
    if (out) return out;
    out = [];
    if (key === null) {
      for (const r of this.rows) if (r && (r.parent ?? null) === null) out.push(r);
    } else {
      const parent = this.byId.get(key);
      const i = parent ? this.rows.indexOf(parent) : -1;
      if (i >= 0) {
        for (let j = i + 1; j < this.rows.length; j++) {
          const r = this.rows[j];
          if (!r) continue;
          if (r.depth <= parent.depth) break;
          if (r.parent === key) out.push(r);
        }
      }
    }
    this._children.set(key, out);
    return out;
  }
}

module.exports = { VisibleList, HOLE };
