import Foundation

extension IncomingMessage {
  /// Decodes `params` as `T` (through `JSONDecoder`); absent or `null` params decode as `{}`.
  ///
  /// The one place where decoding failures become `-32602` (JSON-RPC 2.0 §5.1), with a
  /// message naming the field: `missing field "uri"`, `field "viewport.top": expected a
  /// number`, `field "start" must not be null`; params of the wrong kind (an array where
  /// named params are expected) give `params must be an object`.
  ///
  /// - Throws: ``ResponseError`` with ``ErrorCode/invalidParams``.
  public func decodeParams<T: Decodable>(_ type: T.Type = T.self) throws(ResponseError) -> T {
    do {
      return try (params?.jsonValue ?? .object([:])).decode(T.self)
    } catch let error as DecodingError {
      throw ResponseError.invalidParams(Self.describe(error))
    } catch {
      throw ResponseError.invalidParams("invalid params: \(error)")
    }
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "missing field \"\(path(context.codingPath + [key]))\""
    case .typeMismatch(let type, let context):
      if context.codingPath.isEmpty { return "params must be an object" }
      return "field \"\(path(context.codingPath))\": expected \(kind(type))"
    case .valueNotFound(_, let context):
      return "field \"\(path(context.codingPath))\" must not be null"
    case .dataCorrupted(let context):
      return "field \"\(path(context.codingPath))\": \(context.debugDescription)"
    @unknown default:
      return "invalid params"
    }
  }

  private static func kind(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "a boolean"
    case is any BinaryInteger.Type: return "an integer"
    case is any BinaryFloatingPoint.Type: return "a number"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array") { return "an array" }
      if name.hasPrefix("Dictionary") { return "an object" }
      return name
    }
  }
}
