import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the benchmark's client thread and a server it spawns run, for
/// latencies over a pipe: on one core (the kernel wakes the other process on
/// the same CPU) or on two (a wake-up crosses CPUs). A spawned process takes
/// its CPU set from the thread that spawns it (Linux `sched_setaffinity(2)`).
enum Placement: Hashable, CustomStringConvertible {
  /// Client and server on CPU 0.
  case oneCore
  /// Client on CPU 0, server on CPU 1.
  case twoCores

  /// The placements this machine can give: both with two CPUs or more.
  static var available: [Placement] {
    ProcessInfo.processInfo.activeProcessorCount >= 2 ? [.oneCore, .twoCores] : [.oneCore]
  }

  var label: String {
    switch self {
    case .oneCore: return "one core"
    case .twoCores: return "two cores"
    }
  }

  var description: String {
    switch self {
    case .oneCore: return "CPU 0 both (one core)"
    case .twoCores: return "CPU 0 and CPU 1 (two cores)"
    }
  }

  private var serverCPU: Int { self == .oneCore ? 0 : 1 }

  /// Spawns with `make` on the server's CPU, then pins the calling thread to CPU 0.
  /// - Returns: `nil` when `make` throws.
  func spawn<T>(_ make: () throws -> T) -> T? {
    Self.pin([serverCPU])
    let made = try? make()
    Self.pin([0])
    return made
  }

  /// Lets the calling thread run on every CPU again.
  static func release() {
    pin(Array(0..<ProcessInfo.processInfo.activeProcessorCount))
  }

  /// Pins the calling thread to `cpus`; a failure (a CPU the machine lacks) leaves it as it was.
  private static func pin(_ cpus: [Int]) {
    #if canImport(Glibc)
      // sched_setaffinity is declared only under _GNU_SOURCE: found by name (RTLD_DEFAULT is a null handle).
      typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
      guard let symbol = dlsym(nil, "sched_setaffinity") else { return }
      var set = [UInt8](repeating: 0, count: 128)  // cpu_set_t: 1,024 CPUs
      for cpu in cpus where cpu / 8 < set.count { set[cpu / 8] |= UInt8(1 << (cpu % 8)) }
      _ = set.withUnsafeBytes { unsafeBitCast(symbol, to: SetAffinity.self)(0, $0.count, $0.baseAddress!) }
    #endif
  }
}
