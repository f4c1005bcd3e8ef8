import CFreeType
import CHarfBuzz

/// One face of a font file at one size, ready to shape: HarfBuzz does the
/// shaping (substitutions, kerning, marks) and every glyph advances by
/// FreeType's unhinted advance, in 16.16 fixed-point px, as a browser on
/// Linux positions glyphs (subpixel, no hinting). A colour bitmap face
/// (colour emoji) advances by whole px.
///
/// Not thread-safe while loading; shaping with ``font`` is (HarfBuzz fonts
/// are immutable once made).
final class ShapingFont {
  /// The file and face it was loaded from.
  let face: FontFileFace
  /// The family name fontconfig gave for it.
  let family: String
  /// The HarfBuzz font: scale 16.16 px, advances from ``advances``.
  let font: OpaquePointer
  /// Whether the face draws colour glyphs (colour emoji: CBDT, sbix, COLR).
  let isColor: Bool
  /// Whether the face has the `halt` (alternate half widths) and `chws`
  /// (contextual half-width spacing) features, which fullwidth punctuation
  /// collapsing needs.
  let hasHalt: Bool
  let hasContextualSpacing: Bool
  /// How this face draws the fullwidth punctuation whose place in the em
  /// depends on the font (CSS Text 4 text-spacing classes); `nil` without `halt`.
  private(set) var punctuation: PunctuationShapes? = nil
  /// Bytes held for this face: the advance table (the font file is mapped, not copied).
  var memoryFootprint: Int { advanceTableBytes + (asciiPairsIfMade == nil ? 0 : 128 * 128 * 5 + 128 * 5) }
  private let advanceTableBytes: Int
  private var asciiPairsIfMade: AsciiPairs?? = nil

  /// Printable ASCII shaped pair by pair (for words that need no HarfBuzz
  /// call); made on first use, `nil` when the face lacks some of it.
  var asciiPairs: AsciiPairs? {
    if let made = asciiPairsIfMade { return made }
    let pairs = AsciiPairs(font: self)
    asciiPairsIfMade = .some(pairs.covered[0x20..<0x7F].allSatisfy { $0 } ? pairs : nil)
    return asciiPairsIfMade!
  }

  private let hbFace: OpaquePointer
  private let parent: OpaquePointer
  /// `[glyph count, advance of glyph 0, advance of glyph 1, …]`, 16.16 px.
  private let advances: UnsafeMutablePointer<Int32>

  /// Loads `face` at `size` px; `nil` when the file cannot be read.
  init?(face: FontFileFace, family: String, size: Double, library: FT_Library) {
    guard let blob = hb_blob_create_from_file_or_fail(face.path) else { return nil }
    let hbFace = hb_face_create(blob, UInt32(face.index))!
    hb_blob_destroy(blob)
    let glyphCount = Int(hb_face_get_glyph_count(hbFace))
    guard glyphCount > 0 else {
      hb_face_destroy(hbFace)
      return nil
    }
    let upem = Int64(hb_face_get_upem(hbFace))
    let isColor = hb_ot_color_has_png(hbFace) != 0 || hb_ot_color_has_layers(hbFace) != 0
    let table = UnsafeMutablePointer<Int32>.allocate(capacity: glyphCount + 1)
    table[0] = Int32(glyphCount)
    var ftFace: FT_Face? = nil
    let loaded = FT_New_Face(library, face.path, FT_Long(face.index), &ftFace) == 0
    let scalable = loaded && (ftFace!.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE)) != 0
    if scalable, let ftFace, FT_Set_Char_Size(ftFace, 0, FT_F26Dot6(size * 64), 72, 72) == 0 {
      // Unhinted advances, 16.16 px (FreeType scales the font units by its
      // own 16.16 factor, as the browser's rasteriser does).
      let buffer = UnsafeMutablePointer<FT_Fixed>.allocate(capacity: glyphCount)
      defer { buffer.deallocate() }
      if FT_Get_Advances(ftFace, 0, FT_UInt(glyphCount), FT_Int32(FT_LOAD_NO_HINTING), buffer) == 0 {
        for g in 0..<glyphCount { table[g + 1] = Int32(clamping: buffer[g]) }
      } else {
        Self.scaledAdvances(hbFace, table, glyphCount, size: size, upem: upem, wholePixels: false)
      }
    } else {
      // A bitmap face (colour emoji) is scaled from its strike; it advances by whole px.
      Self.scaledAdvances(hbFace, table, glyphCount, size: size, upem: upem, wholePixels: true)
    }
    if let ftFace { FT_Done_Face(ftFace) }

