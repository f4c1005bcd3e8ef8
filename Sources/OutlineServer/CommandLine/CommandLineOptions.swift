import JSONRPC

/// What the command line asks for (`outline-server --help`).
public enum Command: Equatable, Sendable {
  /// Serve JSON-RPC on stdin/stdout.
  case serve(ServerOptions)
  /// `render FILE [--width N] [--expand all|ID,...]`: print the visible outline.
  case render(file: String, width: Int?, expand: [String]?)
  /// `--help` (or `-h`, `help`): print ``usage`` on stdout.
  case help
  /// `--version`: print `outline-server VERSION` on stdout.
  case version
}

extension ServerOptions: Equatable {
  /// Field by field.
  public static func == (a: ServerOptions, b: ServerOptions) -> Bool {
    a.framing == b.framing && a.maxMessageBytes == b.maxMessageBytes && a.maxNodes == b.maxNodes
      && a.logLevel == b.logLevel && a.stateDirectory == b.stateDirectory && a.clientProcessID == b.clientProcessID
  }
}

/// A command line that cannot be obeyed: printed on stderr, exit status 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, e.g. a missing value or an unknown option.
  public let description: String
  /// An error with the given message.
  public init(_ description: String) { self.description = description }
}

extension Command {
  /// The text of `--help`, ending in a newline.
  public static let usage = """
    Usage:
      outline-server [--framing lsp|ndjson] [--max-message-bytes N] [--max-nodes N] [--log-level LEVEL]
                     [--state-dir DIR] [--stdio] [--clientProcessId N]
      outline-server render FILE [--width N] [--expand all|ID,...]
      outline-server --help | --version

    Serves collapsible outlines over JSON-RPC 2.0 on stdin/stdout (LSP framing by default).

    Options:
      --framing lsp|ndjson     Content-Length framing (default) or one JSON value per line
      --max-message-bytes N    largest message body accepted (default 67108864)
      --max-nodes N            most YAML nodes in a file, aliases expanded (default 10000000)
      --log-level LEVEL        error, warn (default), info or debug; logs go to stderr
      --state-dir DIR          where view state is saved between sessions
                               (default $XDG_STATE_HOME/outline-server or ~/.local/state/outline-server)
      --stdio                  talk over stdin/stdout: the only transport, accepted as LSP clients pass it
      --clientProcessId N      exit (status 1) when process N is gone, checked every few seconds,
                               as initialize's processId also asks; --clientProcessId=N works too

    render prints the visible outline of FILE as a pane would show it:
      --width N                pane width in cells (default: the file's layout width, else 80)
      --expand all|ID,...      open every group, or the groups with these ids

    """

  /// Parses the arguments after the program name.
  /// - Throws: ``UsageError`` naming the bad argument.
  public static func parse(_ args: [String]) throws(UsageError) -> Command {
    var it = args.makeIterator()
    func value(_ flag: String) throws(UsageError) -> String {
      guard let v = it.next() else { throw UsageError("\(flag) needs a value") }
      return v
    }
    func positive(_ flag: String) throws(UsageError) -> Int {
      let v = try value(flag)
      guard let n = Int(v), n > 0 else { throw UsageError("\(flag) needs a positive integer, got \"\(v)\"") }
      return n
    }
    func processID(_ flag: String, _ v: String) throws(UsageError) -> Int32 {
      guard let n = Int32(v), n > 0 else { throw UsageError("\(flag) needs a process id, got \"\(v)\"") }
      return n
    }
    guard let first = args.first else { return .serve(ServerOptions()) }
    switch first {
    case "--help", "-h", "help": return .help
    case "--version": return .version
    case "render":
      _ = it.next()
      var file: String? = nil
      var width: Int? = nil
      var expand: [String]? = nil
      while let a = it.next() {
        switch a {
        case "--width": width = try positive(a)
        case "--expand":
          let v = try value(a)
          let ids = v.split(separator: ",").map(String.init)
          guard v == "all" || !ids.isEmpty else { throw UsageError("--expand needs all or group ids, got \"\(v)\"") }
          expand = v == "all" ? [] : ids
        default:
          guard !a.hasPrefix("-") || a == "-" else { throw UsageError("unknown option \(a) for render") }
          guard file == nil else { throw UsageError("render takes one FILE, got \"\(file!)\" and \"\(a)\"") }
          file = a
        }
      }
      guard let file else { throw UsageError("render needs a FILE") }
      return .render(file: file, width: width, expand: expand)
    default:
      var o = ServerOptions()
      while let a = it.next() {
        switch a {
        case "--framing":
          let v = try value(a)
          guard let f = Framing(rawValue: v) else { throw UsageError("--framing must be lsp or ndjson, got \"\(v)\"") }
          o.framing = f
        case "--max-message-bytes": o.maxMessageBytes = try positive(a)
        case "--max-nodes": o.maxNodes = try positive(a)
        case "--state-dir": o.stateDirectory = try value(a)
        case "--stdio": break
        case "--clientProcessId": o.clientProcessID = try processID(a, try value(a))
        case _ where a.hasPrefix("--clientProcessId="):
          o.clientProcessID = try processID("--clientProcessId", String(a.dropFirst("--clientProcessId=".count)))
        case "--log-level":
          let v = try value(a)
          guard let l = Logger.Level(name: v) else {
            throw UsageError("--log-level must be error, warn, info or debug, got \"\(v)\"")
          }
          o.logLevel = l
        default: throw UsageError("unknown argument \(a)")
        }
      }
      return .serve(o)
    }
  }
}
