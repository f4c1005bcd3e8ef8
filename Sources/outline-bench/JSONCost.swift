import Foundation
import JSONRPC

/// What one request costs in process in the transport's JSON layer, to explain the wire
/// figures: reading a request (today through Foundation's JSONDecoder), and writing the
/// answer three ways — Foundation's JSONEncoder over the JSONValue answer (the transport's
/// writer before JSONWriter), JSONWriter over the same JSONValue answer (what the server's
/// JSONValue results cost now, framed as the connection frames them), and JSONWriter over a
/// typed answer (what typed results cost).
enum JSONCost {
  struct Result {
    var decodeRequest: Double  // ns, a toggleSection request body
    var encodeToggleFoundation: Double  // ns, a toggleSection answer, JSONEncoder
    var encodeToggle: Double  // ns, the same answer, JSONWriter over the JSONValue, framed
    var encodeRowsFoundation: Double  // ns, a visibleRows answer of 100 rows, JSONEncoder
    var encodeRows: Double  // ns, the same answer, JSONWriter over the JSONValue, framed
    var encodeRowsTyped: Double  // ns, the same answer, JSONWriter over typed rows, framed
  }

  static func row(_ i: Int) -> JSONValue {
    .object([
      "index": .int(Int64(i)), "id": .string("r\(i)"), "kind": .string("row"), "depth": .int(1),
      "parent": .string("g\(i / 10)"), "title": .string("Person \(i)"),
      "detail": .string("Working from Lisbon this week, desk \(i % 97)"), "icon": .string("avatar-\(i % 8)"),
      "top": .double(Double(i)), "height": .int(2), "isLastChild": .bool(i % 10 == 9), "active": .bool(true),
      "emphasis": .bool(false),
    ])
  }

  /// The row of ``row(_:)`` as a typed value; members written in the same (sorted) order, so
  /// the answer's bytes are the same.
  struct Row: JSONWritable {
    var index: Int
    var id: String
    var parent: String
    var title: String
    var detail: String
    var icon: String
    var top: Double
    var height: Int
    var isLastChild: Bool
    var active: Bool
    var emphasis: Bool

    init(_ i: Int) {
      index = i
      id = "r\(i)"
      parent = "g\(i / 10)"
      title = "Person \(i)"
      detail = "Working from Lisbon this week, desk \(i % 97)"
      icon = "avatar-\(i % 8)"
      top = Double(i)
      height = 2
      isLastChild = i % 10 == 9
      active = true
      emphasis = false
    }

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("active", active)
        json.member("depth", 1)
        json.member("detail", detail)
        json.member("emphasis", emphasis)
        json.member("height", height)
        json.member("icon", icon)
        json.member("id", id)
        json.member("index", index)
        json.member("isLastChild", isLastChild)
        json.member("kind", "row")
        json.member("parent", parent)
        json.member("title", title)
        json.member("top", top)
      }
    }
  }

  /// A visibleRows answer of typed rows.
  struct Rows: JSONWritable {
    var rows: [Row]

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("contentHeight", 260_000)
        json.member("rows", rows)
        json.member("total", 137_000)
        json.member("version", 12)
      }
    }
  }

  /// The answer to request `id` as the connection writes it: envelope, result, LSP frame.
  static func framedReply(id: RequestID, _ result: some JSONWritable) -> Int {
    var json = Framing.lsp.makeWriter()
    Message.writeResponse(id: id, result: result, to: &json)
    return Framing.lsp.withFramedBytes(json) { $0.count }
  }

  static func measure(quick: Bool) -> Result {
    let n = quick ? 200 : 2_000
    let body = Array(
      #"{"jsonrpc":"2.0","id":17,"method":"toggleSection","params":{"uri":"file:///tmp/outline.yaml","section":"g123"}}"#
        .utf8)
    let decode = timePerOp(repeats: 5, ops: n) {
      for _ in 0..<n { sink(Message.decodeBody(body)) }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let toggleResult: JSONValue = .object([
      "version": .int(12), "id": .string("g123"), "expanded": .bool(false),
      "changes": .array([.object(["kind": .string("delete"), "start": .int(1354), "count": .int(10)])]),
      "updatedGroups": .array([.string("g123")]), "total": .int(137_000), "contentHeight": .int(260_000),
    ])
    let toggle = Message.responseObject(id: .int(17), result: .success(toggleResult))
    let encodeToggleFoundation = timePerOp(repeats: 5, ops: n) {
      for _ in 0..<n { sink(try? encoder.encode(toggle)) }
    }
    let encodeToggle = timePerOp(repeats: 5, ops: n) {
      for _ in 0..<n { sink(framedReply(id: 17, toggleResult)) }
    }
    let rowsResult: JSONValue = .object([
      "version": .int(12), "total": .int(137_000), "contentHeight": .int(260_000),
      "rows": .array((5_000..<5_100).map(row)),
    ])
    let rows = Message.responseObject(id: .int(18), result: .success(rowsResult))
    let typedRows = Rows(rows: (5_000..<5_100).map(Row.init))
    // The three writers give the same answer (JSONEncoder's differs only in escaping).
    var typed = JSONWriter()
    typedRows.write(to: &typed)
    precondition(typed.bytes == rowsResult.encoded(), "the typed rows are not the same answer")
    let m = max(1, n / 20)
    let encodeRowsFoundation = timePerOp(repeats: 5, ops: m) {
      for _ in 0..<m { sink(try? encoder.encode(rows)) }
    }
    let encodeRows = timePerOp(repeats: 5, ops: m) {
      for _ in 0..<m { sink(framedReply(id: 18, rowsResult)) }
    }
    let encodeRowsTyped = timePerOp(repeats: 5, ops: m) {
      for _ in 0..<m { sink(framedReply(id: 18, typedRows)) }
    }
    return Result(
      decodeRequest: decode, encodeToggleFoundation: encodeToggleFoundation, encodeToggle: encodeToggle,
      encodeRowsFoundation: encodeRowsFoundation, encodeRows: encodeRows, encodeRowsTyped: encodeRowsTyped)
  }
}
