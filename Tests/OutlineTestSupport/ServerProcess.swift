import Foundation
import JSONRPC

/// The built `outline-server` binary: `$OUTLINE_SERVER`, else the one beside this test bundle.
public func serverBinary() -> URL {
  if let path = ProcessInfo.processInfo.environment["OUTLINE_SERVER"] { return URL(fileURLWithPath: path) }
  let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  return me.deletingLastPathComponent().appendingPathComponent("outline-server")
}

/// A real `outline-server` process spoken to over pipes with framed JSON-RPC: for what
/// only a process shows (its exit status, its command line, stdout kept for protocol,
/// signals). Everything else runs faster as an ``InProcessServer``.
public final class ServerProcess: TestServer, @unchecked Sendable {
  // @unchecked Sendable: the output is guarded by its own lock; the rest is set in
  // init and only read afterwards.
  /// The spawned binary.
  public let process = Process()
  private let stdin = Pipe()
  private let stdout = Pipe()
  private let stderr = Pipe()
  /// How messages are delimited, both ways.
  public let framing: Framing
  private let output = ServerOutput()
  /// The `XDG_STATE_HOME` of this server.
  public private(set) var stateDirectory: URL? = nil

  /// Starts the server with `arguments`; `environment` entries are added to this process's.
  public init(arguments: [String] = [], framing: Framing = .lsp, environment extra: [String: String] = [:]) throws {
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
    output.readMessages(from: stdout.fileHandleForReading.fileDescriptor, framing: framing)
    output.readErrors(from: stderr.fileHandleForReading.fileDescriptor)
  }

  deinit {
    // SIGKILL: processes started from the test runner may ignore SIGTERM.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    if let stateDirectory { try? FileManager.default.removeItem(at: stateDirectory) }
  }

  /// Writes raw bytes to the server's input.
  public func writeRaw(_ bytes: [UInt8]) {
    writeAll(stdin.fileHandleForWriting.fileDescriptor, bytes)
  }

  /// The next message from the server, or `nil` after `timeout` seconds or at the end of its output.
  public func next(timeout: Double) -> JSONValue? { output.next(timeout: timeout) }

  /// Closes the server's input (the end of stdin).
  public func closeInput() { try? stdin.fileHandleForWriting.close() }

  /// The exit status once the server ended, or `nil` after `timeout` seconds.
  public func waitForExit(timeout: Double) -> Int32? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      return nil
    }
    return process.terminationStatus
  }

  /// All of stderr once the server closed it, or what came within `timeout` seconds.
  public func waitForStderrEnd(timeout: Double) -> String { output.waitForStderrEnd(timeout: timeout) }

  /// What the server wrote to stderr so far; once it has ended, all of it.
  public var stderrText: String {
    if !process.isRunning { return waitForStderrEnd(timeout: 5) }
    return output.stderrSoFar
  }

  /// Waits until stderr holds `fragment`, at most `timeout` seconds; whether it came.
  public func waitForStderr(containing fragment: String, timeout: Double) -> Bool {
    output.waitForStderr(containing: fragment, timeout: timeout)
  }

  /// The next request id.
  public func takeID() -> Int64 { output.takeID() }

  /// A started, initialized server.
  public static func started(
    arguments: [String] = [], framing: Framing = .lsp, encoding: String? = nil
  ) throws -> ServerProcess {
    try ServerProcess(arguments: arguments, framing: framing).start(encoding: encoding)
  }
}
