#if canImport(Glibc)
  import Glibc  // memchr, memcmp
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a filter keeps while it is in force.
struct FilterState: Sendable {
  var query: String
  var match: TextMatch
  /// Per item: a matching item, an ancestor group of one, or an item in
  /// the subtree of a matching group.
  var shown: [Bool]
  /// Per item: the last child of its parent among those shown.
  var lastChild: [Bool]
  /// The user's expansion, restored when the filter clears.
  var userExpanded: [Bool]
  /// Positions of the items whose own text matched (rows and groups), in document order.
  var matchedItems: [Int]
}

/// The case-folded texts a filter searches, in one buffer: `title NUL
/// detail NUL` per row, `title NUL` per group, so that a filter scans
/// contiguous bytes with the C library's `memchr` instead of a loop over items.
struct FoldedTexts: Sendable {
  var bytes: [UInt8] = []
  /// `bytes[starts[p] ..< starts[p + 1]]` is item `p`'s text.
  var starts: [Int32] = [0]

  /// Positions of the items whose folded text contains `folded` (itself folded), in order.
  /// - Complexity: O(size of the buffer) in practice: `memchr` finds each
  ///   candidate first byte, `memcmp` checks the rest.
  func items(containing folded: String) -> [Int] {
    let query = Array(folded.utf8)
    // Texts are kept apart by NULs, so a query with one could match across them.
    guard !query.isEmpty, !query.contains(0) else { return [] }
    var result: [Int] = []
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var from = 0
      let first = Int32(query[0])
      let m = query.count
      while from + m <= raw.count, let hit = memchr(base + from, first, raw.count - from - m + 1) {
        let offset = base.distance(to: UnsafeRawPointer(hit))
        guard memcmp(hit, query, m) == 0 else {
          from = offset + 1
          continue
        }
        // The item whose text holds `offset`: the last start at or before it.
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
          let mid = (lo + hi + 1) / 2
          if Int(starts[mid]) <= offset { lo = mid } else { hi = mid - 1 }
        }
        result.append(lo)
        from = Int(starts[lo + 1])
      }
    }
    return result
  }

  init(_ outline: Outline) {
    starts.reserveCapacity(outline.count + 1)
    for p in 0..<outline.count {
      bytes.append(contentsOf: CaseFolding.fold(outline.title(at: p)).utf8)
      bytes.append(0)
      if !outline.isGroup(at: p) {
        if let d = outline.detail(at: p) { bytes.append(contentsOf: CaseFolding.fold(d).utf8) }
        bytes.append(0)
      }
      starts.append(Int32(bytes.count))
    }
  }
}

/// An item whose own text matches the filter (a row by its title or
/// detail, a group by its title), with where the query occurs in it.
public struct FilterMatch: Sendable, Equatable {
  /// The item's position (see ``OutlineItem``).
  public var position: Int
  /// Its index in the filtered visible list.
  public var index: Int
  /// Occurrences in the title, as ranges of byte offsets in its UTF-8.
  public var titleRanges: [Range<Int>]
  /// Occurrences in the detail, as ranges of byte offsets in its UTF-8 (always empty for a group).
  public var detailRanges: [Range<Int>]
}

extension OutlineState {
  /// The most matches a filter result lists (PROTOCOL §8).
  public static let maxMatches = 10_000

  /// The query in force, or `nil` when the outline is not filtered.
  public var filterQuery: String? { filter?.query }

  /// Whether the item at `position` is the last child of its parent as shown
  /// (while filtered: among the children the filter shows).
  public func isLastChild(_ position: Int) -> Bool {
    filter?.lastChild[position] ?? outline.lastChildFlags[position]
  }

