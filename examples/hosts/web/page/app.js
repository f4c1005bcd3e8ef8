// A virtualized outline whose row heights and positions come from
// outline-server. The page never measures text: it sends the server the
// font, size, line height, indent and padding of its stylesheet (unit
// "font"), asks for the rows on screen (visibleRows with a viewport), places
// each at the server's `top` and makes the list as high as the server's
// `contentHeight`. The only geometry it reads is the list's own: its width
// (from a ResizeObserver), height and scroll position.
//
// Talks JSON-RPC 2.0 to the server through bridge.py: POST /rpc, one message
// per request. Every step that talks to the server runs in one queue, so
// each sees the state the step before left.
"use strict";

const MARGIN = 600; // px of rows kept above and below the viewport
const params = new URLSearchParams(location.search);
// "text": the browser breaks each text itself (white-space: pre-wrap; overflow-wrap: anywhere).
// "lines": one block per line of the server's breaking (white-space: pre).
const RENDER = params.get("render") === "lines" ? "lines" : "text";

const scroller = document.getElementById("scroller");
const content = document.getElementById("content");
const statusLine = document.getElementById("status");
const picker = document.getElementById("outline");

const page = {
  uri: null,
  outline: null, // the openOutline result
  width: null, // the list's width, as last observed
  layoutWidth: null, // the width the server last laid out at
  contentHeight: 0,
  fonts: [],
  focus: null, // id of the focused item
  rendered: null, // {scrollTop, width} the rows on screen were asked for
  items: new Map(), // id -> {el, key, row}
  errors: [],
};

// ------------------------------------------------------------------ the server

class RpcError extends Error {
  constructor(method, error) {
    super(`${method}: ${error.message} (${error.code})`);
    this.code = error.code;
    this.data = error.data;
  }
}

let nextId = 0;
async function rpc(method, params) {
  const response = await fetch("/rpc", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }),
  });
  if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${await response.text()}`);
  const message = await response.json();
  if (message.error) throw new RpcError(method, message.error);
  return message.result;
}

let queue = Promise.resolve();
let pending = 0;
function enqueue(task) {
  pending++;
  queue = queue
    .then(task)
    .catch(showError)
    .finally(() => pending--);
  return queue;
}

function showError(error) {
  page.errors.push(String(error.message || error));
  statusLine.textContent = String(error.message || error);
  statusLine.classList.add("error");
  console.error(error);
}

// ------------------------------------------------------------------ the layout

// The layout the stylesheet draws, in the server's terms (PROTOCOL §5, §10).
function layoutFromCSS() {
  const css = getComputedStyle(document.documentElement);
  const px = (name) => {
    const value = parseFloat(css.getPropertyValue(name));
    if (!Number.isFinite(value)) throw new Error(`style.css: ${name} is not a length in px`);
    return value;
  };
  const family = [...css.getPropertyValue("--font-family").matchAll(/"([^"]*)"|'([^']*)'|([^,\s][^,]*)/g)]
    .map((m) => (m[1] ?? m[2] ?? m[3]).trim())
    .filter((f) => f);
  return {
    unit: "font",
    font: { family, size: px("--font-size"), weight: 400, style: "normal" },
    lineHeight: px("--line-height"),
    headerHeight: px("--header-height"),
    rowHeight: "auto",
    indent: px("--indent"),
    padding: { top: px("--pad-top"), bottom: px("--pad-bottom"), left: px("--pad-left"), right: px("--pad-right") },
  };
}
const LAYOUT = layoutFromCSS();

// ------------------------------------------------------------------ drawing

function setContentHeight(height) {
  page.contentHeight = height;
  content.style.height = `${height}px`;
}

function domId(id) {
  return `item-${encodeURIComponent(id)}`;
}

// What of a row is drawn: an item is redrawn when this changes.
function drawKey(row) {
  return JSON.stringify([row.kind, row.title, row.detail, row.depth, row.expanded, row.activeCount, row.rowCount,
    row.active, row.emphasis, row.badge, RENDER === "lines" ? row.lines : null]);
}

function textBlock(className, text, lines) {
  const block = document.createElement("div");
  block.className = className;
  if (RENDER === "lines") {
    for (const line of lines) {
      const div = document.createElement("div");
      div.className = "line";
      div.textContent = line;
      block.appendChild(div);
    }
  } else {
    block.textContent = text;
  }
  return block;
}

function draw(el, row) {
  const left = LAYOUT.indent * row.depth;
  el.className = `item ${row.kind}` + (row.active === false ? " inactive" : "") + (row.emphasis ? " emphasis" : "");
  el.id = domId(row.id);
  el.dataset.id = row.id;
  el.setAttribute("role", "treeitem");
  el.setAttribute("aria-level", row.depth + 1);
  el.style.paddingLeft = `${left + LAYOUT.padding.left}px`;
  el.replaceChildren();
  if (row.kind === "group") {
    el.setAttribute("aria-expanded", String(row.expanded));
    const arrow = document.createElement("span");
    arrow.className = "arrow";
    arrow.textContent = "▸";
    arrow.style.left = `${left + 6}px`;
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = row.title;
    el.append(arrow, title);
    if (row.badge) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = row.badge;
      el.append(badge);
    }
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${row.activeCount}/${row.rowCount}`;
    el.append(count);
  } else {
    el.removeAttribute("aria-expanded");
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.left = `${left + 8}px`;
    el.append(dot, textBlock("title", row.title, row.lines.title));
    if (row.detail) el.append(textBlock("detail", row.detail, row.lines.detail || []));
  }
}

