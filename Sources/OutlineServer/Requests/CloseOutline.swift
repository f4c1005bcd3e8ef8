import Foundation
import JSONRPC
import OutlineModel

/// `closeOutline {uri}` (PROTOCOL §3) → `null`: saves the view state of a
/// `file:` outline, stops watching it, forgets the uri.
struct CloseOutlineRequest: OutlineDocumentRequest {
  static let method = "closeOutline"

  let uri: String

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> NullResult {
    let doc = try document(on: server)
    if let saved = doc.savedViewState { server.viewStates?.save(saved) }
    server.watcher.unwatch(doc.uri)
    server.documents[doc.uri] = nil
    return NullResult()
  }
}
