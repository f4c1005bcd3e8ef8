import JSONRPC
import OutlineModel

/// `toggleSection {uri, section: id | index, expanded?, scrollTop?,
/// viewportHeight?}` (PROTOCOL §4) → the toggle result
/// (``ExpansionReply``, `id` the group targeted).
///
/// A row id, an unknown id or an index out of range is `-32012`.
struct ToggleSectionRequest: OutlineDocumentRequest {
  static let method = "toggleSection"
  static let mayTakeLong = false
  static let changesViewState = true

  /// A group named by id, or the item at a visible index.
  enum Section: Sendable {
    case id(String)
    case index(Int64)
  }

  let uri: String
  var section: Section
  /// The state to set; `nil` flips.
  var expanded: Bool?
  var anchor: Anchor

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    guard let value = p.value("section") else { throw p.fail("section", "is missing") }
    if let id = value.stringValue {
      section = .id(id)
    } else if value.kind == .int, let i = value.intValue {
      section = .index(i)
    } else {
      throw p.fail("section", "must be a group id (string) or a visible index (integer)")
    }
    expanded = try p.optionalBool("expanded")
    anchor = try Anchor(p)
  }

  /// The item position `section` names.
  /// - Throws: `-32012 UnknownSection` for a row, an unknown id or an index out of range.
  static func position(of section: Section, in state: OutlineState) throws(ResponseError) -> Int {
    switch section {
    case .id(let id):
      guard let position = state.outline.position(of: id) else {
        throw ResponseError(code: .unknownSection, message: "no group has id \"\(id)\"")
      }
      guard state.outline.isGroup(at: position) else {
        throw ResponseError(code: .unknownSection, message: "\"\(id)\" is a row, not a group")
      }
      return position
    case .index(let i):
      guard i >= 0, i < state.total, let v = state.visibleItem(atIndex: Int(i)) else {
        throw ResponseError(code: .unknownSection, message: "no visible item has index \(i) (total \(state.total))")
      }
      guard state.outline.isGroup(at: v.position) else {
        throw ResponseError(code: .unknownSection, message: "visible item \(i) is a row, not a group")
      }
      return v.position
    }
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> ExpansionReply {
    let doc = try document(on: server)
    // One exclusive access to the state: reading `doc.state` as a value copies it (retains each of its buffers).
    return try Self.toggle(section, &doc.state, expanded: expanded, anchor: anchor)
  }

  private static func toggle(_ section: Section, _ state: inout OutlineState, expanded: Bool?, anchor: Anchor)
    throws(ResponseError) -> ExpansionReply
  {
    let position = try position(of: section, in: state)
    let r: ExpansionResult
    do {
      r = try state.toggle(
        position, expanded: expanded, scrollTop: anchor.scrollTop, viewportHeight: anchor.viewportHeight)
    } catch {
      throw ResponseError(code: .unknownSection, message: "item \(position) is not a group")
    }
    return ExpansionReply(
      r, state, target: .item(state.outline.id(at: position)), expanded: state.isExpanded(position))
  }
}
