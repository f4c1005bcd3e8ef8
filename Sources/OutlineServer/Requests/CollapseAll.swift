import JSONRPC
import OutlineModel

/// `collapseAll {uri, scrollTop?, viewportHeight?}` (PROTOCOL §4) → the
/// toggle result with `id: null`, `expanded: false`.
struct CollapseAllRequest: OutlineDocumentRequest {
  static let method = "collapseAll"
  static let changesViewState = true

  let uri: String
  var anchor: Anchor

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    anchor = try Anchor(p)
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> ExpansionReply {
    let doc = try document(on: server)
    let r = doc.state.collapseAll(scrollTop: anchor.scrollTop, viewportHeight: anchor.viewportHeight)
    return ExpansionReply(r, doc.state, target: .none, expanded: false)
  }
}
