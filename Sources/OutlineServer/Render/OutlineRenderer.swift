import OutlineModel

/// Draws the visible list of an outline as plain text, as a person sees it
/// in a terminal pane: `▸`/`▾` arrows on headers with their active/row
/// counts ("3/10"), `●`/`○` for active and inactive rows, titles and details
/// wrapped by the same ``LineBreaker`` the server's `auto` heights use.
///
/// Each item takes exactly as many lines as its height in the layout (cells,
/// line height 1): padding lines, then its text lines, cut or filled to the
/// height. Columns: an item at depth `d` starts at `indent × d`; the arrow or
/// the dot sits in its left padding (at least 2 cells here). Tabs are drawn
/// as the spaces they advance by.
public struct OutlineRenderer {
  /// The outline drawn: its visible list, heights and layout.
  public let state: OutlineState

  /// A renderer for `state`.
  ///
  /// - Parameter state: an outline whose layout is in `cell` units.
  public init(state: OutlineState) {
    self.state = state
  }

  /// The layout `render` uses: the file's layout drawn in cells (narrow 1, wide 2,
  /// line height 1), at `width` (else the file's, else 80), with at least 2 cells
  /// of left padding for the markers.
  public static func layout(file: LayoutOverrides = LayoutOverrides(), width: Double?) -> LayoutOverrides {
    var l = LayoutOverrides()
    l.unit = .cell
    l.narrowWidth = 1
    l.wideWidth = 2
    l.lineHeight = 1
    l.width = width ?? file.width ?? 80
    l.paddingLeft = max(file.paddingLeft ?? 0, 2)
    return l
  }

  /// The text of the whole visible list, one line per drawn line, each ending in `\n`.
  public func render() -> String {
    var out = ""
    if let title = state.outline.title { out += TerminalText.printable(title) + "\n" }
    let layout = state.layout
    let heights = RowHeights(layout: layout, lineBreaker: state.lineBreaker)
    let top = Int(layout.padding.top.rounded(.down))
    let outline = state.outline
    for v in state.visibleItems(start: 0, count: state.total) {
      // Field reads: the renderer needs neither the id nor `data`.
      let p = v.position
      let isGroup = outline.isGroup(at: p)
      let depth = outline.depth(at: p)
      let indent = String(repeating: " ", count: Int(layout.indent * Double(depth)))
      let pad = String(repeating: " ", count: max(0, Int(layout.padding.left) - 2))
      var text: [String] = []
      func wrapped(_ s: String?, atLeastOne: Bool) -> [String] {
        heights.drawnLines(s, depth: depth, atLeastOne: atLeastOne)
      }
      if isGroup {
        var header = outline.title(at: p)
        if let badge = outline.badge(at: p) { header += " " + badge }
        header += "  \(outline.activeCount(at: p))/\(outline.rowCount(at: p))"
        text = layout.headerHeight == .auto ? wrapped(header, atLeastOne: true) : [header]
      } else {
        text = wrapped(outline.title(at: p), atLeastOne: true) + wrapped(outline.detail(at: p), atLeastOne: false)
      }
      // Exactly `height` lines: padding on top, the text, blank lines below; cut when fixed and short.
      var lines = Array(repeating: "", count: top) + text
      let count = max(0, Int(v.height.rounded()))
      lines = Array(lines.prefix(count)) + Array(repeating: "", count: max(0, count - lines.count))
      let marker = isGroup ? (v.expanded ? "▾ " : "▸ ") : (outline.active(at: p) ? "● " : "○ ")
      for (i, line) in lines.enumerated() {
        let lead = i == min(top, lines.count - 1) ? marker : "  "
        let drawn = indent + lead + pad + TerminalText.printable(line)
        out += (line.isEmpty && i != min(top, lines.count - 1) ? "" : drawn) + "\n"
      }
    }
    return out
  }
}
