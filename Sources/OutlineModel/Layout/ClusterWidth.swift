/// How wide a grapheme cluster is drawn: the seam where a width table plugs in.
public enum ClusterWidthClass: Sendable, Equatable {
  /// Takes no space (combining marks alone, zero-width and default-ignorable scalars).
  case zero
  /// One narrow advance (`narrowWidth`).
  case narrow
  /// One wide advance (`wideWidth`): East Asian Width W or F, or shown as emoji.
  case wide
}

/// Classifies grapheme clusters (UAX #29 extended grapheme clusters, as
/// Swift's `Character`) by their drawn width.
public protocol ClusterWidthTable: Sendable {
  /// The width class of one grapheme cluster. Never called for line breaks or tabs.
  func widthClass(of cluster: Character) -> ClusterWidthClass
}

/// A table that counts every cluster narrow.
public struct NarrowClusterWidths: ClusterWidthTable {
  /// The table.
  public init() {}
  /// Always ``ClusterWidthClass/narrow``.
  public func widthClass(of cluster: Character) -> ClusterWidthClass { .narrow }
}
