import JSONRPC
import OutlineModel

/// Reads the layout fields of `setLayout` and `openOutline.layout` (PROTOCOL
/// §5, §10) through the one table of ``OutlineModel/LayoutField/all``, which the
/// YAML loader reads a file's `layout:` through too.
enum LayoutFields {
  /// The fields `p` gives; only those are set.
  /// - Throws: `-32602` naming the field (`"padding.top" must be ≥ 0`).
  static func read(_ p: ParamsReader) throws(ResponseError) -> LayoutOverrides {
    var l = LayoutOverrides()
    try read(LayoutField.all, from: p, into: &l)
    return l
  }

  private static func read(_ fields: [LayoutField], from p: ParamsReader, into l: inout LayoutOverrides)
    throws(ResponseError)
  {
    for field in fields {
      let name = field.name
      switch field.kind {
      case .unit:
        l.unit = try p.optionalEnum(name, LayoutUnit.self)
      case .length(let path, let minimum, let strict):
        l[keyPath: path] = try p.optionalNumber(
          name, min: strict ? nil : minimum, above: strict ? minimum : nil, max: LayoutLimits.maxLength)
      case .integer(let path, let minimum):
        l[keyPath: path] = try p.optionalInt(name, min: minimum, max: LayoutLimits.maxInteger)
      case .height(let path):
        guard let v = p.value(name) else { continue }
        if v.isString("auto") {
          l[keyPath: path] = .auto
        } else if let d = v.doubleValue, LayoutField.acceptsHeight(d) {
          l[keyPath: path] = .fixed(d)
        } else {
          throw p.fail(name, "must be a number from 0 to \(ParamsReader.format(LayoutLimits.maxLength)) or \"auto\"")
        }
      case .fields(let inner):
        if let object = try p.optionalObject(name) { try read(inner, from: object, into: &l) }
      case .font:
        l.font = try font(p, name)
      }
    }
  }

  /// Reads `font: {family: [string], size, weight?, style?}` (PROTOCOL §10)
  /// into the model's font description; `nil` when the field is absent.
  /// - Throws: `-32602` naming `font`, `font.family`, `font.family[i]`,
  ///   `font.size`, `font.weight` or `font.style`.
  static func font(_ p: ParamsReader, _ name: String) throws(ResponseError) -> FontDescription? {
    guard let font = try p.optionalObject(name) else { return nil }
    guard let family = font.value("family") else { throw font.fail("family", "is missing") }
    guard let names = family.elements, names.count > 0 else {
      throw font.fail("family", "must be a non-empty array of family names")
    }
    var families: [String] = []
    for (i, item) in names.enumerated() {
      guard let s = item.stringValue, s.contains(where: { !$0.isWhitespace }) else {
        throw font.fail("family[\(i)]", "must be a family name (a non-empty string)")
      }
      families.append(s)
    }
    guard font.has("size") else { throw font.fail("size", "is missing") }
    let size = try font.number("size")
    guard FontDescription.acceptsSize(size) else {
      throw font.fail("size", "must be > 0 and ≤ \(ParamsReader.format(LayoutLimits.maxFontSize))")
    }
    let weights = FontDescription.weights
    let weight = try font.optionalInt("weight", min: weights.lowerBound, max: Int64(weights.upperBound)) ?? 400
    let style = try font.optionalEnum("style", FontStyle.self) ?? .normal
    return FontDescription(families: families, size: size, weight: weight, style: style)
  }

  /// Refuses a layout in unit `font` that lacks `font` or `lineHeight` once
  /// the fields given are merged over the file's and the host's (PROTOCOL §10).
  /// - Throws: `-32602` naming the missing field.
  static func checkFont(_ merged: LayoutOverrides) throws(ResponseError) {
    if let field = merged.missingFontField {
      throw .invalidParams("\"\(field)\" must be given in unit \"font\"")
    }
  }
}
