import CSimdJSON
import Synchronization

/// Bytes of a JSON text followed by at least ``JSONParser/padding`` readable bytes, which
/// a SIMD parser may read (not use) past the end: what lets ``JSONParser`` read a body in
/// the framer's buffer without copying it. The pointer is valid only during the call that
/// hands it out (``MessageFramer/withNextBody(_:)``, ``withCopy(of:_:)``).
public struct PaddedBytes {
  /// The text, padding not included.
  public let bytes: UnsafeRawBufferPointer

  /// Bytes whose padding the caller has checked.
  init(unchecked bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The length of the text, in bytes.
  public var count: Int { bytes.count }

  /// Calls `body` with a padded copy of `bytes`.
  ///
  /// - Complexity: O(n) in `bytes.count` (one copy).
  public static func withCopy<R>(of bytes: some Collection<UInt8>, _ body: (PaddedBytes) -> R) -> R {
    var padded = [UInt8](bytes)
    let count = padded.count
    padded.append(contentsOf: repeatElement(UInt8(ascii: " "), count: JSONParser.padding))
    return padded.withUnsafeBytes { body(PaddedBytes(unchecked: UnsafeRawBufferPointer(rebasing: $0[..<count]))) }
  }
}

/// simdjson's DOM parser (through the CSimdJSON shim), reused from one text to the next:
/// its buffers grow to the largest text seen (and are released after one of more than
/// 1 MiB). Each parse copies the tape out into a new ``JSONDocument``.
///
/// Reads RFC 8259 JSON texts strictly: any value at the top level; no trailing commas,
/// comments or non-JSON whitespace; strings must be valid UTF-8 with no unescaped control
/// character and no unpaired surrogate escape (`"\ud800"`, `"\udc00"`); nesting up to
/// ``maxNestingDepth``. A leading byte order mark is skipped (RFC 8259 §8.1). An integer
/// beyond 64 bits reads as a double; a number beyond the range of a double (`1e400`) is an
/// error. The parser does not see what follows the text: trailing content is an error.
///
/// - Important: not thread-safe; a connection's reader owns one. Code without a parser of
///   its own uses ``JSONDocument/init(parsing:)``, which borrows a shared one.
public final class JSONParser {
  /// How many readable bytes a parse in place needs after the text (simdjson's
  /// `SIMDJSON_PADDING`).
  public static let padding = Int(CSJ_PADDING)

  /// The deepest nesting of arrays and objects accepted (`[[1]]` is 2), as Foundation's
  /// `JSONDecoder` accepts.
  public static let maxNestingDepth = 512

  private let parser: OpaquePointer

  /// A parser with empty buffers.
  public init() {
    guard let parser = csj_parser_create(Self.maxNestingDepth) else { fatalError("cannot allocate a JSON parser") }
    self.parser = parser
  }

  deinit {
    csj_parser_destroy(parser)
  }

  /// Parses a text in place (no copy of the input).
  ///
  /// - Returns: the document, which owns copies of the tape and strings.
  /// - Throws: ``JSONParseError`` naming what is wrong and where.
  /// - Complexity: O(n) in the length of the text.
  public func parse(_ text: PaddedBytes) throws(JSONParseError) -> JSONDocument {
    try parse(text.bytes, padded: true)
  }

  /// Parses a text, first copied into a padded buffer the parser keeps.
  ///
  /// - Throws: ``JSONParseError`` naming what is wrong and where.
  /// - Complexity: O(n) in `text.count`.
  public func parse(_ text: [UInt8]) throws(JSONParseError) -> JSONDocument {
    let result: Result<JSONDocument, JSONParseError> = text.withUnsafeBytes { bytes in
      do throws(JSONParseError) {
        return .success(try parse(bytes, padded: false))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private func parse(_ bytes: UnsafeRawBufferPointer, padded: Bool) throws(JSONParseError) -> JSONDocument {
    let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    let result = csj_parse(parser, base, bytes.count, padded && base != nil)
    guard result.status == CSJ_OK else {
      throw JSONParseError(diagnosing: bytes, refusal: result.status)
    }
    return JSONDocument(tapeCount: result.tape_count, stringCount: result.string_count) { tape, strings in
      csj_copy(parser, tape, strings)
    }
  }

  // MARK: Shared parsers

  /// An idle parser; only the pool refers to it, so it may move to whichever thread takes it.
  private struct Idle: @unchecked Sendable {
    let parser: JSONParser
  }

  private static let idle = Mutex<[Idle]>([])
  /// The most idle parsers kept.
  private static let idleLimit = 4

  /// Calls `body` with a parser no one else uses meanwhile: an idle one, or a new one.
  static func withShared<R>(_ body: (JSONParser) -> R) -> R {
    let parser = idle.withLock { $0.popLast() }?.parser ?? JSONParser()
    defer {
      let returned = Idle(parser: parser)
      idle.withLock { if $0.count < idleLimit { $0.append(returned) } }
    }
    return body(parser)
  }
}

extension JSONDocument {
  /// Parses one JSON text with a shared ``JSONParser``; see there for what is accepted.
  ///
  /// - Throws: ``JSONParseError`` naming what is wrong and where.
  /// - Complexity: O(n) in `bytes.count` (the text is copied once into the parser's
  ///   padded buffer).
  public init(parsing bytes: [UInt8]) throws(JSONParseError) {
    let result = JSONParser.withShared { parser -> Result<JSONDocument, JSONParseError> in
      do throws(JSONParseError) {
        return .success(try parser.parse(bytes))
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }
}
