/// The unit of a ``Layout``: terminal cells or pixels (PROTOCOL §5).
public enum LayoutUnit: String, Sendable, Equatable, CaseIterable {
  case cell
  case px
}

/// A header or row height: a fixed number in the layout's unit, or `auto`
/// (measured from the wrapped text).
public enum HeightSpec: Sendable, Equatable {
  case fixed(Double)
  case auto
}

/// Padding around a row's text, in the layout's unit.
public struct Padding: Sendable, Equatable {
  public var top: Double
  public var bottom: Double
  public var left: Double
  public var right: Double

  public init(top: Double = 0, bottom: Double = 0, left: Double = 0, right: Double = 0) {
    self.top = top
    self.bottom = bottom
    self.left = left
    self.right = right
  }
}

/// Bounds on layout values, so that every height and offset stays a finite number.
public enum LayoutLimits {
  /// The largest width, advance, line height, height, indent or padding accepted, in the layout's unit.
  public static let maxLength: Double = 1_000_000
}

/// Everything that decides row heights (PROTOCOL §5), with the contract's defaults.
public struct Layout: Sendable, Equatable {
  public var unit: LayoutUnit = .cell
  /// Width of the pane, in `unit`.
  public var width: Double = 80
  /// Advance of a narrow cluster, in `unit`.
  public var narrowWidth: Double = 1
  /// Advance of a wide cluster (East Asian Width W/F, emoji), in `unit`.
  public var wideWidth: Double = 2
  /// Height of one line of text, in `unit`.
  public var lineHeight: Double = 1
  public var headerHeight: HeightSpec = .fixed(1)
  public var rowHeight: HeightSpec = .auto
  /// Indent per depth, in `unit`.
  public var indent: Double = 2
  public var padding: Padding = Padding()
  /// Caps the lines of each text (title, detail); `nil` = no cap.
  public var maxLines: Int? = nil
  /// A tab advances to the next multiple of `tabSize × narrowWidth`.
  public var tabSize: Int = 8

  public init() {}

  /// Returns this layout with every field that `overrides` sets replaced.
  public func applying(_ overrides: LayoutOverrides) -> Layout {
    var l = self
    if let v = overrides.unit { l.unit = v }
    if let v = overrides.width { l.width = v }
    if let v = overrides.narrowWidth { l.narrowWidth = v }
    if let v = overrides.wideWidth { l.wideWidth = v }
    if let v = overrides.lineHeight { l.lineHeight = v }
    if let v = overrides.headerHeight { l.headerHeight = v }
    if let v = overrides.rowHeight { l.rowHeight = v }
    if let v = overrides.indent { l.indent = v }
    if let v = overrides.paddingTop { l.padding.top = v }
    if let v = overrides.paddingBottom { l.padding.bottom = v }
    if let v = overrides.paddingLeft { l.padding.left = v }
    if let v = overrides.paddingRight { l.padding.right = v }
    if let v = overrides.maxLines { l.maxLines = v }
    if let v = overrides.tabSize { l.tabSize = v }
    return l
  }
}

/// A partial ``Layout``: the fields a file's `layout:`, an `openOutline`
/// `layout` or a `setLayout` names. `nil` = not given.
public struct LayoutOverrides: Sendable, Equatable {
  public var unit: LayoutUnit?
  public var width: Double?
  public var narrowWidth: Double?
  public var wideWidth: Double?
  public var lineHeight: Double?
  public var headerHeight: HeightSpec?
  public var rowHeight: HeightSpec?
  public var indent: Double?
  public var paddingTop: Double?
  public var paddingBottom: Double?
  public var paddingLeft: Double?
  public var paddingRight: Double?
  /// `maxLines`; a given `nil` cannot be expressed here (no cap is the default).
  public var maxLines: Int?
  public var tabSize: Int?

  public init() {}

  /// Returns these overrides with every field that `later` sets replaced
  /// (file `layout` < `openOutline.layout` < `setLayout`).
  public func merged(with later: LayoutOverrides) -> LayoutOverrides {
    var m = self
    if let v = later.unit { m.unit = v }
    if let v = later.width { m.width = v }
    if let v = later.narrowWidth { m.narrowWidth = v }
    if let v = later.wideWidth { m.wideWidth = v }
    if let v = later.lineHeight { m.lineHeight = v }
    if let v = later.headerHeight { m.headerHeight = v }
    if let v = later.rowHeight { m.rowHeight = v }
    if let v = later.indent { m.indent = v }
    if let v = later.paddingTop { m.paddingTop = v }
    if let v = later.paddingBottom { m.paddingBottom = v }
    if let v = later.paddingLeft { m.paddingLeft = v }
    if let v = later.paddingRight { m.paddingRight = v }
    if let v = later.maxLines { m.maxLines = v }
    if let v = later.tabSize { m.tabSize = v }
    return m
  }
}
