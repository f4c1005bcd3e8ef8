import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// `watch: true`, `outlineChanged` and `$/progress`, through the real connection.
@Suite struct WatchTests {
  static func yaml(_ rows: [String], expanded: Bool = true) -> String {
    "groups:\n  - id: g\n    title: G\n    expanded: \(expanded)\n    rows:\n"
      + rows.map { "      - {id: \($0), title: \($0)}\n" }.joined()
  }

  /// Waits for the next `outlineChanged` notification, skipping nothing else.
  func nextChange(_ s: InProcessServer, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
    guard let m = s.next(timeout: 10) else {
      Issue.record("no outlineChanged arrived", sourceLocation: sourceLocation)
      return nil
    }
    #expect(m["method"] == "outlineChanged", sourceLocation: sourceLocation)
    return m["params"]
  }

  /// Reads notifications until one applies a good text (at most three).
  func waitForGoodChange(_ s: InProcessServer, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for _ in 0..<3 {
      guard let c = nextChange(s, sourceLocation: sourceLocation) else { return }
      if c["diagnostics"] == [] { return }
    }
    Issue.record("no good reload was notified", sourceLocation: sourceLocation)
  }

  @Test func everyWayEditorsSaveIsNoticed() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("w.yaml")
    try Self.yaml(["a"]).write(to: file, atomically: false, encoding: .utf8)
    let uri = JSONValue.string(file.absoluteString)
    // At level info the server says when a watched file is gone.
    let s = try InProcessServer(arguments: ["--log-level", "info"])
    s.initialize()
    #expect(s.result("openOutline", ["uri": uri, "watch": true])["total"] == 2)

