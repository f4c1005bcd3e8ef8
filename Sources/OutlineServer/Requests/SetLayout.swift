import JSONRPC
import OutlineFont
import OutlineModel

/// `setLayout {uri, …layout fields}` (PROTOCOL §5, §10) → `{version,
/// contentHeight}`, and in unit `font` `fonts`: the requested families the
/// machine has, in order. Every field is optional and only the fields given
/// change (see ``LayoutFields``); a layout in unit `font` without `font` or
/// `lineHeight` is `-32602` and changes nothing.
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
    try LayoutFields.checkFont(doc.state.outline.layout.merged(with: doc.state.hostLayout).merged(with: layout))
    doc.state.setLayout(layout)
    let fonts = doc.state.layout.unit == .font ? (doc.state.lineBreaker as? FontLineBreaker)?.families : nil
    return Result(version: doc.state.version, contentHeight: doc.state.contentHeight, fonts: fonts)
  }

  /// `{version, contentHeight, fonts?}`.
  struct Result: JSONWritable {
    var version: Int
    var contentHeight: Double
    /// In unit `font`: the families used, in order.
    var fonts: [String]?

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("version", version)
        json.member("contentHeight", contentHeight)
        json.member("fonts", ifPresent: fonts)
      }
    }
  }
}
