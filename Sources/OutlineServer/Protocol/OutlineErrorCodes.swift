import JSONRPC

/// The outline protocol's own error codes (PROTOCOL §7), beside JSON-RPC's.
extension ErrorCode {
  /// `-32010`: the `uri` names no open outline.
  public static let unknownOutline = ErrorCode(rawValue: -32010)
  /// `-32011`: YAML or schema errors; `data.diagnostics` lists them.
  public static let invalidOutline = ErrorCode(rawValue: -32011)
  /// `-32012`: no such group id or visible index.
  public static let unknownSection = ErrorCode(rawValue: -32012)
  /// `-32013`: file missing or unreadable; the message names the path.
  public static let fileError = ErrorCode(rawValue: -32013)
}