// Shows `rows` (a visibleRows answer) and drops the items not among them.
function render(rows) {
  const seen = new Set();
  for (const row of rows) {
    seen.add(row.id);
    let item = page.items.get(row.id);
    if (!item) {
      item = { el: document.createElement("div"), key: null };
      page.items.set(row.id, item);
      content.appendChild(item.el);
    }
    const key = drawKey(row);
    if (item.key !== key) {
      draw(item.el, row);
      item.key = key;
    }
    item.row = row;
    item.el.style.top = `${row.top}px`;
    item.el.classList.toggle("focused", row.id === page.focus);
  }
  for (const [id, item] of page.items) {
    if (!seen.has(id)) {
      item.el.remove();
      page.items.delete(id);
    }
  }
  if (page.focus && page.items.has(page.focus)) scroller.setAttribute("aria-activedescendant", domId(page.focus));
  else scroller.removeAttribute("aria-activedescendant");
}

// Asks for the rows in the viewport and a margin around it, and shows them.
async function refresh() {
  if (!page.uri) return;
  const scrollTop = scroller.scrollTop;
  const height = scroller.clientHeight;
  const top = Math.max(0, scrollTop - MARGIN);
  const result = await rpc("visibleRows", {
    uri: page.uri,
    viewport: { top, height: scrollTop + height + MARGIN - top },
    include: ["lines"],
  });
  setContentHeight(result.contentHeight);
  render(result.rows);
  page.rendered = { scrollTop, width: page.layoutWidth, total: result.total };
  showStatus(result.total);
}

function showStatus(total) {
  if (statusLine.classList.contains("error")) return;
  const missing = LAYOUT.font.family.filter((f) => !page.fonts.includes(f));
  statusLine.textContent =
    `${total.toLocaleString("en")} shown · ${page.contentHeight.toLocaleString("en")} px at ${page.layoutWidth} px` +
    (missing.length ? ` · no font ${missing.join(", ")}` : "");
  statusLine.title = `fonts used by the server: ${page.fonts.join(", ")}`;
}

let refreshQueued = false;
function scheduleRefresh() {
  if (refreshQueued) return;
  refreshQueued = true;
  enqueue(async () => {
    refreshQueued = false;
    await refresh();
  });
}

// ------------------------------------------------------------------ width

// A new width: the server lays out again, and the row at the top of the
// viewport stays there (the same share of it above the viewport's edge).
async function relayout() {
  const width = page.width;
  if (!page.uri || width === page.layoutWidth) return refresh();
  const scrollTop = scroller.scrollTop;
  const anchor = scrollTop > 0 ? await rpc("rowAtOffset", { uri: page.uri, y: scrollTop }) : null;
  const result = await rpc("setLayout", { uri: page.uri, width });
  page.layoutWidth = width;
  page.fonts = result.fonts;
  setContentHeight(result.contentHeight);
  if (anchor) {
    const [row] = (await rpc("visibleRows", { uri: page.uri, start: anchor.index, count: 1 })).rows;
    scroller.scrollTop = Math.round(row.top + ((scrollTop - anchor.top) * row.height) / anchor.height);
  }
  await refresh();
}

let layoutQueued = false;
function scheduleLayout() {
  if (layoutQueued) return;
  layoutQueued = true;
  enqueue(async () => {
    layoutQueued = false;
    await relayout();
  });
}

// The list's content width (without a scroll bar) is the layout's width.
let widthKnown;
const firstWidth = new Promise((resolve) => (widthKnown = resolve));
new ResizeObserver((entries) => {
  page.width = entries[entries.length - 1].contentRect.width;
  widthKnown();
  scheduleLayout();
}).observe(scroller);

// ------------------------------------------------------------------ actions

// Shows the result of a toggle, expandAll, collapseAll or navigate that
// changed expansion: the new height, and the server's scrollTop if any.
function applyToggle(result) {
  setContentHeight(result.contentHeight);
  if (result.scrollTop !== undefined) scroller.scrollTop = result.scrollTop;
}

// Flips a group; its header stays where it is on screen (the server's scrollTop).
async function toggle(id, expanded) {
  const params = { uri: page.uri, section: id, scrollTop: scroller.scrollTop };
  if (expanded !== undefined) params.expanded = expanded;
  applyToggle(await rpc("toggleSection", params));
  await refresh();
}

