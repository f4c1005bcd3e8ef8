/// Text made safe to print on a terminal: what `render` writes.
enum TerminalText {
  /// `text` without the characters a terminal acts on or that reorder what
  /// follows: controls but the tab (C0, DEL, C1; general category Cc: an escape sequence
  /// can retitle the window or recolour the rest), the bidirectional
  /// embeddings, overrides and isolates (UAX #9: U+061C, U+200E, U+200F,
  /// U+202A–U+202E, U+2066–U+2069) and U+FEFF. A line feed and the line and paragraph
  /// separators (U+2028, U+2029), which a layout takes as hard breaks, become
  /// a space where they are left (an unwrapped header), so a text stays on its line. The dropped characters measure zero width, so a
  /// layout computed on the text still holds.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var out = String.UnicodeScalarView()
    for u in text.unicodeScalars {
      if !isUnsafe(u) {
        out.append(u)
      } else if isLineBreak(u) {
        out.append(" ")
      }
    }
    return String(out)
  }

  private static func isLineBreak(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x0A, 0x2028, 0x2029: return true
    default: return false
    }
  }

  private static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0x2028, 0x2029: return true
    case 0x09: return false  // a tab only moves to the next stop
    default: return u.properties.generalCategory == .control
    }
  }
}
