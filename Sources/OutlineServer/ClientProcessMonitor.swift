import Dispatch
import Foundation

/// Watches the process that started the server, as LSP's `processId` asks
/// (LSP 3.17 §initialize: "If the parent process is not alive then the
/// server should exit"): `--clientProcessId N` on the command line, or
/// `initialize`'s `processId`.
///
/// Every ``interval`` seconds it asks the kernel whether the process still
/// exists (`kill(pid, 0)`: `ESRCH` means gone; `EPERM` means it exists but
/// belongs to someone else) and calls `onGone` once when it is gone.
///
/// - Important: `onGone` runs on a global dispatch queue.
final class ClientProcessMonitor: @unchecked Sendable {
  // @unchecked Sendable: both properties are set once in init; a dispatch
  // source may be cancelled from any thread.
  /// Seconds between two checks.
  static let interval = 2.0

  /// The process watched.
  let pid: Int32
  private let timer: DispatchSourceTimer

  /// Starts watching `pid`; `onGone` is called once, after the first check that finds it gone.
  init(pid: Int32, onGone: @escaping @Sendable (Int32) -> Void) {
    self.pid = pid
    let timer = DispatchSource.makeTimerSource(queue: .global())
    self.timer = timer
    timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
    timer.setEventHandler {
      guard !Self.isAlive(pid) else { return }
      timer.cancel()
      onGone(pid)
    }
    timer.resume()
  }

  deinit { timer.cancel() }

  /// Whether a process `pid` exists (a zombie not yet reaped counts as existing).
  static func isAlive(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }
}
