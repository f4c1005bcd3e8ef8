import JSONRPC

/// What one request costs in process in the transport's JSON layer
/// (Foundation's JSONDecoder and JSONEncoder), to explain the wire figures.
enum JSONCost {
  struct Result {
    var decodeRequest: Double  // ns, a toggleSection request body
    var encodeToggle: Double  // ns, a toggleSection answer
    var encodeRows: Double  // ns, a visibleRows answer of 100 rows
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

  static func measure(quick: Bool) -> Result {
    let n = quick ? 200 : 2_000
    let body = Array(
      #"{"jsonrpc":"2.0","id":17,"method":"toggleSection","params":{"uri":"file:///tmp/outline.yaml","section":"g123"}}"#
        .utf8)
    let decode = timePerOp(repeats: 5, ops: n) {
      for _ in 0..<n { sink(Message.decodeBody(body)) }
    }
    let toggle = Message.responseObject(
      id: .int(17),
      result: .success(
        .object([
          "version": .int(12), "id": .string("g123"), "expanded": .bool(false),
          "changes": .array([.object(["kind": .string("delete"), "start": .int(1354), "count": .int(10)])]),
          "updatedGroups": .array([.string("g123")]), "total": .int(137_000), "contentHeight": .int(260_000),
        ])))
    let encodeToggle = timePerOp(repeats: 5, ops: n) {
      for _ in 0..<n { sink(toggle.encoded()) }
    }
    let rows = Message.responseObject(
      id: .int(18),
      result: .success(
        .object([
          "version": .int(12), "total": .int(137_000), "contentHeight": .int(260_000),
          "rows": .array((5_000..<5_100).map(row)),
        ])))
    let m = max(1, n / 20)
    let encodeRows = timePerOp(repeats: 5, ops: m) {
      for _ in 0..<m { sink(rows.encoded()) }
    }
    return Result(decodeRequest: decode, encodeToggle: encodeToggle, encodeRows: encodeRows)
  }
}
