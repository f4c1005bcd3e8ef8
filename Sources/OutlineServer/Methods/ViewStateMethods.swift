import JSONRPC
import OutlineModel

/// `filterOutline`, `navigate`, `getViewState`, `setViewState` (PROTOCOL §6).
extension OutlineServer {
  /// Converts a range of `text` to `{field, start, length}` in the negotiated position encoding.
  func rangeJSON(_ r: Range<String.Index>, in text: String, field: String) -> JSONValue {
    func units(_ a: String.Index, _ b: String.Index) -> Int {
      switch positionEncoding {
      case .utf8: return text.utf8.distance(from: a, to: b)
      case .utf16: return text.utf16.distance(from: a, to: b)
      case .utf32: return text.unicodeScalars.distance(from: a, to: b)
      }
    }
    return .object([
      "field": .string(field), "start": .number(units(text.startIndex, r.lowerBound)),
      "length": .number(units(r.lowerBound, r.upperBound)),
    ])
  }

  func filterOutline(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let query = try p.string("query")
    let (scrollTop, viewportHeight) = try anchor(p)
    let (r, matches) = doc.state.filter(query, scrollTop: scrollTop, viewportHeight: viewportHeight)
    var result = expansionResult(r, doc.state, id: nil, expanded: nil)
    guard case .object(var o) = result else { return result }
    o["matches"] = .array(
      matches.map { m in
        let outline = doc.state.outline
        let title = outline.title(at: m.position)
        let detail = m.detailRanges.isEmpty ? "" : outline.detail(at: m.position) ?? ""
        let ranges =
          m.titleRanges.map { rangeJSON($0, in: title, field: "title") }
          + m.detailRanges.map { rangeJSON($0, in: detail, field: "detail") }
        return .object([
          "index": .number(m.index), "id": .string(outline.id(at: m.position)), "ranges": .array(ranges),
        ])
      })
    result = .object(o)
    return result
  }

  static func navigationKey(_ p: Params) throws(ResponseError) -> NavigationKey {
    guard let value = p.value("key") else { throw p.fail("key", "is missing") }
    switch value {
    case .string("down"): return .down
    case .string("up"): return .up
    case .string("right"): return .right
    case .string("left"): return .left
    case .string("home"): return .home
    case .string("end"): return .end
    case .string("pageDown"): return .pageDown
    case .string("pageUp"): return .pageUp
    case .string("expandSiblings"): return .expandSiblings
    case .object(let o):
      guard case .string(let text)? = o["type"], !text.isEmpty else {
        throw .invalidParams("\"key.type\" must be a non-empty string")
      }
      return .typeAhead(text)
    default:
      throw p.fail(
        "key",
        "must be one of \"down\", \"up\", \"right\", \"left\", \"home\", \"end\", \"pageDown\", \"pageUp\", "
          + "\"expandSiblings\", or {\"type\": text}")
    }
  }

  func navigate(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let from = try p.string("from")
    let key = try Self.navigationKey(p)
    guard let position = doc.state.outline.position(of: from) else {
      throw ResponseError(code: .unknownSection, message: "no item has id \"\(from)\"")
    }
    let r: NavigationResult
    do {
      r = try doc.state.navigate(from: position, key: key, pageHeight: doc.viewportHeight)
    } catch .expandAllUnderSinglePolicy {
      throw .invalidParams("expandSiblings is not allowed under policy \"single\"")
    } catch {
      throw ResponseError(code: .unknownSection, message: "\"\(from)\" cannot be navigated from: the list is empty")
    }
    var o: [String: JSONValue] = ["focus": .string(doc.state.outline.id(at: r.focus)), "index": .number(r.index)]
    if let expansion = r.expansion {
      let fields = expansionResult(
        expansion, doc.state, id: r.toggled.map { .string(doc.state.outline.id(at: $0)) },
        expanded: r.toggled.map { doc.state.isExpanded($0) })
      if case .object(let f) = fields { o.merge(f) { a, _ in a } }
    }
    return .object(o)
  }

  func getViewState(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    var o: [String: JSONValue] = ["expanded": .array(doc.state.expandedIDs.map(JSONValue.string))]
    if let f = doc.state.focus { o["focus"] = .string(doc.state.outline.id(at: f)) }
    if let s = doc.state.scrollTop { o["scrollTop"] = .number(s) }
    return .object(o)
  }

  func setViewState(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    guard case .array(let list)? = p.value("expanded") else {
      throw p.fail("expanded", p.has("expanded") ? "must be an array of group ids" : "is missing")
    }
    var ids: [String] = []
    for case let v in list {
      guard case .string(let id) = v else { throw p.fail("expanded", "must be an array of group ids") }
      ids.append(id)
    }
    let focus = try p.optionalString("focus")
    let scrollTop = try p.optionalNumber("scrollTop")
    let r = doc.state.setViewState(expanded: ids, focus: focus, scrollTop: scrollTop)
    return expansionResult(r, doc.state, id: nil, expanded: nil)
  }
}
