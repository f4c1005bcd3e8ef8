import Foundation
import Testing

@testable import OutlineYAML

/// The YAML 1.2 core schema's resolution of plain scalars (YAML 1.2.2 §10.3.2),
/// checked against the schema's own regular expressions.
@Suite struct CoreSchemaTests {
  /// What the core schema's table says `text` is, from its regular expressions alone.
  static func expected(_ text: String) -> CoreScalar {
    func matches(_ pattern: String) -> Bool {
      text.range(of: "^(?:\(pattern))$", options: .regularExpression) != nil
    }
    if matches("null|Null|NULL|~") || text.isEmpty { return .null }
    if matches("true|True|TRUE") { return .bool(true) }
    if matches("false|False|FALSE") { return .bool(false) }
    if matches("[-+]?[0-9]+") {
      return Int64(text).map { .int($0) } ?? .double(Double(text)!)
    }
    if matches("0o[0-7]+") { return Int64(text.dropFirst(2), radix: 8).map { .int($0) } ?? .string }
    if matches("0x[0-9a-fA-F]+") { return Int64(text.dropFirst(2), radix: 16).map { .int($0) } ?? .string }
    if matches("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?") {
      // "1." and ".5" as a C reader takes them: "1.0", "0.5".
      var t = text.replacingOccurrences(of: ".e", with: ".0e").replacingOccurrences(of: ".E", with: ".0E")
      if t.hasSuffix(".") { t += "0" }
      t = t.replacingOccurrences(of: "-.", with: "-0.").replacingOccurrences(of: "+.", with: "+0.")
      if t.hasPrefix(".") { t = "0" + t }
      return .double(Double(t)!)
    }
    if matches("[-+]?\\.(inf|Inf|INF)") { return .double(text.hasPrefix("-") ? -.infinity : .infinity) }
    if matches("\\.nan|\\.NaN|\\.NAN") { return .double(.nan) }
    return .string
  }

  static func resolve(_ text: String) -> CoreScalar {
    var copy = text
    return copy.withUTF8 { CoreScalar(plain: $0) }
  }

  static func same(_ a: CoreScalar, _ b: CoreScalar) -> Bool {
    if case .double(let x) = a, case .double(let y) = b, x.isNaN && y.isNaN { return true }
    return a == b
  }

  @Test(arguments: [
    "", "~", "\u{7F}", "null", "Null", "NULL", "nULL", "true", "True", "TRUE", "tRUE", "false", "False", "FALSE",
    "yes", "no",
    "0", "7", "-7", "+7", "012", "-0", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "0o7", "0o17", "0o8", "0o", "0o777777777777777777777777", "9o7", "1x5", "0x", "0x1F", "0xff", "0xFg", "0X1F",
    "0x8000000000000000", "0o-7", "0o+7", "0x-1F", "0x+1F", "1.", "-1.", ".5", "+.5", "1.5", "1e3", "1E3", "1.5e-3",
    "1.e3", ".5e+3", ".", "-.", "+.",
    ".e5", "-.e5", "e5", "1e", "1e+", "1.5.5", "--1", "+-1", "1_000", ".inf", "-.Inf", "+.INF", ".INf", "inf",
    ".nan", ".NaN", ".NAN", "-.nan", "nan", "0.0", "00", "1 2", " 1", "1x", "0b1",
  ])
  func aPlainScalarResolvesAsTheSchemaSays(_ text: String) {
    let got = Self.resolve(text)
    #expect(Self.same(got, Self.expected(text)), "\(text.debugDescription): \(got)")
  }

  @Test func randomNumberLikeScalarsResolveAsTheSchemaSays() {
    let alphabet = Array("0123456789+-.eEoxXafiInN ")
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    var wrong: [String] = []
    for _ in 0..<20_000 {
      let text = String((0..<(1 + next() % 6)).map { _ in alphabet[next() % alphabet.count] })
      if !Self.same(Self.resolve(text), Self.expected(text)) { wrong.append(text) }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(10))")
  }
}
