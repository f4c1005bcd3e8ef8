import Foundation
import JSONRPC
import OutlineModel

/// `changeOutline {uri, text}` (PROTOCOL §3) → `{applied, version,
/// diagnostics, changes}`: the new text replaces the outline, the user's
/// expansion kept by id; with errors, `applied: false` and the last good
/// outline stays.
struct ChangeOutlineRequest: OutlineDocumentRequest {
  static let method = "changeOutline"
  static let changesViewState = true

  let uri: String
  var text: String

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    text = try p.string("text")
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    return try server.reload(doc, from: .text(Array(text.utf8)), cancellation: cancellation)
  }

  /// `{applied, version, diagnostics, changes}`; also what `outlineChanged` carries.
  struct Result: JSONWritable {
    /// `false` when the text had errors and the last good outline stayed.
    var applied: Bool
    var version: Int
    var diagnostics: [LSPDiagnostic]
    var changes: [OutlineChange]

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("applied", applied)
        json.member("version", version)
        json.member("diagnostics", diagnostics)
        json.member("changes", changes)
      }
    }
  }
}
