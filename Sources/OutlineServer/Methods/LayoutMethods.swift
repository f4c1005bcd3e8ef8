import JSONRPC
import OutlineModel

/// `setLayout`, `rowHeights` (PROTOCOL §5).
extension OutlineServer {
  /// Reads the layout fields of `setLayout` (also `openOutline.layout`); only given fields are set.
  static func layoutOverrides(_ p: Params) throws(ResponseError) -> LayoutOverrides {
    var l = LayoutOverrides()
    l.unit = try p.optionalEnum("unit", LayoutUnit.self)
    l.width = try p.optionalNumber("width", above: 0, max: LayoutLimits.maxLength)
    l.narrowWidth = try p.optionalNumber("narrowWidth", min: 0, max: LayoutLimits.maxLength)
    l.wideWidth = try p.optionalNumber("wideWidth", min: 0, max: LayoutLimits.maxLength)
    l.lineHeight = try p.optionalNumber("lineHeight", min: 0, max: LayoutLimits.maxLength)
    l.headerHeight = try heightSpec(p, "headerHeight")
    l.rowHeight = try heightSpec(p, "rowHeight")
    l.indent = try p.optionalNumber("indent", min: 0, max: LayoutLimits.maxLength)
    if let padding = try p.optionalObject("padding") {
      l.paddingTop = try padding.optionalNumber("top", min: 0, max: LayoutLimits.maxLength)
      l.paddingBottom = try padding.optionalNumber("bottom", min: 0, max: LayoutLimits.maxLength)
      l.paddingLeft = try padding.optionalNumber("left", min: 0, max: LayoutLimits.maxLength)
      l.paddingRight = try padding.optionalNumber("right", min: 0, max: LayoutLimits.maxLength)
    }
    l.maxLines = try p.optionalInt("maxLines", min: 1)
    l.tabSize = try p.optionalInt("tabSize", min: 1)
    return l
  }

  private static func heightSpec(_ p: Params, _ key: String) throws(ResponseError) -> HeightSpec? {
    guard let v = p.value(key) else { return nil }
    if case .string("auto") = v { return .auto }
    guard let d = v.doubleValue, d.isFinite, d >= 0, d <= LayoutLimits.maxLength else {
      throw p.fail(key, "must be a number from 0 to \(Params.format(LayoutLimits.maxLength)) or \"auto\"")
    }
    return .fixed(d)
  }

  func setLayout(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let overrides = try Self.layoutOverrides(p)
    doc.state.setLayout(overrides)
    return .object(["version": .number(doc.state.version), "contentHeight": .number(doc.state.contentHeight)])
  }

  func rowHeights(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let start = try p.optionalInt("start") ?? 0
    let count = min(try p.optionalInt("count") ?? Self.maxRowsPerAnswer, Self.maxRowsPerAnswer)
    if let width = try p.optionalNumber("width", above: 0, max: LayoutLimits.maxLength) {
      var l = LayoutOverrides()
      l.width = width
      doc.state.setLayout(l)
    }
    let items = doc.state.visibleItems(start: start, count: count)
    return .object([
      "version": .number(doc.state.version),
      "heights": .array(items.map { .number($0.height) }),
      "tops": .array(items.map { .number($0.top) }),
      "contentHeight": .number(doc.state.contentHeight),
    ])
  }
}
