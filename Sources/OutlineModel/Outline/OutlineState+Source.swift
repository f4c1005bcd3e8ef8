/// Where items stand in the source (PROTOCOL §9 `itemAtPosition`).
extension OutlineState {
  /// The innermost item whose source range (its mapping node, see
  /// ``OutlineItem/source``) holds `position`, or `nil` when none does:
  /// before the first group, past the last, on the top-level keys.
  ///
  /// The index by source position is made by the first call and kept
  /// until the outline changes.
  /// - Complexity: O(log n + depth); the first call after a new outline O(n log n).
  public mutating func innermostItem(containing position: SourcePosition) -> Int? {
    if sourceIndex == nil { sourceIndex = SourceIndex(outline) }
    return sourceIndex!.innermost(containing: position, in: outline)
  }
}
