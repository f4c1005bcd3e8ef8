/// A plain scalar resolved by the YAML 1.2 core schema (YAML 1.2.2 §10.3.2).
enum CoreScalar: Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  /// Anything else: the text as written.
  case string

  /// Resolves the text of a plain scalar.
  init(plain b: UnsafeBufferPointer<UInt8>) {
    switch b.count {
    case 0:
      self = .null
      return
    case 1 where b[0] == UInt8(ascii: "~"):
      self = .null
      return
    case 4, 5:
      if Self.equals(b, "null") || Self.equals(b, "Null") || Self.equals(b, "NULL") {
        self = .null
        return
      }
      if Self.equals(b, "true") || Self.equals(b, "True") || Self.equals(b, "TRUE") {
        self = .bool(true)
        return
      }
      if Self.equals(b, "false") || Self.equals(b, "False") || Self.equals(b, "FALSE") {
        self = .bool(false)
        return
      }
    default: break
    }
    self = Self.number(b) ?? .string
  }

  /// Whether `b` holds exactly the ASCII text `s`.
  static func equals(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
    guard b.count == s.utf8CodeUnitCount else { return false }
    let p = s.utf8Start
    for i in 0..<b.count where b[i] != p[i] { return false }
    return true
  }

  /// An int or float of the core schema, or `nil`.
  private static func number(_ b: UnsafeBufferPointer<UInt8>) -> CoreScalar? {
    let first = b[0]
    guard
      first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
    else { return nil }
    let text = String(decoding: b, as: UTF8.self)
    if b.count > 2, first == UInt8(ascii: "0") {
      // 0o[0-7]+ and 0x[0-9a-fA-F]+: digits only (Int64(_:radix:) would take a sign too);
      // one past Int64 is a string.
      if b[1] == UInt8(ascii: "o") {
        return allDigits(b, from: 2, radix: 8) ? Int64(text.dropFirst(2), radix: 8).map { .int($0) } : nil
      }
      if b[1] == UInt8(ascii: "x") {
        return allDigits(b, from: 2, radix: 16) ? Int64(text.dropFirst(2), radix: 16).map { .int($0) } : nil
      }
    }
    var i = 0
    if b[0] == UInt8(ascii: "-") || b[0] == UInt8(ascii: "+") { i = 1 }
    let rest = UnsafeBufferPointer(rebasing: b[i...])
    if equals(rest, ".inf") || equals(rest, ".Inf") || equals(rest, ".INF") {
      return .double(b[0] == UInt8(ascii: "-") ? -.infinity : .infinity)
    }
    if i == 0, equals(b, ".nan") || equals(b, ".NaN") || equals(b, ".NAN") { return .double(.nan) }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let digitsStart = i
    while i < b.count, isDigit(b[i]) { i += 1 }
    let intDigits = i - digitsStart
    if i == b.count {
      guard intDigits > 0 else { return nil }
      if let v = Int64(text) { return .int(v) }
      return Double(text).map { .double($0) }
    }
    var fracDigits = 0
    if b[i] == UInt8(ascii: ".") {
      i += 1
      let s = i
      while i < b.count, isDigit(b[i]) { i += 1 }
      fracDigits = i - s
    }
    guard intDigits > 0 || fracDigits > 0 else { return nil }
    if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
      i += 1
      if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
      let s = i
      while i < b.count, isDigit(b[i]) { i += 1 }
      guard i > s else { return nil }
    }
    guard i == b.count else { return nil }
    // Swift's parser does not take "1." or ".5" everywhere alike; normalise.
    var normal = text
    if intDigits == 0 { normal = normal.replacingFirstDot(with: "0.") }
    return Double(normal).map { .double($0) }
  }

  private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

  private static func allDigits(_ b: UnsafeBufferPointer<UInt8>, from: Int, radix: Int) -> Bool {
    guard from < b.count else { return false }
    for c in b[from...] {
      let ok =
        radix == 8
        ? (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "7"))
        : (isDigit(c) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f")))
      if !ok { return false }
    }
    return true
  }
}

extension String {
  fileprivate func replacingFirstDot(with replacement: String) -> String {
    guard let dot = firstIndex(of: ".") else { return self }
    return self[..<dot] + replacement + self[index(after: dot)...]
  }
}