  /// Filters the visible list (PROTOCOL §6): it keeps the rows whose title or
  /// detail contains `query` and the groups whose title does (Unicode
  /// default case folding, no normalisation), the whole subtree of each
  /// such group, and every ancestor group of a match; every group shown is
  /// expanded, the rest is hidden. An empty query clears the filter and restores
  /// the expansion the user had; toggles made while filtered are forgotten.
  /// A new query starts again from the user's expansion.
  /// - Returns: the change list and groups whose `expanded` changed as
  ///   shown, and the items whose own text matched (at most ``maxMatches``)
  ///   in list order: rows shown only because a group above them matched
  ///   are not listed.
  /// - Complexity: O(n) plus the text searched; the first filter of an
  ///   outline also folds every title and detail once.
  public mutating func filter(_ query: String, scrollTop: Double? = nil, viewportHeight: Double? = nil) -> (
    ExpansionResult, [FilterMatch]
  ) {
    let oldVisible = visibilityFlags()
    let oldExpanded = expanded
    let oldLast = filter?.lastChild ?? outline.lastChildFlags
    if query.isEmpty {
      if filter != nil { clearFilter() }
    } else {
      applyFilter(query)
    }
    var result = ExpansionResult()
    let newVisible = visibilityFlags()
    let newLast = filter?.lastChild ?? outline.lastChildFlags
    // A row shown before and after whose `isLastChild` turned is shown otherwise: replaced in place.
    result.changes = Self.changes(from: oldVisible, to: newVisible) { p in oldLast[p] != newLast[p] }
    // A local outline: reading `self.outline` while `self` changes reloads (and retains) it per call.
    let outline = outline
    for p in outline.groupPositions where oldExpanded[p] != expanded[p] {
      result.updatedGroups.append(outline.id(at: p))
    }
    if let scrollTop {
      var s = max(0, scrollTop)
      if let viewportHeight { s = max(0, min(s, contentHeight - viewportHeight)) }
      result.scrollTop = s
      self.scrollTop = s
    }
    if !result.changes.isEmpty || !result.updatedGroups.isEmpty { version += 1 }
    return (result, matches(visible: newVisible))
  }

  /// The matching items (rows and groups) that are visible, in list order, at most ``maxMatches``.
  /// - Complexity: O(k log n) for k matches, plus their text.
  public func matches() -> [FilterMatch] {
    matches(visible: visibilityFlags())
  }

  /// ``matches()`` given every item's visibility: one pass numbers the visible items.
  /// - Complexity: O(n) plus the text of the matches.
  func matches(visible: [Bool]) -> [FilterMatch] {
    guard let filter else { return [] }
    var result: [FilterMatch] = []
    var index = 0
    var p = 0
    for m in filter.matchedItems {
      guard result.count < Self.maxMatches else { break }
      while p < m {
        if visible[p] { index += 1 }
        p += 1
      }
      guard visible[m] else { continue }
      // Searched in the outline's UTF-8 storage: an ASCII text makes no String.
      result.append(
        FilterMatch(
          position: m, index: index, titleRanges: outline.withTitleUTF8(at: m) { filter.match.utf8Ranges(in: $0) },
          detailRanges: outline.isGroup(at: m)
            ? [] : outline.withDetailUTF8(at: m) { $0.map { filter.match.utf8Ranges(in: $0) } ?? [] }))
    }
    return result
  }

  /// Restores the user's expansion and drops the filter (no change list).
  mutating func clearFilter() {
    guard let f = filter else { return }
    expanded = f.userExpanded
    filter = nil
    normalizeSingleSilently()
    rebuildIndex()
  }

  /// Puts `query` in force, from the user's expansion (no change list);
  /// `heights`, when given, replace the items' heights in the rebuilt index.
  /// - Complexity: O(n) plus the text searched.
  mutating func applyFilter(_ query: String, heights newHeights: [Double]? = nil) {
    let user = filter?.userExpanded ?? expanded
    let match = TextMatch(query: query)
    if foldedTexts == nil { foldedTexts = FoldedTexts(outline) }
    let folded = foldedTexts!
    var shown = [Bool](repeating: false, count: outline.count)
    let matched = folded.items(containing: match.foldedQuery)
    // Read once: `self` changes in this method, so each read would reload the outline.
    let outline = outline
    let parents = outline.parentPositions
    // One past the last item of the subtrees of matching groups marked so far:
    // matches are in document order, so a subtree inside one already marked is skipped.
    var markedUntil = 0
    for p in matched where p >= markedUntil {
      let end = outline.end(at: p)
      for q in p..<end { shown[q] = true }
      markedUntil = end
      var a = Int(parents[p])
      while a >= 0, !shown[a] {
        shown[a] = true
        a = Int(parents[a])
      }
    }
    // The last shown child of each parent (-1: the top level).
    var lastShown: [Int: Int] = [:]
    for p in 0..<outline.count where shown[p] { lastShown[Int(parents[p])] = p }
    var lastChild = [Bool](repeating: false, count: outline.count)
    for p in lastShown.values { lastChild[p] = true }
    filter = FilterState(
      query: query, match: match, shown: shown, lastChild: lastChild, userExpanded: user, matchedItems: matched)
    // Ancestors of matches are shown expanded, even under `single`.
    for p in outline.groupPositions {
      expanded[p] = shown[p] ? true : user[p]
    }
    openChild = [:]
    rebuildIndex(heights: newHeights)
  }
}
