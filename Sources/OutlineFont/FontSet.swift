import OutlineModel

/// One ``FontDescription`` resolved to faces, with the caches that make a
/// new width cheap (``TextCache``) and the system fallbacks found for it.
///
/// Not thread-safe: ``FontEngine`` calls it under its lock.
final class FontSet: FontFallbackSource, @unchecked Sendable {
  // @unchecked Sendable: its state is only touched under the lock of the ``FontEngine`` that made it.
  /// What was asked for.
  let description: FontDescription
  /// The faces of the requested families the machine has, in order.
  let familyFonts: [ShapingFont]
  /// The requested family names those faces were matched for.
  let families: [String]
  /// The advance of U+0020 in the first face that has it, 16.16 px.
  let spaceAdvance: Int64

  private unowned let engine: FontEngine
  private var fallbacks: [UInt64: ShapingFont?] = [:]
  /// The caches; set once `self` exists (it is their shaper's fallback source), mutated in place.
  private var cache: TextCache! = nil

  init(description: FontDescription, fonts: [ShapingFont], families: [String], engine: FontEngine) {
    self.description = description
    self.familyFonts = fonts
    self.families = families
    self.engine = engine
    var space: Int64 = 0
    for f in fonts {
      if let g = f.glyph(for: 0x20) {
        space = Int64(f.advance(ofGlyph: g))
        break
      }
    }
    if space == 0 { space = Int64(description.size * 0.25 * 65536) }
    spaceAdvance = space
    let hyphen: [UInt8] = fonts.first?.glyph(for: 0x2010) != nil ? [0xE2, 0x80, 0x90] : [0x2D]
    cache = TextCache(fonts: self, spaceAdvance: space, hyphen: hyphen)
  }

  /// The system's fallback for `scalar`, loaded at this size; cached.
  func systemFallback(for scalar: UInt32, emoji: Bool) -> ShapingFont? {
    let key = UInt64(scalar) | (emoji ? 1 << 32 : 0)
    if let f = fallbacks[key] { return f }
    let f = engine.fallbackFont(for: scalar, emoji: emoji, description: description)
    fallbacks[key] = f
    return f
  }

  /// Whether ASCII words are shaped from pair tables rather than HarfBuzz
  /// (the same result; tests turn it off to compare). Setting it empties the caches.
  var shapesByPairs: Bool {
    get { cache.shapesByPairs }
    set { cache.shapesByPairs = newValue }
  }

  /// Bytes held by the caches (words, pieces, texts, scratch).
  var cacheFootprint: Int { cache.footprint }

  /// The number of distinct words and texts cached.
  var cachedCounts: (words: Int, texts: Int) { cache.counts }

  /// Empties the word and text caches.
  func removeCaches() { cache.removeAll() }

  /// Breaks `text` into lines at `width` px; see ``TextCache/breakLines(_:width:tabSize:line:)``.
  @discardableResult
  func breakLines(
    _ text: UnsafeBufferPointer<UInt8>, width: Double, tabSize: Int, line: ((Range<Int>) -> Void)? = nil
  ) -> Int {
    cache.breakLines(text, width: width, tabSize: tabSize, line: line)
  }

  /// The advance of `text` on one line; see ``TextCache/advance(of:tabSize:)``.
  func advance(of text: UnsafeBufferPointer<UInt8>, tabSize: Int) -> Double {
    cache.advance(of: text, tabSize: tabSize)
  }

  /// `text` with its tabs drawn as spaces; see ``TextCache/drawnText(_:tabSize:)``.
  func drawnText(_ text: UnsafeBufferPointer<UInt8>, tabSize: Int) -> String {
    cache.drawnText(text, tabSize: tabSize)
  }
}
