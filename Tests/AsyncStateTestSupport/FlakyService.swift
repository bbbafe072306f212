import AsyncState
import AsyncStateControls

/// A service whose every call waits on a gate of its own, so a test decides
/// how each attempt of a retried load ends, and in which order.
@MainActor
package final class FlakyService {
    package private(set) var gates: [Gate<Int>] = []
    /// How many calls were made.
    package var calls: Int { gates.count }

    /// The gate of call `index` (from 0), made ahead of the call if needed.
    package subscript(index: Int) -> Gate<Int> {
        while gates.count <= index { gates.append(Gate()) }
        return gates[index]
    }

    private var nextCall = 0

    package init() {}

    /// One call: waits on the next gate; a failed gate's `TestError` is the
    /// call's, anything else (cancellation) becomes `.offline`.
    package func call() async throws(TestError) -> Int {
        let gate = self[nextCall]
        nextCall += 1
        do {
            return try await gate.wait()
        } catch let error as TestError {
            throw error
        } catch {
            throw .offline
        }
    }
}
