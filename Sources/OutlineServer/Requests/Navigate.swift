import JSONRPC
import OutlineModel

/// `navigate {uri, from: id, key}` (PROTOCOL §6) → `{focus, index}`, plus
/// the toggle result's fields when the key changed the expansion (with
/// `id`/`expanded` of the group `right`/`left` toggled).
struct NavigateRequest: OutlineDocumentRequest {
  static let method = "navigate"
  static let changesViewState = true

  let uri: String
  var from: String
  var key: NavigationKey

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    from = try p.string("from")
    guard let value = p.value("key") else { throw p.fail("key", "is missing") }
    switch value.stringValue {
    case "down": key = .down
    case "up": key = .up
    case "right": key = .right
    case "left": key = .left
    case "home": key = .home
    case "end": key = .end
    case "pageDown": key = .pageDown
    case "pageUp": key = .pageUp
    case "expandSiblings": key = .expandSiblings
    case nil where value.kind == .object:
      guard let text = value["type"]?.stringValue, !text.isEmpty else {
        throw .invalidParams("\"key.type\" must be a non-empty string")
      }
      key = .typeAhead(text)
    default:
      throw p.fail(
        "key",
        "must be one of \"down\", \"up\", \"right\", \"left\", \"home\", \"end\", \"pageDown\", \"pageUp\", "
          + "\"expandSiblings\", or {\"type\": text}")
    }
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
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
    let state = doc.state
    let expansion = r.expansion.map { e in
      ExpansionReply(
        e, state, target: r.toggled.map { .item(state.outline.id(at: $0)) } ?? .absent,
        expanded: r.toggled.map { state.isExpanded($0) })
    }
    return Result(focus: state.outline.id(at: r.focus), index: r.index, expansion: expansion)
  }

  /// `{focus, index}` and, when the key changed the expansion, the toggle result's members.
  struct Result: JSONWritable {
    var focus: String
    var index: Int
    var expansion: ExpansionReply?

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("focus", focus)
        json.member("index", index)
        expansion?.writeMembers(to: &json)
      }
    }
  }
}
