import Foundation
import JSONRPC
import Synchronization
import Testing

/// Records what it handles; `block` makes `block`-method requests wait until released;
/// `spin` runs until its request is cancelled (20 s at most, then answers "never cancelled"),
/// as a long open does.
final class RecordingHandler: MessageHandler {
  let seen = Mutex<[String]>([])
  let started = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)
  /// Set when a `spin` request saw its cancellation.
  let spinCancelled = Mutex(false)
  /// Set when a `block` request was released.
  let blockFinished = Mutex(false)
  var blockDone: Bool { blockFinished.withLock { $0 } }

  func result(for message: IncomingMessage) throws(ResponseError) -> any JSONWritable {
    seen.withLock { $0.append(message.method) }
    switch message.method {
    case "echo":
      return message.params?.jsonValue ?? JSONValue.null
    case "block":
      started.signal()
      release.wait()
      blockFinished.withLock { $0 = true }
      if message.cancellation.isCancelled { throw .cancelled }
      return JSONValue.string("unblocked")
    case "spin":
      started.signal()
      let deadline = Date(timeIntervalSinceNow: 20)
      while Date() < deadline {
        if message.cancellation.isCancelled {
          spinCancelled.withLock { $0 = true }
          throw .cancelled
        }
        usleep(1000)
      }
      return JSONValue.string("never cancelled")
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

  init(
    framing: Framing = .lsp, maxMessageBytes: Int = 1 << 20, ending: Connection.Ending = .drain,
    log: Logger = .silent, handler: some MessageHandler
  ) {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    precondition(pipe(&input) == 0 && pipe(&output) == 0)
    toServer = input[1]
    fromServer = output[0]
    connection = Connection(
      input: input[0], output: output[1], framing: framing, maxMessageBytes: maxMessageBytes, log: log,
      ending: ending)
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

  @Test func underLSPLifecycleAnExitWithoutShutdownStopsTheRequestUnderWayAndWritesNothing() {
    let handler = RecordingHandler()
    let harness = PipeHarness(ending: .lspLifecycle, handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"spin"}"#]))
    handler.started.wait()
    harness.send(
      lspFrames([
        #"{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}"#, #"{"jsonrpc":"2.0","method":"exit"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"echo","params":[3]}"#,
      ]))
    let (out, end) = harness.finish()
    #expect(end == .endOfInput)
    #expect(out.isEmpty, "\(String(decoding: out, as: UTF8.self))")
    #expect(handler.spinCancelled.withLock { $0 })
    // The queued echo was cancelled before it ran; nothing after the exit was read.
    #expect(handler.seen.withLock { $0 } == ["spin", "exit"])
  }

  @Test func underLSPLifecycleTheEndOfInputWithoutShutdownStopsTheRequestUnderWay() {
    let handler = RecordingHandler()
    let harness = PipeHarness(ending: .lspLifecycle, handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"spin"}"#]))
    handler.started.wait()
    let (out, end) = harness.finish()
    #expect(end == .endOfInput)
    #expect(out.isEmpty)
    #expect(handler.spinCancelled.withLock { $0 })
  }

  @Test func underLSPLifecycleShutdownThenExitAnswersEverythingBeforeThem() {
    let handler = RecordingHandler()
    let harness = PipeHarness(ending: .lspLifecycle, handler: handler)
    harness.send(
      lspFrames([
        #"{"jsonrpc":"2.0","id":1,"method":"block"}"#, #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
        #"{"jsonrpc":"2.0","method":"exit"}"#,
      ]))
    handler.started.wait()
    handler.release.signal()
    let (out, _) = harness.finish()
    let replies = parseLSPOutput(out)
    #expect(replies.map { $0["id"] } == [1, 2])
    #expect(replies.first?["result"] == "unblocked")
  }

  @Test func byDefaultTheEndOfInputAnswersEverythingRead() {
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"block"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#]))
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}"#]))
    handler.started.wait()
    handler.release.signal()
    let (out, _) = harness.finish()
    #expect(parseLSPOutput(out).map { $0["id"] } == [1, 2])
  }

  @Test func aJobRunsOnTheWorkerAfterTheRequestUnderWaySoItsMessagesFollowThatReply() {
    // A file watcher or a timer hands its work to the worker: what the job sends must
    // leave after the reply of the request that was running when it was handed over.
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"block"}"#]))
    handler.started.wait()
    let connection = harness.connection
    let ranDuringTheRequest = Mutex<Bool?>(nil)
    let jobRan = DispatchSemaphore(value: 0)
    connection.perform {
      // The request under way has finished by the time the job runs.
      ranDuringTheRequest.withLock { $0 = handler.seen.withLock { $0 }.count == 1 && !handler.blockDone }
      connection.sendNotification(method: "fromJob", params: nil)
      jobRan.signal()
    }
    // A job run beside the worker would run now; one run on it cannot before the release.
    let ranEarly = jobRan.wait(timeout: .now() + 1) == .success
    handler.release.signal()
    if !ranEarly { jobRan.wait() }
    #expect(ranDuringTheRequest.withLock { $0 } == false)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}"#]))
    let (out, _) = harness.finish()
    let messages = parseLSPOutput(out)
    #expect(messages.map { $0["id"] ?? $0["method"] } == [1, "fromJob", 2])
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
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"spin"}"#]))
    handler.started.wait()
    // Request 2 is queued behind the running request 1; cancel it and an unknown id.
    // The reader acts on cancellations in the order they come, so once request 1 sees
    // the last one, every cancellation before it has been acted on.
    harness.send(
      lspFrames([
        #"{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"2"}}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"echo","params":[3]}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#,
      ]))
    let (out, _) = harness.finish()
    let replies = parseLSPOutput(out)
    #expect(replies.map { $0["id"] } == [1, 2, 3])
    #expect(replies.first?["error"]?["code"] == -32800)
    #expect(replies.dropFirst().first?["error"]?["code"] == -32800)
    #expect(replies.last?["result"] == [3])
    #expect(handler.seen.withLock { $0 } == ["spin", "echo"])
  }

  @Test func cancelOfARunningRequestMarksItsToken() {
    let handler = RecordingHandler()
    let harness = PipeHarness(handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":"r","method":"spin"}"#]))
    handler.started.wait()
    // `spin` runs until it sees its token marked (it gives up, unanswered by a cancel, after 20 s).
    harness.send(lspFrames([#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"r"}}"#]))
    let (out, _) = harness.finish()
    #expect(handler.spinCancelled.withLock { $0 })
    #expect(
      parseLSPOutput(out) == [
        json(#"{"jsonrpc":"2.0","id":"r","error":{"code":-32800,"message":"request cancelled"}}"#)
      ])
  }

  @Test func endOfInputReturnsAfterRepliesAreWritten() throws {
    // The connection says at debug level when its reader has seen the end of input.
    var logPipe: [Int32] = [0, 0]
    #expect(pipe(&logPipe) == 0)
    defer { close(logPipe[0]) }
    let handler = RecordingHandler()
    let harness = PipeHarness(log: Logger(level: .debug, fd: logPipe[1]), handler: handler)
    harness.send(lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"block"}"#]))
    handler.started.wait()
    close(harness.toServer)
    let log = LineReader(fd: logPipe[0])
    #expect(log.waitForLine(containing: "end of input", timeout: 20), "the reader never saw the end of input")
    // The reader is done; run() must still wait for the request under way. Had it not
    // waited, it would have returned at once: half a second is ample to see it.
    let returnedEarly = harness.finished.wait(timeout: .now() + 0.5) == .success
    #expect(!returnedEarly, "run() returned with a request running")
    handler.release.signal()
    if !returnedEarly { harness.finished.wait() }
    close(logPipe[1])
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

  @Test func anNDJSONLineWithoutItsNewlineAtTheEndOfInputIsAnswered() {
    let harness = PipeHarness(framing: .ndjson, handler: RecordingHandler())
    harness.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}"#.utf8))
    let (out, end) = harness.finish()
    #expect(end == .endOfInput)
    #expect(String(decoding: out, as: UTF8.self) == #"{"id":1,"jsonrpc":"2.0","result":[1]}"# + "\n")
  }

  @Test func underLSPLifecycleShutdownThenTheEndOfInputAnswersEverythingBeforeIt() {
    // The end of input after a shutdown is orderly, without an exit too: the request
    // under way when the reader sees the end is still answered.
    var logPipe: [Int32] = [0, 0]
    #expect(pipe(&logPipe) == 0)
    defer { close(logPipe[0]) }
    let handler = RecordingHandler()
    let harness = PipeHarness(
      ending: .lspLifecycle, log: Logger(level: .debug, fd: logPipe[1]), handler: handler)
    harness.send(
      lspFrames([#"{"jsonrpc":"2.0","id":1,"method":"block"}"#, #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#]))
    handler.started.wait()
    close(harness.toServer)
    #expect(LineReader(fd: logPipe[0]).waitForLine(containing: "end of input", timeout: 20))
    handler.release.signal()
    harness.finished.wait()
    close(logPipe[1])
    let out = readAll(harness.fromServer)
    close(harness.fromServer)
    let end = harness.end.withLock { $0 }
    #expect(end == .endOfInput)
    let replies = parseLSPOutput(out)
    #expect(replies.map { $0["id"] } == [1, 2])
    #expect(replies.first?["result"] == "unblocked")
  }

  @Test func flushFromTheWorkerDoesNotDeadlock() {
    final class FlushingHandler: MessageHandler {
      let connection = Mutex<Connection?>(nil)
      func result(for message: IncomingMessage) throws(ResponseError) -> any JSONWritable {
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

/// Answers `toggle` with a typed result and `note` with a typed notification first.
final class TypedHandler: MessageHandler {
  let connection = Mutex<Connection?>(nil)

  func result(for message: IncomingMessage) throws(ResponseError) -> any JSONWritable {
    switch message.method {
    case "toggle":
      return SectionToggled(version: 2, id: "g1", expanded: false, updatedGroups: ["g1"], scrollTop: nil)
    case "note":
      let connection = connection.withLock { $0 }
      connection?.sendNotification(
        method: "outlineChanged",
        params: SectionToggled(version: 3, id: "g2", expanded: true, updatedGroups: [], scrollTop: 0.5))
      return JSONValue.null
    default:
      throw .methodNotFound(message.method)
    }
  }
}

extension ConnectionTests {
  @Test(arguments: Framing.allCases)
  func typedResultsAndNotificationsAreWrittenByTheWriter(framing: Framing) {
    let handler = TypedHandler()
    let harness = PipeHarness(framing: framing, handler: handler)
    handler.connection.withLock { $0 = harness.connection }
    let requests = [
      #"{"jsonrpc":"2.0","id":1,"method":"toggle"}"#,
      #"{"jsonrpc":"2.0","method":"note"}"#,
      #"[{"jsonrpc":"2.0","id":2,"method":"toggle"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#,
    ]
    harness.send(framing == .lsp ? lspFrames(requests) : Array(requests.joined(separator: "\n").utf8 + [10]))
    let (out, end) = harness.finish()
    #expect(end == .endOfInput)
    let text = String(decoding: out, as: UTF8.self)
    let toggled = #"{"version":2,"id":"g1","expanded":false,"updatedGroups":["g1"]}"#
    let messages = [
      #"{"id":1,"jsonrpc":"2.0","result":\#(toggled)}"#,
      #"{"jsonrpc":"2.0","method":"outlineChanged","params":{"version":3,"id":"g2","expanded":true,"updatedGroups":[],"scrollTop":0.5}}"#,
      #"[{"id":2,"jsonrpc":"2.0","result":\#(toggled)},{"error":{"code":-32601,"message":"method not found: nope"},"id":3,"jsonrpc":"2.0"}]"#,
    ]
    let expected =
      framing == .lsp
      ? messages.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined()
      : messages.map { $0 + "\n" }.joined()
    #expect(text == expected)
  }
}
