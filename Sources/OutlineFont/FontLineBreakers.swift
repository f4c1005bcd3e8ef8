import OutlineModel

/// The line breakers of every unit: unit `font` (PROTOCOL §10) shapes text
/// with real fonts through fontconfig, FreeType, HarfBuzz and ICU and
/// breaks lines where a browser does; `cell` and `px` go to ``cell``.
///
/// Fonts are loaded once per family, size, weight and style; every word is
/// shaped once per font and every text segmented once, so a new width
/// re-breaks cached texts without shaping (see ``FontLineBreaker``).
/// One instance serves a whole process (the server keeps one); it is
/// thread-safe.
public final class FontLineBreakers: LineBreakerSource {
  /// Breaks text in units `cell` and `px`.
  public let cell: CellLineBreakers
  private let engine = FontEngine()

  /// A source whose `cell` and `px` layouts use `cell`.
  public init(cell: CellLineBreakers = CellLineBreakers()) {
    self.cell = cell
  }

  /// A ``FontLineBreaker`` for a layout in unit `font` with a font; else
  /// `cell`'s line breaker (unit `font` without a font measures as `px`).
  /// - Complexity: O(1) amortised; resolving a new font runs fontconfig.
  public func lineBreaker(for layout: Layout) -> any LineBreaker {
    guard layout.unit == .font, let font = layout.font else { return cell.lineBreaker(for: layout) }
    return lineBreaker(font: font, tabSize: layout.tabSize)
  }

  /// The line breaker of `font`, with tab stops every `tabSize` spaces.
  public func lineBreaker(font: FontDescription, tabSize: Int = 8) -> FontLineBreaker {
    FontLineBreaker(engine: engine, font: font, tabSize: tabSize)
  }

  /// Bytes held for fonts (per face and size: the glyph advance table; the
  /// font files are mapped, not copied) and for the caches (words and texts).
  public var memory: FontMemory {
    let m = engine.memoryFootprint
    return FontMemory(fontBytes: m.fonts, cacheBytes: m.caches, faces: m.faces, fontDescriptions: m.fontSets)
  }
}

/// What a ``FontLineBreakers`` holds in memory.
public struct FontMemory: Sendable, Equatable {
  /// Bytes of the loaded faces' advance tables.
  public var fontBytes: Int
  /// Bytes of the word and text caches and of the shaping scratch space.
  public var cacheBytes: Int
  /// Faces loaded (a face at two sizes counts twice).
  public var faces: Int
  /// Font descriptions resolved, each with its caches.
  public var fontDescriptions: Int
}

/// Breaks text into the lines a browser draws with one font description
/// (PROTOCOL §10): text styled `white-space: pre-wrap; overflow-wrap:
/// anywhere; line-break: auto` with `font-family` the description's
/// families, `lang` English, in Chromium on Linux.
///
/// - Hard breaks: a line feed (U+000A) ends a line; a text that ends in one
///   has no empty line after it; CR before LF and other controls take no
///   width; U+2028 and U+2029 do not break.
/// - Break opportunities: after a run of spaces or tabs, always; elsewhere
///   UAX #14 as the browser tailors it (``LineBreakRules``).
/// - Advances: HarfBuzz shaping (kerning and ligatures kept) with FreeType's
///   unhinted 16.16 advances; colour emoji in whole px; font fallback family
///   by family, cluster by cluster, then the system's fallback; fullwidth
///   punctuation collapsing (``PunctuationSpacing``).
/// - Fitting: a line fits when its advance is at most the width, truncated
///   to the browser's layout unit of 1/64 px, plus one such unit;
///   spaces at a break hang; a piece of text wider than the line is cut
///   between grapheme clusters.
///
/// The first time a text is seen it is segmented into words and every new
/// word is shaped; after that, breaking it at any width walks cached pieces.
public struct FontLineBreaker: LineBreaker, @unchecked Sendable {
  // @unchecked Sendable: `fontSet` is only used under the engine's lock.
  private let engine: FontEngine
  private let fontSet: FontSet
  /// The font description.
  public let font: FontDescription
  /// Tab stops every `tabSize` spaces (CSS `tab-size`).
  public let tabSize: Int

  init(engine: FontEngine, font: FontDescription, tabSize: Int) {
    self.engine = engine
    self.fontSet = engine.withFontSet(font) { $0 }
    self.font = font
    self.tabSize = tabSize
  }

  /// The requested families the machine has, in order (a family it lacks is
  /// left out): the `fonts` a `setLayout` in unit `font` reports.
  public var families: [String] { fontSet.families }

  /// The number of lines of the UTF-8 text `utf8` at `width` px.
  /// - Complexity: O(length) and shaping of new words the first time a text
  ///   is seen; then O(pieces of the text).
  public func lineCount(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> Int {
    engine.with(fontSet) { $0.breakLines(utf8, width: width, tabSize: tabSize) }
  }

  /// The lines of the UTF-8 text `utf8` at `width` px, as byte ranges
  /// without the spaces and tabs that hang at a break or the line feed; an
  /// ideographic space (U+3000) that hangs at a break stays, as the browser
  /// draws it.
  /// - Complexity: as ``lineCount(utf8:width:)``.
  public func lines(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> [Range<Int>] {
    var out: [Range<Int>] = []
    engine.with(fontSet) { _ = $0.breakLines(utf8, width: width, tabSize: tabSize) { out.append($0) } }
    return out
  }

  /// `line` with each tab replaced by as many spaces as come closest to its
  /// advance (at least one).
  /// - Complexity: O(length of `line`).
  public func drawnText(_ line: Substring) -> String {
    guard line.utf8.contains(0x09) else { return String(line) }
    var copy = String(line)
    return copy.withUTF8 { bytes in engine.with(fontSet) { $0.drawnText(bytes, tabSize: tabSize) } }
  }

  /// The faces of the families the machine has, in order.
  var faces: [ShapingFont] { fontSet.familyFonts }

  /// Empties the word and text caches of this font (the next layout shapes again).
  func removeCaches() { engine.with(fontSet) { $0.removeCaches() } }

  /// Whether ASCII words are shaped from pair tables rather than HarfBuzz (tests compare the two).
  var shapesByPairs: Bool {
    get { engine.with(fontSet) { $0.shapesByPairs } }
    nonmutating set { engine.with(fontSet) { $0.shapesByPairs = newValue } }
  }

  /// The advance of the widest paragraph of `text` on one line, in px, as
  /// line filling counts it (spaces at the end left out).
  /// - Complexity: as ``lineCount(utf8:width:)``.
  public func advance(of text: String) -> Double {
    var copy = text
    return copy.withUTF8 { bytes in engine.with(fontSet) { $0.advance(of: bytes, tabSize: tabSize) } }
  }
}
