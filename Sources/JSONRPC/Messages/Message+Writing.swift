/// Writing outgoing messages straight into a ``JSONWriter``, with no ``JSONValue`` tree for the
/// envelope (JSON-RPC 2.0 §4, §5). The members are in the order ``responseObject(id:result:)``,
/// ``notificationObject(method:params:)`` and ``requestObject(id:method:params:)`` write them
/// (sorted by name), so both paths give the same bytes.
extension Message {
  /// Writes a response carrying a result: `{"id":…,"jsonrpc":"2.0","result":…}`.
  ///
  /// - Parameters:
  ///   - id: the request's id; `nil` is written `null`.
  ///   - result: the result, written by its ``JSONWritable`` conformance.
  ///   - json: the writer, at a place where a value may go.
  /// - Complexity: O(1) plus what `result` writes.
  public static func writeResponse(id: RequestID?, result: some JSONWritable, to json: inout JSONWriter) {
    json.beginObject()
    json.member("id", id)
    json.member("jsonrpc", "2.0")
    json.key("result")
    result.write(to: &json)
    json.endObject()
  }

  /// Writes a response carrying an error: `{"id":…,"jsonrpc":"2.0","error":{"code":…,"data":…,"message":…}}`
  /// (`data` only when present).
  ///
  /// - Parameters:
  ///   - id: the request's id; `nil` (the id could not be read) is written `null`.
  ///   - error: the error object.
  ///   - json: the writer, at a place where a value may go.
  /// - Complexity: O(1) plus the size of the error.
  public static func writeResponse(id: RequestID?, error: ResponseError, to json: inout JSONWriter) {
    json.beginObject()
    json.member("error", error)
    json.member("id", id)
    json.member("jsonrpc", "2.0")
    json.endObject()
  }

  /// Writes a notification: `{"jsonrpc":"2.0","method":…,"params":…}` (JSON-RPC 2.0 §4.1).
  ///
  /// - Parameters:
  ///   - method: e.g. `$/progress`.
  ///   - params: an object or an array (a typed params struct, or a ``JSONValue``).
  ///   - json: the writer, at a place where a value may go.
  /// - Complexity: O(1) plus what `params` writes.
  public static func writeNotification(method: String, params: some JSONWritable, to json: inout JSONWriter) {
    json.beginObject()
    json.member("jsonrpc", "2.0")
    json.member("method", method)
    json.key("params")
    params.write(to: &json)
    json.endObject()
  }

  /// Writes a notification without params: `{"jsonrpc":"2.0","method":…}`.
  ///
  /// - Complexity: O(n) in the length of `method`.
  public static func writeNotification(method: String, to json: inout JSONWriter) {
    json.beginObject()
    json.member("jsonrpc", "2.0")
    json.member("method", method)
    json.endObject()
  }

  /// Writes a request: `{"id":…,"jsonrpc":"2.0","method":…,"params":…}` (JSON-RPC 2.0 §4).
  ///
  /// - Parameters:
  ///   - id: the request's id, written as it is (`7` or `"7"`).
  ///   - method: the method name.
  ///   - params: an object or an array.
  ///   - json: the writer, at a place where a value may go.
  /// - Complexity: O(1) plus what `params` writes.
  public static func writeRequest(
    id: RequestID, method: String, params: some JSONWritable, to json: inout JSONWriter
  ) {
    json.beginObject()
    json.member("id", id)
    json.member("jsonrpc", "2.0")
    json.member("method", method)
    json.key("params")
    params.write(to: &json)
    json.endObject()
  }

  /// Writes a request without params: `{"id":…,"jsonrpc":"2.0","method":…}`.
  ///
  /// - Complexity: O(n) in the length of `method`.
  public static func writeRequest(id: RequestID, method: String, to json: inout JSONWriter) {
    json.beginObject()
    json.member("id", id)
    json.member("jsonrpc", "2.0")
    json.member("method", method)
    json.endObject()
  }
}
