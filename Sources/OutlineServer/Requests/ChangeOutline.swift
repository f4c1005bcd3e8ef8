import Foundation
import JSONRPC
import OutlineModel

/// `changeOutline {uri, text}` (PROTOCOL §3) or `changeOutline {uri, edits:
/// [{range, text}]}` (PROTOCOL §9) → `{applied, version, diagnostics,
/// changes}`: the new text replaces the outline, the user's expansion kept
/// by id; with errors, `applied: false` and the last good outline stays.
///
/// `edits` apply in order to the text the server keeps (``DocumentText``),
/// as LSP's `TextDocumentContentChangeEvent`s do, each `range` in the
/// negotiated position encoding. Both `text` and `edits`, or neither, is
/// `-32602`; so is a range outside the text, one that ends before it
/// starts or one that splits a character (naming `edits[i].range`), and
/// then nothing is applied.
struct ChangeOutlineRequest: OutlineDocumentRequest {
  static let method = "changeOutline"
  static let changesViewState = true

  /// What the host sends: a whole text, or edits of the kept one.
  enum Change {
    /// The whole new text, as UTF-8.
    case text([UInt8])
    /// Edits of the text the server keeps, applied in order.
    case edits([ContentChange])
  }

  let uri: String
  var change: Change

  init(_ p: ParamsReader) throws(ResponseError) {
    uri = try p.string("uri")
    switch (p.has("text"), p.has("edits")) {
    case (true, true):
      throw .invalidParams("\"text\" and \"edits\" are both given: send one of them")
    case (false, false):
      throw .invalidParams("\"text\" or \"edits\" is missing: send one of them")
    case (true, false):
      change = .text(try p.bytes("text"))
    case (false, true):
      change = .edits(try Self.edits(p))
    }
  }

  /// `edits: [{range: {start: {line, character}, end}, text}]`.
  private static func edits(_ p: ParamsReader) throws(ResponseError) -> [ContentChange] {
    guard let elements = p.value("edits")?.elements else { throw p.fail("edits", "must be an array") }
    var edits: [ContentChange] = []
    edits.reserveCapacity(elements.underestimatedCount)
    for (i, element) in elements.enumerated() {
      let edit = try ParamsReader(element, path: "edits[\(i)].")
      let range = try edit.object("range")
      edits.append(ContentChange(range: try LSPRange(range), text: try edit.bytes("text")))
    }
    return edits
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let doc = try document(on: server)
    switch change {
    case .text(let bytes): return try server.reload(doc, from: .text(bytes), cancellation: cancellation)
    case .edits(let edits): return try server.change(doc, applying: edits, cancellation: cancellation)
    }
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

extension LSPPosition {
  /// `{line, character}`, both non-negative integers (`-32602` naming the field).
  init(_ p: ParamsReader) throws(ResponseError) {
    self.init(line: try p.int("line"), character: try p.int("character"))
  }
}

extension LSPRange {
  /// `{start: {line, character}, end: {line, character}}` (`-32602` naming the field).
  init(_ p: ParamsReader) throws(ResponseError) {
    self.init(start: try LSPPosition(p.object("start")), end: try LSPPosition(p.object("end")))
  }
}
