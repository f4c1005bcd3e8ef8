import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// `order:` (PROTOCOL §3): rows sorted per group, inherited by subgroups.
@Suite struct OrderTests {
  func titles(_ s: InProcessServer) -> [String] {
    (s.result("visibleRows", ["uri": "mem:o"])["rows"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
  }

  static func yaml(bobActive: Bool) -> String {
    """
    groups:
      - title: Friends
        expanded: true
        order: activeFirst
        groups:
          - title: Sorted
            expanded: true
            order: title
            rows: [{title: item 10}, {title: Item 9}, {title: apple}, {title: item 9}]
          - title: Inherits
            expanded: true
            rows: [{title: x, active: false}, {title: y}]
        rows:
          - {id: ann, title: Ann, active: false}
          - {id: bob, title: Bob, active: \(bobActive)}
          - {id: cat, title: Cat}
    """
  }

  @Test func activeFirstAndTitleOrders() throws {
    let s = try InProcessServer()
    s.initialize()
    _ = s.result("openOutline", ["uri": "mem:o", "text": .string(Self.yaml(bobActive: false))])
    // As localizedStandardCompare orders them: digits by value; titles that differ only
    // in case are not equal to it (lowercase first), so stability does not apply there.
    #expect("item 9".localizedStandardCompare("Item 9") == .orderedAscending)
    #expect(
      titles(s) == [
        "Friends", "Sorted", "apple", "item 9", "Item 9", "item 10", "Inherits", "y", "x", "Cat", "Ann", "Bob",
      ])
    let rows = s.result("visibleRows", ["uri": "mem:o"])["rows"]?.arrayValue ?? []
    #expect(rows.last?["isLastChild"] == true)
    #expect(rows.last?["id"] == "bob")
  }

  @Test func aRowWhoseActiveFlipsIsMovedByTheChangeList() throws {
    let s = try InProcessServer()
    s.initialize()
    _ = s.result("openOutline", ["uri": "mem:o", "text": .string(Self.yaml(bobActive: false))])
    let before = titles(s)
    let r = s.result("changeOutline", ["uri": "mem:o", "text": .string(Self.yaml(bobActive: true))])
    #expect(r["applied"] == true)
    let after = titles(s)
    #expect(Array(after.suffix(3)) == ["Bob", "Cat", "Ann"])
    // Replaying the changes on the old list gives the new one.
    var list = before
    for c in r["changes"]?.arrayValue ?? [] {
      let start = Int(c["start"]?.intValue ?? 0)
      let count = Int(c["count"]?.intValue ?? 0)
      if c["kind"] == "delete" {
        list.removeSubrange(start..<(start + count))
      } else {
        list.insert(contentsOf: after[start..<(start + count)], at: start)
      }
    }
    #expect(list == after)
  }
}
