/// Holds an operation's result until the test releases it, so tests decide the
/// order in which overlapping loads finish — no sleeps, no races.
///
/// ```swift
/// let first = Gate<Int>(), second = Gate<Int>()
/// store.send(.load(first))           // load #1 waits on `first`
/// store.send(.load(second))          // load #2 waits on `second`
/// second.open(with: 2)               // #2 finishes first …
/// first.open(with: 1)                // … then #1, whose result is stale
/// ```
///
/// A gate opened before anyone waits remembers its result. Every waiter gets
/// the same result, and waiters are resumed in the order they came, so that
/// the order of their results does not change from run to run. The first
/// `open(with:)` or `fail(with:)` decides; a later one changes nothing.
public final class Gate<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var nextWaiter = 0
        var arrivals = 0
        var cancellations = 0
        var arrivalWatchers: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWatcher = 0
    }

    private let state = LockedValue(State())

    /// Creates a closed gate.
    public init() {}

    /// Waits until the gate opens and returns its value, or throws its error.
    ///
    /// Honors cancellation: a cancelled waiter throws `CancellationError` at
    /// once, like a well-behaved network call.
    public func wait() async throws -> Value {
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let (result, watchers) = state.withLock { state -> (Result<Value, any Error>?, [CheckedContinuation<Void, Never>]) in
                    state.arrivals += 1
                    let watchers = Self.takeWatchers(&state)
                    if let result = state.result { return (result, watchers) }
                    if Task.isCancelled {
                        state.cancellations += 1
                        return (.failure(CancellationError()), watchers)
                    }
                    state.waiters[waiter] = continuation
                    return (nil, watchers)
                }
                for watcher in watchers { watcher.resume() }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
                guard let continuation = state.waiters.removeValue(forKey: waiter) else { return nil }
                state.cancellations += 1
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Waits until the gate opens, ignoring cancellation — an operation that
    /// does not check for it. Returns `nil` if the gate was opened with an error.
    public func value() async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            Task { continuation.resume(returning: try? await self.wait()) }
        }
    }

    /// Opens the gate: every waiter, present and future, gets `value`.
    public func open(with value: Value) {
        resolve(.success(value))
    }

    /// Opens the gate with a failure: every waiter, present and future, throws `error`.
    public func fail(with error: any Error) {
        resolve(.failure(error))
    }

    /// How many waiters were cancelled while waiting: the operation observed cancellation.
    public var cancellationCount: Int { state.withLock { $0.cancellations } }

    /// Whether at least one waiter observed cancellation.
    public var observedCancellation: Bool { cancellationCount > 0 }

    /// Suspends until `count` calls to ``wait()`` have reached the gate in all,
    /// so a test knows the operation it started is really waiting. Returns
    /// early if the waiting task is cancelled — by a test's time limit, when
    /// the arrivals never come.
    public func waitForArrivals(_ count: Int = 1) async {
        let id = state.withLock { state in
            defer { state.nextWatcher += 1 }
            return state.nextWatcher
        }
        await waitUnlessCancelled { continuation in
            state.withLock { state in
                if state.arrivals >= count || Task.isCancelled { return true }
                state.arrivalWatchers.append((id, count, continuation))
                return false
            }
        } withdraw: { [state] in
            state.withLock { state in
                state.arrivalWatchers.firstIndex { $0.id == id }.map { state.arrivalWatchers.remove(at: $0).continuation }
            }
        }
    }

    private func resolve(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters.removeAll() }
            // In the order they came: a dictionary's order changes with the
            // hashing seed, from run to run.
            return state.waiters.sorted { $0.key < $1.key }.map(\.value)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    private static func takeWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let ready = state.arrivalWatchers.filter { $0.count <= state.arrivals }.map(\.continuation)
        state.arrivalWatchers.removeAll { $0.count <= state.arrivals }
        return ready
    }
}

extension Gate: CustomReflectable {
    /// Nothing: what a gate holds — its waiters, counts and result — changes
    /// as the test runs, so an action or state that carries a gate dumps
    /// it as `Gate<Value>()`, the same in every run.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .class) }
}
