import Synchronization

/// Marked when the peer cancels a request with `$/cancelRequest` (LSP 3.17 §Cancellation
/// Support). A handler polls ``isCancelled`` at convenient points and, when set, throws
/// ``ResponseError/cancelled`` (`-32800`).
///
/// - Important: thread-safe; marked from the reader thread, read on the worker.
public final class CancellationToken: Sendable {
  private let cancelled = Atomic<Bool>(false)

  /// A token that is not marked.
  public init() {}

  /// `true` once ``cancel()`` was called.
  public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Marks the token; idempotent.
  public func cancel() { cancelled.store(true, ordering: .releasing) }

  /// Throws ``ResponseError/cancelled`` when marked.
  public func check() throws(ResponseError) {
    if isCancelled { throw ResponseError.cancelled }
  }
}
