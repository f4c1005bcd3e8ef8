/// Computes the height of headers and rows under a ``Layout`` (PROTOCOL §5).
///
/// `auto` = padding.top + padding.bottom + lineHeight × (lines(title) + lines(detail)),
/// wrapped at width − indent × depth − padding.left − padding.right. A title
/// is at least one line, an absent or empty detail none; `maxLines` caps
/// each text. `headerHeight: auto` measures the title only.
public struct RowHeights: Sendable {
  /// The layout heights are computed under.
  public let layout: Layout
  /// Wraps titles and details: the layout's ``LineBreaker``.
  public let lineBreaker: any LineBreaker

  /// Heights under `layout`, with the line breaker `lineBreakers` gives for it.
  ///
  /// - Parameters:
  ///   - layout: the layout.
  ///   - lineBreakers: makes the line breaker for `layout` (``CellLineBreakers`` by default).
  public init(layout: Layout, lineBreakers: any LineBreakerSource = CellLineBreakers()) {
    self.layout = layout
    self.lineBreaker = lineBreakers.lineBreaker(for: layout)
  }

  /// Heights under `layout`, measured in narrow and wide advances with `widths`
  /// (a ``TextMeasurer``).
  public init(layout: Layout, widths: any ClusterWidthTable) {
    self.init(layout: layout, lineBreakers: CellLineBreakers(widths: widths))
  }

  /// Heights under `layout`, wrapped by `lineBreaker` (made for that layout).
  public init(layout: Layout, lineBreaker: any LineBreaker) {
    self.layout = layout
    self.lineBreaker = lineBreaker
  }

  /// The width text wraps at for an item at `depth`, in the layout's unit.
  public func wrapWidth(depth: Int) -> Double {
    layout.width - layout.indent * Double(depth) - layout.padding.left - layout.padding.right
  }

  /// Lines a text takes at `depth`, after `maxLines`.
  public func lines(_ text: String?, depth: Int, atLeastOne: Bool) -> Int {
    guard let text, !text.isEmpty else { return atLeastOne ? 1 : 0 }
    let n = lineBreaker.lineCount(text, width: wrapWidth(depth: depth))
    if let cap = layout.maxLines { return min(n, cap) }
    return n
  }

  /// A text as the server broke it to count its lines at `depth` (PROTOCOL §9
  /// `include: ["lines"]`): tabs expanded to spaces, the spaces at a break
  /// dropped, `maxLines` applied. An absent or empty text is `[""]` when
  /// `atLeastOne` (a title), else `[]`.
  /// - Complexity: O(length of `text`).
  public func drawnLines(_ text: String?, depth: Int, atLeastOne: Bool) -> [String] {
    guard let text, !text.isEmpty else { return atLeastOne ? [""] : [] }
    var lines = lineBreaker.lines(text, width: wrapWidth(depth: depth))
    if let cap = layout.maxLines, lines.count > cap { lines.removeLast(lines.count - cap) }
    return lines.map(lineBreaker.drawnText)
  }

  /// The height of the item at `position` of `outline`, read field by field
  /// (the item is not materialised).
  /// - Complexity: O(length of its title and detail) for `auto`, else O(1).
  public func height(at position: Int, in outline: Outline) -> Double {
    let isGroup = outline.isGroup(at: position)
    switch isGroup ? layout.headerHeight : layout.rowHeight {
    case .fixed(let h):
      return h
    case .auto:
      let depth = outline.depth(at: position)
      // Counted on the outline's UTF-8 bytes: no String is made for ASCII text.
      var n = outline.withTitleUTF8(at: position) { self.lines(utf8: $0, depth: depth, atLeastOne: true) }
      if !isGroup {
        n += outline.withDetailUTF8(at: position) { d in
          d.map { self.lines(utf8: $0, depth: depth, atLeastOne: false) } ?? 0
        }
      }
      return layout.padding.top + layout.padding.bottom + layout.lineHeight * Double(n)
    }
  }

  /// Lines a UTF-8 text takes at `depth`, after `maxLines`; see ``lines(_:depth:atLeastOne:)``.
  public func lines(utf8: UnsafeBufferPointer<UInt8>, depth: Int, atLeastOne: Bool) -> Int {
    guard !utf8.isEmpty else { return atLeastOne ? 1 : 0 }
    let n = lineBreaker.lineCount(utf8: utf8, width: wrapWidth(depth: depth))
    if let cap = layout.maxLines { return min(n, cap) }
    return n
  }

  /// The height of `item`.
  /// - Complexity: O(length of its title and detail) for `auto`, else O(1).
  public func height(of item: OutlineItem) -> Double {
    let spec = item.isGroup ? layout.headerHeight : layout.rowHeight
    switch spec {
    case .fixed(let h):
      return h
    case .auto:
      var lines = self.lines(item.title, depth: item.depth, atLeastOne: true)
      if !item.isGroup { lines += self.lines(item.detail, depth: item.depth, atLeastOne: false) }
      return layout.padding.top + layout.padding.bottom + layout.lineHeight * Double(lines)
    }
  }
}
