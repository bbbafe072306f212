import AsyncState
import AsyncStateControls

/// Hands each load the next gate, so a test decides when and how every load
/// ends — also the reloads a reducer starts by itself.
@MainActor
package final class GateQueue<Value: Sendable> {
    private var prepared: [Gate<Value>] = []
    /// Every gate a load has taken, in order.
    package private(set) var taken: [Gate<Value>] = []

    package init() {}

    /// Gates for the next loads, in order; later loads get fresh, closed gates.
    package func prepare(_ count: Int) -> [Gate<Value>] {
        let gates = (0..<count).map { _ in Gate<Value>() }
        prepared += gates
        return gates
    }

    package func take() -> Gate<Value> {
        let gate = prepared.isEmpty ? Gate<Value>() : prepared.removeFirst()
        taken.append(gate)
        return gate
    }

    /// A load that waits on the next gate; any error is `.offline`.
    package nonisolated func request() -> LoadRequest<Value, TestError> {
        LoadRequest { () async throws(TestError) -> Value in
            do { return try await self.take().wait() } catch { throw .offline }
        }
    }
}

/// Lets queued main-actor work run until `condition` holds, or gives up
/// after many rounds — for work that waits on something no gate or test
/// clock reports: an async stream's element, a task a cache starts. Yields,
/// never sleeps.
@MainActor
package func yieldUntil(_ condition: () -> Bool) async {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
}

/// An edit's request that waits on `gate`, failing when it opens with `false`
/// (or is cancelled).
package func saving(_ gate: Gate<Bool>) -> LoadRequest<Void, TestError> {
    LoadRequest { () async throws(TestError) in
        let succeeded = (try? await gate.wait()) ?? false
        if !succeeded { throw .offline }
    }
}