// The focused row moves to `index`/`id`; the list scrolls as little as
// needed to show it whole.
async function focusIndex(id, index) {
  page.focus = id;
  const [row] = (await rpc("visibleRows", { uri: page.uri, start: index, count: 1 })).rows;
  if (row) {
    const viewTop = scroller.scrollTop;
    const viewHeight = scroller.clientHeight;
    if (row.top < viewTop || row.height > viewHeight) scroller.scrollTop = row.top;
    else if (row.top + row.height > viewTop + viewHeight) scroller.scrollTop = row.top + row.height - viewHeight;
  }
  await refresh();
}

// The item to start keyboard moves from: the focused one when it is on
// screen, else the one at the top of the viewport.
async function focusedOrTop() {
  if (page.focus && page.items.has(page.focus)) return page.focus;
  const row = await rpc("rowAtOffset", { uri: page.uri, y: scroller.scrollTop });
  return row && row.id;
}

const KEYS = {
  ArrowDown: "down",
  ArrowUp: "up",
  ArrowRight: "right",
  ArrowLeft: "left",
  Home: "home",
  End: "end",
  "*": "expandSiblings",
};

scroller.addEventListener("keydown", (event) => {
  if (!page.uri || event.altKey || event.ctrlKey || event.metaKey) return;
  const key = event.key;
  if (KEYS[key] || key === "PageDown" || key === "PageUp" || key === "Enter" || key === " " || key.length === 1) {
    event.preventDefault();
  } else {
    return;
  }
  enqueue(async () => {
    const from = await focusedOrTop();
    if (!from) return;
    if (key === "Enter" || key === " ") {
      const item = page.items.get(from);
      page.focus = from;
      if (item.row.kind === "group") await toggle(from);
      else await refresh();
    } else if (key === "PageDown" || key === "PageUp") {
      // A page is the viewport's height: focus the item that far below
      // (above) the focused one's top, found by offset.
      const sign = key === "PageDown" ? 1 : -1;
      const target = await rpc("rowAtOffset", {
        uri: page.uri,
        y: Math.max(0, page.items.get(from).row.top + sign * scroller.clientHeight),
      });
      scroller.scrollTop += sign * scroller.clientHeight;
      await focusIndex(target.id, target.index);
    } else {
      const result = await rpc("navigate", { uri: page.uri, from, key: KEYS[key] || { type: key } });
      if (result.contentHeight !== undefined) applyToggle(result);
      await focusIndex(result.focus, result.index);
    }
  });
});

scroller.addEventListener("scroll", scheduleRefresh, { passive: true });

content.addEventListener("click", (event) => {
  const el = event.target.closest(".item");
  if (!el) return;
  const item = page.items.get(el.dataset.id);
  if (!item) return;
  scroller.focus({ preventScroll: true });
  enqueue(async () => {
    page.focus = item.row.id;
    if (item.row.kind === "group") await toggle(item.row.id);
    else await refresh();
  });
});

document.getElementById("expand-all").addEventListener("click", () =>
  enqueue(async () => {
    applyToggle(await rpc("expandAll", { uri: page.uri }));
    await refresh();
  }),
);
document.getElementById("collapse-all").addEventListener("click", () =>
  enqueue(async () => {
    applyToggle(await rpc("collapseAll", { uri: page.uri }));
    scroller.scrollTop = 0;
    await refresh();
  }),
);

// ------------------------------------------------------------------ opening

async function open(uri) {
  statusLine.classList.remove("error");
  statusLine.textContent = "opening…";
  await firstWidth;
  page.uri = null;
  page.focus = null;
  render([]);
  const width = page.width;
  // Laid out once, in the page's layout; the setLayout after it changes
  // nothing (no new layout) and answers the fonts the server found.
  const outline = await rpc("openOutline", { uri, layout: { ...LAYOUT, width } });
  const result = await rpc("setLayout", { uri, ...LAYOUT, width });
  page.uri = uri;
  page.outline = outline;
  page.layoutWidth = width;
  page.fonts = result.fonts;
  setContentHeight(result.contentHeight);
  scroller.scrollTop = 0;
  await refresh();
  const u = new URL(location.href);
  u.searchParams.set("outline", uri.split("/").pop());
  history.replaceState(null, "", u);
}

async function start() {
  const { outlines } = await (await fetch("/outlines")).json();
  for (const o of outlines) picker.add(new Option(o.name, o.uri));
  const wanted = outlines.find((o) => o.name === params.get("outline")) || outlines[0];
  if (!wanted) throw new Error("the bridge offers no outline");
  picker.value = wanted.uri;
  picker.addEventListener("change", () => enqueue(() => open(picker.value)));
  await open(wanted.uri);
}

enqueue(start);

// For tests and the console: the state, and whether what is on screen is
// what the server said for the current scroll position and width.
window.outlinePage = {
  state: page,
  layout: LAYOUT,
  margin: MARGIN,
  render: RENDER,
  settled() {
    return (
      pending === 0 &&
      page.rendered !== null &&
      page.rendered.scrollTop === scroller.scrollTop &&
      page.rendered.width === page.width
    );
  },
};
