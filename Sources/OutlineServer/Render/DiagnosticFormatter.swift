import OutlineModel

/// Formats diagnostics for people, as compilers do:
/// `groups.yaml:12:5: error: duplicate key "title"`, then the source line and
/// a caret under the column. Lines and columns are 1-based here; columns
/// count Unicode scalars; the caret is placed by display width (UAX #11).
public struct DiagnosticFormatter {
  /// The file name put before each message, as given.
  public let path: String
  /// The file's text, for the source line shown under each message.
  public let text: SourceText
  /// Cells each character takes, to place the caret.
  private let widths = UnicodeClusterWidths()

  /// A formatter for diagnostics of the file at `path` whose bytes `text` holds.
  public init(path: String, text: SourceText) {
    self.path = path
    self.text = text
  }

  /// One diagnostic as people read it.
  ///
  /// - Parameter d: a diagnostic with 0-based positions, columns in Unicode scalars.
  /// - Returns: `PATH:LINE:COLUMN: error|warning: MESSAGE [CODE]\n` with a 1-based line and
  ///   column, then, when the line exists, the source line and a caret line (tabs kept so the
  ///   caret lines up), each ending in `\n`.
  public func format(_ d: Diagnostic) -> String {
    let kind = d.severity == .error ? "error" : "warning"
    // libyaml's line and column, as the file's line (LSP's) and scalar.
    let at = text.lspPosition(d.range.start, in: .utf32)
    // Messages quote the file's text, so both go through TerminalText.
    var out =
      "\(path):\(at.line + 1):\(at.character + 1): \(kind): \(TerminalText.printable(d.message)) [\(d.code)]\n"
    if at.line < text.lineCount {
      let line = String(decoding: text.lineBytes(at.line), as: UTF8.self)
      out += TerminalText.printable(line) + "\n"
      // Under each cluster before the column, as many spaces as it takes cells
      // (UAX #11: a wide character two, a combining mark none); tabs stay tabs.
      var before = String.UnicodeScalarView()
      before.append(contentsOf: line.unicodeScalars.prefix(at.character))
      var prefix = ""
      for c in TerminalText.printable(String(before)) {
        if c == "\t" {
          prefix += "\t"
          continue
        }
        switch widths.widthClass(of: c) {
        case .zero: break
        case .narrow: prefix += " "
        case .wide: prefix += "  "
        }
      }
      out += prefix + "^\n"
    }
    return out
  }
}
