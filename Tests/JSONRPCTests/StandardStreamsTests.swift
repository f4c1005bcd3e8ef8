import JSONRPC
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `protectStdout()` changes the process's own descriptors, so each test runs it in a child
/// process of its own; the child's exit status says what it found (0: as documented).
@Suite struct StandardStreamsTests {
  /// A stray write to fd 1 lands on stderr; the descriptor returned writes to the original
  /// stdout, is close-on-exec and is not one of 0, 1, 2; a write to a vanished reader is
  /// `EPIPE`, not the death of the process.
  @Test func strayOutputGoesToStderrAndTheProtocolKeepsStdout() async {
    await #expect(processExitsWith: .exitCode(0)) {
      var stdoutPipe: [Int32] = [0, 0]
      var stderrPipe: [Int32] = [0, 0]
      guard pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else { exit(10) }
      guard dup2(stdoutPipe[1], 1) == 1, dup2(stderrPipe[1], 2) == 2 else { exit(11) }

      let protocolFD = StandardStreams.protectStdout()
      guard protocolFD > 2 else { exit(12) }
      guard fcntl(protocolFD, F_GETFD) & FD_CLOEXEC != 0 else { exit(13) }

      // Each pipe gets exactly the byte written where it should go.
      func readByte(_ fd: Int32) -> UInt8? {
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        var byte: UInt8 = 0
        return read(fd, &byte, 1) == 1 ? byte : nil
      }
      var stray = UInt8(ascii: "s")
      var message = UInt8(ascii: "m")
      guard write(1, &stray, 1) == 1, write(protocolFD, &message, 1) == 1 else { exit(14) }
      guard readByte(stderrPipe[0]) == UInt8(ascii: "s"), readByte(stderrPipe[0]) == nil else { exit(15) }
      guard readByte(stdoutPipe[0]) == UInt8(ascii: "m"), readByte(stdoutPipe[0]) == nil else { exit(16) }

      // A client gone: the write fails instead of SIGPIPE ending the process.
      close(stdoutPipe[0])
      guard write(protocolFD, &message, 1) == -1, errno == EPIPE else { exit(17) }
      exit(0)
    }
  }

  /// When stdout cannot be duplicated, it answers -1 and leaves fd 1 as it was. The
  /// duplicate is refused by a descriptor limit of 3 rather than by closing fd 1, which
  /// another thread of the test process could open again meanwhile.
  @Test func whenStdoutCannotBeDuplicatedItAnswersMinusOneAndLeavesItAsItWas() async {
    await #expect(processExitsWith: .exitCode(0)) {
      var before = stat()
      guard fstat(1, &before) == 0 else { exit(22) }
      var limit = rlimit()
      #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
      #else
        let resource = RLIMIT_NOFILE
      #endif
      guard getrlimit(resource, &limit) == 0 else { exit(23) }
      limit.rlim_cur = 3
      guard setrlimit(resource, &limit) == 0 else { exit(24) }
      guard StandardStreams.protectStdout() == -1 else { exit(20) }
      var after = stat()
      guard fstat(1, &after) == 0, after.st_dev == before.st_dev, after.st_ino == before.st_ino else { exit(21) }
      exit(0)
    }
  }
}
