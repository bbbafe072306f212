import Foundation

/// A value guarded by a pthread lock (`NSLock`). The demo does not use
/// `Synchronization.Mutex`, whose futex-based locking on Linux is invisible to
/// Thread Sanitizer, so that the test suite runs clean under it.
final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `value` is only touched inside `lock`, in `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
