import Foundation

/// A value shared between tasks and threads, read and changed under a lock —
/// for test doubles that count calls or record arguments from `@Sendable`
/// closures.
///
/// ```swift
/// let calls = LockedValue(0)
/// let api = API(fetch: {
///     calls.withLock { $0 += 1 }; return .fixture
/// })
/// ```
///
/// It locks with a pthread mutex (`NSLock`) rather than `Synchronization.Mutex`:
/// on Linux, `Mutex` locks with futexes that Thread Sanitizer cannot see, so
/// code using it is reported as racy even when it is correct. The lock is
/// not re-entrant: reading or changing the value from inside `withLock`'s
/// body deadlocks — take what the body needs before, or after.
public final class LockedValue<Value>: @unchecked Sendable {
    // Unchecked: `value` is only ever read or written inside `lock`, in
    // `withLock`, so no two threads touch it at once.
    private let lock = NSLock()
    private var value: Value

    /// Creates a locked value holding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}

extension LockedValue: CustomReflectable {
    /// The value, read under the lock: a dump (a failure message, a
    /// snapshot) that read the stored property while another thread changed
    /// it raced, and could crash.
    public var customMirror: Mirror { Mirror(self, children: ["value": current]) }
}
