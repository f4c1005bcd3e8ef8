import Foundation
import JSONRPC
import Testing

/// Random values written by ``JSONWriter`` (through ``JSONValue``) must read back as the same
/// values in two independent readers: Python's `json` module (one `python3` per batch) and
/// Foundation's `JSONDecoder` (a test oracle only).
///
/// Python's answers are compared in a canonical text: `n`, `t`, `f`; `i<decimal>` for an
/// integer (or an integral double below 2^63); `d<hex bit pattern>` for any other double;
/// `s<hex UTF-8>` for a string; arrays in order; object members sorted. Foundation's are
/// compared value by value, each number read as the kind that was written (`Int64` for an
/// integer, `Double` for a double), since its `Int64` reading of `1.5e18` is not the double's.
///
/// Seeded: the seed is in every failure message, and `JSON_WRITER_SEED=<n>` replays it.
@Suite("JSONWriter round trips")
struct JSONWriterRoundTripTests {
  static let count = 1_500

  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["JSON_WRITER_SEED"].flatMap { UInt64($0) } ?? 0x6A73_6F6E_2D6F_7574
  }

  @Test func randomValuesReadBackInPythonAndFoundation() throws {
    let seed = Self.seed
    var random = SplitMix64(seed: seed)
    let values = (0..<Self.count).map { _ in RandomJSON.value(depth: 0, &random) }
    let texts = values.map { $0.encoded() }

    for (i, text) in texts.enumerated() where Self.hasLineBreak(text) {
      Issue.record("seed \(seed), value \(i): a raw line break in \(Self.show(text))")
      break
    }

    let python = try Self.readInPython(texts)
    #expect(python.count == texts.count, "seed \(seed): python3 answered \(python.count) lines for \(texts.count)")
    var failures = 0
    for (i, value) in values.enumerated() where failures < 10 {
      let expected = Canonical.of(value)
      let fromPython = i < python.count ? python[i] : "(missing)"
      let fromFoundation: String
      var foundationAgrees = false
      do {
        let read = try JSONDecoder().decode(OracleValue.self, from: Data(texts[i]))
        foundationAgrees = read.matches(value)
        fromFoundation = "\(read)"
      } catch {
        fromFoundation = "error \(error)"
      }
      if fromPython != expected || !foundationAgrees {
        failures += 1
        Issue.record(
          """
          seed \(seed), value \(i): \(Self.show(texts[i]))
            expected   \(expected)
            python3    \(fromPython)
            Foundation \(fromFoundation)
          """)
      }
    }
  }

  /// A byte that would break an ndjson line or a JavaScript string: a raw control
  /// character, or U+2028 / U+2029 (E2 80 A8, E2 80 A9).
  static func hasLineBreak(_ text: [UInt8]) -> Bool {
    for (i, byte) in text.enumerated() {
      if byte < 0x20 { return true }
      if byte == 0xE2, i + 2 < text.count, text[i + 1] == 0x80, text[i + 2] == 0xA8 || text[i + 2] == 0xA9 {
        return true
      }
    }
    return false
  }

  static func show(_ text: [UInt8]) -> String {
    let string = String(decoding: text.prefix(300), as: UTF8.self).debugDescription
    return text.count > 300 ? string + "…" : string
  }

  /// The canonical forms of `texts` (one JSON text each) as Python's `json` reads them.
  static func readInPython(_ texts: [[UInt8]]) throws -> [String] {
    let script = """
      import json, struct, sys
      def canon(v):
          if v is None: return "n"
          if v is True: return "t"
          if v is False: return "f"
          if isinstance(v, int): return "i%d" % v
          if isinstance(v, float):
              if v.is_integer() and abs(v) < 2**63: return "i%d" % int(v)
              return "d%x" % struct.unpack("<Q", struct.pack("<d", v))[0]
          if isinstance(v, str): return "s" + v.encode("utf-8", "surrogatepass").hex()
          if isinstance(v, list): return "[" + ",".join(canon(x) for x in v) + "]"
          members = (k.encode("utf-8", "surrogatepass").hex() + ":" + canon(x) for k, x in v.items())
          return "{" + ",".join(sorted(members)) + "}"
      out = []
      for line in sys.stdin.buffer.read().split(b"\\n"):
          try:
              out.append(canon(json.loads(line.decode("utf-8"))))
          except Exception as e:
              out.append("error " + repr(e).replace("\\n", " "))
      sys.stdout.write("\\n".join(out) + "\\n")
      """
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("json-writer-\(getpid()).ndjson")
    defer { try? FileManager.default.removeItem(at: input) }
    try Data(Array(texts.joined(separator: [UInt8(ascii: "\n")]))).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    process.standardInput = try FileHandle(forReadingFrom: input)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python3 exited with \(process.terminationStatus)")
    return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast().map(String.init)
  }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a small, seedable generator.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random JSON values that stress the writer: strings with controls, quotes, backslashes,
/// U+2028/U+2029 and astral characters; integers and doubles across all magnitudes; nested
/// arrays and objects.
enum RandomJSON {
  static func value(depth: Int, _ random: inout SplitMix64) -> JSONValue {
    let leaf = depth >= 4 || Int.random(in: 0..<3, using: &random) > 0
    if !leaf {
      let n = Int.random(in: 0...6, using: &random)
      if Bool.random(using: &random) {
        return .array((0..<n).map { _ in value(depth: depth + 1, &random) })
      }
      var members: [String: JSONValue] = [:]
      for _ in 0..<n { members[string(&random, maxLength: 8)] = value(depth: depth + 1, &random) }
      return .object(members)
    }
    switch Int.random(in: 0..<10, using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2, 3: return .int(integer(&random))
    case 4, 5, 6: return .double(double(&random))
    default: return .string(string(&random, maxLength: Int.random(in: 0..<6, using: &random) == 0 ? 300 : 20))
    }
  }

