import CHarfBuzz

/// Fullwidth punctuation collapsing (CSS Text 4 `text-spacing-trim: normal`,
/// the browser default): two adjacent fullwidth punctuation marks take half
/// their width where the font has the `halt` feature, and a closing bracket
/// may take half its width at the end of a line.
///
/// The classes follow CSS Text 4 "Text Spacing Character Classes": a
/// character is an opening, closing or middle mark, a narrow (proportional)
/// one, or other; dots, colons and quotes take the class their glyph's place
/// in the em gives them in the font (``PunctuationShapes``).
enum SpacingClass: UInt8 {
  case other, open, close, middle, openNarrow, closeNarrow
}

/// The class of a character before the font decides it.
enum PunctuationClass: UInt8 {
  case other, open, close, middle, openNarrow, closeNarrow, dot, colon, semicolon, openQuote, closeQuote

  /// The class of `c`: U+3001 、 U+3002 。 U+FF0C ， U+FF0E ． are dots,
  /// U+FF1A ： a colon, U+FF1B ； a semicolon, U+2018/U+201C opening and
  /// U+2019/U+201D closing quotes, U+3000 U+00B7 U+2027 U+30FB middle; an
  /// opening (Ps) or closing (Pe) mark is fullwidth in the CJK Symbols and
  /// Punctuation block or with East Asian Width F, else narrow.
  init(_ c: UInt32) {
    switch c {
    case 0x2018, 0x201C: self = .openQuote
    case 0x2019, 0x201D: self = .closeQuote
    case 0x3001, 0x3002, 0xFF0C, 0xFF0E: self = .dot
    case 0xFF1A: self = .colon
    case 0xFF1B: self = .semicolon
    case 0x3000, 0x00B7, 0x2027, 0x30FB: self = .middle
    default:
      guard c >= 0x28, let scalar = Unicode.Scalar(c) else {
        self = .other
        return
      }
      let fullwidth = (0x3000...0x303F).contains(c) || (0xFF01...0xFF60).contains(c) || (0xFFE0...0xFFE6).contains(c)
      switch scalar.properties.generalCategory {
      case .openPunctuation: self = fullwidth ? .open : .openNarrow
      case .closePunctuation: self = fullwidth ? .close : .closeNarrow
      default: self = .other
      }
    }
  }

  /// Whether a character may start or end fullwidth collapsing at all (a fast test by range).
  static func mayCollapse(_ c: UInt16) -> Bool {
    (0x2018...0x301F).contains(c) || (0xFF08...0xFF60).contains(c)
  }

  /// Whether `c` may be a closing mark (a closing bracket or quote), which
  /// may take half its width at the end of a line.
  static func mayCloseLine(_ c: UInt16) -> Bool {
    guard mayCollapse(c) else { return false }
    let k = PunctuationClass(UInt32(c))
    return k == .close || k == .closeQuote
  }
}

/// Where a font with `halt` draws the punctuation whose place in the em
/// depends on the font: dots, colon, semicolon (left in Simplified Chinese,
/// centred in Traditional), and whether its quotes are fullwidth.
struct PunctuationShapes {
  var dot: SpacingClass
  var colon: SpacingClass
  var semicolon: SpacingClass
  var quotesFullwidth: Bool

  /// Measures the glyphs of 、。，．：；“‘”’ in `font`; `nil` when the font
  /// lacks one of them or draws one with several glyphs (then nothing collapses).
  init?(font: ShapingFont) {
    let chars: [UInt16] = [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0x201C, 0x2018, 0x201D, 0x2019]
    let buffer = hb_buffer_create()!
    defer { hb_buffer_destroy(buffer) }
    hb_buffer_add_utf16(buffer, chars, Int32(chars.count), 0, Int32(chars.count))
    hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
    hb_buffer_set_script(buffer, HB_SCRIPT_HAN)
    hb_buffer_set_language(buffer, hb_language_from_string("en", -1))
    hb_shape(font.font, buffer, nil, 0)
    var count: UInt32 = 0
    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
    guard count == chars.count else { return nil }
    var glyphs: [(advance: Int32, left: Int32, right: Int32)] = []
    for i in 0..<Int(count) {
      guard infos[i].cluster == UInt32(i), infos[i].codepoint != 0,
        let ink = font.inkBounds(ofGlyph: infos[i].codepoint)
      else { return nil }
      let dx = positions[i].x_offset
      glyphs.append((positions[i].x_advance, ink.left + dx, ink.right + dx))
    }
    func classOf(_ g: (advance: Int32, left: Int32, right: Int32), half: Int32) -> SpacingClass {
      if g.right <= half { return .close }
      if g.left >= half { return .open }
      if g.right - g.left <= half && g.left >= half / 2 { return .middle }
      return .other
    }
    /// One class for a group of glyphs: the first one's, when all share its advance and class.
    func group(_ range: Range<Int>) -> SpacingClass {
      let first = glyphs[range.lowerBound]
      let k = classOf(first, half: first.advance / 2)
      for g in glyphs[range].dropFirst() where g.advance != first.advance || classOf(g, half: first.advance / 2) != k {
        return .other
      }
      return k
    }
    dot = group(0..<4)
    colon = group(4..<5)
    semicolon = group(5..<6)
    quotesFullwidth = group(6..<8) == .open && group(8..<10) == .close
  }

  /// The class of `c` in this font.
  func spacingClass(_ c: UInt16) -> SpacingClass {
    switch PunctuationClass(UInt32(c)) {
    case .other: .other
    case .open: .open
    case .close: .close
    case .middle: .middle
    case .openNarrow: .openNarrow
    case .closeNarrow: .closeNarrow
    case .dot: dot
    case .colon: colon
    case .semicolon: semicolon
    case .openQuote: quotesFullwidth ? .open : .openNarrow
    case .closeQuote: quotesFullwidth ? .close : .closeNarrow
    }
  }

  /// Whether a mark of class `current` after one of class `last` takes half its width.
  static func collapsesCurrent(_ current: SpacingClass, after last: SpacingClass) -> Bool {
    current == .open && (last == .open || last == .middle || last == .close || last == .openNarrow)
  }

  /// Whether a mark of class `last` before one of class `current` takes half its width.
  static func collapsesLast(_ current: SpacingClass, after last: SpacingClass) -> Bool {
    last == .close && (current == .close || current == .middle || current == .closeNarrow)
  }
}
