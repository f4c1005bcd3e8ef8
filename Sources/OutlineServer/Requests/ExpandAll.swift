import JSONRPC
import OutlineModel

/// `expandAll {uri, depth?, scrollTop?, viewportHeight?}` (PROTOCOL §4) →
/// the toggle result with `id: null`, `expanded: true`; `-32602` under
/// policy `single`.
struct ExpandAllRequest: OutlineDocumentRequest {
  static let method = "expandAll"
  static let changesViewState = true

  let uri: String
  /// Opens the groups whose depth is below it; all when `nil`.
  var depth: Int?
  var anchor: Anchor

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    depth = try p.optionalInt("depth")
    anchor = try Anchor(p)
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> ExpansionReply {
    let doc = try document(on: server)
    do {
      let r = try doc.state.expandAll(
        depth: depth, scrollTop: anchor.scrollTop, viewportHeight: anchor.viewportHeight)
      return ExpansionReply(r, doc.state, target: .none, expanded: true)
    } catch {
      throw .invalidParams("expandAll is not allowed under policy \"single\": open one group with toggleSection")
    }
  }
}
