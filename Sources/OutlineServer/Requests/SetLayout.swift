import JSONRPC
import OutlineModel

/// `setLayout {uri, …layout fields}` (PROTOCOL §5) → `{version,
/// contentHeight}`: every field is optional and only the fields given
/// change (see ``LayoutFields``).
struct SetLayoutRequest: OutlineDocumentRequest {
  static let method = "setLayout"

  let uri: String
  var layout: LayoutOverrides

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    layout = try LayoutFields.read(p)
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    doc.state.setLayout(layout)
    return Result(version: doc.state.version, contentHeight: doc.state.contentHeight)
  }

  /// `{version, contentHeight}`.
  struct Result: JSONWritable {
    var version: Int
    var contentHeight: Double

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("version", version)
        json.member("contentHeight", contentHeight)
      }
    }
  }
}
