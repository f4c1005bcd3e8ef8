import Foundation
import JSONRPC
import Testing

/// The stderr logger (outline protocol §1).
@Suite(.serialized) struct LoggerTests {
  /// Writes go to the descriptor given, any from 0 up; a negative one writes nothing.
  @Test func aLoggerWritesToItsDescriptorEvenZero() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let savedStdin = dup(0)
    #expect(dup2(ends[1], 0) == 0)
    Logger(level: .info, fd: 0, prefix: "p").info("to fd 0")
    #expect(dup2(savedStdin, 0) == 0)
    close(savedStdin)
    Logger(level: .info, fd: ends[1], prefix: "p").warn("to the pipe")
    Logger(level: .warn, fd: ends[1], prefix: "p").info("not written: below the level")
    Logger(level: .debug, fd: -1, prefix: "p").error("not written: no descriptor")
    close(ends[1])
    let text = String(decoding: readAll(ends[0]), as: UTF8.self)
    close(ends[0])
    #expect(text == "p: info: to fd 0\np: warning: to the pipe\n")
  }
}