    let parent = hb_font_create(hbFace)!
    let scale = Int32(clamping: Int64(size * 65536))
    hb_font_set_scale(parent, scale, scale)
    let font = hb_font_create_sub_font(parent)!
    hb_font_set_funcs(font, Self.advanceFuncs, UnsafeMutableRawPointer(table), nil)

    self.face = face
    self.family = family
    self.hbFace = hbFace
    self.parent = parent
    self.font = font
    self.advances = table
    self.isColor = isColor
    let gpos = Self.featureTags(hbFace, table: hbTag("GPOS"))
    self.hasHalt = gpos.contains(hbTag("halt"))
    self.hasContextualSpacing =
      gpos.contains(hbTag("chws")) || Self.featureTags(hbFace, table: hbTag("GSUB")).contains(hbTag("chws"))
    self.advanceTableBytes = (glyphCount + 1) * MemoryLayout<Int32>.stride
    if hasHalt { punctuation = PunctuationShapes(font: self) }
  }

  deinit {
    hb_font_destroy(font)
    hb_font_destroy(parent)
    hb_face_destroy(hbFace)
    advances.deallocate()
  }

  /// The advance of glyph `g` in 16.16 px (0 for a glyph the face lacks).
  func advance(ofGlyph g: UInt32) -> Int32 {
    Int(g) < Int(advances[0]) ? advances[Int(g) + 1] : 0
  }

  /// The glyph the face maps `scalar` to, or `nil` when it has none.
  func glyph(for scalar: UInt32) -> UInt32? {
    var g: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(font, scalar, &g) != 0 && g != 0 ? g : nil
  }

  /// The ink box of glyph `g`, left and right edges from its origin, in 16.16 px.
  func inkBounds(ofGlyph g: UInt32) -> (left: Int32, right: Int32)? {
    var e = hb_glyph_extents_t()
    guard hb_font_get_glyph_extents(font, g, &e) != 0 else { return nil }
    return (e.x_bearing, e.x_bearing + e.width)
  }

  private static func scaledAdvances(
    _ face: OpaquePointer, _ table: UnsafeMutablePointer<Int32>, _ count: Int, size: Double, upem: Int64,
    wholePixels: Bool
  ) {
    let unscaled = hb_font_create(face)!
    defer { hb_font_destroy(unscaled) }
    for g in 0..<count {
      let units = Double(hb_font_get_glyph_h_advance(unscaled, hb_codepoint_t(g)))
      let px = units * size / Double(upem)
      table[g + 1] = Int32(clamping: Int64(((wholePixels ? px.rounded() : px) * 65536).rounded()))
    }
  }

  private static func featureTags(_ face: OpaquePointer, table: hb_tag_t) -> Set<hb_tag_t> {
    var result = Set<hb_tag_t>()
    var start: UInt32 = 0
    var tags = [hb_tag_t](repeating: 0, count: 64)
    while true {
      var count = UInt32(tags.count)
      let total = hb_ot_layout_table_get_feature_tags(face, table, start, &count, &tags)
      result.formUnion(tags.prefix(Int(count)))
      start += count
      if count == 0 || start >= total { break }
    }
    return result
  }

  /// Font functions that answer glyph advances from the table passed as font data.
  nonisolated(unsafe) static let advanceFuncs: OpaquePointer = {
    let funcs = hb_font_funcs_create()!
    hb_font_funcs_set_glyph_h_advances_func(
      funcs,
      { _, fontData, count, firstGlyph, glyphStride, firstAdvance, advanceStride, _ in
        guard let fontData, var glyph = UnsafeRawPointer(firstGlyph),
          var advance = UnsafeMutableRawPointer(firstAdvance)
        else { return }
        let table = fontData.assumingMemoryBound(to: Int32.self)
        let n = UInt32(table[0])
        for _ in 0..<count {
          let g = glyph.load(as: hb_codepoint_t.self)
          advance.storeBytes(of: g < n ? table[Int(g) + 1] : 0, as: hb_position_t.self)
          glyph += Int(glyphStride)
          advance += Int(advanceStride)
        }
      }, nil, nil)
    hb_font_funcs_make_immutable(funcs)
    return funcs
  }()
}

/// The OpenType tag of a four-letter string (HarfBuzz's `HB_TAG`).
func hbTag(_ s: String) -> hb_tag_t {
  s.utf8.prefix(4).reduce(0) { $0 << 8 | hb_tag_t($1) }
}
