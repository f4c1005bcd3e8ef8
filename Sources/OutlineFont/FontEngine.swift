import CFreeType
import OutlineModel
import Synchronization

/// Loads fonts and keeps them: fontconfig for finding families and
/// fallbacks, FreeType for advances, HarfBuzz for shaping. Each face is
/// loaded once per size; each ``FontDescription`` is resolved once into a
/// ``FontSet`` with its caches.
///
/// Thread-safe: every use goes through ``withFontSet(_:_:)`` under one lock.
final class FontEngine: @unchecked Sendable {
  // @unchecked Sendable: all state below is only touched under `lock`.
  private let lock = Mutex<Void>(())
  private var library: FT_Library? = nil
  private var libraryTried = false
  /// fontconfig's configuration, loaded when a layout first names a font.
  private lazy var matcher = FontMatcher()
  private var faces: [FaceKey: ShapingFont] = [:]
  private var sets: [FontDescription: FontSet] = [:]
  private var setOrder: [FontDescription] = []

  /// At most this many font descriptions keep their caches; the least
  /// recently resolved one is dropped first.
  static let maxFontSets = 8

  private struct FaceKey: Hashable {
    var face: FontFileFace
    var size: UInt64
  }

  /// An engine that loads nothing until a layout names a font.
  init() {}

  deinit {
    sets = [:]
    faces = [:]
    if let library { FT_Done_FreeType(library) }
  }

  /// Runs `body` with the ``FontSet`` of `description`, under the engine's lock.
  func withFontSet<R>(_ description: FontDescription, _ body: (FontSet) -> R) -> R {
    lock.withLock { _ in body(fontSet(description)) }
  }

  /// Runs `body` with `set` (resolved earlier by this engine), under the engine's lock.
  func with<R>(_ set: FontSet, _ body: (FontSet) -> R) -> R {
    lock.withLock { _ in body(set) }
  }

  /// Bytes held: faces (advance tables) and caches (words, texts).
  var memoryFootprint: (fonts: Int, caches: Int, faces: Int, fontSets: Int) {
    lock.withLock { _ in
      (
        faces.values.reduce(0) { $0 + $1.memoryFootprint },
        sets.values.reduce(0) { $0 + $1.cacheFootprint },
        faces.count, sets.count
      )
    }
  }

  private func fontSet(_ description: FontDescription) -> FontSet {
    if let s = sets[description] { return s }
    var fonts: [ShapingFont] = []
    var families: [String] = []
    for family in description.families {
      guard let m = matcher.match(family: family, weight: description.weight, italic: description.style == .italic),
        let f = face(m.face, family: m.family, size: description.size),
        !fonts.contains(where: { $0 === f })
      else { continue }
      fonts.append(f)
      families.append(family)
    }
    if fonts.isEmpty, let m = matcher.match(family: "sans-serif", weight: description.weight, italic: false),
      let f = face(m.face, family: m.family, size: description.size)
    {
      // No requested family is installed: the system's default face draws, and no family is reported used.
      fonts.append(f)
    }
    let s = FontSet(description: description, fonts: fonts, families: families, engine: self)
    sets[description] = s
    setOrder.append(description)
    if setOrder.count > Self.maxFontSets { sets[setOrder.removeFirst()] = nil }
    return s
  }

  /// The face of `file` at `size` px, loaded once.
  private func face(_ file: FontFileFace, family: String, size: Double) -> ShapingFont? {
    if !libraryTried {
      libraryTried = true
      var lib: FT_Library? = nil
      if FT_Init_FreeType(&lib) == 0 { library = lib }
    }
    guard let library else { return nil }
    let key = FaceKey(face: file, size: size.bitPattern)
    if let f = faces[key] { return f }
    guard let f = ShapingFont(face: file, family: family, size: size, library: library) else { return nil }
    faces[key] = f
    return f
  }

  /// The system's fallback face for `scalar` at the description's size,
  /// weight and style (called under the lock, from a ``FontSet``).
  func fallbackFont(for scalar: UInt32, emoji: Bool, description: FontDescription) -> ShapingFont? {
    let italic = description.style == .italic
    guard
      let m = matcher.fallback(
        for: scalar, weight: description.weight, italic: italic, lang: emoji ? "und-zsye" : "en")
        ?? (emoji ? matcher.fallback(for: scalar, weight: description.weight, italic: italic, lang: "en") : nil)
    else { return nil }
    return face(m.face, family: m.family, size: description.size)
  }
}
