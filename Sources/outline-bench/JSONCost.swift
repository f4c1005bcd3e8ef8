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

/// Reading requests: simdjson (what the connection does) next to Foundation's
/// `JSONDecoder` (what it did before), on the same bodies, in the same run.
enum JSONDecodeCost {
  struct Row {
    var name: String
    var bytes: Int
    var foundation: Double  // ns, JSONDecoder → JSONValue
    var simdjson: Double  // ns, Message.decodeBody in place with a reused parser
    var withParams: Double  // ns, the same plus params as a JSONValue (the server until params are typed)
  }

  /// The bodies: a toggleSection request, a visibleRows request and a changeOutline carrying
  /// an outline as text (15 MB; 150 KB with `quick`).
  static func bodies(quick: Bool) -> [(String, [UInt8])] {
    let toggle =
      #"{"jsonrpc":"2.0","id":17,"method":"toggleSection","params":{"uri":"file:///tmp/outline.yaml","section":"g123"}}"#
    let rows =
      #"{"jsonrpc":"2.0","id":18,"method":"visibleRows","params":{"uri":"file:///tmp/outline.yaml","start":5000,"#
      + #""count":100,"viewport":{"top":5000,"height":100},"include":["range"]}}"#
    // Lines as the Debian package outline has them, JSON-escaped: quotes, newlines, the odd
    // non-ASCII letter.
    var text = #"title: \"Debian packages\"\ngroups:\n"#
    let target = quick ? 150_000 : 15_000_000
    var i = 0
    while text.utf8.count < target {
      text += #"  - id: s\#(i)\n    title: \"section \#(i)\"\n    rows:\n"#
      for j in 0..<20 {
        text +=
          #"      - {id: p\#(i)-\#(j), title: \"lib\#(j)-pkg\#(i)\", "#
          + #"detail: \"Bibliothèque \#(j): tools and \\\"extras\\\" for \#(i)\"}\n"#
      }
      i += 1
    }
    let change =
      #"{"jsonrpc":"2.0","id":19,"method":"changeOutline","params":{"uri":"mem:debian","text":""#
      + text + #""}}"#
    return [
      ("toggleSection", Array(toggle.utf8)), ("visibleRows", Array(rows.utf8)), ("changeOutline", Array(change.utf8)),
    ]
  }

  static func measure(quick: Bool) -> [Row] {
    let parser = JSONParser()
    return bodies(quick: quick).map { name, body in
      // Fewer rounds for the big text; each is a whole decode.
      let n = body.count > 100_000 ? (quick ? 5 : 3) : (quick ? 200 : 2_000)
      let data = Data(body)
      let foundation = timePerOp(repeats: 5, ops: n) {
        for _ in 0..<n { sink(try? JSONDecoder().decode(JSONValue.self, from: data)) }
      }
      let (simdjson, withParams) = PaddedBytes.withCopy(of: body) { padded in
        let bare = timePerOp(repeats: 5, ops: n) {
          for _ in 0..<n { sink(Message.decodeBody(padded, parser: parser)) }
        }
        let converted = timePerOp(repeats: 5, ops: n) {
          for _ in 0..<n {
            if case .single(.request(_, _, let params)) = Message.decodeBody(padded, parser: parser) {
              sink(params?.jsonValue)
            }
          }
        }
        return (bare, converted)
      }
      return Row(name: name, bytes: body.count, foundation: foundation, simdjson: simdjson, withParams: withParams)
    }
  }

  static func table(quick: Bool) -> Table {
    var t = Table(
      title: "Reading a request: simdjson and Foundation on the same bodies",
      header: ["request", "bytes", "Foundation JSONDecoder", "simdjson decodeBody", "ratio", "+ params as JSONValue"])
    for r in measure(quick: quick) {
      t.rows.append([
        r.name, fmtCount(r.bytes), fmtTime(r.foundation), fmtTime(r.simdjson), fmtRatio(r.foundation / r.simdjson),
        fmtTime(r.withParams),
      ])
    }
    t.notes.append(
      "Foundation: JSONDecoder decoding the body into a JSONValue (the parse the connection did before). "
        + "simdjson: Message.decodeBody on the body in place (padded, as the framer hands it out) with one "
        + "reused JSONParser: parse, copy of the tape into a JSONDocument, classification. The last column "
        + "adds converting params to a JSONValue, as the server does until params are typed.")
    return t
  }
}
