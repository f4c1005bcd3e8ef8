import JSONRPC
import OutlineModel

/// `itemAtPosition {uri, position: {line, character}}` (PROTOCOL §9) →
/// `{id, kind, index, ancestors: [id]}` of the innermost item whose `range`
/// holds the position, or `null`: the item a cursor in the YAML is on.
///
/// The position is in the negotiated encoding, in the text the server keeps
/// (``DocumentText``), as `visibleRows`' `range`s are; a character past
/// its line's end counts as the line's end, one inside a character as that
/// character; a line past the last one is `null`. `index` is `null` when
/// the item is hidden; `ancestors` go from the top-level group down to the
/// item's parent. A `file:` outline's text is read again the first time
/// (`-32013` when the file changed since it was read and is not watched).
struct ItemAtPositionRequest: OutlineDocumentRequest {
  static let method = "itemAtPosition"

  let uri: String
  var position: LSPPosition

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    position = try LSPPosition(p.object("position"))
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    let text = try server.sourceText(of: doc)
    guard let at = text.sourcePosition(of: position, in: server.positionEncoding),
      let p = doc.state.innermostItem(containing: at)
    else { return Result(item: nil) }
    let outline = doc.state.outline
    var ancestors: [String] = []
    var a = outline.parent(at: p)
    while let g = a {
      ancestors.append(outline.id(at: g))
      a = outline.parent(at: g)
    }
    return Result(
      item: Item(
        id: outline.id(at: p), kind: outline.kind(at: p), index: doc.state.visibleItem(at: p)?.index,
        ancestors: ancestors.reversed()))
  }

  /// The item found: `{id, kind, index, ancestors}`.
  struct Item {
    var id: String
    var kind: OutlineItem.Kind
    /// Its index in the visible list; `nil` when hidden.
    var index: Int?
    /// Ids of its groups, from the top level down.
    var ancestors: [String]
  }

  /// The item, or `null`.
  struct Result: JSONWritable {
    var item: Item?

    func write(to json: inout JSONWriter) {
      guard let item else {
        json.null()
        return
      }
      json.object { json in
        json.member("id", item.id)
        json.member("kind", item.kind.rawValue)
        json.key("index")
        if let index = item.index { json.value(index) } else { json.null() }
        json.member("ancestors", item.ancestors)
      }
    }
  }
}
