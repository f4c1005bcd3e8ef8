import Foundation
import JSONRPC
import Testing

/// One outline server a test talks to, over framed JSON-RPC: in this process
/// (``InProcessServer``: the real connection and server over pipes, in
/// milliseconds) or as the built binary (``ServerProcess``). Both give the
/// same bytes; the helpers below work on either.
///
/// Every wait is bounded, so a hung server fails the test instead of hanging the suite.
public protocol TestServer: AnyObject, Sendable {
  /// How messages are delimited, both ways.
  var framing: Framing { get }
  /// Writes raw bytes to the server's input.
  func writeRaw(_ bytes: [UInt8])
  /// The next message from the server, or `nil` after `timeout` seconds or at the end of its output.
  func next(timeout: Double) -> JSONValue?
  /// Closes the server's input (the end of stdin).
  func closeInput()
  /// Waits for the server to end; its exit status, or `nil` (and the server stopped) after `timeout`.
  func waitForExit(timeout: Double) -> Int32?
  /// All of stderr once the server closed it, or what came within `timeout` seconds.
  func waitForStderrEnd(timeout: Double) -> String
  /// What the server wrote to stderr so far; once it has ended, all of it.
  var stderrText: String { get }
  /// Waits until stderr holds `fragment`, at most `timeout` seconds; whether it came.
  func waitForStderr(containing fragment: String, timeout: Double) -> Bool
  /// The next request id.
  func takeID() -> Int64
}

extension TestServer {
  /// The next message from the server, waiting at most 20 s.
  public func next() -> JSONValue? { next(timeout: 20) }

  /// Closes the input and waits for the exit status (or stops the server after `timeout`).
  public func finish(timeout: Double = 20) -> Int32? {
    closeInput()
    return waitForExit(timeout: timeout)
  }

  /// Waits for the server to end, at most 20 s.
  public func waitForExit() -> Int32? { waitForExit(timeout: 20) }

  /// All of stderr once the server closed it, waiting at most 20 s.
  public func waitForStderrEnd() -> String { waitForStderrEnd(timeout: 20) }

  /// Writes one framed body.
  public func send(body: String) {
    writeRaw(framing.frame(Array(body.utf8)))
  }

  /// Sends a JSON value as one message.
  public func send(_ value: JSONValue) {
    writeRaw(framing.frame(value.encoded()))
  }

  /// Sends a request with a fresh integer id and returns that id.
  @discardableResult
  public func sendRequest(_ method: String, _ params: JSONValue? = nil) -> Int64 {
    let id = takeID()
    var o: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
    if let params { o["params"] = params }
    send(.object(o))
    return id
  }

  /// Sends a notification.
  public func notify(_ method: String, _ params: JSONValue? = nil) {
    var o: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
    if let params { o["params"] = params }
    send(.object(o))
  }

