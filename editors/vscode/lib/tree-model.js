'use strict';
// What the VS Code view shows of a session's visible list, in the terms of
// a TreeDataProvider, without importing `vscode`: one element object per
// item id (the same object for as long as the outline is open), the
// children of an element, its parent, a plain description of its TreeItem,
// and, after each change of the list, the elements the view must refresh.
//
// VS Code keeps the expanded state a user gave a tree item by its id: an
// item refreshed under the same id keeps the user's state, whatever
// collapsibleState says ("user state wins"). So when the server opens or
// closes a group the view shows otherwise (expand all, collapse all, `*`,
// a filter, an accordion closing a sibling), the group's TreeItem gets a
// new id (`<id>#<generation>`) and its parent is refreshed: VS Code then
// takes the collapsibleState given. Groups the user opens or closes in the
// view itself keep their id.

const { describeItem, sameLook } = require('./items');

class OutlineTreeModel {
  /**
   * @param {import('./session').OutlineSession} session
   * @param {{prefix?: string}} options `prefix` starts every TreeItem id:
   *   a pane opened anew takes a new one, so VS Code's memory of the ids of
   *   an earlier pane (their expanded states) does not apply to it.
   */
  constructor(session, { prefix = '' } = {}) {
    this.session = session;
    this.prefix = prefix;
    this.elements = new Map(); // id -> {id}
    this.generations = new Map(); // group id -> generation
    /** TreeItem id -> expanded state the view has for it (what it shows,
     *  or would keep on a refresh). */
    this.viewExpanded = new Map();
    /** parent id (null: top level) -> ids of the children last handed to the view */
    this.handedChildren = new Map();
    /** id -> the row whose TreeItem was last handed to the view */
    this.handedItems = new Map();
  }

  element(id) {
    let e = this.elements.get(id);
    if (!e) { e = Object.freeze({ id }); this.elements.set(id, e); }
    return e;
  }

  row(element) { return this.session.row(element.id); }

  treeItemId(id) {
    const g = this.generations.get(id) || 0;
    return g ? `${this.prefix}${id}#${g}` : `${this.prefix}${id}`;
  }

  /** The children of `element` (undefined: the top level), as elements;
   *  noted as handed to the view. */
  children(element) {
    const parentId = element ? element.id : null;
    const rows = this.session.children(parentId);
    this.handedChildren.set(parentId, rows.map((r) => r.id));
    return rows.map((r) => this.element(r.id));
  }

  /** The item's id and its groups' ids, innermost first (as far as they
   *  are visible now). */
  path(element) {
    const out = [];
    for (let row = this.row(element); row; row = row.parent ? this.session.row(row.parent) : null) out.push(row.id);
    return out.length ? out : [element.id];
  }

  parent(element) {
    const row = this.row(element);
    return row && row.parent ? this.element(row.parent) : undefined;
  }

  /** The TreeItem of `element`, described (see items.js); undefined when
   *  the item is not visible any more. */
  item(element) {
    const row = this.row(element);
    if (!row) return undefined;
    if (row.kind === 'group') {
      const known = this.viewExpanded.get(this.treeItemId(row.id));
      if (known !== undefined && known !== !!row.expanded && row.childCount > 0) this._bump(row.id);
    }
    const d = describeItem(row, {
      id: this.treeItemId(row.id),
      matches: this.session.matches.get(row.id),
    });
    if (row.kind === 'group' && d.collapsible !== 'none' && !this.viewExpanded.has(d.id)) {
      this.viewExpanded.set(d.id, d.collapsible === 'expanded');
    }
    this.handedItems.set(row.id, row);
    return d;
  }

  /** The view opened or closed a group (onDidExpandElement / onDidCollapseElement). */
  viewToggled(element, expanded) {
    const row = this.row(element);
    this.viewExpanded.set(this.treeItemId(element.id), expanded);
    if (!expanded && row) this.handedChildren.delete(element.id);
  }

  _bump(id) {
    this.generations.set(id, (this.generations.get(id) || 0) + 1);
  }

  /**
   * What the view refreshes after the list changed (a session 'settled'
   * record): `{all: true}` or `{elements: [...]}` (a refreshed element is
   * asked for its TreeItem and, when open, its children again).
   * @param {{reset: boolean, deleted: object[], filled: object[], updatedGroups: Set<string>, matchesChanged: Set<string>}} rec
   * - Complexity: O(k) in the rows changed, plus O(c) per parent whose
   *   children changed (c its children).
   */
  planRefresh(rec) {
    const list = this.session.list;
    const parents = new Set(); // parent ids whose children lists are refreshed (null: top level)
    const items = new Set(); // ids whose TreeItems are refreshed

    const groupsToCheck = new Set(rec.updatedGroups);
    for (const r of rec.filled) if (r.kind === 'group') groupsToCheck.add(r.id);
    for (const id of groupsToCheck) {
      const row = list.get(id);
      const tid = this.treeItemId(id);
      const known = this.viewExpanded.get(tid);
      if (!row) {
        // Hidden now: whatever the view remembers of it may be wrong.
        if (known !== undefined) this._bump(id);
        continue;
      }
      if (known !== undefined && known !== !!row.expanded && row.childCount > 0) {
        this._bump(id);
        parents.add(row.parent ?? null);
      }
    }

    if (rec.reset) {
      this.handedChildren.clear();
      return { all: true };
    }

    const touchedParents = new Set();
    for (const r of rec.deleted) {
      touchedParents.add(r.parent ?? null);
      if (!list.get(r.id)) { this.handedChildren.delete(r.id); this.handedItems.delete(r.id); }
    }
    for (const r of rec.filled) {
      touchedParents.add(r.parent ?? null);
      // An item the view shows whose look changed (an edit, a count).
      const handed = this.handedItems.get(r.id);
      if (handed && !sameLook(handed, r)) items.add(r.id);
    }
    for (const id of rec.matchesChanged) if (this.handedItems.has(id) && list.get(id)) items.add(id);
    for (const p of touchedParents) {
      const handed = this.handedChildren.get(p);
      if (!handed) continue; // the view has not listed them (closed there)
      if (p !== null && !list.get(p)) continue; // gone with its parent
      const now = list.children(p);
      if (now.length !== handed.length || now.some((r, i) => r.id !== handed[i])) parents.add(p);
    }
    if (parents.has(null)) return { all: true };
    const out = new Set([...parents, ...items]);
    // A refreshed element takes its subtree along: drop its descendants.
    const elements = [];
    for (const id of out) {
      const row = list.get(id);
      if (!row) continue;
      let covered = false;
      for (let p = row.parent; p; p = list.get(p) && list.get(p).parent) if (out.has(p)) { covered = true; break; }
      if (!covered) elements.push(this.element(id));
    }
    return { elements };
  }
}

module.exports = { OutlineTreeModel };
