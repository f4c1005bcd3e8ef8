/// Wraps text into lines the way PROTOCOL §5 describes, and counts them.
///
/// - Hard breaks at `\n`, `\r\n` and U+2028; a trailing hard break adds an empty line.
/// - Break opportunities: after a run of spaces (U+0020) or tabs, after U+200B
///   (zero width space), and before and after any wide cluster; never at U+00A0.
/// - A word that does not fit after other words starts a new line; a word
///   longer than a whole line is cut between grapheme clusters. Spaces where
///   a line breaks hang (take no width); leading spaces have width.
/// - Closing punctuation (Line_Break CL, CP, EX, IS, and NS punctuation:
///   `。，、）」！？：`…, UAX #14 LB13/LB16) does not start a line where that
///   can be avoided: the break before it that a wide cluster would give is
///   not taken, so the cluster before it moves to the next line with it.
/// - A tab advances to the next multiple of `tabSize × narrowWidth`.
/// - A width too small for one cluster still puts one cluster on each line.
///
/// Grapheme clusters are Swift `Character`s (UAX #29); their widths come
/// from a ``ClusterWidthTable``.
public struct TextMeasurer: LineBreaker {
  /// Classifies grapheme clusters as zero, narrow or wide.
  public var widths: any ClusterWidthTable {
    didSet { asciiAdvances = Self.asciiAdvances(widths, narrowWidth, wideWidth) }
  }
  /// The advance of a narrow cluster, in the layout's unit (cells or px).
  public var narrowWidth: Double {
    didSet { asciiAdvances = Self.asciiAdvances(widths, narrowWidth, wideWidth) }
  }
  /// The advance of a wide cluster, in the layout's unit (cells or px).
  public var wideWidth: Double {
    didSet { asciiAdvances = Self.asciiAdvances(widths, narrowWidth, wideWidth) }
  }
  /// The advance of each ASCII scalar alone, from `widths`: the fast path.
  private var asciiAdvances: [Double]
  /// A tab advances to the next multiple of `tabSize × narrowWidth`.
  public var tabSize: Int

  /// A measurer with the given widths; the defaults are a terminal's (cells, tab size 8).
  ///
  /// - Parameters:
  ///   - widths: classifies grapheme clusters; Unicode's tables (UAX #11, UTS #51) by default.
  ///   - narrowWidth: the advance of a narrow cluster, in the layout's unit.
  ///   - wideWidth: the advance of a wide cluster, in the layout's unit.
  ///   - tabSize: tab stops every `tabSize` narrow advances.
  public init(
    widths: any ClusterWidthTable = UnicodeClusterWidths(), narrowWidth: Double = 1, wideWidth: Double = 2,
    tabSize: Int = 8
  ) {
    self.widths = widths
    self.narrowWidth = narrowWidth
    self.wideWidth = wideWidth
    self.tabSize = tabSize
    self.asciiAdvances = Self.asciiAdvances(widths, narrowWidth, wideWidth)
  }

  private static func asciiAdvances(_ widths: any ClusterWidthTable, _ narrow: Double, _ wide: Double) -> [Double] {
    (0..<128).map { v in
      switch widths.widthClass(of: Character(Unicode.Scalar(UInt8(v)))) {
      case .zero: 0
      case .narrow: narrow
      case .wide: wide
      }
    }
  }

  /// Builds a measurer for a layout's advances and tab size.
  public init(layout: Layout, widths: any ClusterWidthTable = UnicodeClusterWidths()) {
    self.init(widths: widths, narrowWidth: layout.narrowWidth, wideWidth: layout.wideWidth, tabSize: layout.tabSize)
  }

  /// The number of lines `text` takes at `width` (in the layout's unit).
  /// An empty text is one (empty) line.
  /// - Complexity: O(length of `text`).
  public func lineCount(_ text: String, width: Double) -> Int {
    var n = 0
    forEachLine(text, width: width) { _ in n += 1 }
    return n
  }

