import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation

/// Stands in for views: each reader runs its body inside
/// `withObservationTracking`, as a SwiftUI body does, and counts how often
/// it is told of a change.
@MainActor
final class Readers {
    private let counts = LockedValue<[String: Int]>([:])
    private var bodies: [String: @MainActor () -> Void] = [:]

    /// Registers a reader named `name` that reads with `body`. A reader
    /// that `rereads` reads again from its change handler, as a view that
    /// re-renders at once would; otherwise it reads once and ends at its
    /// first change, until `rearm` reads again.
    func add(_ name: String, rereads: Bool = false, _ body: @escaping @MainActor () -> Void) {
        bodies[name] = body
        track(name, rereads: rereads)
    }

    /// Reads again with the body of each of `names` (every reader's by
    /// default), as views re-rendering would.
    func rearm(_ names: [String]? = nil) {
        for name in names ?? Array(bodies.keys) { track(name, rereads: false) }
    }

    /// How many times each reader was told, for the readers told at least once.
    var told: [String: Int] { counts.current }

    /// The names of the readers told at least once.
    var toldNames: Set<String> { Set(counts.current.keys) }

    func reset() { counts.withLock { $0 = [:] } }

    private func track(_ name: String, rereads: Bool) {
        guard let body = bodies[name] else { return }
        withObservationTracking {
            body()
        } onChange: { [counts] in
            counts.withLock { $0[name, default: 0] += 1 }
            if rereads {
                MainActor.assumeIsolated { self.track(name, rereads: true) }
            }
        }
    }
}
