import JSONRPC

/// Reports the progress of a long request that carried a `workDoneToken`
/// with `$/progress` notifications (LSP 3.17 §Work Done Progress:
/// `{token, value: {kind: "begin" | "report" | "end", …}}`).
struct WorkDoneProgress {
  /// The request's `workDoneToken`, as sent (a string or an integer).
  let token: JSONValue
  /// The `begin`'s title.
  let title: String
  let send: (@Sendable (String, any JSONWritable) -> Void)?

  /// The params of one `$/progress`.
  private struct Params: JSONWritable {
    enum Value {
      case begin(title: String)
      case report(percentage: Int)
      case end
    }
    var token: JSONValue
    var value: Value

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("token", token)
        json.key("value")
        json.object { json in
          switch value {
          case .begin(let title):
            json.member("kind", "begin")
            json.member("title", title)
            json.member("percentage", 0)
            json.member("cancellable", true)
          case .report(let percentage):
            json.member("kind", "report")
            json.member("percentage", percentage)
          case .end:
            json.member("kind", "end")
          }
        }
      }
    }
  }

  private func notify(_ value: Params.Value) {
    send?("$/progress", Params(token: token, value: value))
  }

  /// `begin`, with `percentage: 0` and `cancellable: true`.
  func begin() { notify(.begin(title: title)) }

  /// `report` with the percentage done, rounded down.
  /// - Parameter fraction: done so far, 0...1.
  func report(_ fraction: Double) {
    notify(.report(percentage: Int(min(100, max(0, fraction * 100)).rounded(.down))))
  }

  /// `end`.
  func end() { notify(.end) }
}