    // Atomic rename, as Vim and most editors save.
    let temp = dir.appendingPathComponent("w.yaml.tmp")
    try Self.yaml(["a", "b"]).write(to: temp, atomically: false, encoding: .utf8)
    #expect(rename(temp.path, file.path) == 0)
    let c1 = nextChange(s)
    #expect(c1?["uri"] == uri)
    #expect(c1?["version"] == 2)
    // The header's count changed too, so it is replaced with the rows.
    #expect(
      c1?["changes"] == [["kind": "delete", "start": 0, "count": 2], ["kind": "insert", "start": 0, "count": 3]])
    #expect(c1?["diagnostics"] == [])

    // Truncate, then write in place.
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(Self.yaml(["a", "b", "c"]).utf8))
    try handle.close()
    // A read between the truncation and the write may see an empty file: its error comes first.
    try waitForGoodChange(s)
    #expect(s.result("visibleRows", ["uri": uri])["total"] == 4)

    // Delete, then create again once the watcher has seen the file gone.
    try FileManager.default.removeItem(at: file)
    #expect(s.waitForStderr(containing: "w.yaml is gone", timeout: 20), "the watcher never saw the file gone")
    try Self.yaml(["z"]).write(to: file, atomically: false, encoding: .utf8)
    try waitForGoodChange(s)
    #expect(s.result("visibleRows", ["uri": uri])["total"] == 2)

    // A broken save keeps the last good outline and reports why.
    try "groups: [".write(to: file, atomically: true, encoding: .utf8)
    let broken = nextChange(s)
    #expect(broken?["changes"] == [])
    #expect(broken?["diagnostics"]?[0]?["code"] == "syntax")
    #expect(s.result("visibleRows", ["uri": uri])["total"] == 2)
    _ = s.result("closeOutline", ["uri": uri])
  }

  @Test func aReloadWhileARequestRunsIsNotifiedAfterItsReplyAndVersionsOnlyGrow() throws {
    // The reload is a job on the worker: its outlineChanged leaves after the reply of the
    // request that ran when the file changed, never before it.
    let file = writeFixture(Self.yaml(["a"]), name: "order.yaml")
    let uri = JSONValue.string(file.absoluteString)
    let s = try InProcessServer.started()
    _ = s.result("openOutline", ["uri": uri, "watch": true])
    var messages: [JSONValue] = []
    for round in 0..<3 {
      // A long open of another outline, and the watched file rewritten while it runs.
      func collect(until id: Int64) {
        while let m = s.next(timeout: 20) {
          messages.append(m)
          if m["id"] == .int(id) { return }
        }
      }
      let id = s.sendRequest("openOutline", ["uri": "mem:long", "text": .string(longOpenText)])
      try Self.yaml((0...round + 1).map { "r\($0)" }).write(to: file, atomically: true, encoding: .utf8)
      collect(until: id)
      collect(until: s.sendRequest("toggleSection", ["uri": uri, "section": "g"]))
      collect(until: s.sendRequest("toggleSection", ["uri": uri, "section": "g"]))
    }
    messages += s.messagesBeforeProbe()
    // The version of the watched outline, in the order the messages left the server.
    let versions = messages.compactMap { m -> Int64? in
      if m["method"] == "outlineChanged" { return m["params"]?["version"]?.intValue }
      // The toggles of the watched outline's group `g` (the long opens are of another uri).
      return m["result"]?["id"] == "g" ? m["result"]?["version"]?.intValue : nil
    }
    #expect(versions == versions.sorted(), "\(versions)")
    #expect(messages.contains { $0["method"] == "outlineChanged" })
  }

  @Test func aSymlinkMovedToAnotherFileIsFollowed() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.yaml")
    let b = dir.appendingPathComponent("b.yaml")
    let link = dir.appendingPathComponent("l.yaml")
    try Self.yaml(["a1"]).write(to: a, atomically: false, encoding: .utf8)
    try Self.yaml(["b1", "b2"]).write(to: b, atomically: false, encoding: .utf8)
    #expect(symlink("a.yaml", link.path) == 0)
    let uri = JSONValue.string(link.absoluteString)
    let s = try InProcessServer()
    s.initialize()
    #expect(s.result("openOutline", ["uri": uri, "watch": true])["total"] == 2)

    // The link moved to b.yaml, as a deployment swaps a link: the outline is b's now.
    let temp = dir.appendingPathComponent("l.yaml.tmp")
    #expect(symlink("b.yaml", temp.path) == 0)
    #expect(rename(temp.path, link.path) == 0)
    let moved = nextChange(s)
    #expect(moved?["uri"] == uri)
    #expect(s.result("visibleRows", ["uri": uri])["rows"]?[1]?["id"] == "b1")

    // a.yaml is no longer what the uri names: a change to it is not one of the outline's,
    // so the next change notified is b.yaml's.
    try Self.yaml(["a1", "a2", "a3"]).write(to: a, atomically: false, encoding: .utf8)
    try Self.yaml(["b1", "b2", "b3", "b4"]).write(to: b, atomically: false, encoding: .utf8)
    try waitForGoodChange(s)
    #expect(s.result("visibleRows", ["uri": uri])["total"] == 5)
    _ = s.result("closeOutline", ["uri": uri])
  }

  @Test func watchNeedsAFileURI() throws {
    let s = try InProcessServer()
    s.initialize()
    #expect(s.errorCode("openOutline", ["uri": "mem:x", "text": "groups: []", "watch": true]) == -32602)
  }

  @Test func progressIsReportedForAnOpenWithAToken() throws {
    let s = try InProcessServer()
    s.initialize()
    let rows = (0..<2000).map { "r\($0)" }
    let id = s.sendRequest(
      "openOutline", ["uri": "mem:big", "text": .string(Self.yaml(rows)), "workDoneToken": "open-1"])
    var kinds: [String] = []
    var percentages: [Int64] = []
    while let m = s.next(), m["method"] == "$/progress" {
      #expect(m["params"]?["token"] == "open-1")
      kinds.append(m["params"]?["value"]?["kind"]?.stringValue ?? "?")
      if let p = m["params"]?["value"]?["percentage"]?.intValue { percentages.append(p) }
      if kinds.last == "end" {
        #expect(s.next()?["id"] == .int(id))
        break
      }
    }
    #expect(kinds.first == "begin")
    #expect(kinds.last == "end")
    #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == "report" })
    #expect(percentages == percentages.sorted())
    #expect(percentages.last == 100)
  }
}
