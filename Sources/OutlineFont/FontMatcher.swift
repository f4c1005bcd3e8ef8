import CFontconfig

/// One face of a font file: its path and its index in a collection (`.ttc`).
struct FontFileFace: Hashable, Sendable {
  /// The file's path.
  var path: String
  /// The face's index in the file (0 for a single-face file).
  var index: Int32
}

/// Finds font files through fontconfig, as a browser on Linux does: a family
/// by name, and the system's fallback for a character no named family has.
///
/// Not thread-safe: ``FontEngine`` calls it under its lock.
final class FontMatcher {
  /// The generic CSS families: whatever fontconfig gives for them is accepted.
  static let genericFamilies: Set<String> = [
    "serif", "sans-serif", "sans", "monospace", "cursive", "fantasy", "system-ui", "emoji", "math",
  ]

  private let config: OpaquePointer?

  /// Loads fontconfig's configuration and font list.
  init() {
    config = FcInitLoadConfigAndFonts()
  }

  deinit {
    if let config { FcConfigDestroy(config) }
  }

  /// The face fontconfig matches for `family` at `weight` (100–900) and
  /// slant, and the family name it has, or `nil` when the machine lacks the
  /// family: fontconfig always answers with some font, which is accepted
  /// only when one of its family names is `family` (ignoring case and
  /// blanks), or when `family` is a generic family.
  /// - Complexity: one fontconfig match.
  func match(family: String, weight: Int, italic: Bool) -> (face: FontFileFace, family: String)? {
    guard let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    Self.add(pattern, FC_FAMILY, family)
    FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight)))
    FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let font = FcFontMatch(config, pattern, &result) else { return nil }
    defer { FcPatternDestroy(font) }
    let names = Self.strings(font, FC_FAMILY)
    let generic = Self.genericFamilies.contains(family.lowercased())
    guard let name = names.first(where: { Self.sameFamily($0, family) }) ?? (generic ? names.first : nil),
      let face = Self.face(font)
    else { return nil }
    return (face, name)
  }

  /// The system's fallback for the character `c`: the first font of
  /// fontconfig's sorted list for a pattern holding `c` (and the language
  /// `lang`: `en` for text, `und-zsye` for emoji presentation) whose
  /// character set has `c`, or `nil` when no installed font has it.
  /// - Complexity: one fontconfig sort.
  func fallback(for c: UInt32, weight: Int, italic: Bool, lang: String) -> (face: FontFileFace, family: String)? {
    guard let pattern = FcPatternCreate(), let charset = FcCharSetCreate() else { return nil }
    defer {
      FcPatternDestroy(pattern)
      FcCharSetDestroy(charset)
    }
    FcCharSetAddChar(charset, c)
    FcPatternAddCharSet(pattern, FC_CHARSET, charset)
    FcPatternAddBool(pattern, FC_SCALABLE, 1)
    Self.add(pattern, FC_LANG, lang)
    FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight)))
    FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let set = FcFontSort(config, pattern, 0, nil, &result) else { return nil }
    defer { FcFontSetDestroy(set) }
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      var fontCharset: OpaquePointer? = nil
      guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch,
        FcCharSetHasChar(fontCharset, c) != 0, let face = Self.face(font)
      else { continue }
      return (face, Self.strings(font, FC_FAMILY).first ?? "")
    }
    return nil
  }

  /// Whether two family names are the same, as fontconfig compares them
  /// (ignoring case and blanks).
  static func sameFamily(_ a: String, _ b: String) -> Bool {
    func key(_ s: String) -> String { s.lowercased().filter { $0 != " " } }
    return key(a) == key(b)
  }

  private static func add(_ pattern: OpaquePointer, _ object: String, _ value: String) {
    value.withCString { v in
      v.withMemoryRebound(to: FcChar8.self, capacity: value.utf8.count + 1) {
        _ = FcPatternAddString(pattern, object, $0)
      }
    }
  }

  private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
    var out: [String] = []
    var n: Int32 = 0
    var value: UnsafeMutablePointer<FcChar8>? = nil
    while FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value {
      out.append(String(cString: value))
      n += 1
    }
    return out
  }

  private static func face(_ pattern: OpaquePointer) -> FontFileFace? {
    guard let path = strings(pattern, FC_FILE).first else { return nil }
    var index: Int32 = 0
    _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
    return FontFileFace(path: path, index: index)
  }
}
