import Foundation
import JSONRPC
import OutlineModel
import OutlineTestSupport
import Testing

/// PROTOCOL §1 and §8 "Transport and lifecycle", over the real binary's pipes.
@Suite struct TransportTests {
  // MARK: LSP framing

  @Test func aMessageWrittenInPiecesIsJoined() throws {
    let s = try InProcessServer()
    let bytes = framed(requestText(1, "initialize", [:]))
    for piece in [bytes[0..<3], bytes[3..<17], bytes[17..<19], bytes[19..<30], bytes[30...]] {
      s.writeRaw(Array(piece))
    }
    let reply = s.next()
    #expect(reply?["id"] == 1)
    #expect(reply?["result"]?["serverInfo"]?["name"] == "outline-server")
  }

  @Test func twoMessagesInOneWriteGetTwoRepliesInOrder() throws {
    let s = try InProcessServer.started()
    s.writeRaw(framed(requestText(10, "closeOutline", ["uri": "a"])) + framed(requestText("b", "noSuchMethod")))
    let first = s.next()
    let second = s.next()
    #expect(first?["id"] == 10)
    #expect(first?["error"]?["code"] == -32010)
    #expect(second?["id"] == "b")
    #expect(second?["error"]?["code"] == -32601)
  }

  @Test func headerNamesAreCaseInsensitiveAndContentTypeAndUnknownHeadersAreIgnored() throws {
    let s = try InProcessServer()
    let body = requestText(1, "initialize")
    let header =
      "content-TYPE: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: \(body.utf8.count)\r\n"
      + "X-Anything: at all\r\n\r\n"
    s.writeRaw(Array(header.utf8) + Array(body.utf8))
    #expect(s.next()?["id"] == 1)
    s.writeRaw(Array("CONTENT-LENGTH:\(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8))
    #expect(s.next()?["error"]?["code"] == -32600, "a second initialize")
  }

  @Test func anEmptyBodyIsAParseErrorAndTheServerGoesOn() throws {
    let s = try InProcessServer.started()
    s.writeRaw(Array("Content-Length: 0\r\n\r\n".utf8))
    let reply = s.next()
    #expect(reply?["error"]?["code"] == -32700)
    #expect(reply?["id"] == .null)
    #expect(s.errorCode("closeOutline", ["uri": "x"]) == -32010)
  }

  @Test(arguments: [
    "Content-Length: twelve\r\n\r\n{}",
    "Content-Length: -4\r\n\r\n{}",
    "Content-Type: application/vscode-jsonrpc\r\n\r\n{}",
    "Content-Length 12\r\n\r\n{}",
  ])
  func aBrokenHeaderIsReportedOnStderrAndEndsWithStatus1(_ header: String) throws {
    let s = try InProcessServer.started()
    s.writeRaw(Array(header.utf8))
    #expect(s.waitForExit() == 1)
    let stderr = s.waitForStderrEnd()
    #expect(stderr.contains("cannot read the next message"), "stderr: \(stderr)")
    #expect(s.next() == Optional<JSONValue>.none, "nothing is answered after a broken header")
  }

  @Test func theRepliesBeforeABrokenHeaderAreWritten() throws {
    let s = try InProcessServer.started()
    s.writeRaw(framed(requestText(5, "closeOutline", ["uri": "a"])) + Array("Content-Length: x\r\n\r\n".utf8))
    #expect(s.next()?["id"] == 5)
    #expect(s.waitForExit() == 1)
  }

  @Test func aBodyOfExactlyMaxMessageBytesIsAccepted() throws {
    let base = requestText(1, "initialize")
    let limit = 200
    let body = base.dropLast() + String(repeating: " ", count: limit - base.utf8.count) + "}"
    #expect(body.utf8.count == limit)
    let s = try InProcessServer(arguments: ["--max-message-bytes", "\(limit)"])
    s.writeRaw(framed(String(body)))
    #expect(s.next()?["result"]?["serverInfo"]?["name"] == "outline-server")
    // One byte more: the declared length alone ends the server, before any body is sent.
    s.writeRaw(Array("Content-Length: \(limit + 1)\r\n\r\n".utf8))
    #expect(s.waitForExit() == 1)
    #expect(s.waitForStderrEnd().contains("exceeds --max-message-bytes \(limit)"))
  }

  // MARK: Bad bodies

  @Test func invalidJSONIsAParseErrorWithIdNull() throws {
    let s = try InProcessServer.started()
    s.send(body: #"{"jsonrpc": "2.0", "id": 4, "method": "shutdown""#)
    let reply = s.next()
    #expect(reply?["id"] == .null)
    #expect(reply?["error"]?["code"] == -32700)
    #expect(s.errorCode("closeOutline", ["uri": "x"]) == -32010, "the server goes on")
  }

  @Test func aRequestWhoseIdIsNullIsInvalidWithIdNull() throws {
    // LSP ids are integers or strings: shutdown with a null id must not shut the server down.
    let s = try InProcessServer.started()
    s.send(body: #"{"jsonrpc":"2.0","id":null,"method":"shutdown"}"#)
    let reply = s.next()
    #expect(reply?["id"] == .null)
    #expect(reply?["error"]?["code"] == -32600)
    #expect(s.errorCode("closeOutline", ["uri": "x"]) == -32010, "the server goes on, not shut down")
  }

  @Test func invalidUTF8IsAParseError() throws {
    let s = try InProcessServer.started()
    let body =
      Array(#"{"jsonrpc":"2.0","id":4,"method":"closeOutline","params":{"uri":"a"#.utf8) + [0xFF, 0xFE]
      + Array(#""}}"#.utf8)
    s.writeRaw(framed(bytes: body))
    let reply = s.next()
    #expect(reply?["id"] == .null)
    #expect(reply?["error"]?["code"] == -32700)
  }

  @Test(arguments: ["42", "\"hello\"", "null", #"{"jsonrpc":"2.0"}"#, #"{"id":1,"method":"shutdown"}"#])
  func aValueThatIsNotARequestIsInvalidRequest(_ body: String) throws {
    let s = try InProcessServer.started()
    s.send(body: body)
    let reply = s.next()
    #expect(reply?["error"]?["code"] == -32600)
  }

  @Test func anInvalidRequestEchoesAValidId() throws {
    let s = try InProcessServer.started()
    s.send(body: #"{"jsonrpc":"2.0","id":"x7","method":12}"#)
    #expect(s.next()?["id"] == "x7")
    s.send(body: #"{"jsonrpc":"1.0","id":8,"method":"shutdown"}"#)
    let reply = s.next()
    #expect(reply?["id"] == 8)
    #expect(reply?["error"]?["code"] == -32600)
  }

  @Test(arguments: ["3", "\"text\"", "true"])
  func scalarParamsAreInvalidRequest(_ params: String) throws {
    let s = try InProcessServer.started()
    s.send(body: #"{"jsonrpc":"2.0","id":3,"method":"visibleRows","params":\#(params)}"#)
    let reply = s.next()
    #expect(reply?["id"] == 3)
    #expect(reply?["error"]?["code"] == -32600)
  }

  @Test func arrayParamsAreInvalidParams() throws {
    let s = try InProcessServer.started()
    let error = s.error("visibleRows", ["file:///a.yaml"])
    #expect(error["code"] == -32602)
    #expect(error["message"] == "params must be an object")
  }

  @Test func aFractionalIdIsInvalidRequestWithIdNull() throws {
    let s = try InProcessServer.started()
    s.send(body: #"{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}"#)
    let reply = s.next()
    #expect(reply?["id"] == .null)
    #expect(reply?["error"]?["code"] == -32600)
    // The request was not run: shutdown is still possible.
    #expect(s.result("shutdown") == .null)
  }

  /// PROTOCOL leaves `7.0` open; the project reads a whole-valued float id as the integer.
  @Test func ambiguousAWholeValuedFloatIdIsReadAsTheInteger() throws {
    let s = try InProcessServer.started()
    s.send(body: #"{"jsonrpc":"2.0","id":7.0,"method":"closeOutline","params":{"uri":"a"}}"#)
    let reply = s.next()
    #expect(reply?["id"] == 7)
    #expect(reply?["error"]?["code"] == -32010)
  }

  // MARK: Batches

  @Test func aBatchIsAnsweredWithOneArrayMatchedById() throws {
    let s = try InProcessServer.started()
    let batch =
      "[" + requestText(1, "closeOutline", ["uri": "a"]) + "," + #"{"jsonrpc":"2.0","method":"initialized"}"#
      + "," + requestText("two", "noSuchMethod") + ",17]"
    s.send(body: batch)
    guard let replies = s.next()?.arrayValue else {
      Issue.record("a batch is answered with an array")
      return
    }
    #expect(replies.count == 3)
    let byID = Dictionary(replies.map { ($0["id"]?.jsonText ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    #expect(byID["1"]?["error"]?["code"] == -32010)
    #expect(byID["\"two\""]?["error"]?["code"] == -32601)
    #expect(byID["null"]?["error"]?["code"] == -32600, "17 is not a request")
  }

  @Test func anEmptyBatchGetsOneInvalidRequest() throws {
    let s = try InProcessServer.started()
    s.send(body: "[]")
    let reply = s.next()
    #expect(reply?.arrayValue == nil, "one response, not an array")
    #expect(reply?["error"]?["code"] == -32600)
    #expect(reply?["id"] == .null)
  }

  @Test func aBatchOfNotificationsGetsNoReply() throws {
    let s = try InProcessServer.started()
    s.send(body: #"[{"jsonrpc":"2.0","method":"initialized"},{"jsonrpc":"2.0","method":"noSuchNotification"}]"#)
    #expect(s.messagesBeforeProbe().isEmpty)
  }

  // MARK: Notifications

  @Test func aNotificationWithARequestsMethodIsNeverAnswered() throws {
    let s = try InProcessServer.started()
    s.notify("shutdown")
    s.notify("openOutline", ["uri": "untitled:1", "text": "groups: []\n"])
    s.notify("closeOutline", ["uri": "nowhere"])
    #expect(s.messagesBeforeProbe().isEmpty)
    // `shutdown` as a notification did not shut the server down.
    #expect(s.errorCode("closeOutline", ["uri": "nowhere"]) == -32010)
  }

  @Test func notificationsBeforeInitializeAreNotAnswered() throws {
    let s = try InProcessServer()
    s.notify("initialized")
    s.notify("visibleRows", ["uri": "x"])
    let before = s.messagesBeforeProbe()
    #expect(before.isEmpty)
  }

  // MARK: ndjson

  @Test func ndjsonIgnoresBlankLinesAndAnswersOneLinePerMessage() throws {
    let s = try InProcessServer(framing: .ndjson)
    let text =
      "\n\n" + requestText(1, "initialize") + "\n\n  \n" + requestText(2, "closeOutline", ["uri": "a"]) + "\n"
      + "{not json}\n"
    s.writeRaw(Array(text.utf8))
    #expect(s.next()?["id"] == 1)
    #expect(s.next()?["error"]?["code"] == -32010)
    let parseError = s.next()
    #expect(parseError?["error"]?["code"] == -32700)
    #expect(parseError?["id"] == .null)
  }

  // MARK: Cancellation

  @Test func cancellingAQueuedRequestAnswersRequestCancelled() throws {
    // The worker is held inside the first open (measuring a title) while the small open
    // waits behind it and is cancelled; it is released once the reader has acted on the
    // cancel, which the debug log shows: the reader reaches the cancel of an unknown id
    // after the one of 101.
    let gate = HoldingLineBreakers(holdOn: "hold-here")
    let s = try InProcessServer(arguments: ["--log-level", "debug"], lineBreakers: gate)
    s.initialize()
    let held = "groups: [{id: g, title: G, expanded: true, rows: [{title: hold-here}]}]\n"
    s.writeRaw(framed(requestText(100, "openOutline", ["uri": "untitled:held", "text": .string(held)])))
    #expect(gate.started.wait(timeout: .now() + 20) == .success, "the first open never measured its row")
    s.writeRaw(
      framed(requestText(101, "openOutline", ["uri": "untitled:small", "text": "groups: []\n"]))
        + framed(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":101}}"#)
        + framed(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"marker"}}"#))
    #expect(s.waitForStderr(containing: "$/cancelRequest for \"marker\"", timeout: 20), "stderr: \(s.stderrText)")
    gate.release.signal()
    let first = s.next()
    #expect(first?["id"] == 100)
    #expect(first?["result"]?["groupCount"] == 1)
    let second = s.next()
    #expect(second?["id"] == 101)
    #expect(second?["error"]?["code"] == -32800)
    // The server goes on, and the cancelled open did not happen.
    #expect(s.errorCode("visibleRows", ["uri": "untitled:small"]) == -32010)
    #expect(s.result("visibleRows", ["uri": "untitled:held", "count": 1])["total"] == 2)
  }

  @Test func cancellingAnUnknownIdIsIgnored() throws {
    let s = try InProcessServer.started()
    s.notify("$/cancelRequest", ["id": 999])
    s.notify("$/cancelRequest", ["id": "nope"])
    s.notify("$/cancelRequest", [:])
    #expect(s.messagesBeforeProbe().isEmpty)
  }

  @Test func cancellingAFinishedRequestChangesNothing() throws {
    let s = try InProcessServer.started()
    let id = s.sendRequest("openOutline", ["uri": "untitled:a", "text": "groups: []\n"])
    #expect(s.next()?["result"]?["version"] == 1)
    s.notify("$/cancelRequest", ["id": .int(id)])
    #expect(s.result("visibleRows", ["uri": "untitled:a"])["total"] == 0)
  }
}

/// Measures as the binary does in cells, but the first time a text holding `holdOn`
/// is measured, signals `started` and waits for `release` (a minute at most): a way
/// to hold the server's worker inside a request for as long as a test needs.
final class HoldingLineBreakers: LineBreakerSource, @unchecked Sendable {
  // @unchecked Sendable: `held` is guarded by `lock`; the semaphores are thread-safe.
  let started = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)
  private let marker: [UInt8]
  private let lock = NSLock()
  private var held = false

  init(holdOn marker: String) { self.marker = Array(marker.utf8) }

  func lineBreaker(for layout: Layout) -> any LineBreaker {
    Holding(inner: CellLineBreakers().lineBreaker(for: layout), owner: self)
  }

  fileprivate func measuring(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard utf8.count >= marker.count,
      (0...(utf8.count - marker.count)).contains(where: { utf8[$0..<($0 + marker.count)].elementsEqual(marker) })
    else { return }
    let first = lock.withLock {
      defer { held = true }
      return !held
    }
    guard first else { return }
    started.signal()
    _ = release.wait(timeout: .now() + 60)
  }

  private struct Holding: LineBreaker {
    let inner: any LineBreaker
    let owner: HoldingLineBreakers

    func lineCount(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> Int {
      owner.measuring(utf8)
      return inner.lineCount(utf8: utf8, width: width)
    }

    func lines(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> [Range<Int>] {
      inner.lines(utf8: utf8, width: width)
    }

    func drawnText(_ line: Substring) -> String { inner.drawnText(line) }
  }
}
