// libFuzzer harness for the JSON reader (simdjson through the CSimdJSON shim, the tape
// reader and the fault locator), differential against Foundation's JSONDecoder, the
// parser used before and the oracle here.
//
// Each input is one JSON text. It is parsed three ways: from a copy, in place inside an
// LSP framer's buffer followed by the next message (padding that is not spaces), and by
// Foundation. The two reads must agree exactly; with Foundation they must agree on
// whether the text is JSON (Foundation also reads trailing commas, which RFC 8259 does
// not allow, ends a text at a NUL byte, and skips the values of repeated names) and on
// the value: strings exactly, numbers exactly below 2^53 (kind included) and within two
// ulps above, object names as sets, a repeated name matching one of its values (Foundation
// keeps the first, the reader the last). A refusal must name its line and column. The
// cursor's own views must agree: lookups by name against the members, positions against
// iteration, counts against both.
import Foundation
import JSONRPC

nonisolated(unsafe) private let parser = JSONParser()

/// Stops with `message` when `condition` fails (fatalError keeps the message in -O builds).
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let copied = Result { () throws(JSONParseError) in try parser.parse(bytes) }
  let inPlace = parseInPlace(bytes)
  let oracle = Result { try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }

  switch (copied, inPlace) {
  case (.success(let a), .success(let b)):
    require(a.root.jsonValue == b.root.jsonValue, "in place and copied reads differ")
  case (.failure(let a), .failure(let b)):
    require(a == b, "in place and copied reads fail differently: \(a) / \(b)")
  default:
    fatalError("in place and copied reads disagree on whether the text is JSON")
  }

  switch (copied, oracle) {
  case (.success(let document), .success(let value)):
    check(document.root)
    if let d = difference(document.root, value) { fatalError("the reader and Foundation differ at \(d)") }
  case (.failure(let error), .success):
    // Foundation reads trailing commas, stops at a NUL byte outside a string as if the text
    // ended there, and does not look into the value of a repeated name that it drops
    // (JSONSerialization, which keeps every value, does).
    require(
      error.description.contains("(a trailing comma)") || bytes.contains(0)
        || (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) == nil,
      "refused a text Foundation reads: \(error)")
  case (.success, .failure(let error)):
    fatalError("read a text Foundation refuses: \(error)")
  case (.failure(let error), .failure):
    require(
      error.description.contains(" at line ") || error.description.contains("no value"),
      "a refusal that does not say where: \(error)")
  }

  // The message layer reads the same tape.
  _ = Message.decodeBody(bytes)
  return 0
}

/// Parses `bytes` in place in an LSP framer, the next message's bytes after it.
private func parseInPlace(_ bytes: [UInt8]) -> Result<JSONDocument, JSONParseError> {
  var framer = LSPFramer(maxMessageBytes: 1 << 20)
  framer.push(Framing.lsp.frame(bytes) + Framing.lsp.frame(Array(bytes.reversed())))
  let result = try? framer.withNextBody { body in
    Result { () throws(JSONParseError) in try parser.parse(body) }
  }
  return result!
}

/// Where the reader's `element` differs from Foundation's `value` (`nil` when it does not):
/// a path and both values.
private func difference(_ element: JSONElement, _ value: JSONValue, at path: String = "$") -> String? {
  let differs = "\(path): \(element.jsonValue) / \(value)"
  switch (element.kind, value) {
  case (.null, .null): return nil
  case (.bool, .bool(let b)): return element.boolValue == b ? nil : differs
  case (.string, .string(let s)): return element.stringValue == s ? nil : differs
  case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
    let mine = element.doubleValue!
    let theirs = value.doubleValue!
    // Below 2^53 both must agree exactly, kind included. Above, Foundation reads an
    // integral-looking number as Int64 by truncating its fraction (`…927e-1`), so it may be
    // an ulp or two away from the correctly rounded double.
    if abs(mine) < 0x1p53 {
      return mine == theirs && (element.kind == .int) == (value.intValue != nil) ? nil : differs
    }
    return abs(mine - theirs) <= 2 * mine.ulp ? nil : differs
  case (.array, .array(let values)):
    let elements = Array(element.elements!)
    guard elements.count == values.count else { return differs }
    for (i, (e, v)) in zip(elements, values).enumerated() {
      if let d = difference(e, v, at: "\(path)[\(i)]") { return d }
    }
    return nil
  case (.object, .object(let object)):
    var byName: [String: [JSONElement]] = [:]
    for member in element.members! { byName[member.key, default: []].append(member.value) }
    guard Set(byName.keys) == Set(object.keys) else { return differs }
    for (name, v) in object where !byName[name]!.contains(where: { difference($0, v) == nil }) {
      return difference(byName[name]!.last!, v, at: "\(path).\(name)")
    }
    return nil
  default:
    return differs
  }
}

/// The cursor's views of `element` agree with one another.
private func check(_ element: JSONElement) {
  switch element.kind {
  case .array:
    let elements = Array(element.elements!)
    require(element.count == elements.count, "array count")
    for (i, e) in elements.enumerated() {
      // Positions cost O(i) each: checked on short arrays only.
      if elements.count <= 64 {
        require(element[i].map { $0.jsonValue == e.jsonValue } == true, "array position \(i)")
      }
      check(e)
    }
    require(element[elements.count] == nil, "past the end")
  case .object:
    let members = Array(element.members!)
    require(element.count == members.count, "object count")
    for member in members {
      // Lookups cost O(m) each: checked on small objects only.
      if members.count <= 64 {
        let last = members.last { $0.name.withUTF8(Array.init) == member.name.withUTF8(Array.init) }!
        require(element[member.key]?.jsonValue == last.value.jsonValue, "lookup of \(member.key)")
      }
      check(member.value)
    }
  case .string:
    require(element.withUTF8(Array.init) == Array(element.stringValue!.utf8), "string bytes")
  case .int:
    require(element.doubleValue == Double(element.intValue!), "int as double")
  default:
    break
  }
}
