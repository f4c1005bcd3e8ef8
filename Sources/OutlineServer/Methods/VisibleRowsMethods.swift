import JSONRPC
import OutlineModel

/// `visibleRows`, `rowAtOffset` (PROTOCOL §4).
extension OutlineServer {
  /// The most rows one `visibleRows` or `rowHeights` answer carries.
  static let maxRowsPerAnswer = 10_000

  /// A Row of PROTOCOL §4; optional fields are omitted when absent.
  func rowJSON(_ v: VisibleItem, _ state: OutlineState) -> JSONValue {
    let item = state.item(v.position)
    var o: [String: JSONValue] = [
      "index": .number(v.index),
      "id": .string(item.id),
      "kind": .string(item.kind.rawValue),
      "depth": .number(item.depth),
      "parent": item.parent.map { .string(state.item($0).id) } ?? .null,
      "title": .string(item.title),
      "top": .number(v.top),
      "height": .number(v.height),
      "isLastChild": .bool(state.isLastChild(v.position)),
    ]
    if let d = item.detail { o["detail"] = .string(d) }
    if let i = item.icon { o["icon"] = .string(i) }
    if let b = item.badge { o["badge"] = .string(b) }
    if let d = item.data { o["data"] = JSONValue(d) }
    if item.isGroup {
      o["expanded"] = .bool(v.expanded)
      o["childCount"] = .number(item.childCount)
      o["rowCount"] = .number(item.rowCount)
      o["activeCount"] = .number(item.activeCount)
    } else {
      o["active"] = .bool(item.active)
      o["emphasis"] = .bool(item.emphasis)
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
      "id": .string(doc.state.item(v.position).id),
      "top": .number(v.top),
      "height": .number(v.height),
    ])
  }
}
