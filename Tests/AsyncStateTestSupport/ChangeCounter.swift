import AsyncState
import AsyncStateTesting

/// Counts observation callbacks, which may arrive from any thread.
package final class ChangeCounter: Sendable {
    private let count = LockedValue(0)

    package init() {}

    package func increment() { count.withLock { $0 += 1 } }

    package var value: Int { count.current }
}
