import JSONRPC
import OutlineModel

/// `rowAtOffset {uri, y}` (PROTOCOL §4) → `{index, id, top, height}` of the
/// row covering `y`: the last row past the end, the first for a negative
/// `y`; `null` for an empty list.
struct RowAtOffsetRequest: OutlineDocumentRequest {
  static let method = "rowAtOffset"
  static let mayTakeLong = false

  let uri: String
  var y: Double

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    y = try p.number("y")
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Hit? {
    let doc = try document(on: server)
    guard let v = doc.state.visibleItem(atOffset: y) else { return nil }
    return Hit(index: v.index, id: doc.state.outline.id(at: v.position), top: v.top, height: v.height)
  }

  /// `{index, id, top, height}`.
  struct Hit: JSONWritable {
    var index: Int
    var id: String
    var top: Double
    var height: Double

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("index", index)
        json.member("id", id)
        json.member("top", top)
        json.member("height", height)
      }
    }
  }
}
