import Foundation
import JSONRPC
import OutlineModel

/// What the command line asks for (`outline-server --help`).
public enum Command: Equatable, Sendable {
  /// Serve JSON-RPC on stdin/stdout.
  case serve(ServerOptions)
  /// `render FILE [--width N] [--expand all|ID,...]`: print the visible outline; with
  /// `--font`, the lines a font layout made (``RenderFont``).
  case render(file: String, width: Int?, expand: [String]?, font: RenderFont? = nil)
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

/// `render --font FAMILY[,FAMILY…] --size N --width PX [--weight N] [--style normal|italic]
/// [--counts]`: lay the outline out in unit `font` (PROTOCOL §10) and print, for each visible
/// item, each text's lines (or their count).
public struct RenderFont: Equatable, Sendable {
  /// Families, size, weight and style.
  public var font: FontDescription
  /// The pane width in px; a text wraps at it less the file's indent × depth and padding.
  public var width: Double
  /// Print one line per text with its number of lines, instead of the lines.
  public var countsOnly: Bool

  /// A font rendering of `width` px.
  public init(font: FontDescription, width: Double, countsOnly: Bool = false) {
    self.font = font
    self.width = width
    self.countsOnly = countsOnly
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
  /// What a usage error prints after its message: the synopsis of ``usage`` and where the
  /// rest is, ending in a newline.
  public static var shortUsage: String {
    let synopsis = usage.components(separatedBy: "\n\n").first ?? usage
    return synopsis + "\nRun outline-server --help for the options.\n"
  }

  /// The text of `--help`, ending in a newline.
  public static let usage = """
    Usage:
      outline-server [--framing lsp|ndjson] [--max-message-bytes N] [--max-nodes N] [--log-level LEVEL]
                     [--state-dir DIR] [--stdio] [--clientProcessId N]
      outline-server render FILE [--width N] [--expand all|ID,...]
      outline-server render FILE --font FAMILY[,FAMILY...] --size PX --width PX [--weight N]
                     [--style normal|italic] [--counts] [--expand all|ID,...]
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

    render --font lays the outline out in unit font (real fonts, as a browser breaks lines) and
    prints, for each visible item, one line per laid-out line: ID, a tab, title or detail, a tab,
    the line (tabs expanded). A text wraps at the width less the file's indent x depth and padding.
      --font FAMILY,...        font families in order of preference (CSS font-family)
      --size PX                font size in px
      --width PX               pane width in px
      --weight N               100 to 900 (default 400)
      --style normal|italic    (default normal)
      --counts                 print ID, a tab, title or detail, a tab, the number of lines

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
      var width: String? = nil
      var expand: [String]? = nil
      var families: [String]? = nil
      var size: Double? = nil
      var weight: Int? = nil
      var style: FontStyle? = nil
      var counts = false
      func number(_ flag: String, _ v: String, max: Double) throws(UsageError) -> Double {
        guard let d = Double(v), d.isFinite, d > 0, d <= max else {
          throw UsageError("\(flag) needs a positive number of px, got \"\(v)\"")
        }
        return d
      }
      while let a = it.next() {
        switch a {
        case "--width": width = try value(a)
        case "--font":
          let v = try value(a)
          let names = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
          guard !names.isEmpty else { throw UsageError("--font needs family names, got \"\(v)\"") }
          families = names
        case "--size": size = try number(a, try value(a), max: LayoutLimits.maxFontSize)
        case "--weight":
          let v = try value(a)
          guard let n = Int(v), FontDescription.weights.contains(n) else {
            throw UsageError("--weight needs an integer from 100 to 900, got \"\(v)\"")
          }
          weight = n
        case "--style":
          let v = try value(a)
          guard let s = FontStyle(rawValue: v) else {
            throw UsageError("--style must be normal or italic, got \"\(v)\"")
          }
          style = s
        case "--counts": counts = true
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
      guard let families else {
        if size != nil || weight != nil || style != nil || counts {
          throw UsageError("--size, --weight, --style and --counts need --font")
        }
        var cells: Int? = nil
        if let width {
          guard let n = Int(width), n > 0 else {
            throw UsageError("--width needs a positive integer, got \"\(width)\"")
          }
          cells = n
        }
        return .render(file: file, width: cells, expand: expand)
      }
      guard let size else { throw UsageError("--font needs --size") }
      guard let width else { throw UsageError("--font needs --width") }
      let px = try number("--width", width, max: LayoutLimits.maxLength)
      let font = FontDescription(families: families, size: size, weight: weight ?? 400, style: style ?? .normal)
      return .render(
        file: file, width: nil, expand: expand, font: RenderFont(font: font, width: px, countsOnly: counts))
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
