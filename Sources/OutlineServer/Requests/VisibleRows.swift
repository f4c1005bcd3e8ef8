import JSONRPC
import OutlineModel

/// `visibleRows {uri, start?, count?, viewport?: {top, height}, include?}`
/// (PROTOCOL §4) → `{version, total, contentHeight, rows}`: a window of the
/// visible list, or the rows that intersect the viewport; at most 10,000
/// rows. With `include: ["lines"]` (PROTOCOL §9) each row carries `lines`:
/// its texts as the layout's line breaker broke them to count its height;
/// with `include: ["range"]`, `range`: where its mapping stands in the text
/// the server keeps, in the negotiated position encoding (`-32013` when that
/// text is a file that changed since it was read).
struct VisibleRowsRequest: OutlineDocumentRequest {
  static let method = "visibleRows"
  static let mayTakeLong = false
  static let changesViewState = true
  /// The most rows one `visibleRows` or `rowHeights` answer carries.
  static let maxRows = 10_000

  /// With `include`, the rows may take long: `range` may read and index the whole file
  /// (or reload a watched one that changed), `lines` breaks every text of the window.
  static func mayTakeLong(_ params: JSONElement?) -> Bool { params?["include"] != nil }

  let uri: String
  var start: Int
  var count: Int
  /// `[top, top + height)`: wins over `start` and `count`.
  var viewport: (top: Double, height: Double)?
  /// Whether `include` asks for `lines`.
  var includesLines = false
  /// Whether `include` asks for `range`.
  var includesRange = false

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    start = try p.optionalInt("start") ?? 0
    count = min(try p.optionalInt("count") ?? Self.maxRows, Self.maxRows)
    if let v = try p.optionalObject("viewport") {
      let top = try v.number("top")
      let height = try v.number("height")
      guard height >= 0 else { throw v.fail("height", "must be ≥ 0") }
      viewport = (top, height)
    }
    if let include = p.value("include") {
      guard let names = include.elements else { throw p.fail("include", "must be an array") }
      for (i, name) in names.enumerated() {
        if name.isString("lines") {
          includesLines = true
        } else if name.isString("range") {
          includesRange = true
        } else {
          throw p.fail("include[\(i)]", "must be \"range\" or \"lines\"")
        }
      }
    }
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    let text = includesRange ? try server.sourceText(of: doc) : nil
    let items: [VisibleItem]
    if let viewport {
      items = doc.state.visibleItems(viewportTop: viewport.top, height: viewport.height, limit: Self.maxRows)
      doc.viewportHeight = viewport.height
      doc.state.scrollTop = max(0, viewport.top)
    } else {
      items = doc.state.visibleItems(start: start, count: count)
    }
    return Result(
      state: doc.state, rows: items, includesLines: includesLines, cache: doc.rowJSON,
      ranges: text.map { (text: $0, encoding: server.positionEncoding) })
  }

  /// `{version, total, contentHeight, rows: [Row]}`, each row written straight
  /// from the model when the reply is written.
  struct Result: JSONWritable {
    /// The state the rows are read from (a copy: it shares the outline's storage).
    var state: OutlineState
    var rows: [VisibleItem]
    /// Whether each row carries `lines`.
    var includesLines = false
    /// The document's rows' JSON, kept between answers.
    var cache: RowJSONCache
    /// The text the rows' `range`s are placed in, and the encoding; `nil`: no `range`.
    var ranges: (text: SourceText, encoding: PositionEncoding)? = nil

    func write(to json: inout JSONWriter) {
      let outline = state.outline
      let lines = includesLines ? RowHeights(layout: state.layout, lineBreaker: state.lineBreaker) : nil
      json.object { json in
        json.member("version", state.version)
        json.member("total", state.total)
        json.member("contentHeight", state.contentHeight)
        json.key("rows")
        json.array { json in
          for v in rows {
            Self.writeRow(v, outline, isLastChild: state.isLastChild(v.position), cache: cache, to: &json) { json in
              if let lines { Self.writeLines(v.position, outline, lines, to: &json) }
              if let ranges {
                json.member("range", ranges.text.lspRange(outline.source(at: v.position), in: ranges.encoding))
              }
            }
          }
        }
      }
    }

    /// `lines: {title: [string], detail?: [string]}` (PROTOCOL §9): each text
    /// as `heights` broke it (tabs expanded, the spaces at a break dropped,
    /// `maxLines` applied); a row's absent or empty detail is left out.
    static func writeLines(_ p: Int, _ outline: Outline, _ heights: RowHeights, to json: inout JSONWriter) {
      let depth = outline.depth(at: p)
      json.key("lines")
      json.object { json in
        json.member("title", heights.drawnLines(outline.title(at: p), depth: depth, atLeastOne: true))
        if !outline.isGroup(at: p) {
          let detail = heights.drawnLines(outline.detail(at: p), depth: depth, atLeastOne: false)
          if !detail.isEmpty { json.member("detail", detail) }
        }
      }
    }

    /// A Row of PROTOCOL §4: `{index, top, height, isLastChild}` (and a
    /// group's `expanded`), which depend on the view, then the members that
    /// depend on the item alone (`id, kind, depth, parent, title`, …), copied
    /// from `cache` (see ``RowJSONCache``), then what `extra` writes (`lines`,
    /// `range`). Optional fields are left out when absent.
    @inline(__always)
    static func writeRow(
      _ v: VisibleItem, _ outline: Outline, isLastChild: Bool, cache: RowJSONCache, to json: inout JSONWriter,
      extra: (inout JSONWriter) -> Void = { _ in }
    ) {
      json.object { json in
        json.member("index", v.index)
        json.member("top", v.top)
        json.member("height", v.height)
        json.member("isLastChild", isLastChild)
        if outline.isGroup(at: v.position) { json.member("expanded", v.expanded) }
        cache.withMembers(of: v.position, in: outline) { json.rawMembers($0) }
        extra(&json)
      }
    }
  }
}
