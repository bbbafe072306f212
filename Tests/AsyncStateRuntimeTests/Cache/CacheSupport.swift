import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

/// A backend whose every call waits on its own gate, recorded in order, so a
/// test decides how and when each load of each key ends.
@MainActor
final class CacheBackend<Key: Equatable, Value: Sendable> {
    private(set) var calls: [(key: Key, gate: Gate<Value>)] = []
    private var watchers: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWatcher = 0

    func load(_ key: Key) async throws(TestError) -> Value {
        let gate = Gate<Value>()
        calls.append((key, gate))
        let ready = watchers.filter { $0.count <= calls.count }
        watchers.removeAll { $0.count <= calls.count }
        for watcher in ready { watcher.continuation.resume() }
        do { return try await gate.wait() } catch let error as TestError { throw error } catch { throw .offline }
    }

    /// The load of `key`, as a cache's request.
    nonisolated func request(_ key: Key) -> LoadRequest<Value, TestError> where Key: Sendable {
        LoadRequest { () async throws(TestError) in try await self.load(key) }
    }

    /// Suspends until `count` calls have been made in all — a cache enters
    /// its loads at once, but a load's operation may reach the backend only
    /// after a hop, so a test waits for them here. A call
    /// that never comes fails the test instead of hanging it: the test's
    /// time limit cancels the wait.
    func waitForCalls(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard calls.count < count else { return }
        let id = nextWatcher
        nextWatcher += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { watchers.append((id, count, continuation)) }
            }
        } onCancel: {
            Task { @MainActor in self.stopWatching(id) }
        }
        if calls.count < count {
            Issue.record("\(calls.count) calls to the backend, not \(count): the wait was cancelled", sourceLocation: sourceLocation)
        }
    }

    private func stopWatching(_ id: Int) {
        guard let index = watchers.firstIndex(where: { $0.id == id }) else { return }
        watchers.remove(at: index).continuation.resume()
    }

    /// Opens the newest call's gate for `key`.
    func answer(_ key: Key, with value: Value) {
        calls.last { $0.key == key }?.gate.open(with: value)
    }

    func count(_ key: Key) -> Int { calls.filter { $0.key == key }.count }
}

typealias Backend = CacheBackend<Int, String>

@MainActor
func makeCache(
    staleAfter: Duration = .seconds(30), collectAfter: Duration = .seconds(60), capacity: Int = .max
) -> (Cache<Int, String, TestError>, TestClock, Backend) {
    let clock = TestClock()
    let backend = Backend()
    let cache = Cache<Int, String, TestError>(
        clock: clock, staleAfter: staleAfter, collectAfter: collectAfter, capacity: capacity, request: backend.request)
    return (cache, clock, backend)
}

/// A flag set from an observation callback, which may run on any thread.
final class LockedFlag: Sendable {
    private let value = LockedValue(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// Starts tracking what `read` reads; the returned flag is set on the first
/// change announced to it.
@MainActor
func tracking(_ read: () -> Void) -> LockedFlag {
    let changed = LockedFlag()
    withObservationTracking(read) { changed.set() }
    return changed
}
