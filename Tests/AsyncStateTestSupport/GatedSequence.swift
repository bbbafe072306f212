import AsyncState
import AsyncStateControls
import AsyncStateTesting

/// The elements of a test stream, each held by a gate of its own: a test
/// opens gate `i` with the `i`-th element, or fails it with ``End`` to end
/// the stream, or with another error to make the stream throw.
package final class StreamSource: Sendable {
    /// Fails a gate to end the stream there.
    package struct End: Error {
        package init() {}
    }

    private let gates = LockedValue<[Gate<Int>]>([])

    /// The gate of element `index` (from 0), made ahead if needed.
    package init() {}

    package subscript(index: Int) -> Gate<Int> {
        gates.withLock { gates in
            while gates.count <= index { gates.append(Gate()) }
            return gates[index]
        }
    }

    /// How many times an iterator asked for an element.
    package var requests: Int { gates.withLock { $0.count } }
}

/// An `AsyncSequence` over a ``StreamSource``. It honours cancellation like a
/// well-behaved stream, unless `ignoresCancellation`: then it goes on waiting
/// for, and yielding, elements after its task is cancelled.
package struct GatedSequence: AsyncSequence, Sendable {
    package typealias Element = Int

    package let source: StreamSource
    package var ignoresCancellation = false

    package init(source: StreamSource, ignoresCancellation: Bool = false) {
        self.source = source
        self.ignoresCancellation = ignoresCancellation
    }

    package struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let source: StreamSource
        let ignoresCancellation: Bool
        var index = 0

        package mutating func next() async throws -> Int? {
            let gate = source[index]
            index += 1
            if ignoresCancellation { return await gate.value() }
            do {
                return try await gate.wait()
            } catch is StreamSource.End {
                return nil
            }
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source, ignoresCancellation: ignoresCancellation)
    }
}