  /// The number of lines the UTF-8 text `utf8` takes at `width`; the same
  /// as ``lineCount(_:width:)`` of that text.
  ///
  /// Text that is all ASCII without a carriage return (every byte is then a
  /// grapheme cluster of its own, UAX #29) is counted on its bytes, without
  /// making a `String`; other text goes through ``lineCount(_:width:)``.
  /// - Complexity: O(`utf8.count`).
  public func lineCount(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> Int {
    let limit = width + 1e-9
    var lines = 1
    var lineStart = 0
    var x: Double = 0
    // As in forEachLine: the last break opportunity, and x there (-1: none).
    var breakAt = -1
    var xAtBreak: Double = 0
    for (i, byte) in utf8.enumerated() {
      // Not ASCII, or a CR (CR LF is one cluster): the String path, from the start.
      if byte >= 0x80 || byte == 0x0D { return lineCount(String(decoding: utf8, as: UTF8.self), width: width) }
      if byte == 0x0A {
        lines += 1
        lineStart = i + 1
        x = 0
        breakAt = -1
        continue
      }
      if byte == 0x20 || byte == 0x09 {
        x += byte == 0x09 ? advance(of: "\t", at: x) : asciiAdvances[0x20]
        breakAt = i + 1
        xAtBreak = x
        continue
      }
      let w = asciiAdvances[Int(byte)]
      if x + w > limit && x > 0 {
        if breakAt > lineStart {
          lines += 1
          lineStart = breakAt
          x -= xAtBreak
          breakAt = -1
        }
        if x + w > limit && x > 0 {
          lines += 1
          lineStart = i
          x = 0
          breakAt = -1
        }
      }
      x += w
    }
    return lines
  }

  /// The lines of `text` wrapped at `width`, without the spaces that hang at their ends.
  public func lines(_ text: String, width: Double) -> [Substring] {
    var result: [Substring] = []
    forEachLine(text, width: width) { line in
      var end = line.endIndex
      while end > line.startIndex {
        let prev = line.index(before: end)
        if line[prev] == " " || line[prev] == "\t" { end = prev } else { break }
      }
      result.append(line[line.startIndex..<end])
    }
    return result
  }

  /// The lines of the UTF-8 text `utf8` at `width`, as byte ranges without
  /// the spaces that hang at their ends; see ``lines(_:width:)``.
  /// - Complexity: O(`utf8.count`).
  public func lines(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> [Range<Int>] {
    let text = String(decoding: utf8, as: UTF8.self)
    let bytes = text.utf8
    return lines(text, width: width).map { line in
      let start = bytes.distance(from: bytes.startIndex, to: line.startIndex)
      return start..<(start + line.utf8.count)
    }
  }

  /// `line` with each tab replaced by the spaces it advances by (from the
  /// line's start, in narrow advances: `tabSize` cells for a whole stop).
  /// - Complexity: O(length of `line`).
  public func drawnText(_ line: Substring) -> String {
    guard line.contains("\t") else { return String(line) }
    var out = ""
    var x: Double = 0
    for c in line {
      if c == "\t" {
        let stop = Double(max(1, tabSize)) * narrowWidth
        let next = stop > 0 ? ((x / stop).rounded(.down) + 1) * stop : x
        let spaces = narrowWidth > 0 ? Int(((next - x) / narrowWidth).rounded()) : 1
        out += String(repeating: " ", count: max(1, spaces))
        x = next
      } else {
        out.append(c)
        x += advance(of: c, at: x)
      }
    }
    return out
  }

  /// The display width of `text` on one line (no wrapping; tabs from column 0).
  public func width(of text: Substring) -> Double {
    var x: Double = 0
    for c in text { x += advance(of: c, at: x) }
    return x
  }

  @inline(__always)
  private func advance(of c: Character, at x: Double) -> Double {
    if c == "\t" {
      let stop = Double(max(1, tabSize)) * narrowWidth
      guard stop > 0 else { return 0 }
      return ((x / stop).rounded(.down) + 1) * stop - x
    }
    switch widths.widthClass(of: c) {
    case .zero: return 0
    case .narrow: return narrowWidth
    case .wide: return wideWidth
    }
  }

  /// Calls `body` with each line of `text` wrapped at `width`, in order.
  /// Lines include the spaces that hang at their ends, not the hard break.
  /// - Complexity: O(length of `text`).
  public func forEachLine(_ text: String, width: Double, _ body: (Substring) -> Void) {
    let limit = width + 1e-9
    var lineStart = text.startIndex
    var x: Double = 0
    // The last break opportunity on this line: where the next line would start, and x there.
    var breakAt: String.Index? = nil
    var xAtBreak: Double = 0
    // Whether the cluster before `i` is wide: then `i` is a break opportunity.
    var prevWide = false
    /// Makes room for a cluster of width `w` that starts at `i`: when it does not
    /// fit, the word after the last break opportunity moves to a new line, and
    /// a word longer than a whole line is cut before the cluster.
    @inline(__always)
    func makeRoom(_ w: Double, before i: String.Index) {
      guard x + w > limit && x > 0 else { return }
      if let b = breakAt, b > lineStart {
        body(text[lineStart..<b])
        lineStart = b
        x -= xAtBreak
        breakAt = nil
      }
      if x + w > limit && x > 0 {
        body(text[lineStart..<i])
        lineStart = i
        x = 0
        breakAt = nil
      }
    }
    var i = text.startIndex
    let utf8 = text.utf8
    let end = text.endIndex
    while i < end {
      // Fast path: an ASCII byte followed by another (or the end) is a whole
      // cluster (UAX #29 breaks between ASCII scalars except in CR LF).
      let byte = utf8[i]
      if byte < 0x80 && byte != 0x0D {
        let j = utf8.index(after: i)
        if j == end || utf8[j] < 0x80 {
          if byte == 0x0A {
            body(text[lineStart..<i])
            lineStart = j
            x = 0
            breakAt = nil
            prevWide = false
            i = j
            continue
          }
          if byte == 0x20 || byte == 0x09 {
            x += byte == 0x09 ? advance(of: "\t", at: x) : asciiAdvances[0x20]
            prevWide = false
            breakAt = j
            xAtBreak = x
            i = j
            continue
          }
          let w = asciiAdvances[Int(byte)]
          if prevWide && i > lineStart && !Self.isClosingPunctuation(byte: byte) {
            breakAt = i
            xAtBreak = x
          }
          prevWide = false
          makeRoom(w, before: i)
          x += w
          i = j
          continue
        }
      }
      let c = text[i]
      let next = text.index(after: i)
      // Compare scalars, not Characters: Character equality normalises, which is
      // slow. Line feeds, tabs, U+2028 and U+200B are always clusters of their own.
      let first = c.unicodeScalars.first!.value
      let alone = c.utf8.count == UTF8.width(Unicode.Scalar(first)!)
      if first == 0x0A || first == 0x2028 || (first == 0x0D && !alone) {
        body(text[lineStart..<i])
        lineStart = next
        x = 0
        breakAt = nil
        prevWide = false
        i = next
        continue
      }
      if alone && (first == 0x20 || first == 0x09) {
        prevWide = false
        x += advance(of: c, at: x)
        breakAt = next
        xAtBreak = x
        i = next
        continue
      }
      let cls: ClusterWidthClass = widths.widthClass(of: c)
      let w: Double
      switch cls {
      case .zero: w = 0
      case .narrow: w = narrowWidth
      case .wide: w = wideWidth
      }
      if (cls == .wide || prevWide) && i > lineStart && !Self.isClosingPunctuation(c) {
        breakAt = i
        xAtBreak = x
      }
      prevWide = cls == .wide
      makeRoom(w, before: i)
      x += w
      if first == 0x200B {
        breakAt = next
        xAtBreak = x
      }
      i = next
    }
    body(text[lineStart..<text.endIndex])
  }

  /// Whether `c` is punctuation that does not start a line (its first scalar
  /// is in Line_Break CL, CP, EX, IS, or NS punctuation).
  static func isClosingPunctuation(byte: UInt8) -> Bool {
    UnicodeClusterWidths.contains(UnicodeWidthData.noLineStart, UInt32(byte))
  }

  static func isClosingPunctuation(_ c: Character) -> Bool {
    guard let first = c.unicodeScalars.first else { return false }
    return UnicodeClusterWidths.contains(UnicodeWidthData.noLineStart, first.value)
  }
}
