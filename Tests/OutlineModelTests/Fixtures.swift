import OutlineModel

/// Small outlines for the model's tests.
enum Fixtures {
  static func row(_ title: String, id: String? = nil, detail: String? = nil, active: Bool = true) -> RowSpec {
    RowSpec(id: id, title: title, detail: detail, active: active)
  }

  static func group(
    _ title: String, id: String? = nil, expanded: Bool? = nil, order: RowOrder? = nil, groups: [GroupSpec] = [],
    rows: [RowSpec] = []
  ) -> GroupSpec {
    GroupSpec(id: id, title: title, expanded: expanded, order: order, groups: groups, rows: rows)
  }

  /// Friends (3 rows, 2 active), Family (subgroup Cousins with 2 rows, then 1 row), Work (empty).
  static var contacts: OutlineDocument {
    OutlineDocument(groups: [
      group(
        "Friends", id: "friends",
        rows: [row("Alice", id: "alice"), row("Bob", id: "bob", active: false), row("Carol", id: "carol")]),
      group(
        "Family", id: "family", groups: [group("Cousins", id: "cousins", rows: [row("Dan"), row("Eve")])],
        rows: [row("Mum", id: "mum")]),
      group("Work", id: "work"),
    ])
  }

  /// A generated outline: `groups` top-level groups of `rowsPerGroup` rows,
  /// every `nestEvery`-th group holding a subgroup of its own.
  static func generated(groups: Int, rowsPerGroup: Int, nestEvery: Int = 3, seed: UInt64 = 1) -> OutlineDocument {
    var rng = SplitMix(seed: seed)
    var result: [GroupSpec] = []
    for g in 0..<groups {
      var subgroups: [GroupSpec] = []
      if g % nestEvery == 0 {
        subgroups.append(
          group(
            "Sub \(g)", id: "s\(g)", expanded: rng.next() % 2 == 0,
            rows: (0..<2).map { row("s\(g)r\($0)", id: "s\(g)r\($0)") }))
      }
      result.append(
        group(
          "Group \(g)", id: "g\(g)", expanded: rng.next() % 2 == 0, groups: subgroups,
          rows: (0..<rowsPerGroup).map { row("r\(g).\($0)", id: "g\(g)r\($0)", active: rng.next() % 3 != 0) }))
    }
    return OutlineDocument(groups: result)
  }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
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

/// The visible list computed the slow, obvious way: a walk of the whole outline.
func referenceVisibleList(_ state: OutlineState) -> [Int] {
  var result: [Int] = []
  var p = 0
  let items = state.outline.items
  while p < items.count {
    result.append(p)
    p = items[p].isGroup && !state.isExpanded(p) ? items[p].end : p + 1
  }
  return result
}

/// Applies a change list to a list of item positions, taking inserted items from `new`.
func replay(_ changes: [OutlineChange], on old: [Int], new: [Int]) -> [Int] {
  var list = old
  for c in changes {
    switch c.kind {
    case .delete:
      list.removeSubrange(c.start..<(c.start + c.count))
    case .insert:
      list.insert(contentsOf: new[c.start..<(c.start + c.count)], at: c.start)
    }
  }
  return list
}
