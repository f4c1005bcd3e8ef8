import JSONRPC
import OutlineModel

/// `visibleRows`, `rowAtOffset` (PROTOCOL §4).
extension OutlineServer {
  /// The most rows one `visibleRows` or `rowHeights` answer carries.
  static let maxRowsPerAnswer = 10_000

  /// A Row of PROTOCOL §4; optional fields are omitted when absent.
  func rowJSON(_ v: VisibleItem, _ state: OutlineState) -> JSONValue {
    // Field reads: a whole item would also make the texts this row does not have.
    let outline = state.outline
    let p = v.position
    let isGroup = outline.isGroup(at: p)
    var o: [String: JSONValue] = [
      "index": .number(v.index),
      "id": .string(outline.id(at: p)),
      "kind": .string(outline.kind(at: p).rawValue),
      "depth": .number(outline.depth(at: p)),
      "parent": outline.parent(at: p).map { .string(outline.id(at: $0)) } ?? .null,
      "title": .string(outline.title(at: p)),
      "top": .number(v.top),
      "height": .number(v.height),
      "isLastChild": .bool(state.isLastChild(v.position)),
    ]
    if isGroup {
      if let b = outline.badge(at: p) { o["badge"] = .string(b) }
      o["expanded"] = .bool(v.expanded)
      o["childCount"] = .number(outline.childCount(at: p))
      o["rowCount"] = .number(outline.rowCount(at: p))
      o["activeCount"] = .number(outline.activeCount(at: p))
    } else {
      if let d = outline.detail(at: p) { o["detail"] = .string(d) }
      if let i = outline.icon(at: p) { o["icon"] = .string(i) }
      if let d = outline.data(at: p) { o["data"] = JSONValue(d) }
      o["active"] = .bool(outline.active(at: p))
      o["emphasis"] = .bool(outline.emphasis(at: p))
    }
    return .object(o)
  }

  func visibleRows(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let state = doc.state
    let start = try p.optionalInt("start") ?? 0
    let count = min(try p.optionalInt("count") ?? Self.maxRowsPerAnswer, Self.maxRowsPerAnswer)
    let items: [VisibleItem]
    if let viewport = try p.optionalObject("viewport") {
      let top = try viewport.number("top")
      let height = try viewport.number("height")
      guard height >= 0 else { throw viewport.fail("height", "must be ≥ 0") }
      items = state.visibleItems(viewportTop: top, height: height, limit: Self.maxRowsPerAnswer)
      doc.viewportHeight = height
      doc.state.scrollTop = max(0, top)
    } else {
      items = state.visibleItems(start: start, count: count)
    }
    return .object([
      "version": .number(state.version),
      "total": .number(state.total),
      "contentHeight": .number(state.contentHeight),
      "rows": .array(items.map { rowJSON($0, state) }),
    ])
  }

  func rowAtOffset(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let y = try p.number("y")
    guard let v = doc.state.visibleItem(atOffset: y) else { return .null }
    return .object([
      "index": .number(v.index),
      "id": .string(doc.state.outline.id(at: v.position)),
      "top": .number(v.top),
      "height": .number(v.height),
    ])
  }
}
