import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

@Suite struct LifecycleTests {
  @Test func initializeNegotiatesThePositionEncoding() throws {
    let s = try ServerProcess()
    let r = s.result(
      "initialize", ["capabilities": ["general": ["positionEncodings": ["utf-7", "utf-8", "utf-16"]]]])
    #expect(r["capabilities"]?["positionEncoding"] == "utf-8")
    #expect(r["capabilities"]?["policies"] == ["multiple", "single"])
    #expect(r["capabilities"]?["units"] == ["cell", "px", "font"])
    #expect(r["serverInfo"]?["name"] == "outline-server")
    #expect(s.result("shutdown") == .null)
    s.notify("exit")
    #expect(s.waitForExit() == 0)
  }

  @Test func defaultEncodingIsUTF16() throws {
    let s = try ServerProcess()
    #expect(s.initialize()["capabilities"]?["positionEncoding"] == "utf-16")
    let t = try ServerProcess()
    #expect(
      t.initialize(["capabilities": ["general": ["positionEncodings": ["latin-1"]]]])["capabilities"]?[
        "positionEncoding"] == "utf-16")
  }

  @Test func requestsBeforeInitializeAreRefused() throws {
    let s = try ServerProcess()
    #expect(s.errorCode("visibleRows", ["uri": "x"]) == -32002)
    #expect(s.errorCode("noSuchMethod") == -32002)
    s.initialize()
    #expect(s.errorCode("initialize") == -32600)
    #expect(s.errorCode("noSuchMethod") == -32601)
    #expect(s.result("shutdown") == .null)
    #expect(s.errorCode("visibleRows", ["uri": "x"]) == -32600)
    #expect(s.errorCode("shutdown") == -32600)
  }

  @Test func exitWithoutShutdownIsStatus1() throws {
    let s = try ServerProcess()
    s.initialize()
    s.notify("exit")
    #expect(s.waitForExit() == 1)
  }

  @Test func endOfInputEndsTheServer() throws {
    let a = try ServerProcess()
    a.initialize()
    #expect(a.finish() == 1)
    let b = try ServerProcess()
    b.initialize()
    _ = b.result("shutdown")
    #expect(b.finish() == 0)
  }

  // MARK: Ending while a long request runs

  /// A file big enough that its open is still loading long after its first
  /// progress report: 400,000 rows, about 10 MB.
  static let bigFile: URL = {
    var text = "groups:\n"
    text.reserveCapacity(11_000_000)
    for g in 0..<4_000 {
      text += "  - title: Group \(g)\n    rows:\n"
      for r in 0..<100 { text += "      - {title: Row \(g).\(r), detail: some words to read}\n" }
    }
    return writeFixture(text, name: "big.yaml")
  }()

  /// Starts an open of ``bigFile`` with a progress token and returns once
  /// its load is under way (its first `report`).
  func startLongOpen(_ s: ServerProcess) {
    s.initialize()
    s.send([
      "jsonrpc": "2.0", "id": 77, "method": "openOutline",
      "params": ["uri": .string(Self.bigFile.absoluteString), "workDoneToken": "open"],
    ])
    while let m = s.next() {
      if m["method"] == "$/progress", m["params"]?["value"]?["kind"] == "report" { return }
      if m["id"] == 77 {
        Issue.record("the open ended before it could be interrupted: \(m)")
        return
      }
    }
  }

  /// After an abrupt end: the open was stopped (never logged as opened) and
  /// nothing answered it.
  func expectStoppedWithoutAnswer(_ s: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) {
    var rest: [JSONValue] = []
    while let m = s.next(timeout: 5) { rest.append(m) }
    #expect(!rest.contains { $0["id"] == 77 }, "\(rest)", sourceLocation: sourceLocation)
    #expect(s.stderrText.contains("stopping what is under way"), sourceLocation: sourceLocation)
    #expect(!s.stderrText.contains("opened file:"), sourceLocation: sourceLocation)
  }

  @Test func exitWithoutShutdownStopsALongOpenAndWritesNothingMore() throws {
    let s = try ServerProcess(arguments: ["--log-level", "info"])
    startLongOpen(s)
    s.notify("exit")
    #expect(s.waitForExit() == 1)
    expectStoppedWithoutAnswer(s)
  }

  @Test func theEndOfInputWithoutShutdownStopsALongOpen() throws {
    let s = try ServerProcess(arguments: ["--log-level", "info"])
    startLongOpen(s)
    #expect(s.finish() == 1)
    expectStoppedWithoutAnswer(s)
  }

  @Test func shutdownThenExitAnswersEverythingBeforeThem() throws {
    // All in one write, so the exit is read while the open still runs.
    let s = try ServerProcess()
    s.initialize()
    let open: JSONValue = [
      "jsonrpc": "2.0", "id": 1, "method": "openOutline",
      "params": ["uri": "mem:long", "text": .string(longOpenText)],
    ]
    let rows: JSONValue = [
      "jsonrpc": "2.0", "id": 2, "method": "visibleRows", "params": ["uri": "mem:long", "count": 1],
    ]
    let shutdown: JSONValue = ["jsonrpc": "2.0", "id": 3, "method": "shutdown"]
    let exit: JSONValue = ["jsonrpc": "2.0", "method": "exit"]
    s.writeRaw([open, rows, shutdown, exit].flatMap { framed($0.jsonText) })
    #expect(s.next()?["result"]?["total"] == 2_000)
    #expect(s.next()?["result"]?["rows"]?[0]?["id"] == "Group 0")
    #expect(s.next() == ["jsonrpc": "2.0", "id": 3, "result": nil])
    #expect(s.waitForExit() == 0)
  }

  // MARK: The client's process

  /// A process that runs until it is killed.
  func sleeper() throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sleep")
    p.arguments = ["600"]
    try p.run()
    return p
  }

  @Test func theServerExitsWhenTheClientProcessGivenOnTheCommandLineIsGone() throws {
    let client = try sleeper()
    let s = try ServerProcess(arguments: ["--stdio", "--clientProcessId", "\(client.processIdentifier)"])
    s.initialize()
    _ = s.open("mem:a", "groups: [{title: A}]")
    kill(client.processIdentifier, SIGKILL)
    client.waitUntilExit()
    #expect(s.waitForExit() == 1)
    #expect(s.stderrText.contains("the client process \(client.processIdentifier) is gone"))
  }

  @Test func theServerExitsWhenTheProcessIdOfInitializeIsGone() throws {
    let client = try sleeper()
    let s = try ServerProcess()
    _ = s.initialize(["processId": .int(Int64(client.processIdentifier))])
    _ = s.open("mem:a", "groups: [{title: A}]")
    kill(client.processIdentifier, SIGKILL)
    client.waitUntilExit()
    #expect(s.waitForExit() == 1)
    #expect(s.stderrText.contains("the client process \(client.processIdentifier) is gone"))
  }

  @Test func aBadProcessIdIsInvalidParams() throws {
    let s = try ServerProcess()
    let e = s.error("initialize", ["processId": "me"])
    #expect(e["code"] == -32602)
    #expect(e["message"]?.stringValue?.contains("\"processId\"") == true)
    // null is what a client without a process sends.
    #expect(s.initialize(["processId": nil])["capabilities"] != nil)
  }

  @Test func idsAreEchoedWithTheirType() throws {
    let s = try ServerProcess()
    s.initialize()
    for id: JSONValue in ["7", 7, 9_007_199_254_740_991, -3, ""] {
      s.send(["jsonrpc": "2.0", "id": id, "method": "shutdown"])
      let reply = s.next()
      #expect(reply?["id"] == id)
    }
  }
}
