import JSONRPC
import OutlineModel

/// `revealItem {uri, id, scrollTop?, viewportHeight?}` (PROTOCOL §9) → the
/// toggle result without `expanded` (``ExpansionReply``, `id` the item),
/// plus `index`: opens the closed ancestors of the item (not the item
/// itself), under `single` closing their open siblings as a toggle would.
///
/// With `scrollTop` and `viewportHeight` (one without the other is
/// `-32602`), the returned `scrollTop` is the given one when the item is
/// already within the viewport, else the smallest move that brings its
/// whole row (or its top, when it is taller than the viewport) into view.
/// While filtered, an item the filter hides is not revealed: `index` is
/// `null` and nothing changes. An unknown id is `-32012`.
struct RevealItemRequest: OutlineDocumentRequest {
  static let method = "revealItem"
  static let changesViewState = true

  let uri: String
  var id: String
  var anchor: Anchor

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    id = try p.string("id")
    anchor = try Anchor(p)
    if anchor.scrollTop != nil, anchor.viewportHeight == nil {
      throw p.fail("viewportHeight", "is missing: revealItem needs it with \"scrollTop\"")
    }
    if anchor.viewportHeight != nil, anchor.scrollTop == nil {
      throw p.fail("scrollTop", "is missing: revealItem needs it with \"viewportHeight\"")
    }
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    guard let position = doc.state.outline.position(of: id) else {
      throw ResponseError(code: .unknownSection, message: "no item has id \"\(id)\"")
    }
    let r = doc.state.reveal(position, scrollTop: anchor.scrollTop, viewportHeight: anchor.viewportHeight)
    return Result(reply: ExpansionReply(r.expansion, doc.state, target: .item(id)), index: r.index)
  }

  /// The toggle result's members (no `expanded`) and `index`.
  struct Result: JSONWritable {
    var reply: ExpansionReply
    /// The item's index in the visible list; `nil` when the filter hides it.
    var index: Int?

    func write(to json: inout JSONWriter) {
      json.object { json in
        reply.writeMembers(to: &json)
        json.key("index")
        if let index { json.value(index) } else { json.null() }
      }
    }
  }
}
