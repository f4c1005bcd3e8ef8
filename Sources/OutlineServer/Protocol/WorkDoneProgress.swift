import JSONRPC

/// Reports the progress of a long request that carried a `workDoneToken`
/// with `$/progress` notifications (LSP 3.17 §Work Done Progress:
/// `begin`, `report` with a percentage, `end`).
struct WorkDoneProgress {
  let token: JSONValue
  let title: String
  let send: (@Sendable (String, JSONValue) -> Void)?

  private func notify(_ value: [String: JSONValue]) {
    send?("$/progress", .object(["token": token, "value": .object(value)]))
  }

  func begin() {
    notify(["kind": "begin", "title": .string(title), "percentage": 0, "cancellable": true])
  }

  /// - Parameter fraction: done so far, 0...1.
  func report(_ fraction: Double) {
    notify(["kind": "report", "percentage": .int(Int64(min(100, max(0, fraction * 100)).rounded(.down)))])
  }

  func end() {
    notify(["kind": "end"])
  }
}
