import Foundation
import JSONRPC
import Testing

/// A folder of its own under the system's temporary directory, for files a test writes.
public func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("outline-e2e-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `text` to a fresh file named `name` and returns its URL.
public func writeFixture(_ text: String, name: String = "fixture.yaml") -> URL {
  let url = temporaryDirectory().appendingPathComponent(name)
  try! Data(text.utf8).write(to: url)
  return url
}

/// `examples/contacts.yaml`, as text.
public func contactsText() -> String {
  try! String(contentsOf: examplesDirectory().appendingPathComponent("contacts.yaml"), encoding: .utf8)
}

/// Compares two JSON values by their sorted-keys text, so a failure shows both texts.
public func expectJSON(
  _ actual: JSONValue?, _ expected: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual?.jsonText == expected.jsonText, sourceLocation: sourceLocation)
}

/// Parses JSON text written in a test.
public func json(_ text: String) -> JSONValue {
  try! JSONValue.parse(text)
}

/// Applies a change list to the old visible list (ids) and checks that it gives the new
/// one: deletes remove exactly `count` items at `start`; inserts put `count` new items at
/// `start` (new, or deleted by the list before: shown otherwise now); the items kept must
/// land where the new list has them, in order.
public func expectReplay(
  _ changes: JSONValue?, from old: [String], to new: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  var list: [String?] = old
  // Items deleted and inserted again (shown otherwise now) may come back.
  var deleted = Set<String>()
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
      deleted.formUnion(list[start..<start + count].compactMap { $0 })
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
        !old.contains(new[i]) || deleted.contains(new[i]), "inserted item \(new[i]) at \(i) was already shown",
        sourceLocation: sourceLocation)
    }
  }
}

/// What a whole run of the binary gave: its stdout bytes, its stderr text and its status.
public struct RunOutput {
  /// Everything written to stdout.
  public var stdout: Data
  /// Everything written to stderr.
  public var stderr: String
  /// The exit status, or `nil` when the process had to be stopped.
  public var status: Int32?
}

/// Runs the binary once with `input` as its whole stdin (a file, so nothing can block) and
/// waits, at most `timeout` seconds, for it to end.
public func runServer(_ arguments: [String], input: Data = Data(), timeout: Double = 30) throws -> RunOutput {
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
public func framed(_ body: String) -> [UInt8] {
  Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
}

/// An LSP-framed body of raw bytes.
public func framed(bytes body: [UInt8]) -> [UInt8] {
  Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}

/// A request as JSON text.
public func requestText(_ id: JSONValue, _ method: String, _ params: JSONValue? = nil) -> String {
  var o: [String: JSONValue] = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
  if let params { o["params"] = params }
  return JSONValue.object(o).jsonText
}

/// A small outline: `a` (open) holds `a1` (closed, holding `r1`) and `r2`; `b` holds the
/// inactive `r3`; `c` is empty. Visible at first: a, a1, r2, b, c.
public let smallOutline = """
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
public struct SeededGenerator: RandomNumberGenerator {
  /// The generator's state.
  public var state: UInt64
  /// A generator starting at `state`.
  public init(state: UInt64) { self.state = state }
  /// The next number.
  public mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state ^ (state >> 33)
  }
}

/// The repository's `examples/` folder.
public func examplesDirectory() -> URL {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")
}

/// Nine levels of ten aliases each: 10⁹ nodes when expanded.
public let aliasBomb: String = {
  var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
  for level in 1...9 {
    let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
    text += "a\(level): &a\(level) [\(refs)]\n"
  }
  return text + "groups:\n  - title: Boom\n    rows: [{title: r, data: *a9}]\n"
}()

/// A 100,000-row outline: its open runs long enough to cancel behind it.
public let longOpenText: String = {
  var text = "groups:\n"
  for g in 0..<2_000 {
    text += "  - title: Group \(g)\n    rows:\n"
    for r in 0..<50 { text += "      - {title: Row \(g).\(r)}\n" }
  }
  return text
}()
