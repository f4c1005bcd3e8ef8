import JSONRPC
import OutlineModel

/// `setViewState {uri, expanded: [id], focus?, scrollTop?}` (PROTOCOL §6)
/// → the toggle result (no `id`/`expanded`): `expanded` is the whole set of
/// open groups; unknown ids are ignored.
struct SetViewStateRequest: OutlineDocumentRequest {
  static let method = "setViewState"
  static let changesViewState = true

  let uri: String
  var expanded: [String]
  var focus: String?
  var scrollTop: Double?

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    guard let ids = try p.optionalStrings("expanded", "must be an array of group ids") else {
      throw p.fail("expanded", "is missing")
    }
    expanded = ids
    focus = try p.optionalString("focus")
    scrollTop = try p.optionalNumber("scrollTop")
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> ExpansionReply {
    let doc = try document(on: server)
    let r = doc.state.setViewState(expanded: expanded, focus: focus, scrollTop: scrollTop)
    return ExpansionReply(r, doc.state)
  }
}
