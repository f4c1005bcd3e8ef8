/// Breaks a text into lines at a width: the one seam where a width measurer
/// plugs in. ``TextMeasurer`` measures in narrow and wide advances (units
/// `cell` and `px`, PROTOCOL §5); a font engine shapes the text with real
/// fonts (unit `font`, PROTOCOL §10).
///
/// Texts are UTF-8; a line is a range of the text's bytes: from its first
/// byte to the end of its last cluster, without the hard break that ends it
/// and without the spaces that hang where it wraps. An empty text is one
/// empty line. Which hard breaks exist, and whether a trailing one adds an
/// empty line, is the implementation's rule (PROTOCOL §5 for `cell` and
/// `px`; the browser's for `font`).
///
/// `auto` heights count lines (``lineCount(utf8:width:)``); the lines a row
/// may carry (PROTOCOL §9 `include: ["lines"]`) are ``lines(utf8:width:)``
/// drawn with ``drawnText(_:)``.
public protocol LineBreaker: Sendable {
  /// The number of lines the UTF-8 text `utf8` takes at `width`, in the
  /// layout's unit; at least 1.
  /// - Complexity: O(length of the text) at worst; an implementation may
  ///   cache what does not depend on the width.
  func lineCount(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> Int

  /// The lines of the UTF-8 text `utf8` at `width`, in order, as byte
  /// ranges of the text; `lineCount(utf8:width:)` of them, at least one.
  /// - Complexity: O(length of the text) at worst.
  func lines(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> [Range<Int>]

  /// The text of one line as a host draws it: each tab replaced by the
  /// spaces it advances by, counted from the line's start.
  /// - Parameter line: a line as ``lines(utf8:width:)`` gives it.
  func drawnText(_ line: Substring) -> String
}

extension LineBreaker {
  /// The number of lines `text` takes at `width`; see ``lineCount(utf8:width:)``.
  /// - Complexity: O(length of `text`) at worst.
  public func lineCount(_ text: String, width: Double) -> Int {
    var copy = text
    return copy.withUTF8 { lineCount(utf8: $0, width: width) }
  }

  /// The lines of `text` at `width`, as substrings; see ``lines(utf8:width:)``.
  /// - Complexity: O(length of `text`) at worst.
  public func lines(_ text: String, width: Double) -> [Substring] {
    var copy = text
    let ranges = copy.withUTF8 { lines(utf8: $0, width: width) }
    let utf8 = text.utf8
    return ranges.map { r in
      let start = utf8.index(utf8.startIndex, offsetBy: r.lowerBound)
      let end = utf8.index(start, offsetBy: r.count)
      return text[start..<end]
    }
  }

  /// The lines of `text` at `width` as a host draws them (``drawnText(_:)``).
  /// - Complexity: O(length of `text`) at worst.
  public func drawnLines(_ text: String, width: Double) -> [String] {
    lines(text, width: width).map(drawnText)
  }
}

/// Makes the ``LineBreaker`` a ``Layout`` measures with: the factory side of
/// the seam. The server and `render` inject one; the model's default is
/// ``CellLineBreakers``.
public protocol LineBreakerSource: Sendable {
  /// The line breaker for `layout`: its unit, advances, tab size and font.
  /// - Complexity: O(1) amortised; a font engine loads each font once.
  func lineBreaker(for layout: Layout) -> any LineBreaker
}

/// Measures in narrow and wide advances (``TextMeasurer``), whatever the
/// layout's unit: `cell` and `px` as PROTOCOL §5 says. In unit `font`, which
/// needs a font engine, the layout's `narrowWidth` and `wideWidth` are used
/// as in `px`.
public struct CellLineBreakers: LineBreakerSource {
  /// Classifies grapheme clusters as zero, narrow or wide.
  public var widths: any ClusterWidthTable

  /// Line breakers over `widths`: Unicode's tables (UAX #11, UTS #51) by default.
  public init(widths: any ClusterWidthTable = UnicodeClusterWidths()) {
    self.widths = widths
  }

  /// A ``TextMeasurer`` with the layout's advances and tab size.
  /// - Complexity: O(1).
  public func lineBreaker(for layout: Layout) -> any LineBreaker {
    TextMeasurer(layout: layout, widths: widths)
  }
}
