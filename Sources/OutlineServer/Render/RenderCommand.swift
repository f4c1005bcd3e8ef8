import Foundation
import OutlineModel
import OutlineYAML

/// `outline-server render FILE [--width N] [--expand all|ID,...]`: loads a
/// file through the same loader and engine as the server and draws it with
/// ``OutlineRenderer``; with `--font`, prints the lines the font layout made
/// (``fontLines(_:countsOnly:)``).
public enum RenderCommand {
  /// What the command prints and its exit status.
  public struct Output: Equatable {
    /// The drawn outline; empty on failure.
    public var stdout: String
    /// Diagnostics (see ``DiagnosticFormatter``) and usage errors, one per line.
    public var stderr: String
    /// 0 on success, 1 when the file cannot be read or has errors, 64 for an unknown `--expand` id.
    public var status: Int32
  }

  /// Loads `file`, applies `--expand` and draws it; never touches the real stdout or stderr.
  ///
  /// - Parameters:
  ///   - file: the path of a group-definition file.
  ///   - width: the pane width in cells; `nil` takes the file's layout width, else 80.
  ///   - expand: `nil` keeps the file's `expanded:` values; `[]` (`--expand all`) opens every
  ///     group; ids open those groups.
  ///   - font: `--font` and its options: lay out in unit `font` and print lines, not the pane.
  ///   - lineBreakers: makes the layout's line breaker: the server's (fonts for unit `font`,
  ///     Unicode's tables for cells) by default.
  /// - Returns: the text to print and the exit status: 1 when the file is missing, a directory,
  ///   unreadable or has errors; 64 (`EX_USAGE`) for an id that names no group, or for
  ///   `--expand all` under `expansion: single`; else 0, with warnings on ``Output/stderr``.
  public static func run(
    file: String, width: Int?, expand: [String]?, font: RenderFont? = nil,
    lineBreakers: any LineBreakerSource = OutlineServer.makeLineBreakers()
  ) -> Output {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
      let data = FileManager.default.contents(atPath: file)
    else {
      return Output(stdout: "", stderr: "outline-server: cannot read \(file)\n", status: 1)
    }
    let bytes = [UInt8](data)
    let result: (outline: Outline?, diagnostics: [Diagnostic])
    do {
      result = try OutlineLoader.loadOutline(.bytes(bytes))
    } catch {
      return Output(stdout: "", stderr: "outline-server: \(file): \(error)\n", status: 1)
    }
    let formatter = DiagnosticFormatter(path: file, text: SourceText(bytes))
    var stderr = result.diagnostics.map(formatter.format).joined()
    guard let outline = result.outline else { return Output(stdout: "", stderr: stderr, status: 1) }
    var layout = OutlineRenderer.layout(file: outline.layout, width: width.map(Double.init))
    if let font {
      layout = outline.layout
      layout.unit = .font
      layout.font = font.font
      layout.width = font.width
    }
    var state = OutlineState(outline: outline, layout: layout, lineBreakers: lineBreakers)
    stderr += state.warnings.map(formatter.format).joined()
    if let expand {
      if expand.isEmpty {
        if state.policy == .single {
          return Output(
            stdout: "", stderr: stderr + "outline-server: --expand all is not possible under expansion: single\n",
            status: 64)
        }
        _ = try? state.expandAll()
      } else {
        for id in expand {
          guard let p = state.outline.position(of: id), state.outline.isGroup(at: p) else {
            return Output(stdout: "", stderr: stderr + "outline-server: no group has id \"\(id)\"\n", status: 64)
          }
          _ = try? state.toggle(p, expanded: true)
        }
      }
    }
    if let font { return Output(stdout: fontLines(state, countsOnly: font.countsOnly), stderr: stderr, status: 0) }
    return Output(stdout: OutlineRenderer(state: state).render(), stderr: stderr, status: 0)
  }

  /// The lines of every visible item's texts as the layout broke them: for
  /// each laid-out line, `ID<TAB>title<TAB>line` (or `detail`), tabs in the
  /// line expanded to spaces, `maxLines` applied; with `countsOnly`, one
  /// `ID<TAB>title<TAB>N` per text instead. A row's empty or absent detail
  /// prints nothing; a title is at least one (empty) line. Characters a
  /// terminal acts on are left out (``TerminalText``).
  /// - Complexity: O(visible items + their text).
  static func fontLines(_ state: OutlineState, countsOnly: Bool) -> String {
    let heights = RowHeights(layout: state.layout, lineBreaker: state.lineBreaker)
    let outline = state.outline
    var out = ""
    for v in state.visibleItems(start: 0, count: state.total) {
      let p = v.position
      let id = TerminalText.printable(outline.id(at: p)).replacingOccurrences(of: "\t", with: " ")
      let depth = outline.depth(at: p)
      var texts: [(String, String?, Bool)] = [("title", outline.title(at: p), true)]
      if !outline.isGroup(at: p) { texts.append(("detail", outline.detail(at: p), false)) }
      for (field, text, atLeastOne) in texts {
        let lines = heights.drawnLines(text, depth: depth, atLeastOne: atLeastOne)
        if countsOnly {
          if !lines.isEmpty { out += "\(id)\t\(field)\t\(lines.count)\n" }
        } else {
          for line in lines { out += "\(id)\t\(field)\t\(TerminalText.printable(line))\n" }
        }
      }
    }
    return out
  }
}
