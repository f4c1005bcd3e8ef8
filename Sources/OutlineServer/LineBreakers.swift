import OutlineFont
import OutlineModel

extension OutlineServer {
  /// The one place the server's line breakers are made: real fonts for unit
  /// `font` (fontconfig, FreeType, HarfBuzz, ICU; each font loaded once, its
  /// shaped words and texts cached), Unicode's width tables for `cell` and `px`.
  /// - Complexity: O(1); fonts are loaded when a layout first names them.
  public static func makeLineBreakers() -> any LineBreakerSource {
    FontLineBreakers()
  }
}
