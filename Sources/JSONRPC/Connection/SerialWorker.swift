import Foundation
import Synchronization

/// Runs jobs one at a time, in the order they were given: the connection's
/// worker, the single owner of the handler's state.
///
/// A job runs on the worker's own thread, or — when the worker is idle and a
/// caller asks for it (``runOrQueue(_:)``) — at once on the caller's thread,
/// which then holds the worker's role until the job ends: no other job runs
/// beside it, and jobs given meanwhile wait for it. An editor speaks in
/// lockstep (a request, its reply, the next request), so a quick request
/// read by the reader thread is handled there without a thread hand-off,
/// which on a virtual machine costs about as much as the rest of a small
/// request.
///
/// After its last job the worker's thread keeps looking for the next one for
/// a short while (``spinNanoseconds``) before it sleeps on a condition, so a
/// queue fed in quick succession does not pay a wake-up per job.
///
/// - Important: ``stop()`` ends the thread once the jobs given before it ran;
///   jobs given after it are dropped.
final class SerialWorker: @unchecked Sendable {
  // @unchecked Sendable: `queue`, `head`, `busy`, `sleeping` and `stopped` are
  // guarded by `condition`; `pending` is atomic.

  /// How long the thread looks for more work before it sleeps, in ns.
  static let spinNanoseconds: UInt64 = 50_000

  private let condition = NSCondition()
  private var queue: [@Sendable () -> Void] = []
  private var head = 0
  /// A job is running (on the worker's thread or a caller's).
  private var busy = false
  private var sleeping = false
  private var stopped = false
  /// Jobs given and not yet taken: read without the lock while spinning.
  private let pending = Atomic<Int>(0)

  /// Starts the thread.
  /// - Parameter name: the thread's name, as debuggers show it.
  init(name: String) {
    let thread = Thread { [self] in loop() }
    thread.name = name
    thread.start()
  }

  /// Runs `job` after every job given before it, on the worker's thread; returns at once.
  /// - Complexity: amortised O(1).
  func async(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    defer { condition.unlock() }
    enqueue(job)
  }

  /// Runs `job` now on the calling thread when nothing is queued or running
  /// (the caller holds the worker's role meanwhile), else queues it as ``async(_:)`` does.
  func runOrQueue(_ job: @escaping @Sendable () -> Void) {
    if !runIfIdle(job) { async(job) }
  }

  /// Runs `job` now on the calling thread when nothing is queued or running (the
  /// caller holds the worker's role meanwhile); else does nothing. As
  /// ``runOrQueue(_:)`` without a job to keep: nothing is allocated.
  /// - Returns: whether `job` ran.
  func runIfIdle(_ job: () -> Void) -> Bool {
    condition.lock()
    guard !busy, head == queue.count, !stopped else {
      condition.unlock()
      return false
    }
    busy = true
    condition.unlock()
    job()
    condition.lock()
    busy = false
    if head < queue.count && sleeping { condition.signal() }
    condition.unlock()
    return true
  }

  /// Runs `job` after every job given before it and waits for it.
  /// - Important: never call it from a job: the worker would wait for itself.
  func sync<T: Sendable>(_ job: @escaping @Sendable () -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    async {
      result.withLock { $0 = job() }
      done.signal()
    }
    done.wait()
    return result.withLock { $0! }
  }

  /// Ends the thread after the jobs already given.
  func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  /// Appends `job`; call with the lock held.
  private func enqueue(_ job: @escaping @Sendable () -> Void) {
    if stopped { return }
    queue.append(job)
    pending.add(1, ordering: .releasing)
    if sleeping { condition.signal() }
  }

  private func loop() {
    while let job = next() {
      job()
      condition.lock()
      busy = false
      condition.unlock()
    }
  }

  /// The next job, marked running; spins a little then sleeps while there is none
  /// (or while a caller holds the role). `nil` once stopped and drained.
  private func next() -> (@Sendable () -> Void)? {
    if pending.load(ordering: .acquiring) == 0 {
      let start = DispatchTime.now().uptimeNanoseconds
      while pending.load(ordering: .acquiring) == 0,
        DispatchTime.now().uptimeNanoseconds - start < Self.spinNanoseconds
      {
        // Spin: in a burst, the next job is usually microseconds away.
      }
    }
    condition.lock()
    defer { condition.unlock() }
    while head == queue.count || busy {
      if stopped && head == queue.count { return nil }
      sleeping = true
      condition.wait()
      sleeping = false
    }
    let job = queue[head]
    head += 1
    if head == queue.count {
      queue.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 1024 && head * 2 > queue.count {
      queue.removeFirst(head)
      head = 0
    }
    pending.subtract(1, ordering: .relaxed)
    busy = true
    return job
  }
}
