/// One step of a change list: applied in order to the previous visible list,
/// a change list gives exactly the new one (as UIKit's `deleteRows` /
/// `insertRows` batch updates).
public struct OutlineChange: Sendable, Equatable, CustomStringConvertible {
  /// What a step does to the visible list.
  public enum Kind: String, Sendable, Equatable {
    /// Removes `count` items starting at `start`.
    case delete
    /// Inserts `count` items so that the first is at `start`.
    case insert
  }

  /// `delete` or `insert` (the wire's `kind`).
  public var kind: Kind
  /// Visible index, in the list as it is when this step applies.
  public var start: Int
  /// Number of items deleted or inserted (≥ 1).
  public var count: Int

  /// A step of `kind` over `count` items from visible index `start`.
  public init(_ kind: Kind, start: Int, count: Int) {
    self.kind = kind
    self.start = start
    self.count = count
  }

  /// `kind(start, count)`, e.g. `insert(3, 2)`, for tests and logs.
  public var description: String { "\(kind.rawValue)(\(start), \(count))" }
}

/// What an expansion change did: the answer to a toggle, an expand-all or a
/// collapse-all (PROTOCOL §4).
public struct ExpansionResult: Sendable, Equatable {
  /// The change list from the previous visible list to the new one.
  public var changes: [OutlineChange] = []
  /// Ids of the groups whose `expanded` changed, hidden ones included.
  public var updatedGroups: [String] = []
  /// The anchored scroll offset, when one was asked for.
  public var scrollTop: Double? = nil

  /// A result with the given members; empty by default (nothing changed).
  public init(changes: [OutlineChange] = [], updatedGroups: [String] = [], scrollTop: Double? = nil) {
    self.changes = changes
    self.updatedGroups = updatedGroups
    self.scrollTop = scrollTop
  }
}

/// An item of the visible list with its place in it.
public struct VisibleItem: Sendable, Equatable {
  /// Item position in document order (see ``OutlineItem``).
  public var position: Int
  /// 0-based index in the visible list.
  public var index: Int
  /// Sum of the heights of the visible items before it.
  public var top: Double
  /// Its height, in the layout's unit.
  public var height: Double
  /// Groups: whether expanded.
  public var expanded: Bool
}

/// Errors of the model's operations.
public enum OutlineError: Error, Equatable, Sendable {
  /// `expandAll` under policy `single`.
  case expandAllUnderSinglePolicy
  /// A section that is not a group: a row position or out of range.
  case notAGroup
}
