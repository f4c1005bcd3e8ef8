/// One field of a layout (PROTOCOL §5) as a file's `layout:`, `openOutline`'s
/// `layout` and `setLayout` name it: its name, what it holds, its bounds, and
/// where it goes in ``LayoutOverrides``.
///
/// ``all`` is the one table both readers go through (the YAML loader and the
/// server's params), so the two cannot drift apart.
public struct LayoutField: Sendable {
  /// What a field holds, with its bounds and its place in ``LayoutOverrides``.
  public enum Kind: Sendable {
    /// A number from `minimum` (excluded when `strict`) to ``LayoutLimits/maxLength``,
    /// in the layout's unit.
    case length(WritableKeyPath<LayoutOverrides, Double?> & Sendable, minimum: Double, strict: Bool)
    /// An integer from `minimum` to ``LayoutLimits/maxInteger``.
    case integer(WritableKeyPath<LayoutOverrides, Int?> & Sendable, minimum: Int)
    /// A number from 0 to ``LayoutLimits/maxLength``, or `auto`.
    case height(WritableKeyPath<LayoutOverrides, HeightSpec?> & Sendable)
    /// `cell`, `px` or `font` (``LayoutUnit``).
    case unit
    /// A font (PROTOCOL §10): a mapping `{family: [string], size, weight?,
    /// style?}` read whole into ``LayoutOverrides/font``; see ``FontDescription``
    /// for the bounds (``FontDescription/acceptsSize(_:)``, ``FontDescription/weights``).
    case font
    /// A mapping of more fields: ``LayoutField/padding``.
    case fields([LayoutField])
  }

  /// The key, e.g. `width`.
  public let name: String
  /// What it holds.
  public let kind: Kind

  /// The fields of a layout, in the order PROTOCOL §5 lists them, then §10's `font`.
  public static let all: [LayoutField] = [
    LayoutField(name: "unit", kind: .unit),
    LayoutField(name: "width", kind: .length(\.width, minimum: 0, strict: true)),
    LayoutField(name: "narrowWidth", kind: .length(\.narrowWidth, minimum: 0, strict: false)),
    LayoutField(name: "wideWidth", kind: .length(\.wideWidth, minimum: 0, strict: false)),
    LayoutField(name: "lineHeight", kind: .length(\.lineHeight, minimum: 0, strict: false)),
    LayoutField(name: "headerHeight", kind: .height(\.headerHeight)),
    LayoutField(name: "rowHeight", kind: .height(\.rowHeight)),
    LayoutField(name: "indent", kind: .length(\.indent, minimum: 0, strict: false)),
    LayoutField(name: "padding", kind: .fields(padding)),
    LayoutField(name: "maxLines", kind: .integer(\.maxLines, minimum: 1)),
    LayoutField(name: "tabSize", kind: .integer(\.tabSize, minimum: 1)),
    LayoutField(name: "font", kind: .font),
  ]

  /// The sides of `padding`, each a length ≥ 0.
  public static let padding: [LayoutField] = [
    LayoutField(name: "top", kind: .length(\.paddingTop, minimum: 0, strict: false)),
    LayoutField(name: "bottom", kind: .length(\.paddingBottom, minimum: 0, strict: false)),
    LayoutField(name: "left", kind: .length(\.paddingLeft, minimum: 0, strict: false)),
    LayoutField(name: "right", kind: .length(\.paddingRight, minimum: 0, strict: false)),
  ]

  /// Whether `value` is within a length field's bounds.
  public static func accepts(_ value: Double, minimum: Double, strict: Bool) -> Bool {
    value.isFinite && (strict ? value > minimum : value >= minimum) && value <= LayoutLimits.maxLength
  }

  /// Whether `value` is within an integer field's bounds.
  public static func accepts(_ value: Int64, minimum: Int) -> Bool {
    value >= minimum && value <= LayoutLimits.maxInteger
  }

  /// Whether `value` is a fixed height within bounds.
  public static func acceptsHeight(_ value: Double) -> Bool {
    value.isFinite && value >= 0 && value <= LayoutLimits.maxLength
  }
}
