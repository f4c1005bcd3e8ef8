/// The width of grapheme clusters as terminals and editors draw them
/// (PROTOCOL §5, §8 "Layout"), from tables generated out of the Unicode
/// Character Database (see ``unicodeVersion``).
///
/// A cluster is:
/// - **wide** when shown as emoji (UTS #51): its first scalar has
///   Emoji_Presentation=Yes; or it holds VS16 (U+FE0F) after an Emoji=Yes
///   scalar; or it is a flag (two regional indicators), a keycap
///   (`0`–`9`, `#`, `*`, then U+20E3), a ZWJ sequence (an
///   Extended_Pictographic scalar, then U+200D), or a modifier sequence (an
///   Emoji_Modifier_Base scalar, then U+1F3FB–U+1F3FF);
/// - otherwise of the class of its first scalar that is not zero-width:
///   **wide** for East Asian Width W or F (UAX #11), else **narrow**. A
///   text-presentation character alone (U+263A) is narrow;
/// - **zero** when all its scalars are zero-width: general category Mn, Mc, Me,
///   Cf, Cc, Zl or Zp, Default_Ignorable_Code_Point (but U+115F HANGUL
///   CHOSEONG FILLER, which begins a wide syllable), or a conjoining Hangul
///   vowel or final (U+1160–U+11FF, U+D7B0–U+D7FF).
///
/// Clusters are Swift `Character`s: extended grapheme clusters (UAX #29).
public struct UnicodeClusterWidths: ClusterWidthTable {
  /// The table; its data is static and shared.
  public init() {}

  /// The Unicode version the tables come from, e.g. `"15.0.0"`.
  public static var unicodeVersion: String { UnicodeWidthData.unicodeVersion }

  /// The width class of one grapheme cluster.
  /// - Complexity: O(s · log r): s scalars in the cluster, r ranges in a table (≤ 400).
  ///   An ASCII cluster is O(1).
  public func widthClass(of cluster: Character) -> ClusterWidthClass {
    if cluster.isASCII {
      // One ASCII scalar, or "\r\n".
      let v = cluster.asciiValue ?? 0
      return v < 0x20 || v == 0x7F ? .zero : .narrow
    }
    let scalars = cluster.unicodeScalars
    var it = scalars.makeIterator()
    guard let first = it.next() else { return .zero }
    if let second = it.next() {
      if Self.isEmojiSequence(first: first.value, second: second.value, scalars) { return .wide }
    }
    for s in scalars {
      let v = s.value
      if Self.contains(UnicodeWidthData.zeroWidth, v) { continue }
      return Self.contains(UnicodeWidthData.wide, v) ? .wide : .narrow
    }
    return .zero
  }

  /// The width class of one scalar drawn alone (as its own cluster).
  public static func widthClass(of scalar: Unicode.Scalar) -> ClusterWidthClass {
    let v = scalar.value
    if contains(UnicodeWidthData.zeroWidth, v) { return .zero }
    return contains(UnicodeWidthData.wide, v) ? .wide : .narrow
  }

  /// Whether a cluster of two or more scalars is an emoji sequence (UTS #51 §1.4):
  /// emoji presentation (VS16), flag, keycap, ZWJ or modifier sequence.
  private static func isEmojiSequence(first: UInt32, second: UInt32, _ scalars: Character.UnicodeScalarView) -> Bool {
    if (0x1F1E6...0x1F1FF).contains(first) && (0x1F1E6...0x1F1FF).contains(second) { return true }
    if (0x1F3FB...0x1F3FF).contains(second) && contains(UnicodeWidthData.emojiModifierBase, first) { return true }
    var hasVS16 = false
    var hasZWJ = false
    var hasKeycap = false
    for s in scalars {
      switch s.value {
      case 0xFE0F: hasVS16 = true
      case 0x200D: hasZWJ = true
      case 0x20E3: hasKeycap = true
      default: break
      }
    }
    if hasKeycap && (first == 0x23 || first == 0x2A || (0x30...0x39).contains(first)) { return true }
    if hasVS16 && contains(UnicodeWidthData.emoji, first) { return true }
    if hasZWJ && contains(UnicodeWidthData.extendedPictographic, first) { return true }
    return false
  }

  /// Whether `v` lies in one of the sorted `[first, last, …]` ranges of `table`.
  /// - Complexity: O(log n).
  @inline(__always)
  static func contains(_ table: [UInt32], _ v: UInt32) -> Bool {
    // The last range whose first ≤ v.
    var lo = 0
    var hi = table.count / 2
    while lo < hi {
      let mid = (lo + hi) / 2
      if table[2 * mid] <= v { lo = mid + 1 } else { hi = mid }
    }
    return lo > 0 && v <= table[2 * (lo - 1) + 1]
  }
}
