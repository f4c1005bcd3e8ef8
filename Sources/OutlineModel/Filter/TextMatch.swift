/// Case-insensitive search of a query in a text, as `filterOutline` matches
/// (PROTOCOL §6): Unicode default case folding on both sides, no
/// normalisation.
public struct TextMatch: Sendable {
  /// The folded query.
  public let foldedQuery: String
  private let queryScalars: [Unicode.Scalar]

  private let queryBytes: [UInt8]
  private let queryIsASCII: Bool

  /// Folds `query` once (Unicode default full case folding, CaseFolding.txt statuses C and F).
  public init(query: String) {
    foldedQuery = CaseFolding.fold(query)
    queryScalars = Array(foldedQuery.unicodeScalars)
    queryBytes = Array(foldedQuery.utf8)
    queryIsASCII = queryBytes.allSatisfy { $0 < 0x80 }
  }

  /// ``ranges(in:)`` for ASCII text and query: folding is lowercasing, one byte each.
  private func asciiRanges(in text: String) -> [Range<String.Index>] {
    var copy = text
    let offsets = copy.withUTF8 { asciiOffsets(in: $0) }
    let utf8 = text.utf8
    return offsets.map { r in
      let start = utf8.index(utf8.startIndex, offsetBy: r.lowerBound)
      return start..<utf8.index(start, offsetBy: r.count)
    }
  }

  /// The matches of an ASCII query in ASCII bytes, as byte ranges, left to right and
  /// not overlapping; letters compared without regard to case.
  /// - Complexity: O(length of `bytes` × length of the query).
  private func asciiOffsets(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    let q = queryBytes
    let m = q.count
    guard bytes.count >= m else { return [] }
    var i = 0
    while i <= bytes.count - m {
      var k = 0
      while k < m {
        var b = bytes[i + k]
        if b >= 0x41 && b <= 0x5A { b += 0x20 }
        if b != q[k] { break }
        k += 1
      }
      if k == m {
        result.append(i..<(i + m))
        i += m
      } else {
        i += 1
      }
    }
    return result
  }

  /// `true` for an empty query, which clears the filter.
  public var isEmpty: Bool { queryScalars.isEmpty }

  /// Whether an already folded text contains the query.
  /// - Complexity: O(length of `foldedText`) in practice (a byte search of UTF-8).
  public func occurs(inFolded foldedText: String) -> Bool {
    var text = foldedText
    return text.withUTF8 { occurs(inFolded: $0) }
  }

  /// Whether already folded UTF-8 bytes contain the query. Searching bytes is
  /// exact: UTF-8 is self-synchronising, so a match of a whole folded query
  /// starts and ends on scalar boundaries.
  /// - Complexity: O(length of `bytes`) in practice.
  public func occurs(inFolded bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let q = queryBytes
    guard let first = q.first else { return true }
    let m = q.count
    guard bytes.count >= m else { return false }
    var i = 0
    let last = bytes.count - m
    while i <= last {
      if bytes[i] == first {
        var k = 1
        while k < m && bytes[i + k] == q[k] { k += 1 }
        if k == m { return true }
      }
      i += 1
    }
    return false
  }

  /// ``ranges(in:)`` of the UTF-8 text `utf8`, as ranges of byte offsets: an
  /// ASCII text is searched in place, anything else as a `String`.
  /// - Complexity: O(length of `utf8` × length of the query).
  public func utf8Ranges(in utf8: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    guard !queryScalars.isEmpty else { return [] }
    if queryIsASCII, utf8.allSatisfy({ $0 < 0x80 }) { return asciiOffsets(in: utf8) }
    let text = String(decoding: utf8, as: UTF8.self)
    return ranges(in: text).map {
      text.utf8.distance(
        from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(
          from: text.startIndex, to: $0.upperBound)
    }
  }

  /// Every non-overlapping occurrence in `text`, leftmost first, as ranges of
  /// the original text. An occurrence that starts or ends inside the folding
  /// of one character (`ß` → `ss`) covers that whole character.
  /// - Complexity: O(length of `text` × length of the query).
  public func ranges(in text: String) -> [Range<String.Index>] {
    guard !queryScalars.isEmpty else { return [] }
    if queryIsASCII, text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiRanges(in: text) }
    var folded: [Unicode.Scalar] = []
    var origin: [String.Index] = []
    let scalars = text.unicodeScalars
    var i = scalars.startIndex
    while i < scalars.endIndex {
      CaseFolding.fold(scalars[i]) {
        folded.append($0)
        origin.append(i)
      }
      i = scalars.index(after: i)
    }
    var result: [Range<String.Index>] = []
    let m = queryScalars.count
    var k = 0
    while k + m <= folded.count {
      if folded[k] == queryScalars[0] && folded[k..<(k + m)].elementsEqual(queryScalars) {
        let start = origin[k]
        let end = scalars.index(after: origin[k + m - 1])
        if let last = result.last, start < last.upperBound {
          result[result.count - 1] = last.lowerBound..<max(end, last.upperBound)
        } else {
          result.append(start..<end)
        }
        k += m
      } else {
        k += 1
      }
    }
    return result
  }
}
