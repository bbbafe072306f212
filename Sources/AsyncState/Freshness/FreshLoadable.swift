/// A ``Loadable`` that also knows how old its value is and whether it was
/// invalidated — staleness as a pure question, with time passed in.
///
/// Time comes from a `Clock` the feature injects, delivered inside the action
/// (``FreshAction/load(_:at:)``); nothing here reads a clock, so reducers stay
/// pure and tests drive time with a test clock.
///
/// ```swift
/// var user = FreshLoadable<String, LoadError, TestClock.Instant>()
/// _ = user.apply(.started(LoadID(1)), at: t0)
/// _ = user.apply(.finished(LoadID(1), "Lee"), at: t0)   // settledAt == t0
/// user.isStale(maxAge: .seconds(30), at: t0 + .seconds(31))  // true
/// ```
///
/// **Invalidation.** ``invalidate()`` marks the value stale and remembers the
/// newest load started so far. A load started before the invalidation is
/// *overtaken*: it may still settle (its value is shown), but ``needsRefetch``
/// then asks for a fresh load at once. A load started after it answers the
/// invalidation; once it succeeds the value is fresh again.
///
/// The four ``LoadAction``s keep their meaning: they go to the wrapped
/// ``loadable`` unchanged; this type only adds the time and the invalidation mark.
public struct FreshLoadable<Value: Equatable, Failure: Equatable, Instant: InstantProtocol>: Equatable {
    @usableFromInline var _loadable: Loadable<Value, Failure>
    @usableFromInline var _settledAt: Instant?
    /// Set by ``invalidate()``: the newest load ID at that moment (`nil` if
    /// none had started), wrapped so "not invalidated" is `nil`.
    @usableFromInline var _invalidation: Invalidation?

    @usableFromInline
    struct Invalidation: Equatable, Sendable {
        /// Loads with this ID or older started before the invalidation.
        @usableFromInline let _newestBefore: LoadID?

        @inlinable
        init(newestBefore: LoadID?) { _newestBefore = newestBefore }

        @inlinable
        func overtakes(_ id: LoadID) -> Bool {
            guard let newest = _newestBefore else { return false }
            return id <= newest
        }
    }

    /// Creates a loadable in `.notLoaded`, never settled.
    @inlinable
    public init() {
        _loadable = Loadable()
        _settledAt = nil
        _invalidation = nil
    }

    /// Creates a loadable holding `value`, settled at `settledAt`.
    @inlinable
    public init(value: Value, settledAt: Instant) {
        _loadable = Loadable(value: value)
        _settledAt = settledAt
        _invalidation = nil
    }

    /// The wrapped loadable: state, last value, settled state, load in flight.
    @inlinable
    public var loadable: Loadable<Value, Failure> { _loadable }

    /// The current state.
    @inlinable
    public var state: AsyncState<Value, Failure> { _loadable.state }

    /// The last value, kept through reloads and failures.
    @inlinable
    public var value: Value? { _loadable.value }

    /// The failure of the latest settled load, or `nil`.
    @inlinable
    public var error: Failure? { _loadable.error }

    /// Whether a load is in flight.
    @inlinable
    public var isLoading: Bool { _loadable.isLoading }

    /// When ``value`` was last set by a successful load (or ``setValue(_:at:)``),
    /// or `nil` if there is no value.
    @inlinable
    public var settledAt: Instant? { _settledAt }

    /// Whether ``invalidate()`` was called and no load started since has succeeded.
    @inlinable
    public var isInvalidated: Bool { _invalidation != nil }

    /// Whether load `id` started before the last invalidation, so its result,
    /// though shown, is already out of date.
    @inlinable
    public func isOvertaken(_ id: LoadID) -> Bool {
        _invalidation?.overtakes(id) ?? false
    }

    /// Whether a fresh load should start now: the value was invalidated and no
    /// load has started since — and none is in flight, because a load
    /// overtaken by the invalidation may still settle first.
    ///
    /// A reducer checks it after every action (`reduce(_:refetch:)` does), so
    /// an invalidation is never lost while a load is in flight.
    @inlinable
    public var needsRefetch: Bool {
        guard let invalidation = _invalidation, !_loadable.isLoading else { return false }
        guard let newest = _loadable.newestID else { return true }
        return invalidation.overtakes(newest)
    }

    /// Whether the value is missing, invalidated, or older than `maxAge` at `now`.
    ///
    /// A `maxAge` of zero or less makes every value stale (as TanStack Query's
    /// default `staleTime: 0`): "reload whenever asked". A value whose settle
    /// time is later than `now` (a clock that went backwards) is fresh.
    @inlinable
    public func isStale(maxAge: Instant.Duration, at now: Instant) -> Bool {
        guard _invalidation == nil, _loadable.value != nil, let settledAt = _settledAt else { return true }
        guard maxAge > .zero else { return true }
        return settledAt.advanced(by: maxAge) <= now
    }

    /// Applies a load action that happened at `now`; see ``Loadable/apply(_:)``.
    /// A success records `now` as ``settledAt`` and, if the load started after
    /// the last invalidation, clears it.
    @inlinable
    public mutating func apply(_ action: LoadAction<Value, Failure>, at now: Instant) -> LoadDisposition {
        let disposition = _loadable.apply(action)
        guard disposition == .applied, case .finished(let id, _) = action else { return disposition }
        _settledAt = now
        if let invalidation = _invalidation, !invalidation.overtakes(id) { _invalidation = nil }
        return disposition
    }

    /// Marks the value stale. A load in flight is overtaken: its result is
    /// still applied, but ``needsRefetch`` asks for a fresh load once it settles.
    ///
    /// Invalidating again moves the mark to the newest load. Invalidating a
    /// loadable that never loaded is allowed: ``needsRefetch`` asks for its
    /// first load.
    @inlinable
    public mutating func invalidate() {
        _invalidation = Invalidation(newestBefore: _loadable.newestID)
    }

    /// Stores a local value at `now`; see ``Loadable/setValue(_:)``. It does not
    /// answer an invalidation: only a load started after it does.
    @inlinable
    public mutating func setValue(_ newValue: Value, at now: Instant) {
        _loadable.setValue(newValue)
        _settledAt = now
    }

    /// Returns to `.notLoaded`, forgetting the value, its time and any
    /// invalidation; see ``Loadable/reset()``.
    @inlinable
    @discardableResult
    public mutating func reset() -> LoadID? {
        _settledAt = nil
        _invalidation = nil
        return _loadable.reset()
    }

    /// Cancels the load in flight; see ``Loadable/cancel()``. If that load was
    /// overtaken by an invalidation, ``needsRefetch`` becomes true.
    @inlinable
    @discardableResult
    public mutating func cancel() -> LoadID? {
        _loadable.cancel()
    }
}

extension FreshLoadable: Sendable where Value: Sendable, Failure: Sendable, Instant: Sendable {}

extension FreshLoadable: CustomReflectable {
    /// The public fields, for dumps and snapshots.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "loadable": loadable as Any,
                "settledAt": settledAt as Any,
                "isInvalidated": isInvalidated as Any,
            ], displayStyle: .struct)
    }
}

extension FreshLoadable: CustomStringConvertible {
    /// The loadable's description, then `(invalidated)` when it is.
    public var description: String {
        loadable.description + (isInvalidated ? " (invalidated)" : "")
    }
}
