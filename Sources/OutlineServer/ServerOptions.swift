import Foundation
import JSONRPC

/// Command-line options of the server (`outline-server --help`).
public struct ServerOptions: Sendable {
  /// `--framing lsp|ndjson`.
  public var framing: Framing = .lsp
  /// `--max-message-bytes N` (default 64 MiB): the largest body accepted.
  public var maxMessageBytes: Int = 64 << 20
  /// `--max-nodes N` (default 10,000,000): YAML nodes, aliases expanded.
  public var maxNodes: Int = 10_000_000
  /// `--log-level error|warn|info|debug`.
  public var logLevel: Logger.Level = .warn
  /// `--state-dir DIR`: where view state is saved; `nil` saves none.
  public var stateDirectory: String? = ViewStateStore.defaultDirectory()
  /// `--clientProcessId N`: the server exits (status 1) when process N is gone.
  public var clientProcessID: Int32? = nil

  /// The defaults of `outline-server` without options.
  public init() {}
}

/// The server's name and version, as `initialize` and `--version` report them.
public enum ServerInfo {
  /// The program name, `serverInfo.name`.
  public static let name = "outline-server"
  /// The program version (semantic versioning), `serverInfo.version`.
  public static let version = "1.2.0"
}
