/// The settle time of an ``AsyncValue`` made with a clock, on that clock's
/// scale as the time since the value was created.
@MainActor
final class AsyncValueFreshness {
    let elapsed: @Sendable () -> Duration
    var settledAt: Duration?

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// Whether the value settled `maxAge` or longer ago; always for `maxAge <= 0`.
    func isOlder(than maxAge: Duration) -> Bool {
        guard maxAge > .zero, let settledAt else { return true }
        return elapsed() - settledAt >= maxAge
    }
}

extension AsyncValue {
    /// Creates a value that has not loaded yet and records when each success
    /// settles on `clock`, for `loadIfNeeded(maxAge:_:)`.
    public convenience init<C: Clock>(clock: C) where C.Duration == Duration {
        self.init()
        track(clock)
    }

    /// Creates a value that already holds `value`, settled now on `clock`.
    public convenience init<C: Clock>(value: Value, clock: C) where C.Duration == Duration {
        self.init(value: value)
        track(clock)
        freshness?.settledAt = .zero
    }

    private func track<C: Clock>(_ clock: C) where C.Duration == Duration {
        let freshness = AsyncValueFreshness(clock)
        self.freshness = freshness
        // The observer holds the stamp, not the value, so there is no cycle.
        // It runs after the reducer, outside it: reading the clock here keeps the reducer pure.
        observeTransitions { [freshness] transition in
            guard !transition.isDropped, case .finished? = transition.action else { return }
            freshness.settledAt = freshness.elapsed()
        }
    }

    /// Loads unless the last load succeeded less than `maxAge` ago: after a
    /// younger success it does nothing, during a load it waits for that load,
    /// otherwise it loads.
    ///
    /// Age is measured on the clock given to ``init(clock:)``. Without one, or
    /// with a `maxAge` of zero or less, every success counts as stale, so this
    /// loads (joining a load in flight) like `load(overlap:_:)` with `.join`.
    @inlinable
    public func loadIfNeeded(
        maxAge: Duration,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        guard isStale(maxAge: maxAge) else { return }
        await load(overlap: .join, operation)
    }

    /// Loads unless the last load succeeded less than `maxAge` ago; untyped
    /// errors become ``AnyError``.
    @inlinable
    public func loadIfNeeded(
        maxAge: Duration,
        _ operation: @escaping @MainActor @Sendable () async throws -> Value
    ) async where Failure == AnyError, Value: SendableMetatype {
        guard isStale(maxAge: maxAge) else { return }
        await load(overlap: .join, operation)
    }

    /// Whether the value is missing, not a settled success, or its last
    /// successful load is `maxAge` old or older. A value set with
    /// ``setValue(_:)`` has no load time of its own: it counts from the last load.
    public func isStale(maxAge: Duration) -> Bool {
        guard case .success = state, let freshness else { return true }
        return freshness.isOlder(than: maxAge)
    }
}
