import CHarfBuzz

/// A face's shaping of printable ASCII in the Latin script, pair by pair:
/// each character's advance, and for each pair the kerning between them,
/// whether the break between them is unsafe, and whether the pair forms
/// something a pair cannot describe (a ligature such as `fi`, or a changed
/// glyph). A word of such characters with no such pair is shaped by adding
/// advances and kerning, which equals HarfBuzz's result for fonts whose
/// Latin shaping is pair positioning (kerning) plus ligatures; any other
/// word is shaped by HarfBuzz.
final class AsciiPairs: @unchecked Sendable {
  // @unchecked Sendable: immutable once made.
  /// The advance of each character alone, 16.16 px (index: the ASCII code).
  let advance: [Int32]
  /// Whether the face has the character with one glyph of its own.
  let covered: [Bool]
  /// The kerning added to the first character's advance, per pair (`a << 7 | b`).
  let kern: [Int32]
  /// Per pair: bit 0, a ligature or changed glyph (shape with HarfBuzz);
  /// bit 1, unsafe to break between them.
  let flags: [UInt8]

  /// Shapes every printable ASCII character and pair with `font`.
  /// - Complexity: 95 + 95² HarfBuzz calls, once per face and size.
  init(font: ShapingFont) {
    let buffer = hb_buffer_create()!
    defer { hb_buffer_destroy(buffer) }
    let language = hb_language_from_string("en", -1)
    func shape(_ units: [UInt16]) -> [(glyph: UInt32, cluster: UInt32, advance: Int32, unsafe: Bool)] {
      hb_buffer_clear_contents(buffer)
      hb_buffer_add_utf16(buffer, units, Int32(units.count), 0, Int32(units.count))
      hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
      hb_buffer_set_script(buffer, HB_SCRIPT_LATIN)
      hb_buffer_set_language(buffer, language)
      hb_shape(font.font, buffer, nil, 0)
      var count: UInt32 = 0
      guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
      else { return [] }
      return (0..<Int(count)).map { g in
        let unsafe =
          withUnsafePointer(to: infos[g]) { hb_glyph_info_get_glyph_flags($0) }.rawValue
          & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
        return (infos[g].codepoint, infos[g].cluster, positions[g].x_advance, unsafe)
      }
    }
    var advance = [Int32](repeating: 0, count: 128)
    var glyph = [UInt32](repeating: 0, count: 128)
    var covered = [Bool](repeating: false, count: 128)
    for c in 0x20..<0x7F {
      let r = shape([UInt16(c)])
      guard r.count == 1, r[0].glyph != 0 else { continue }
      covered[c] = true
      glyph[c] = r[0].glyph
      advance[c] = r[0].advance
    }
    var kern = [Int32](repeating: 0, count: 128 * 128)
    var flags = [UInt8](repeating: 0, count: 128 * 128)
    for a in 0x20..<0x7F where covered[a] {
      for b in 0x20..<0x7F where covered[b] {
        let r = shape([UInt16(a), UInt16(b)])
        let pair = a << 7 | b
        guard r.count == 2, r[0].cluster == 0, r[1].cluster == 1, r[0].glyph == glyph[a], r[1].glyph == glyph[b],
          r[1].advance == advance[b]
        else {
          flags[pair] = 1
          continue
        }
        kern[pair] = r[0].advance - advance[a]
        if r[1].unsafe || kern[pair] != 0 { flags[pair] |= 2 }
      }
    }
    self.advance = advance
    self.covered = covered
    self.kern = kern
    self.flags = flags
  }
}
