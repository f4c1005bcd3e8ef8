import Foundation
import JSONRPC
import Testing

/// The built `outline-server` binary: `$OUTLINE_SERVER`, else the one beside this test bundle.
func serverBinary() -> URL {
  if let path = ProcessInfo.processInfo.environment["OUTLINE_SERVER"] { return URL(fileURLWithPath: path) }
  let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  return me.deletingLastPathComponent().appendingPathComponent("outline-server")
}

/// The repository's `examples/` folder.
func examplesDirectory() -> URL {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")
}

/// A real `outline-server` process spoken to over pipes with framed JSON-RPC.
///
/// Replies are read by a background thread; ``next(timeout:)`` waits for the
/// next one. Every wait is bounded, so a hung server fails the test instead
/// of hanging the suite.
final class ServerProcess: @unchecked Sendable {
  // @unchecked Sendable: `received` and `stdoutEnded` are guarded by `lock`;
  // the rest is set in init and only read afterwards.
  let process = Process()
  private let stdin = Pipe()
  private let stdout = Pipe()
  private let stderr = Pipe()
  private let framing: Framing
  private let lock = NSCondition()
  private var received: [JSONValue] = []
  private var stdoutEnded = false
  private var stderrData = Data()
  private var stderrEnded = false
  private var nextID: Int64 = 1
  /// The `XDG_STATE_HOME` of this server.
  private(set) var stateDirectory: URL? = nil

  /// Starts the server with `arguments`; `environment` entries are added to this process's.
  init(arguments: [String] = [], framing: Framing = .lsp, environment extra: [String: String] = [:]) throws {
    self.framing = framing
    process.executableURL = serverBinary()
    process.arguments = arguments + (framing == .ndjson ? ["--framing", "ndjson"] : [])
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    // Each server saves view state in a folder of its own, so tests never see each other's.
    var environment = ProcessInfo.processInfo.environment
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("outline-state-\(UUID().uuidString)")
    stateDirectory = state
    environment["XDG_STATE_HOME"] = state.path
    environment.merge(extra) { _, new in new }
    process.environment = environment
    try process.run()
    let out = stdout.fileHandleForReading
    let err = stderr.fileHandleForReading
    Thread.detachNewThread { [self] in
      var framer = framing.makeFramer(maxMessageBytes: 1 << 30)
      while true {
        let chunk = out.availableData
        if chunk.isEmpty { break }
        framer.push([UInt8](chunk))
        while let body = try? framer.next() {
          let value = (try? JSONDecoder().decode(JSONValue.self, from: Data(body))) ?? .string("<undecodable>")
          lock.lock()
          received.append(value)
          lock.broadcast()
          lock.unlock()
        }
      }
      lock.lock()
      stdoutEnded = true
      lock.broadcast()
      lock.unlock()
    }
    Thread.detachNewThread { [self] in
      while true {
        let chunk = err.availableData
        if chunk.isEmpty { break }
        lock.lock()
        stderrData.append(chunk)
        lock.broadcast()
        lock.unlock()
      }
      lock.lock()
      stderrEnded = true
      lock.broadcast()
      lock.unlock()
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
    if let stateDirectory { try? FileManager.default.removeItem(at: stateDirectory) }
  }

  /// Writes raw bytes to the server's stdin.
  func writeRaw(_ bytes: [UInt8]) {
    stdin.fileHandleForWriting.write(Data(bytes))
  }

  /// Writes one framed body.
  func send(body: String) {
    let framer = framing.makeFramer(maxMessageBytes: 1 << 30)
    writeRaw(framer.frame(Array(body.utf8)))
  }

  /// Sends a JSON value as one message.
  func send(_ value: JSONValue) {
    let data = try! JSONEncoder().encode(value)
    send(body: String(decoding: data, as: UTF8.self))
  }

  /// Sends a request with a fresh integer id and returns that id.
  @discardableResult
  func sendRequest(_ method: String, _ params: JSONValue? = nil) -> Int64 {
    let id = nextID
    nextID += 1
    var o: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
    if let params { o["params"] = params }
    send(.object(o))
    return id
  }

  func notify(_ method: String, _ params: JSONValue? = nil) {
    var o: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
    if let params { o["params"] = params }
    send(.object(o))
  }

  /// The next message from the server, or `nil` after `timeout` seconds or at end of output.
  func next(timeout: Double = 20) -> JSONValue? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while received.isEmpty && !stdoutEnded {
      if !lock.wait(until: deadline) { break }
    }
    // Not `received.isEmpty ? nil : …`: JSONValue is ExpressibleByNilLiteral, so that
    // `nil` would be the JSON null and a timeout would look like a reply.
    guard !received.isEmpty else { return Optional<JSONValue>.none }
    return received.removeFirst()
  }

  /// Sends a request and returns its whole response (checking the id matches).
  func request(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let id = sendRequest(method, params)
    guard let reply = next() else {
      Issue.record("no reply to \(method) (stderr: \(stderrText))", sourceLocation: sourceLocation)
      return .null
    }
    #expect(reply["id"] == .int(id), "reply to \(method) has the wrong id", sourceLocation: sourceLocation)
    return reply
  }

  /// Sends a request and returns its `result`, recording an issue for an error response.
  func result(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let reply = request(method, params, sourceLocation: sourceLocation)
    if let error = reply["error"] {
      Issue.record("\(method) failed: \(error)", sourceLocation: sourceLocation)
    }
    return reply["result"] ?? .null
  }

  /// Sends a request and returns its error code, recording an issue when it succeeded.
  func errorCode(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int64? {
    let reply = request(method, params, sourceLocation: sourceLocation)
    guard let code = reply["error"]?["code"]?.intValue else {
      Issue.record("\(method) succeeded, expected an error: \(reply)", sourceLocation: sourceLocation)
      return nil
    }
    return code
  }

  /// `initialize` + `initialized`.
  @discardableResult
  func initialize(_ params: JSONValue = .object([:])) -> JSONValue {
    let r = result("initialize", params)
    notify("initialized")
    return r
  }

  /// Closes stdin and waits for the exit status (or kills after `timeout`).
  func finish(timeout: Double = 20) -> Int32? {
    try? stdin.fileHandleForWriting.close()
    return waitForExit(timeout: timeout)
  }

  /// Waits for the process to end; `nil` (and the process killed) after `timeout`.
  func waitForExit(timeout: Double = 20) -> Int32? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      return nil
    }
    return process.terminationStatus
  }

  /// All of stderr once the process closed it (or what came within `timeout` seconds).
  func waitForStderrEnd(timeout: Double = 20) -> String {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while !stderrEnded {
      if !lock.wait(until: deadline) { break }
    }
    return String(decoding: stderrData, as: UTF8.self)
  }

  /// Sends a probe request (an unknown method, answered with an error) and returns every
  /// message that came before its reply: what the server said to the messages
  /// written before it. Replies leave in order, so nothing is left to timing.
  func messagesBeforeProbe(sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
    let probe = JSONValue.string("probe-\(nextID)")
    nextID += 1
    send(["jsonrpc": "2.0", "id": probe, "method": "noSuchProbeMethod"])
    var out: [JSONValue] = []
    while let m = next() {
      if m["id"] == probe { return out }
      out.append(m)
    }
    Issue.record("no reply to the probe (stderr: \(stderrText))", sourceLocation: sourceLocation)
    return out
  }

  /// What the server wrote to stderr so far; once it has exited, all of it
  /// (the reader thread may still be draining the pipe when the exit is seen).
  var stderrText: String {
    if !process.isRunning { return waitForStderrEnd(timeout: 5) }
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: stderrData, as: UTF8.self)
  }
}
