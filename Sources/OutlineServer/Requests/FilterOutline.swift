import JSONRPC
import OutlineModel

/// `filterOutline {uri, query, scrollTop?, viewportHeight?}` (PROTOCOL §6)
/// → the toggle result (no `id`/`expanded`) plus `matches: [{index, id,
/// ranges: [{field, start, length}]}]`, ranges in the negotiated position
/// encoding. An empty query clears the filter.
struct FilterOutlineRequest: OutlineDocumentRequest {
  static let method = "filterOutline"
  static let changesViewState = true

  let uri: String
  var query: String
  var anchor: Anchor

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    query = try p.string("query")
    anchor = try Anchor(p)
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    let (r, matches) = doc.state.filter(
      query, scrollTop: anchor.scrollTop, viewportHeight: anchor.viewportHeight)
    return Result(
      expansion: ExpansionReply(r, doc.state), outline: doc.state.outline, matches: matches,
      encoding: server.positionEncoding)
  }

  /// Code units of `encoding` in `utf8[from ..< to]`: UTF-8 bytes, UTF-16 units
  /// (a 4-byte sequence is two), or scalars.
  /// - Complexity: O(to − from).
  static func units(_ utf8: UnsafeBufferPointer<UInt8>, from: Int, to: Int, _ encoding: PositionEncoding) -> Int {
    if encoding == .utf8 { return to - from }
    var n = 0
    for i in from..<to {
      let b = utf8[i]
      if b & 0xC0 != 0x80 { n += 1 }  // the first byte of a scalar
      if b >= 0xF0 && encoding == .utf16 { n += 1 }  // a scalar beyond the BMP: a surrogate pair
    }
    return n
  }

  /// Writes one place the query occurs, `{field, start, length}` within that
  /// field in code units of `encoding`, from its range of UTF-8 bytes.
  static func writeRange(
    _ range: Range<Int>, in utf8: UnsafeBufferPointer<UInt8>, field: StaticString, _ encoding: PositionEncoding,
    to json: inout JSONWriter
  ) {
    json.object { json in
      json.key("field")
      json.value(plain: field)
      json.member("start", units(utf8, from: 0, to: range.lowerBound, encoding))
      json.member("length", units(utf8, from: range.lowerBound, to: range.upperBound, encoding))
    }
  }

  /// The toggle result's members and `matches: [{index, id, ranges}]`, each
  /// match written from the outline's UTF-8 storage when the reply is written.
  struct Result: JSONWritable {
    var expansion: ExpansionReply
    /// The outline the matches point into (it shares the state's storage).
    var outline: Outline
    var matches: [FilterMatch]
    var encoding: PositionEncoding

    func write(to json: inout JSONWriter) {
      json.object { json in
        expansion.writeMembers(to: &json)
        json.key("matches")
        json.array { json in
          for m in matches {
            json.object { json in
              json.member("index", m.index)
              json.key("id")
              outline.withIDUTF8(at: m.position) { json.value(utf8: $0) }
              json.key("ranges")
              json.array { json in
                outline.withTitleUTF8(at: m.position) { title in
                  for r in m.titleRanges {
                    FilterOutlineRequest.writeRange(r, in: title, field: "title", encoding, to: &json)
                  }
                }
                if !m.detailRanges.isEmpty {
                  outline.withDetailUTF8(at: m.position) { detail in
                    guard let detail else { return }
                    for r in m.detailRanges {
                      FilterOutlineRequest.writeRange(r, in: detail, field: "detail", encoding, to: &json)
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
