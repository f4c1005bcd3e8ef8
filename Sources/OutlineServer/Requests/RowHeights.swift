import JSONRPC
import OutlineModel

/// `rowHeights {uri, start?, count?, width?}` (PROTOCOL §5) → `{version,
/// heights, tops, contentHeight}` of a window of the visible list (at most
/// 10,000); `width` is a `setLayout` with that width, done first.
struct RowHeightsRequest: OutlineDocumentRequest {
  static let method = "rowHeights"

  let uri: String
  var start: Int
  var count: Int
  var width: Double?

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    start = try p.optionalInt("start") ?? 0
    count = min(try p.optionalInt("count") ?? VisibleRowsRequest.maxRows, VisibleRowsRequest.maxRows)
    width = try p.optionalNumber("width", above: 0, max: LayoutLimits.maxLength)
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    if let width {
      var l = LayoutOverrides()
      l.width = width
      doc.state.setLayout(l)
    }
    let items = doc.state.visibleItems(start: start, count: count)
    return Result(
      version: doc.state.version, heights: items.map(\.height), tops: items.map(\.top),
      contentHeight: doc.state.contentHeight)
  }

  /// `{version, heights, tops, contentHeight}`.
  struct Result: JSONWritable {
    var version: Int
    var heights: [Double]
    var tops: [Double]
    var contentHeight: Double

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("version", version)
        json.member("heights", heights)
        json.member("tops", tops)
        json.member("contentHeight", contentHeight)
      }
    }
  }
}
