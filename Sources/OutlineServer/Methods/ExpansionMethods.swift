import JSONRPC
import OutlineModel

/// `toggleSection`, `expandAll`, `collapseAll` (PROTOCOL §4).
extension OutlineServer {
  /// The item position a `section` names: a group id, or a visible index.
  /// - Throws: `-32012 UnknownSection` for a row, an unknown id or an index out of range.
  func section(_ p: Params, in state: OutlineState) throws(ResponseError) -> Int {
    guard let value = p.value("section") else { throw p.fail("section", "is missing") }
    switch value {
    case .string(let id):
      guard let position = state.outline.position(of: id) else {
        throw ResponseError(code: .unknownSection, message: "no group has id \"\(id)\"")
      }
      guard state.outline.isGroup(at: position) else {
        throw ResponseError(code: .unknownSection, message: "\"\(id)\" is a row, not a group")
      }
      return position
    case .int(let i):
      guard i >= 0, i < state.total, let v = state.visibleItem(atIndex: Int(i)) else {
        throw ResponseError(code: .unknownSection, message: "no visible item has index \(i) (total \(state.total))")
      }
      guard state.outline.isGroup(at: v.position) else {
        throw ResponseError(code: .unknownSection, message: "visible item \(i) is a row, not a group")
      }
      return v.position
    default:
      throw p.fail("section", "must be a group id (string) or a visible index (integer)")
    }
  }

  /// `scrollTop` and `viewportHeight`, which anchor the result.
  func anchor(_ p: Params) throws(ResponseError) -> (scrollTop: Double?, viewportHeight: Double?) {
    (try p.optionalNumber("scrollTop"), try p.optionalNumber("viewportHeight", min: 0))
  }

  func expansionResult(_ r: ExpansionResult, _ state: OutlineState, id: JSONValue?, expanded: Bool?) -> JSONValue {
    var o: [String: JSONValue] = [
      "version": .number(state.version),
      "changes": .array(r.changes.map(\.jsonValue)),
      "updatedGroups": .array(r.updatedGroups.map(JSONValue.string)),
      "total": .number(state.total),
      "contentHeight": .number(state.contentHeight),
    ]
    if let id { o["id"] = id }
    if let expanded { o["expanded"] = .bool(expanded) }
    if let s = r.scrollTop { o["scrollTop"] = .number(s) }
    return .object(o)
  }

  func toggleSection(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let position = try section(p, in: doc.state)
    let expanded = try p.optionalBool("expanded")
    let (scrollTop, viewportHeight) = try anchor(p)
    let r: ExpansionResult
    do {
      r = try doc.state.toggle(position, expanded: expanded, scrollTop: scrollTop, viewportHeight: viewportHeight)
    } catch {
      throw ResponseError(code: .unknownSection, message: "item \(position) is not a group")
    }
    return expansionResult(
      r, doc.state, id: .string(doc.state.outline.id(at: position)), expanded: doc.state.isExpanded(position))
  }

  func expandAll(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let depth = try p.optionalInt("depth")
    let (scrollTop, viewportHeight) = try anchor(p)
    do {
      let r = try doc.state.expandAll(depth: depth, scrollTop: scrollTop, viewportHeight: viewportHeight)
      return expansionResult(r, doc.state, id: .null, expanded: true)
    } catch {
      throw .invalidParams("expandAll is not allowed under policy \"single\": open one group with toggleSection")
    }
  }

  func collapseAll(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let (scrollTop, viewportHeight) = try anchor(p)
    let r = doc.state.collapseAll(scrollTop: scrollTop, viewportHeight: viewportHeight)
    return expansionResult(r, doc.state, id: .null, expanded: false)
  }
}
