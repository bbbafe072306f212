import AsyncState
import AsyncStateTesting

/// Counts observation callbacks, which may arrive from any thread.
final class ChangeCounter: Sendable {
    private let count = LockedValue(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.current }
}
