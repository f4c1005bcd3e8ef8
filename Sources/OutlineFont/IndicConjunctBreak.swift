/// Unicode 15.1's Indic_Conjunct_Break property (DerivedCoreProperties.txt),
/// for the scripts whose conjuncts it joins into one grapheme cluster
/// (Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam).
enum IndicConjunctBreak {
  case none, consonant, linker, extend

  /// The value of the UTF-16 unit `c` (these scripts are all in the BMP).
  init(_ c: UInt16) {
    switch c {
    case 0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D: self = .linker
    case 0x0915...0x0939, 0x0958...0x095F, 0x0978...0x097F,
      0x0995...0x09A8, 0x09AA...0x09B0, 0x09B2, 0x09B6...0x09B9, 0x09DC...0x09DD, 0x09DF, 0x09F0...0x09F1,
      0x0A95...0x0AA8, 0x0AAA...0x0AB0, 0x0AB2...0x0AB3, 0x0AB5...0x0AB9, 0x0AF9,
      0x0B15...0x0B28, 0x0B2A...0x0B30, 0x0B32...0x0B33, 0x0B35...0x0B39, 0x0B5C...0x0B5D, 0x0B5F, 0x0B71,
      0x0C15...0x0C28, 0x0C2A...0x0C39, 0x0C58...0x0C5A,
      0x0D15...0x0D3A:
      self = .consonant
    case 0x200D: self = .extend
    default:
      // Extend: the grapheme extenders (nonspacing and enclosing marks).
      switch Unicode.Scalar(c)?.properties.generalCategory {
      case .nonspacingMark, .enclosingMark: self = .extend
      default: self = .none
      }
    }
  }
}
