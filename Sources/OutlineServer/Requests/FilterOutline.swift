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
    let outline = doc.state.outline
    let encoding = server.positionEncoding
    return Result(
      expansion: ExpansionReply(r, doc.state),
      matches: matches.map { m in
        let title = outline.title(at: m.position)
        let detail = m.detailRanges.isEmpty ? "" : outline.detail(at: m.position) ?? ""
        return Match(
          index: m.index, id: outline.id(at: m.position),
          ranges: m.titleRanges.map { MatchRange($0, in: title, field: "title", encoding) }
            + m.detailRanges.map { MatchRange($0, in: detail, field: "detail", encoding) })
      })
  }

  /// One place the query occurs: `{field, start, length}` within that field.
  struct MatchRange: JSONWritable {
    var field: StaticString
    var start: Int
    var length: Int

    /// `range` of `text` in code units of `encoding`.
    init(_ range: Range<String.Index>, in text: String, field: StaticString, _ encoding: PositionEncoding) {
      func units(_ a: String.Index, _ b: String.Index) -> Int {
        switch encoding {
        case .utf8: return text.utf8.distance(from: a, to: b)
        case .utf16: return text.utf16.distance(from: a, to: b)
        case .utf32: return text.unicodeScalars.distance(from: a, to: b)
        }
      }
      self.field = field
      start = units(text.startIndex, range.lowerBound)
      length = units(range.lowerBound, range.upperBound)
    }

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.key("field")
        json.value(field.description)
        json.member("start", start)
        json.member("length", length)
      }
    }
  }

  /// A row or group whose own text matched: `{index, id, ranges}`.
  struct Match: JSONWritable {
    var index: Int
    var id: String
    var ranges: [MatchRange]

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("index", index)
        json.member("id", id)
        json.member("ranges", ranges)
      }
    }
  }

  /// The toggle result's members and `matches`.
  struct Result: JSONWritable {
    var expansion: ExpansionReply
    var matches: [Match]

    func write(to json: inout JSONWriter) {
      json.object { json in
        expansion.writeMembers(to: &json)
        json.member("matches", matches)
      }
    }
  }
}
