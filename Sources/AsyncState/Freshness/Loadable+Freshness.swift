// The freshness layer: when the value settled and whether it was
// invalidated — staleness as a pure question, with time passed in. A load
// whose request is stamped by a `LoadClock` delivers the time with its
// result (`LoadAction.at`); nothing here reads a clock, so reducers stay pure
// and tests drive time with a test clock.

/// An invalidation: the newest load started before it, whose results are
/// already out of date when they arrive.
@usableFromInline
struct Invalidation: Equatable, Sendable {
    /// Loads with this ID or older started before the invalidation; `nil`
    /// if none had started.
    @usableFromInline let _newestBefore: LoadID?

    @inlinable
    init(newestBefore: LoadID?) { _newestBefore = newestBefore }

    /// Whether load `id` started before the invalidation.
    @inlinable
    func overtakes(_ id: LoadID) -> Bool {
        guard let newest = _newestBefore else { return false }
        return id <= newest
    }
}

extension Loadable {
    /// When the confirmed value last settled from a load stamped with a
    /// ``LoadClock`` (or ``setValue(_:at:)``), or `nil` if its age is unknown.
    @inlinable
    public var settledAt: LoadClock.Instant? { _settledAt }

    /// Whether ``invalidate()`` was called and no load started since has
    /// succeeded.
    @inlinable
    public var isInvalidated: Bool { _invalidation != nil }

    /// Whether load `id` started before the last invalidation, so its result,
    /// though shown, is already out of date — never one to join or yield to.
    @inlinable
    public func isOvertaken(_ id: LoadID) -> Bool {
        _invalidation?.overtakes(id) ?? false
    }

    /// Whether the value should be loaded again: one rule for every host.
    ///
    /// Stale when any of these holds — otherwise fresh:
    ///
    /// - there is no value, or the last load failed (a failed background
    ///   reload leaves the value shown but stale);
    /// - it was invalidated, and no load started since has succeeded;
    /// - its age is unknown: it settled from a load without a ``LoadClock``
    ///   (a value set with ``setValue(_:)`` keeps the age of the load before it);
    /// - `maxAge` is zero or less ("reload whenever asked", TanStack Query's
    ///   default `staleTime: 0`), or it settled `maxAge` or longer before `now`.
    ///
    /// A value that settled after `now` (a clock that went backwards) is fresh.
    /// A load in flight does not change the answer: it is about the value shown.
    @inlinable
    public func isStale(maxAge: Duration, at now: LoadClock.Instant) -> Bool {
        Self.isStale(freshSince: freshSince, maxAge: maxAge, at: now)
    }

    /// The rule of ``isStale(maxAge:at:)``, given the value's `freshSince`.
    @inlinable
    static func isStale(freshSince: LoadClock.Instant?, maxAge: Duration, at now: LoadClock.Instant) -> Bool {
        guard let freshSince, maxAge > .zero else { return true }
        return freshSince.advanced(by: maxAge) <= now
    }

    /// When the value's age began, if it can be fresh at all: `nil` when it
    /// is stale for every `maxAge` (no value, a failure, an invalidation, an
    /// unknown age). All that ``isStale(maxAge:at:)`` reads of the state, so
    /// a host's reader of staleness depends on this alone.
    @inlinable
    var freshSince: LoadClock.Instant? {
        guard _invalidation == nil, case .success = _settled, _value.isSome else { return nil }
        return _settledAt
    }

    /// Marks the value stale. A load in flight is overtaken: its result is
    /// still shown, but leaves the value stale; only a load started after this
    /// answers the invalidation — a queued load too, which starts on its turn. Reloading is the caller's: a reducer starts
    /// the load in the same step (``load(_:_:overlap:)``, which supersedes
    /// the overtaken one), a host reloads what is in use.
    ///
    /// Invalidating again moves the mark to the newest load started. Invalidating a
    /// loadable that never loaded is allowed.
    @inlinable
    public mutating func invalidate() {
        _invalidation = Invalidation(newestBefore: newestStartedID)
    }

    /// The newest load that has started. A queued load starts later, on its
    /// turn, after the load in flight, and every queued ID is newer than that
    /// load's (a start withdraws the queued loads older than it): so, with a
    /// queue, the load in flight — or, with none in flight, every ID below
    /// the first queued one.
    @inlinable
    var newestStartedID: LoadID? {
        guard let first = _layers?._contents._queued.first else { return _newestID }
        if let inFlight = _inFlightID { return inFlight }
        return first.rawValue > 0 ? LoadID(first.rawValue - 1) : nil
    }

    /// Stores a value as fresh as a load's, settled at `now` — TanStack
    /// Query's `setQueryData`; see ``setValue(_:)``. It does not answer an
    /// invalidation: only a load started after it does.
    @inlinable
    public mutating func setValue(_ newValue: Value, at now: LoadClock.Instant) {
        setValue(newValue)
        _settledAt = now
    }
}
