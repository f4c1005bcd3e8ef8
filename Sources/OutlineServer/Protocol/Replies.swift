import JSONRPC
import OutlineModel

/// What a change to the expansion answers (PROTOCOL §4 `toggleSection`'s
/// result shape, shared by `expandAll`, `collapseAll`, `filterOutline`,
/// `setViewState`, the keys of `navigate` that toggle, and `revealItem`):
/// `{version, changes, updatedGroups, total, contentHeight, id?, expanded?, scrollTop?}`.
struct ExpansionReply: JSONWritable {
  /// Whether and how the result names the group targeted.
  enum Target: Sendable {
    /// No `id` (filterOutline, setViewState, expandSiblings).
    case absent
    /// `id: null`: no one group is targeted (expandAll, collapseAll).
    case none
    /// `id` of the item targeted: the group toggled, or the item revealed.
    case item(String)
  }

  /// The outline's version after the change.
  var version: Int
  /// Deletes and inserts that turn the old visible list into the new one.
  var changes: [OutlineChange]
  /// Ids of the groups whose `expanded` changed.
  var updatedGroups: [String]
  /// Length of the new visible list.
  var total: Int
  /// Sum of the visible heights, in the layout's unit.
  var contentHeight: Double
  /// The group targeted.
  var target: Target = .absent
  /// The targeted group's `expanded` after the change; absent when `nil`.
  var expanded: Bool? = nil
  /// The anchored scroll offset, when `scrollTop` was given.
  var scrollTop: Double?

  /// The reply for `result` on `state` (after the change).
  init(_ result: ExpansionResult, _ state: OutlineState, target: Target = .absent, expanded: Bool? = nil) {
    version = state.version
    changes = result.changes
    updatedGroups = result.updatedGroups
    total = state.total
    contentHeight = state.contentHeight
    self.target = target
    self.expanded = expanded
    scrollTop = result.scrollTop
  }

  /// Writes the members without the braces, so a larger result can add its own.
  func writeMembers(to json: inout JSONWriter) {
    json.member("version", version)
    json.member("changes", changes)
    json.member("updatedGroups", updatedGroups)
    json.member("total", total)
    json.member("contentHeight", contentHeight)
    switch target {
    case .absent: break
    case .none:
      json.key("id")
      json.null()
    case .item(let id): json.member("id", id)
    }
    json.member("expanded", ifPresent: expanded)
    json.member("scrollTop", ifPresent: scrollTop)
  }

  func write(to json: inout JSONWriter) {
    json.object { json in writeMembers(to: &json) }
  }
}

extension OutlineChange: JSONWritable {
  /// `{kind: "delete" | "insert", start, count}` (PROTOCOL §4).
  public func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("kind", kind.rawValue)
      json.member("start", start)
      json.member("count", count)
    }
  }
}

/// A diagnostic as LSP writes it (LSP 3.17 §Diagnostic): `{range: {start:
/// {line, character}, end}, severity, code, message, source: "outline"}`,
/// 0-based lines, `character` in the negotiated position encoding.
struct LSPDiagnostic: JSONWritable, Sendable {
  var start: (line: Int, character: Int)
  var end: (line: Int, character: Int)
  /// 1 error, 2 warning.
  var severity: Int
  var code: String
  var message: String

  /// `diagnostic` with its positions converted in `text` to `encoding`.
  init(_ diagnostic: Diagnostic, in text: SourceText, _ encoding: PositionEncoding) {
    let s = text.lspPosition(diagnostic.range.start, in: encoding)
    let e = text.lspPosition(diagnostic.range.end, in: encoding)
    start = (s.line, s.character)
    end = (e.line, e.character)
    severity = diagnostic.severity.rawValue
    code = diagnostic.code
    message = diagnostic.message
  }

  func write(to json: inout JSONWriter) {
    json.object { json in
      json.key("range")
      json.object { json in
        json.key("start")
        json.object { json in
          json.member("line", start.line)
          json.member("character", start.character)
        }
        json.key("end")
        json.object { json in
          json.member("line", end.line)
          json.member("character", end.character)
        }
      }
      json.member("severity", severity)
      json.member("code", code)
      json.member("message", message)
      json.member("source", "outline")
    }
  }

  /// The same, as a value (for `error.data`, which is rare).
  var jsonValue: JSONValue {
    func position(_ p: (line: Int, character: Int)) -> JSONValue {
      .object(["line": .int(Int64(p.line)), "character": .int(Int64(p.character))])
    }
    return .object([
      "range": .object(["start": position(start), "end": position(end)]), "severity": .int(Int64(severity)),
      "code": .string(code), "message": .string(message), "source": "outline",
    ])
  }
}

extension OpaqueValue: JSONWritable {
  /// A row's `data:`, passed through untouched (a repeated key keeps its
  /// first value, a non-finite number becomes its text).
  public func write(to json: inout JSONWriter) {
    switch self {
    case .null: json.null()
    case .bool(let b): json.value(b)
    case .int(let i): json.value(i)
    case .double(let d): if d.isFinite { json.value(d) } else { json.value(String(d)) }
    case .string(let s): json.value(s)
    case .array(let a): json.array(a)
    case .object(let pairs):
      json.object { json in
        var seen = Set<String>()
        for (k, v) in pairs where seen.insert(k).inserted {
          json.key(named: k)
          v.write(to: &json)
        }
      }
    }
  }
}

extension LSPPosition: JSONWritable {
  /// `{line, character}` (LSP 3.17 §Position).
  public func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("line", line)
      json.member("character", character)
    }
  }
}

extension LSPRange: JSONWritable {
  /// `{start: {line, character}, end: {line, character}}` (LSP 3.17 §Range).
  public func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("start", start)
      json.member("end", end)
    }
  }
}
