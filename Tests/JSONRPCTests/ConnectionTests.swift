import Foundation
import JSONRPC
import Synchronization
import Testing

/// Records what it handles; `block` makes `block`-method requests wait until released.
final class RecordingHandler: MessageHandler {
  let seen = Mutex<[String]>([])
  let started = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)

  func handle(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
    seen.withLock { $0.append(message.method) }
    switch message.method {
    case "echo":
      return message.params?.jsonValue ?? .null
    case "block":
      started.signal()
      release.wait()
      if message.cancellation.isCancelled { throw .cancelled }
      return "unblocked"
    case "fail":
      throw ResponseError(code: .invalidParams, message: "missing field \"x\"")
    default:
      throw .methodNotFound(message.method)
    }
  }
}

/// A connection over two pipes, run on a thread of its own.
final class PipeHarness: Sendable {
  let toServer: Int32
  let fromServer: Int32
  let connection: Connection
  let end = Mutex<RunEnd?>(nil)
  let finished = DispatchSemaphore(value: 0)

  init(framing: Framing = .lsp, maxMessageBytes: Int = 1 << 20, handler: some MessageHandler) {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    precondition(pipe(&input) == 0 && pipe(&output) == 0)
    toServer = input[1]
    fromServer = output[0]
    connection = Connection(
      input: input[0], output: output[1], framing: framing, maxMessageBytes: maxMessageBytes, log: .silent)
    let serverIn = input[0]
    let serverOut = output[1]
    Thread { [self] in
      let result = connection.run(handler: handler)
      end.withLock { $0 = result }
      close(serverIn)
      close(serverOut)
      finished.signal()
    }.start()
  }

  func send(_ bytes: [UInt8]) { writeAll(toServer, bytes) }

  /// Closes the input and returns everything the server wrote, and how it ended.
  func finish() -> ([UInt8], RunEnd?) {
    close(toServer)
    let out = readAll(fromServer)
    finished.wait()
    close(fromServer)
    return (out, end.withLock { $0 })
  }
}

