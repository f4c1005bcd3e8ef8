/// The unit of a ``Layout``: terminal cells, pixels with two advances, or
/// pixels of a real font (PROTOCOL §5, §10).
public enum LayoutUnit: String, Sendable, Equatable, CaseIterable {
  /// Terminal cells: a narrow character is 1, a wide one 2 by default.
  case cell
  /// Pixels: ``Layout/narrowWidth`` and ``Layout/wideWidth`` are the advances of a narrow and
  /// a wide character.
  case px
  /// Pixels of the text shaped with ``Layout/font`` (PROTOCOL §10); `narrowWidth` and
  /// `wideWidth` are not used, `lineHeight` must be given.
  case font
}

/// The slant of a ``FontDescription``, as CSS `font-style` names it.
public enum FontStyle: String, Sendable, Equatable, CaseIterable {
  /// Upright.
  case normal
  /// Italic (or oblique when the family has no italic).
  case italic
}

/// The font a layout in unit `font` measures with (PROTOCOL §10): families
/// tried in order as CSS `font-family` does, at a size in px.
public struct FontDescription: Sendable, Hashable {
  /// Family names in order of preference, e.g. `["Noto Sans", "Noto Sans CJK SC"]`;
  /// never empty. A character none of them has takes the system's fallback for it.
  public var families: [String]
  /// The font size in px (CSS `font-size`), > 0.
  public var size: Double
  /// The weight, 100–900 (CSS `font-weight`); 400 is regular, 700 bold.
  public var weight: Int
  /// `normal` or `italic`.
  public var style: FontStyle

  /// A font description; weight 400 and style `normal` by default.
  public init(families: [String], size: Double, weight: Int = 400, style: FontStyle = .normal) {
    self.families = families
    self.size = size
    self.weight = weight
    self.style = style
  }

  /// The weights accepted: CSS's absolute range.
  public static let weights: ClosedRange<Int> = 100...900

  /// Whether `size` is a font size a layout accepts: more than 0 px and at
  /// most ``LayoutLimits/maxFontSize``.
  public static func acceptsSize(_ size: Double) -> Bool {
    size.isFinite && size > 0 && size <= LayoutLimits.maxFontSize
  }
}

/// A header or row height: a fixed number in the layout's unit, or `auto`
/// (measured from the wrapped text).
public enum HeightSpec: Sendable, Equatable {
  /// This height, in the layout's unit, whatever the text.
  case fixed(Double)
  /// Measured: padding plus `lineHeight` × the wrapped lines (PROTOCOL §5).
  case auto
}

/// Padding around a row's text, in the layout's unit.
public struct Padding: Sendable, Equatable {
  /// Space above the text, added to an `auto` height.
  public var top: Double
  /// Space below the text, added to an `auto` height.
  public var bottom: Double
  /// Space before the text, taken from the wrap width.
  public var left: Double
  /// Space after the text, taken from the wrap width.
  public var right: Double

  /// Padding with the given sides, in the layout's unit; 0 by default (PROTOCOL §5).
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
  /// The largest `maxLines` or `tabSize` accepted.
  public static let maxInteger: Int64 = Int64(Int32.max)
  /// The largest font size accepted, in px (unit `font`).
  public static let maxFontSize: Double = 10_000
}

/// Everything that decides row heights (PROTOCOL §5), with the contract's defaults.
public struct Layout: Sendable, Equatable {
  /// The unit of every length below: `cell` (default), `px` or `font` (px).
  public var unit: LayoutUnit = .cell
  /// Width of the pane, in `unit`.
  public var width: Double = 80
  /// Advance of a narrow cluster, in `unit`.
  public var narrowWidth: Double = 1
  /// Advance of a wide cluster (East Asian Width W/F, emoji), in `unit`.
  public var wideWidth: Double = 2
  /// Height of one line of text, in `unit`.
  public var lineHeight: Double = 1
  /// Height of a group's header; `auto` measures the title only. Default: fixed 1.
  public var headerHeight: HeightSpec = .fixed(1)
  /// Height of a row; `auto` measures its title and detail. Default: `auto`.
  public var rowHeight: HeightSpec = .auto
  /// Indent per depth, in `unit`.
  public var indent: Double = 2
  /// Padding around an item's text, in `unit`; 0 on every side by default.
  public var padding: Padding = Padding()
  /// Caps the lines of each text (title, detail); `nil` = no cap.
  public var maxLines: Int? = nil
  /// A tab advances to the next multiple of `tabSize × narrowWidth` (in unit `font`,
  /// of `tabSize` spaces).
  public var tabSize: Int = 8
  /// The font of unit `font`; `nil` until a layout names one.
  public var font: FontDescription? = nil

  /// The contract's defaults: 80 cells wide, narrow 1, wide 2, line 1, header 1, rows `auto`,
  /// indent 2, no padding, no line cap, tab size 8 (PROTOCOL §5).
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
    if let v = overrides.font { l.font = v }
    return l
  }
}

/// A partial ``Layout``: the fields a file's `layout:`, an `openOutline`
/// `layout` or a `setLayout` names. `nil` = not given.
public struct LayoutOverrides: Sendable, Equatable {
  /// `unit`: `cell`, `px` or `font`.
  public var unit: LayoutUnit?
  /// `width` of the pane, in the layout's unit.
  public var width: Double?
  /// `narrowWidth`: the advance of a narrow cluster, in the layout's unit.
  public var narrowWidth: Double?
  /// `wideWidth`: the advance of a wide cluster, in the layout's unit.
  public var wideWidth: Double?
  /// `lineHeight`: the height of one line of text, in the layout's unit.
  public var lineHeight: Double?
  /// `headerHeight`: a number or `auto`.
  public var headerHeight: HeightSpec?
  /// `rowHeight`: a number or `auto`.
  public var rowHeight: HeightSpec?
  /// `indent` per depth, in the layout's unit.
  public var indent: Double?
  /// `padding.top`, in the layout's unit.
  public var paddingTop: Double?
  /// `padding.bottom`, in the layout's unit.
  public var paddingBottom: Double?
  /// `padding.left`, in the layout's unit.
  public var paddingLeft: Double?
  /// `padding.right`, in the layout's unit.
  public var paddingRight: Double?
  /// `maxLines`; a given `nil` cannot be expressed here (no cap is the default).
  public var maxLines: Int?
  /// `tabSize`, in narrow advances.
  public var tabSize: Int?
  /// `font`: the whole font description of unit `font`.
  public var font: FontDescription?

  /// No field given.
  public init() {}

  /// The field a layout in unit `font` lacks, if any: `font` when no font is
  /// given, else `lineHeight` when it is still the default (PROTOCOL §10:
  /// browsers' `normal` line height varies with the fonts a line uses).
  /// `nil` in other units. Ask it of the merged overrides (file, then host).
  public var missingFontField: String? {
    guard unit == .font else { return nil }
    if font == nil { return "font" }
    if lineHeight == nil { return "lineHeight" }
    return nil
  }

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
    if let v = later.font { m.font = v }
    return m
  }
}