  /// Sends a request and returns its whole response (checking the id matches).
  public func request(
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
  public func result(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let reply = request(method, params, sourceLocation: sourceLocation)
    if let error = reply["error"] {
      Issue.record("\(method) failed: \(error)", sourceLocation: sourceLocation)
    }
    return reply["result"] ?? .null
  }

  /// Sends a request and returns its error code, recording an issue when it succeeded.
  public func errorCode(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int64? {
    let reply = request(method, params, sourceLocation: sourceLocation)
    guard let code = reply["error"]?["code"]?.intValue else {
      Issue.record("\(method) succeeded, expected an error: \(reply)", sourceLocation: sourceLocation)
      return nil
    }
    return code
  }

  /// The whole error object of a request that must fail.
  public func error(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let reply = request(method, params, sourceLocation: sourceLocation)
    guard let error = reply["error"] else {
      Issue.record("\(method) succeeded, expected an error: \(reply)", sourceLocation: sourceLocation)
      return .null
    }
    return error
  }

  /// `initialize` + `initialized`.
  @discardableResult
  public func initialize(_ params: JSONValue = .object([:])) -> JSONValue {
    let r = result("initialize", params)
    notify("initialized")
    return r
  }

  /// Initializes, with `encoding` as the only position encoding the client offers when given.
  public func start(encoding: String? = nil) -> Self {
    if let encoding {
      initialize(["capabilities": ["general": ["positionEncodings": [.string(encoding)]]]])
    } else {
      initialize()
    }
    return self
  }

  /// Opens `text` under `uri` and returns the result.
  @discardableResult
  public func open(
    _ uri: String, _ text: String, _ extra: [String: JSONValue] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    var params: [String: JSONValue] = ["uri": .string(uri), "text": .string(text)]
    params.merge(extra) { _, new in new }
    return result("openOutline", .object(params), sourceLocation: sourceLocation)
  }

  /// Every visible row of `uri`.
  public func rows(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
    result("visibleRows", ["uri": .string(uri)], sourceLocation: sourceLocation)["rows"]?.arrayValue ?? []
  }

  /// The ids of the visible list of `uri`, in order.
  public func visibleIDs(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    rows(uri, sourceLocation: sourceLocation).compactMap { $0["id"]?.stringValue }
  }

  /// The `version` `visibleRows` reports.
  public func version(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int64? {
    result("visibleRows", ["uri": .string(uri), "count": 0], sourceLocation: sourceLocation)["version"]?.intValue
  }

  /// Checks the server still serves: a small outline opens.
  public func expectServing(sourceLocation: SourceLocation = #_sourceLocation) {
    let r = result(
      "openOutline", ["uri": "mem:alive", "text": "groups: [{title: A}]"], sourceLocation: sourceLocation)
    #expect(r["total"] == 1, sourceLocation: sourceLocation)
  }

  /// Sends a probe request (an unknown method, answered with an error) and returns every
  /// message that came before its reply: what the server said to the messages
  /// written before it. Replies leave in order, so nothing is left to timing.
  public func messagesBeforeProbe(sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
    let probe = JSONValue.string("probe-\(takeID())")
    send(["jsonrpc": "2.0", "id": probe, "method": "noSuchProbeMethod"])
    var out: [JSONValue] = []
    while let m = next() {
      if m["id"] == probe { return out }
      out.append(m)
    }
    Issue.record("no reply to the probe (stderr: \(stderrText))", sourceLocation: sourceLocation)
    return out
  }
}

/// What a server wrote and how it ended, gathered by reader threads: shared by
/// ``InProcessServer`` and ``ServerProcess``.
final class ServerOutput: @unchecked Sendable {
  // @unchecked Sendable: every field is guarded by `lock`.
  private let lock = NSCondition()
  private var received: [JSONValue] = []
  private var stdoutEnded = false
  private var stderrData = Data()
  private var stderrEnded = false
  private var nextID: Int64 = 1

  /// Reads framed messages from `fd` until its end, on a thread of its own.
  func readMessages(from fd: Int32, framing: Framing) {
    Thread.detachNewThread { [self] in
      var framer = framing.makeFramer(maxMessageBytes: 1 << 30)
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        framer.push(chunk[0..<n])
        while let body = try? framer.next() {
          let value = (try? JSONValue.parse(body)) ?? .string("<undecodable>")
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
  }

  /// Reads stderr from `fd` until its end, on a thread of its own.
  func readErrors(from fd: Int32) {
    Thread.detachNewThread { [self] in
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        lock.lock()
        stderrData.append(contentsOf: chunk[0..<n])
        lock.broadcast()
        lock.unlock()
      }
      lock.lock()
      stderrEnded = true
      lock.broadcast()
      lock.unlock()
    }
  }

  func next(timeout: Double) -> JSONValue? {
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

  func waitForStderrEnd(timeout: Double) -> String {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while !stderrEnded {
      if !lock.wait(until: deadline) { break }
    }
    return String(decoding: stderrData, as: UTF8.self)
  }

  func waitForStderr(containing fragment: String, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    let wanted = Data(fragment.utf8)
    lock.lock()
    defer { lock.unlock() }
    while stderrData.range(of: wanted) == nil {
      if stderrEnded || !lock.wait(until: deadline) { return stderrData.range(of: wanted) != nil }
    }
    return true
  }

  var stderrSoFar: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: stderrData, as: UTF8.self)
  }

  func takeID() -> Int64 {
    lock.lock()
    defer { lock.unlock() }
    nextID += 1
    return nextID - 1
  }
}

/// Writes all of `bytes` to `fd`, retrying short writes; stops quietly when the reader is gone.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
  bytes.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      offset += n
    }
  }
}
