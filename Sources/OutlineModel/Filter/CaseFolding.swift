/// Unicode default case folding (The Unicode Standard §3.13, full folding:
/// CaseFolding.txt statuses C and F), from a table generated out of
/// Debian's unicode-data by `scripts/generate-case-folding`.
public enum CaseFolding {
  /// Calls `body` with each scalar `scalar` folds to (one, or several for
  /// full foldings such as `ß` → `ss`).
  /// - Complexity: O(log k) for the k table entries; O(1) for ASCII.
  @inline(__always)
  public static func fold(_ scalar: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void) {
    let v = scalar.value
    if v < 0x80 {
      body(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(v + 0x20)! : scalar)
      return
    }
    let keys = CaseFoldingTable.keys
    var lo = 0
    var hi = keys.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if keys[mid] < v { lo = mid + 1 } else { hi = mid }
    }
    guard lo < keys.count, keys[lo] == v else {
      body(scalar)
      return
    }
    let from = Int(CaseFoldingTable.offsets[lo])
    let to = Int(CaseFoldingTable.offsets[lo + 1])
    for m in CaseFoldingTable.mappings[from..<to] { body(Unicode.Scalar(m)!) }
  }

  /// The case folding of `text`.
  /// - Complexity: O(length of `text`).
  public static func fold(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars { fold(s) { out.append($0) } }
    return String(out)
  }
}
