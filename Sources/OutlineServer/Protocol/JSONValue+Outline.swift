import JSONRPC
import OutlineModel

extension JSONValue {
  /// A number: integral values as JSON integers, others as doubles.
  static func number(_ d: Double) -> JSONValue {
    d == d.rounded() && abs(d) < 9_007_199_254_740_992 ? .int(Int64(d)) : .double(d)
  }

  static func number(_ i: Int) -> JSONValue { .int(Int64(i)) }

  /// The `data:` of a row, passed through untouched.
  init(_ value: OpaqueValue) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d): self = d.isFinite ? .double(d) : .string(String(d))
    case .string(let s): self = .string(s)
    case .array(let a): self = .array(a.map(JSONValue.init))
    case .object(let o):
      var dict: [String: JSONValue] = [:]
      for (k, v) in o where dict[k] == nil { dict[k] = JSONValue(v) }
      self = .object(dict)
    }
  }
}

extension OutlineChange {
  var jsonValue: JSONValue {
    .object(["kind": .string(kind.rawValue), "start": .number(start), "count": .number(count)])
  }
}

extension Diagnostic {
  /// LSP 3.17 §Diagnostic, with `character` in `encoding`.
  func jsonValue(_ text: SourceText, _ encoding: PositionEncoding) -> JSONValue {
    func position(_ p: SourcePosition) -> JSONValue {
      let lsp = text.lspPosition(p, in: encoding)
      return .object(["line": .number(lsp.line), "character": .number(lsp.character)])
    }
    return .object([
      "range": .object(["start": position(range.start), "end": position(range.end)]),
      "severity": .number(severity.rawValue),
      "code": .string(code),
      "message": .string(message),
      "source": .string("outline"),
    ])
  }
}
