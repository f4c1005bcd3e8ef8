import Foundation
import JSONRPC
import Testing

/// A folder of its own under the system's temporary directory, for files a test writes.
func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("outline-e2e-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `text` to a fresh file named `name` and returns its URL.
func writeFixture(_ text: String, name: String = "fixture.yaml") -> URL {
  let url = temporaryDirectory().appendingPathComponent(name)
  try! Data(text.utf8).write(to: url)
  return url
}

/// `examples/contacts.yaml`, as text.
func contactsText() -> String {
  try! String(contentsOf: examplesDirectory().appendingPathComponent("contacts.yaml"), encoding: .utf8)
}

/// Compares two JSON values by their sorted-keys text, so a failure shows both texts.
func expectJSON(
  _ actual: JSONValue?, _ expected: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual?.jsonText == expected.jsonText, sourceLocation: sourceLocation)
}

/// Parses JSON text written in a test.
func json(_ text: String) -> JSONValue {
  try! JSONValue.parse(text)
}

extension ServerProcess {
  /// A started, initialized server.
  static func started(
    arguments: [String] = [], framing: Framing = .lsp, encoding: String? = nil
  ) throws -> ServerProcess {
    let s = try ServerProcess(arguments: arguments, framing: framing)
    if let encoding {
      s.initialize(["capabilities": ["general": ["positionEncodings": [.string(encoding)]]]])
    } else {
      s.initialize()
    }
    return s
  }

  /// Opens `text` under `uri` and returns the result.
  @discardableResult
  func open(
    _ uri: String, _ text: String, _ extra: [String: JSONValue] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    var params: [String: JSONValue] = ["uri": .string(uri), "text": .string(text)]
    params.merge(extra) { _, new in new }
    return result("openOutline", .object(params), sourceLocation: sourceLocation)
  }

  /// The whole error object of a request that must fail.
  func error(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let reply = request(method, params, sourceLocation: sourceLocation)
    guard let error = reply["error"] else {
      Issue.record("\(method) succeeded, expected an error: \(reply)", sourceLocation: sourceLocation)
      return .null
    }
    return error
  }

  /// Every visible row of `uri`.
  func rows(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
    result("visibleRows", ["uri": .string(uri)], sourceLocation: sourceLocation)["rows"]?.arrayValue ?? []
  }

  /// The ids of the visible list of `uri`, in order.
  func visibleIDs(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    rows(uri, sourceLocation: sourceLocation).compactMap { $0["id"]?.stringValue }
  }

  /// The `version` `visibleRows` reports.
  func version(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int64? {
    result("visibleRows", ["uri": .string(uri), "count": 0], sourceLocation: sourceLocation)["version"]?.intValue
  }
}

/// Applies a change list to the old visible list (ids) and checks that it gives the new
/// one: deletes remove exactly `count` items at `start`; inserts put `count` new items at
/// `start`; the items kept must land where the new list has them, in order.
func expectReplay(
  _ changes: JSONValue?, from old: [String], to new: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  var list: [String?] = old
  for change in changes?.arrayValue ?? [] {
    guard let kind = change["kind"]?.stringValue, let start = change["start"]?.intValue.map(Int.init),
      let count = change["count"]?.intValue.map(Int.init), count > 0, start >= 0
    else {
      Issue.record("malformed change \(change)", sourceLocation: sourceLocation)
      return
    }
    switch kind {
    case "delete":
      guard start + count <= list.count else {
        Issue.record("delete \(start)+\(count) past the end \(list.count)", sourceLocation: sourceLocation)
        return
      }
      list.removeSubrange(start..<start + count)
    case "insert":
      guard start <= list.count else {
        Issue.record("insert at \(start) past the end \(list.count)", sourceLocation: sourceLocation)
        return
      }
      list.insert(contentsOf: [String?](repeating: nil, count: count), at: start)
    default:
      Issue.record("unknown change kind \(kind)", sourceLocation: sourceLocation)
      return
    }
  }
  #expect(list.count == new.count, "replayed length", sourceLocation: sourceLocation)
  guard list.count == new.count else { return }
  for (i, id) in list.enumerated() {
    if let id {
      #expect(id == new[i], "kept item at \(i)", sourceLocation: sourceLocation)
    } else {
      #expect(
        !old.contains(new[i]), "inserted item \(new[i]) at \(i) was already shown", sourceLocation: sourceLocation)
    }
  }
}

/// What a whole run of the binary gave: its stdout bytes, its stderr text and its status.
struct RunOutput {
  var stdout: Data
  var stderr: String
  var status: Int32?
}

/// Runs the binary once with `input` as its whole stdin (a file, so nothing can block) and
/// waits, at most `timeout` seconds, for it to end.
func runServer(_ arguments: [String], input: Data = Data(), timeout: Double = 30) throws -> RunOutput {
  let dir = temporaryDirectory()
  let inURL = dir.appendingPathComponent("stdin")
  let outURL = dir.appendingPathComponent("stdout")
  let errURL = dir.appendingPathComponent("stderr")
  try input.write(to: inURL)
  try Data().write(to: outURL)
  try Data().write(to: errURL)
  let process = Process()
  process.executableURL = serverBinary()
  process.arguments = arguments
  process.standardInput = try FileHandle(forReadingFrom: inURL)
  process.standardOutput = try FileHandle(forWritingTo: outURL)
  process.standardError = try FileHandle(forWritingTo: errURL)
  try process.run()
  let deadline = Date(timeIntervalSinceNow: timeout)
  while process.isRunning && Date() < deadline { usleep(10_000) }
  var status: Int32? = nil
  if process.isRunning {
    process.terminate()
  } else {
    status = process.terminationStatus
  }
  return RunOutput(
    stdout: try Data(contentsOf: outURL), stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
    status: status)
}

/// An LSP-framed body.
func framed(_ body: String) -> [UInt8] {
  Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
}

/// An LSP-framed body of raw bytes.
func framed(bytes body: [UInt8]) -> [UInt8] {
  Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}

/// A request as JSON text.
func requestText(_ id: JSONValue, _ method: String, _ params: JSONValue? = nil) -> String {
  var o: [String: JSONValue] = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
  if let params { o["params"] = params }
  return JSONValue.object(o).jsonText
}

/// A small outline: `a` (open) holds `a1` (closed, holding `r1`) and `r2`; `b` holds the
/// inactive `r3`; `c` is empty. Visible at first: a, a1, r2, b, c.
let smallOutline = """
  title: Small
  groups:
    - id: a
      title: A
      expanded: true
      groups:
        - id: a1
          title: A1
          rows:
            - id: r1
              title: R1
      rows:
        - id: r2
          title: R2
    - id: b
      title: B
      rows:
        - id: r3
          title: R3
          active: false
    - id: c
      title: C

  """

/// A seeded generator, so a random walk is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state ^ (state >> 33)
  }
}