  static func integer(_ random: inout SplitMix64) -> Int64 {
    switch Int.random(in: 0..<8, using: &random) {
    case 0: return [Int64.min, .max, 0, -1, 1, 1 << 53, -(1 << 53), (1 << 53) + 1].randomElement(using: &random)!
    default:
      let bits = Int.random(in: 0...63, using: &random)
      let magnitude = Int64.random(in: 0...(bits == 63 ? .max : (1 << bits)), using: &random)
      return Bool.random(using: &random) ? magnitude : -magnitude
    }
  }

  static func double(_ random: inout SplitMix64) -> Double {
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
      // Any bit pattern: subnormals, huge values, NaN payloads and infinities included.
      return Double(bitPattern: random.next())
    case 1:
      let specials: [Double] = [
        0, -0.0, 0.1, 0.5, 1e300, -1e300, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
        0x1p53, -0x1p53, 0x1p53 + 2, 0x1p63, -0x1p63, 0x1p64, .nan, .infinity, -.infinity, 1e-5, 0.1 + 0.2,
      ]
      return specials.randomElement(using: &random)!
    case 2:
      // Short decimals, as positions and sizes are: 17.5, 0.25, -3.125.
      let digits = Double(Int.random(in: -1_000_000...1_000_000, using: &random))
      return digits / Double([1, 2, 4, 8, 10, 100, 1_000, 1e6].randomElement(using: &random)!)
    case 3:
      // Integral, up to and beyond 2^53.
      let bits = Int.random(in: 0...70, using: &random)
      let value = Double(UInt64.random(in: 0...UInt64.max, using: &random) >> (64 - min(bits, 64)))
      return (Bool.random(using: &random) ? 1 : -1) * value * (bits > 64 ? Double(1 << (bits - 64)) : 1)
    default:
      // Any magnitude, uniform in the exponent.
      let mantissa = Double.random(in: 1..<10, using: &random)
      let exponent = Int.random(in: -330...310, using: &random)
      return (Bool.random(using: &random) ? 1 : -1) * mantissa * pow(10, Double(exponent))
    }
  }

  static func string(_ random: inout SplitMix64, maxLength: Int) -> String {
    let length = Int.random(in: 0...maxLength, using: &random)
    var scalars = String.UnicodeScalarView()
    for _ in 0..<length { scalars.append(scalar(&random)) }
    return String(scalars)
  }

  static func scalar(_ random: inout SplitMix64) -> Unicode.Scalar {
    let value: UInt32
    switch Int.random(in: 0..<16, using: &random) {
    case 0: value = UInt32.random(in: 0..<0x20, using: &random)
    case 1: value = [0x22, 0x5C, 0x2F, 0x7F].randomElement(using: &random)!
    case 2: value = [0x2028, 0x2029, 0x2027, 0x202A, 0x2019, 0x2026, 0x85, 0xA0, 0xFEFF].randomElement(using: &random)!
    case 3: value = UInt32.random(in: 0x80..<0xD800, using: &random)
    case 4: value = UInt32.random(in: 0xE000...0xFFFD, using: &random)
    case 5: value = UInt32.random(in: 0x10000...0x10FFFF, using: &random)
    default: value = UInt32.random(in: 0x20..<0x7F, using: &random)
    }
    return Unicode.Scalar(value)!
  }
}

/// The canonical text the two readers' answers are compared in.
enum Canonical {
  static func integer(_ i: Int64) -> String { "i\(i)" }

  static func double(_ d: Double) -> String {
    if !d.isFinite { return "n" }  // Written null.
    if d == d.rounded(.towardZero), d.magnitude < 0x1p63 { return "i\(Int64(d))" }
    return "d" + String(d.bitPattern, radix: 16)
  }

  static func string(_ s: String) -> String {
    "s" + s.utf8.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { string($0.0).dropFirst() + ":" + $0.1 }.sorted().joined(separator: ",") + "}"
  }

  static func of(_ value: JSONValue) -> String {
    switch value {
    case .null: return "n"
    case .bool(let b): return b ? "t" : "f"
    case .int(let i): return integer(i)
    case .double(let d): return double(d)
    case .string(let s): return string(s)
    case .array(let a): return "[" + a.map(of).joined(separator: ",") + "]"
    case .object(let o): return object(o.map { ($0.key, of($0.value)) })
    }
  }
}

/// A JSON value as Foundation's `JSONDecoder` reads it: the test's second, independent reader.
/// A number is read both as `Int64` and as `Double`, whichever succeed.
indirect enum OracleValue: Decodable {
  case null
  case bool(Bool)
  case number(Int64?, Double?)
  case string(String)
  case array([OracleValue])
  case object([String: OracleValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let o = try? container.decode([String: OracleValue].self) {
      self = .object(o)
    } else if case let (i, d) = (try? container.decode(Int64.self), try? container.decode(Double.self)),
      i != nil || d != nil
    {
      self = .number(i, d)
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else {
      self = .array(try container.decode([OracleValue].self))
    }
  }

  /// `true` when this is what writing `value` should read back as: the same integer, the same
  /// double (`null` for a non-finite one), the same string, and so on down.
  func matches(_ value: JSONValue) -> Bool {
    switch (value, self) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .number(let b?, _)): return a == b
    case (.double(let a), .null): return !a.isFinite
    case (.double(let a), .number(_, let b?)): return a == b
    case (.string(let a), .string(let b)): return Array(a.utf8) == Array(b.utf8)
    case (.array(let a), .array(let b)): return a.count == b.count && zip(b, a).allSatisfy { $0.matches($1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count && a.allSatisfy { key, value in b[key]?.matches(value) == true }
    default: return false
    }
  }
}