@Suite("Connection over pipes", .serialized, .timeLimit(.minutes(1)))
struct ConnectionTests {
  @Test func requestsAreAnsweredInOrderAndNotificationsAreNot() {
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(
      lspFrames([
        #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1}}"#,
        #"{"jsonrpc":"2.0","method":"note"}"#,
        #"{"jsonrpc":"2.0","id":"1","method":"echo","params":[2]}"#,
        #"{"jsonrpc":"2.0","id":9007199254740991,"method":"fail"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"nope"}"#,
        #"{"jsonrpc":"2.0","id":4,"result":"a response from the client"}"#,
        "{bad json",
        #"{"jsonrpc":"2.0","id":5.5,"method":"echo"}"#,
      ]))
    let (out, end) = harness.finish()
    #expect(end == .endOfInput)
    let replies = parseLSPOutput(out)
    #expect(
      replies.count == 6
        && Array(replies[0..<4]) == [
          json(#"{"jsonrpc":"2.0","id":1,"result":{"n":1}}"#),
          json(#"{"jsonrpc":"2.0","id":"1","result":[2]}"#),
          json(#"{"jsonrpc":"2.0","id":9007199254740991,"error":{"code":-32602,"message":"missing field \"x\""}}"#),
          json(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found: nope"}}"#),
        ])
    #expect(replies[4]["error"]?["code"] == -32700)
    #expect(replies[4]["id"] == .null)
    #expect(
      replies[5]
        == json(
          #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" is a fraction"}}"#))
    #expect(handler.seen.withLock { $0 } == ["echo", "note", "echo", "fail", "nope"])
  }

  @Test func batchIsAnsweredWithOneArrayInInputOrder() {
    let harness = PipeHarness(handler: RecordingHandler())
    harness.send(
      lspFrames([
        #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"n"},"#
          + #"{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]},5]"#,
        #"[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","method":"n"}]"#,
        "[]",
      ]))
    let (out, _) = harness.finish()
    let replies = parseLSPOutput(out)
    #expect(replies.count == 2)
    #expect(
      replies.first
        == json(
          #"[{"jsonrpc":"2.0","id":1,"result":[1]},{"jsonrpc":"2.0","id":2,"result":[2]},"#
            + #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: not a request object"}}]"#
        ))
    #expect(replies.last?["error"]?["code"] == -32600)
    #expect(replies.last?["id"] == .null)
  }

  @Test func cancelOfAQueuedRequestAnswers32800WithoutCallingTheHandler() {
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"block"}"#]))
    handler.started.wait()
    // Request 2 is queued behind the blocked request 1; cancel it and an unknown id.
    harness.send(
      lspFrames([
        #"{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"2"}}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"echo","params":[3]}"#,
      ]))
    // Give the reader time to see the cancellations while request 1 still runs.
    Thread.sleep(forTimeInterval: 0.2)
    handler.release.signal()
    let (out, _) = harness.finish()
    let replies = parseLSPOutput(out)
    #expect(replies.map { $0["id"] } == [1, 2, 3])
    #expect(replies[0]["result"] == "unblocked")
    #expect(replies[1]["error"]?["code"] == -32800)
    #expect(replies[2]["result"] == [3])
    #expect(handler.seen.withLock { $0 } == ["block", "echo"])
  }

  @Test func cancelOfARunningRequestMarksItsToken() {
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":"r","method":"block"}"#]))
    handler.started.wait()
    harness.send(lspFrames([#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"r"}}"#]))
    Thread.sleep(forTimeInterval: 0.2)
    handler.release.signal()
    let (out, _) = harness.finish()
    #expect(
      parseLSPOutput(out) == [
        json(#"{"jsonrpc":"2.0","id":"r","error":{"code":-32800,"message":"request cancelled"}}"#)
      ])
  }

  @Test func endOfInputReturnsAfterRepliesAreWritten() {
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"block"}"#]))
    handler.started.wait()
    close(harness.toServer)
    // The reader has seen end of input; run() must still wait for the running request.
    Thread.sleep(forTimeInterval: 0.1)
    #expect(harness.end.withLock { $0 } == nil)
    handler.release.signal()
    harness.finished.wait()
    let out = readAll(harness.fromServer)
    close(harness.fromServer)
    #expect(parseLSPOutput(out) == [json(#"{"jsonrpc":"2.0","id":1,"result":"unblocked"}"#)])
    #expect(harness.end.withLock { $0 } == .endOfInput)
  }

  @Test func brokenFramingEndsTheRunAfterEarlierReplies() {
    let harness = PipeHarness(maxMessageBytes: 100, handler: RecordingHandler())
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#]) + Array("Content-Length: 101\r\n\r\n".utf8))
    harness.finished.wait()
    close(harness.toServer)
    let out = readAll(harness.fromServer)
    close(harness.fromServer)
    #expect(parseLSPOutput(out) == [json(#"{"jsonrpc":"2.0","id":1,"result":null}"#)])
    guard case .brokenFraming(let reason) = harness.end.withLock({ $0 }) else {
      Issue.record("expected broken framing")
      return
    }
    #expect(reason.contains("101"))
  }

  @Test func ndjsonInBothDirections() {
    let harness = PipeHarness(framing: .ndjson, handler: RecordingHandler())
    harness.connection.sendNotification(method: "hello", params: nil)
    harness.send(Array("\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"a/b\"]}\r\n\n[]\n".utf8))
    let (out, end) = harness.finish()
    #expect(end == .endOfInput)
    let lines = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4)
    #expect(lines[0] == #"{"jsonrpc":"2.0","method":"hello"}"#)
    #expect(lines[1] == #"{"id":1,"jsonrpc":"2.0","result":["a/b"]}"#)
    #expect(json(String(lines[2]))["error"]?["code"] == -32600)
    #expect(lines[3] == "")
  }

  @Test func flushFromTheWorkerDoesNotDeadlock() {
    final class FlushingHandler: MessageHandler {
      let connection = Mutex<Connection?>(nil)
      func handle(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
        let connection = connection.withLock { $0 }
        connection?.sendNotification(method: "before", params: nil)
        connection?.flush()
        return true
      }
    }
    let handler = FlushingHandler()
    let harness = PipeHarness(handler: handler)
    handler.connection.withLock { $0 = harness.connection }
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"x"}"#]))
    let (out, _) = harness.finish()
    #expect(parseLSPOutput(out).map { $0["method"] ?? $0["result"] } == ["before", true])
  }
}
