#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Process-wide setup of the standard streams for a stdio protocol server.
public enum StandardStreams {
  /// Keeps the real stdout for the protocol and points fd 1 at stderr, so that a stray
  /// `print` can never corrupt the stream; ignores `SIGPIPE`, so a vanished client is a
  /// write error (`EPIPE`) rather than a silent death.
  ///
  /// Call once, at start, before anything is printed.
  ///
  /// - Returns: the file descriptor that now refers to the original stdout (close-on-exec),
  ///   to pass as `Connection(output:)`; `-1` if `dup` failed (then fd 1 is left as is).
  public static func protectStdout() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let protocolFD = fcntl(1, F_DUPFD_CLOEXEC, 3)
    guard protocolFD >= 0 else { return -1 }
    _ = dup2(2, 1)
    return protocolFD
  }
}
