#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal line logger for stderr (outline protocol §1: logs never go to stdout).
///
/// Each message is written as `PREFIX: LEVEL: message\n` with a single `write(2)`, so lines
/// from different threads do not interleave. Messages above ``level`` are not built: the
/// message is an autoclosure.
public struct Logger: Sendable {
  /// Severity, most severe first; `--log-level` takes the names.
  public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// `error`: failures; `warn`: recovered problems; `info`: lifecycle; `debug`: each message.
    case error, warn, info, debug

    /// Parses `error`, `warn` (or `warning`), `info`, `debug`, case-insensitively.
    public init?(name: String) {
      switch name.lowercased() {
      case "error": self = .error
      case "warn", "warning": self = .warn
      case "info": self = .info
      case "debug": self = .debug
      default: return nil
      }
    }

    /// Orders by severity: `.error < .warn < .info < .debug` (a smaller level is more severe).
    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

    /// The name written in each line: `error`, `warning`, `info` or `debug`.
    public var description: String {
      switch self {
      case .error: return "error"
      case .warn: return "warning"
      case .info: return "info"
      case .debug: return "debug"
      }
    }
  }

  /// The most verbose level written.
  public var level: Level
  /// The file descriptor written to; 2 (stderr) by default.
  public var fd: Int32
  /// Put before each line, e.g. the program name.
  public var prefix: String

  /// A logger writing messages at `level` and more severe.
  ///
  /// - Parameters:
  ///   - level: the most verbose level written; `.warn` by default.
  ///   - fd: the file descriptor written to; a negative fd writes nothing.
  ///   - prefix: put before each line.
  public init(level: Level = .warn, fd: Int32 = 2, prefix: String = "outline-server") {
    self.level = level
    self.fd = fd
    self.prefix = prefix
  }

  /// A logger that writes nothing.
  public static let silent = Logger(level: .error, fd: -1)

  /// `true` when messages of `level` are written.
  public func isEnabled(_ level: Level) -> Bool { fd >= 0 && level <= self.level }

  /// Writes `PREFIX: LEVEL: message\n` to ``fd`` in one `write(2)` when `level` is enabled.
  ///
  /// A write interrupted by a signal is retried; a failed write is dropped silently.
  ///
  /// - Parameters:
  ///   - level: the message's severity.
  ///   - message: built only when `level` is enabled.
  public func log(_ level: Level, _ message: @autoclosure () -> String) {
    guard isEnabled(level) else { return }
    let line = Array("\(prefix): \(level): \(message())\n".utf8)
    line.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
      }
    }
  }

  /// Logs `message` at ``Level/error``.
  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  /// Logs `message` at ``Level/warn``.
  public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  /// Logs `message` at ``Level/info``.
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  /// Logs `message` at ``Level/debug``.
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
