import OutlineModel

extension OutlineServer {
  /// The one place the server's line breakers are made: Unicode's width
  /// tables for `cell` and `px`.
  /// - Complexity: O(1).
  public static func makeLineBreakers() -> any LineBreakerSource {
    CellLineBreakers()
  }
}
