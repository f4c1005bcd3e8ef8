import JSONRPC
import OutlineModel

/// `getViewState {uri}` (PROTOCOL §6) → `{expanded: [id], focus?, scrollTop?}`:
/// the user's expansion (also while filtered), focus and scroll offset.
struct GetViewStateRequest: OutlineDocumentRequest {
  static let method = "getViewState"

  let uri: String

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    return Result(
      expanded: doc.state.expandedIDs, focus: doc.state.focus.map { doc.state.outline.id(at: $0) },
      scrollTop: doc.state.scrollTop)
  }

  /// `{expanded, focus?, scrollTop?}`.
  struct Result: JSONWritable {
    var expanded: [String]
    var focus: String?
    var scrollTop: Double?

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("expanded", expanded)
        json.member("focus", ifPresent: focus)
        json.member("scrollTop", ifPresent: scrollTop)
      }
    }
  }
}
