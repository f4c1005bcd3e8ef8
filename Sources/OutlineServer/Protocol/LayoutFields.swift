import JSONRPC
import OutlineModel

/// Reads the layout fields of `setLayout` and `openOutline.layout` (PROTOCOL
/// §5) through the one table of ``OutlineModel/LayoutField/all``, which the
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
        if case .string("auto") = v {
          l[keyPath: path] = .auto
        } else if let d = v.doubleValue, LayoutField.acceptsHeight(d) {
          l[keyPath: path] = .fixed(d)
        } else {
          throw p.fail(name, "must be a number from 0 to \(ParamsReader.format(LayoutLimits.maxLength)) or \"auto\"")
        }
      case .fields(let inner):
        if let object = try p.optionalObject(name) { try read(inner, from: object, into: &l) }
      }
    }
  }
}
