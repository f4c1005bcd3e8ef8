import OutlineModel

/// Draws the visible list of an outline as plain text, as a person sees it
/// in a terminal pane: `▸`/`▾` arrows on headers with their active/row
/// counts ("3/10"), `●`/`○` for active and inactive rows, titles and details
/// wrapped by the same ``TextMeasurer`` the server's `auto` heights use.
///
/// Columns: an item at depth `d` starts at `indent × d`; its first
/// `padding.left` cells (2 by default here) hold the arrow or the dot.
public struct OutlineRenderer {
  public let state: OutlineState

  /// - Parameter state: an outline whose layout is in `cell` units.
  public init(state: OutlineState) {
    self.state = state
  }

  /// The layout `render` uses: cells at `width`, 2 cells of left padding for the markers.
  public static func layout(width: Double) -> LayoutOverrides {
    var l = LayoutOverrides()
    l.unit = .cell
    l.width = width
    l.paddingLeft = 2
    return l
  }

  /// The text of the whole visible list, one line per drawn line, each ending in `\n`.
  public func render() -> String {
    var out = ""
    if let title = state.outline.title { out += title + "\n" }
    let heights = RowHeights(layout: state.layout, widths: state.widths)
    for v in state.visibleItems(start: 0, count: state.total) {
      let item = state.item(v.position)
      let indent = String(repeating: " ", count: Int(state.layout.indent * Double(item.depth)))
      let pad = String(repeating: " ", count: max(0, Int(state.layout.padding.left)))
      let width = heights.wrapWidth(depth: item.depth)
      if item.isGroup {
        var header = indent + (v.expanded ? "▾ " : "▸ ") + item.title
        if let badge = item.badge { header += " " + badge }
        header += "  \(item.activeCount)/\(item.rowCount)"
        out += header + "\n"
        continue
      }
      let marker = item.active ? "● " : "○ "
      var first = true
      for text in [item.title, item.detail ?? ""] where !text.isEmpty || first {
        var lines = heights.measurer.lines(text, width: width)
        if let cap = state.layout.maxLines { lines = Array(lines.prefix(cap)) }
        for line in lines {
          out += indent + (first ? marker : pad) + line + "\n"
          first = false
        }
      }
    }
    return out
  }
}
