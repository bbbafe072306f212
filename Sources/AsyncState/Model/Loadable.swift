/// One piece of asynchronously loaded state: the generation-gated state
/// machine every capability of this package is a layer of.
///
/// `Loadable` is a plain value. ``apply(_:)`` is a pure function of the
/// current value and a ``LoadAction``, and it enforces two promises by
/// construction:
///
/// - **Last started wins.** Only the newest started load may settle the
///   state; a result from any older load is dropped, however late it arrives.
/// - **Cancellation is not failure.** Cancelling the newest load returns to
///   the state from before its chain of loads began, never to `.error`, never
///   stuck in `.loading`.
///
/// It remembers the last successful value, so ``value`` stays readable while
/// reloading and after a failure — a screen keeps its content and adds an
/// error banner instead of going blank.
///
/// ```swift
/// var profile = Loadable<String, LoadError>()
/// _ = profile.apply(.started(LoadID(1)))                 // state: .loading
/// _ = profile.apply(.started(LoadID(2)))                 // #1 is superseded
/// _ = profile.apply(.finished(LoadID(2), "Lee"))         // state: .success(value: "Lee")
/// let late = profile.apply(.finished(LoadID(1), "Old"))  // .dropped
/// ```
///
/// Every other capability is a layer of the same value, used by sending its
/// actions, so any combination works on one piece of state:
///
/// | layer | what it adds | actions |
/// |---|---|---|
/// | activity | why a load runs, which attempt, the last failure (``activity``) | `.planned`, `.retrying` |
/// | streams | a partial value while a load goes on (``partialValue``) | `.progress` |
/// | queue | loads waiting their turn (``queuedIDs``) | `.queued` |
/// | freshness | when the value settled, invalidation (``isStale(maxAge:at:)``) | `.at` |
/// | edits | optimistic edits shown on top of the confirmed value (``pendingEdits``) | `.edit` |
/// | pages | a second lane that appends pages, for a ``Pages`` value (``isLoadingMore``) | `.more` |
///
/// Inside a reducer, start loads with ``load(_:_:overlap:)`` and hand every
/// action back to ``reduce(_:)``.
public struct Loadable<Value: Equatable, Failure: Equatable>: Equatable {
    // Internal, `@usableFromInline` storage, so `apply(_:)` is inlined and
    // specialized in client code; the public API is read-only. The state is
    // not stored: it follows from these fields (see `state`), so no two
    // fields can disagree about it.

    /// The confirmed value: the last success, a value set locally, with the
    /// confirmed edits applied.
    @usableFromInline var _value: Value?
    /// The partial value of the load in flight, shown until it settles.
    @usableFromInline var _partial: Value?
    /// How the last chain of loads settled.
    @usableFromInline var _settled: Settled
    /// The load whose result will be applied; `nil` when settled.
    @usableFromInline var _inFlightID: LoadID?
    /// The newest ID ever started or queued here; a start must be newer.
    @usableFromInline var _newestID: LoadID?
    /// Why the load in flight runs and its attempt; `nil` when settled.
    /// With `_lastFailure`, the load's ``activity``: kept as two fields, not
    /// one `LoadActivity?`, because with a failure that holds a reference —
    /// an `AnyError` — that value is larger than four words, and Swift copies
    /// and destroys such a value through its value witnesses, about 300
    /// instructions a load (BENCHMARKS.md, "Issue 25, third pass"). Apart,
    /// these copy inline.
    @usableFromInline var _attempts: LoadAttempts<Failure>?
    /// The failure the load in flight retries after; `nil` if none.
    @usableFromInline var _lastFailure: Failure?
    /// When the confirmed value last settled from a load stamped with a time.
    @usableFromInline var _settledAt: LoadClock.Instant?
    /// Set by `invalidate()`; see Loadable+Freshness.swift.
    @usableFromInline var _invalidation: Invalidation?
    /// The layers used less often — edits, the more lane of a paged list, the
    /// queue — on the heap, so a plain load copies and compares one word for
    /// them. `nil` until one is used.
    @usableFromInline var _layers: LayerBox<Value, Failure>?

    /// How a chain of loads settled: the state a cancellation returns to.
    @usableFromInline
    enum Settled: Equatable {
        case notLoaded
        case success
        case failure(Failure)
    }

    /// Creates a loadable in `.notLoaded`.
    @inlinable
    public init() {
        _value = nil
        _partial = nil
        _settled = .notLoaded
        _inFlightID = nil
        _newestID = nil
        _attempts = nil
        _lastFailure = nil
        _settledAt = nil
        _invalidation = nil
        _layers = nil
    }

    /// Creates a loadable that already holds `value`, as `.success(value:)`.
    @inlinable
    public init(value: Value) {
        self.init()
        _value = value
        _settled = .success
    }

    // MARK: What a screen reads

    /// The current state, as an ``AsyncState/AsyncState``: `.refreshing` or
    /// `.loading` while a load is in flight, else the settled state. Its
    /// value is ``value``, the value shown.
    @inlinable
    public var state: AsyncState<Value, Failure> {
        if _inFlightID != nil { return value.map { .refreshing(value: $0) } ?? .loading }
        switch _settled {
        case .notLoaded: return .notLoaded
        case .failure(let failure): return .error(error: failure)
        case .success: return value.map { .success(value: $0) } ?? .notLoaded
        }
    }

    /// The value to show: the last successful (or locally set) value, kept
    /// through reloads and failures — or, while the load in flight reports
    /// ``LoadAction/progress(_:_:)``, its partial value — with the pending
    /// optimistic edits applied on top.
    ///
    /// Unlike ``AsyncState/AsyncState/value``, this stays non-`nil` while
    /// reloading and in `.error`: use it to decide whether there is content
    /// to show.
    @inlinable
    public var value: Value? { Self.shown(_layers, partial: _partial, confirmed: _value) }

    /// What ``value`` shows, from the fields it reads: the edited value while
    /// edits show, else the partial value, else the confirmed one. Static so
    /// that a host can pass the fields where they are stored.
    @inlinable
    static func shown(_ layers: LayerBox<Value, Failure>?, partial: Value?, confirmed: Value?) -> Value? {
        if let layers, layers._contents._edits.isShowing { return layers._contents._edits._shown }
        return partial ?? confirmed
    }

    /// The confirmed value, without the pending edits: the last success or
    /// value set, with the confirmed edits applied.
    @inlinable
    public var confirmedValue: Value? { _value }

    /// The partial value reported by the load in flight, or `nil`. It lasts
    /// only as long as the attempt that reported it: a retry, a failure or a
    /// cancellation returns ``value`` to the last settled value.
    @inlinable
    public var partialValue: Value? { _partial }

    /// Why the load in flight runs — first load, refresh, retry after a
    /// failure — and which attempt it is on; `nil` when nothing is in flight.
    @inlinable
    public var activity: LoadActivity<Failure>? {
        guard let attempts = _attempts else { return nil }
        return LoadActivity(attempts, lastFailure: _lastFailure)
    }

    /// The state this loadable returns to when its newest load is cancelled:
    /// the state before the current chain of overlapping loads began.
    /// Always `.notLoaded`, `.success` or `.error`; its value is the
    /// confirmed value.
    @inlinable
    public var settledState: AsyncState<Value, Failure> {
        switch _settled {
        case .notLoaded: .notLoaded
        case .failure(let failure): .error(error: failure)
        case .success: _value.map { .success(value: $0) } ?? .notLoaded
        }
    }

    /// The ID of the load whose result will be applied, or `nil` when settled.
    @inlinable
    public var inFlightID: LoadID? { _inFlightID }

    /// The newest ID ever started or queued here; a `.started` action must
    /// be newer, or queued.
    @inlinable
    public var newestID: LoadID? { _newestID }

    /// The failure of the latest settled load, or `nil` — also while a load
    /// is in flight, which a banner should not show as failed.
    @inlinable
    public var error: Failure? {
        guard _inFlightID == nil, case .failure(let failure) = _settled else { return nil }
        return failure
    }

    /// Whether a load is in flight.
    @inlinable
    public var isLoading: Bool { _inFlightID != nil }

    // MARK: Applying actions

    /// Applies `action` to the state machine alone and says whether it was
    /// applied or dropped as stale. A dropped action changes nothing.
    ///
    /// Inside a reducer, return ``reduce(_:)`` instead: it applies the action
    /// the same way, and its effect also cancels the work of a superseded load
    /// and reports a drop to the store. `apply` does neither, which is why its
    /// result may not be ignored.
    ///
    /// | action | newest load | otherwise |
    /// |---|---|---|
    /// | `.started(id)` | `id` newer than every ID seen, or queued: `.refreshing(value:)` if a value is known, else `.loading` | dropped |
    /// | `.finished(id, v)` | `.success(value: v)`, and `v` becomes the confirmed value (a paged list's oldest pages past its ``window`` go) | dropped |
    /// | `.failed(id, e)` | `.error(error: e)`; ``value`` stays readable | dropped |
    /// | `.cancelled(id)` | back to ``settledState``; a queued `id` leaves the queue | dropped |
    /// | `.retrying(id, r)` | stays loading, without a partial value; ``activity`` moves to attempt `r.attempt + 1` | dropped |
    /// | `.progress(id, v)` | `.refreshing(value: v)`; ``value`` is `v` until the load settles | dropped |
    /// | `.planned(id, n)` | ``activity`` says `n` attempts | dropped |
    /// | `.queued(id)` | `id` newer than every ID seen: it waits in ``queuedIDs`` | dropped |
    /// | `.at(t, a)` | `a` applied; a `.finished` records `t` as ``settledAt`` | as `a` |
    /// | `.edit(e)`, `.more(r, a)` | see ``EditAction`` and ``loadMore(_:_:overlap:)`` | |
    ///
    /// `.started` also sets ``activity``, which every settling action clears.
    @inlinable
    public mutating func apply(_ action: LoadAction<Value, Failure>) -> LoadDisposition {
        switch action {
        case .started(let id):
            return start(id)
        case .finished(let id, let newValue):
            return finish(id, newValue, at: nil)
        case .failed(let id, let failure):
            guard id == _inFlightID else { return .dropped }
            settle(.failure(failure))
        case .cancelled(let id):
            guard id == _inFlightID else { return leaveQueue(id) }
            settle(_settled)
        case .retrying(let id, let retry):
            guard id == _inFlightID else { return .dropped }
            // A retry starts the attempt over, so what it streamed is gone.
            if let attempts = _attempts {
                _attempts = attempts.retrying(retry)
                _lastFailure = retry.failure
            }
            if _partial.isSome {
                _partial = nil
                refreshShown()
            }
        case .progress(let id, let partial):
            guard id == _inFlightID else { return .dropped }
            showProgress(partial)
        case .planned(let id, let attempts):
            guard id == _inFlightID else { return .dropped }
            _attempts = _attempts?.planning(attempts)
        case .queued(let id):
            return enterQueue(id)
        case .more:
            // The whole action, its parts bound where they are used: binding
            // the inner action, or only the request beside it, copied the
            // pair out of its box and destroyed it through value witnesses.
            return applyMore(action)
        case .edit(let edit):
            return applyEdit(edit)
        case .at(let instant, .finished(let id, let newValue)):
            return finish(id, newValue, at: instant)
        case .at(_, let action):
            return apply(action)
        }
        return .applied
    }

    /// `.started(id)`: admitted when `id` is newer than every ID seen here,
    /// or waits in the queue.
    @inlinable
    mutating func start(_ id: LoadID) -> LoadDisposition {
        if let newest = _newestID, id <= newest {
            guard let layers = _layers, layers._contents._queued.contains(id) else { return .dropped }
            startQueued(id)
        } else {
            _newestID = id
            if _layers != nil { startedLoad(superseding: id) }
        }
        _inFlightID = id
        // As `LoadActivity(startingFrom: settledState, hasValue:)`, in place.
        if case .failure(let failure) = _settled {
            _lastFailure = failure
        } else {
            _lastFailure = nil
        }
        _attempts = LoadAttempts(startingAfterFailure: _lastFailure.isSome, hasValue: _value.isSome)
        if _partial.isSome {
            // What a superseded load streamed is gone; the edits go back on the confirmed value.
            _partial = nil
            refreshShown()
        }
        return .applied
    }

    /// `.finished(id, newValue)` that arrived at `instant`, if stamped.
    @inlinable
    mutating func finish(_ id: LoadID, _ newValue: consuming Value, at instant: LoadClock.Instant?) -> LoadDisposition {
        guard id == _inFlightID else { return .dropped }
        if let layers = _layers, !layers._contents._edits._unreflected.isEmpty {
            _value = layers._contents._edits.reapplyingConfirmed(to: newValue)
        } else {
            _value = newValue
        }
        _settledAt = instant
        if let invalidation = _invalidation, !invalidation.overtakes(id) { _invalidation = nil }
        if let layers = _layers {
            // A refetch of every page shown may bring more than the window.
            if let window = layers._contents._window, _value.isSome { Self.keep(window, of: &_value!) }
            // The list is replaced: a failed "load more" of the old one is moot.
            if layers._contents._more._error.isSome { withLayers { $0._more._error = nil } }
        }
        settle(.success)
        return .applied
    }

    /// Ends the chain of loads in `settled`.
    @inlinable
    mutating func settle(_ settled: Settled) {
        _settled = settled
        _inFlightID = nil
        _attempts = nil
        _lastFailure = nil
        _partial = nil
        if _layers != nil { laneSettled() }
    }

    // MARK: Changing the value directly

    /// Stores a value that did not come from a load's final result — a value
    /// computed locally, or one kept from a stream before cancelling it.
    ///
    /// While a load is in flight the state becomes `.refreshing(value:)` (a
    /// value arriving during a refresh keeps the indicator); otherwise
    /// `.success(value:)`. Cancelling the load afterwards returns to this
    /// value. It does not change ``settledAt``: use ``setValue(_:at:)`` for
    /// a value as fresh as a load's.
    @inlinable
    public mutating func setValue(_ newValue: Value) {
        _value = newValue
        _partial = nil
        _settled = .success
        if _layers != nil {
            // No binding of the box held across `refreshShown`: a second
            // reference would make its `withLayers` copy the box.
            if let window = _layers?._contents._window { Self.keep(window, of: &_value!) }
            refreshShown()
        }
    }

    /// Returns to `.notLoaded` and forgets the value, its age, the pending
    /// edits and the pages; a paged list keeps its ``window``. A load in
    /// flight is abandoned: its result will be dropped as stale. So are the
    /// queued loads, the "load more" and the pending edits, whose work runs
    /// on unless the reducer cancels it too — read their IDs first
    /// (``queuedIDs``, ``moreID``, ``pendingEdits``); ``AsyncValue/reset()``
    /// cancels all of it.
    ///
    /// - Returns: the abandoned load's ID, so a reducer can also cancel its work.
    @inlinable
    @discardableResult
    public mutating func reset() -> LoadID? {
        let abandoned = _inFlightID
        let newest = _newestID
        let window = _layers?._contents._window
        self = Loadable()
        _newestID = newest
        if let window { withLayers { $0._window = window } }
        return abandoned
    }

    /// Cancels the load in flight at once, returning to ``settledState``.
    /// Loads waiting in the queue stay queued, and the more lane and the
    /// edits are not touched (``cancelMore()``, ``cancel(edit:)``).
    ///
    /// - Returns: the cancelled load's ID, or `nil` if nothing was in flight.
    @inlinable
    @discardableResult
    public mutating func cancel() -> LoadID? {
        guard let id = _inFlightID else { return nil }
        _ = apply(.cancelled(id))
        return id
    }

    /// Cancels load `id` at once, whichever lane it is in: the load in
    /// flight, a load waiting in the queue (which leaves it and never starts),
    /// the "load more" in flight, or a pending edit (rolled back).
    ///
    /// - Returns: `id` if it was there, so a reducer can also cancel its work
    ///   with ``Effect/cancel(load:)``; `nil` if it was unknown or settled.
    @inlinable
    @discardableResult
    public mutating func cancel(load id: LoadID) -> LoadID? {
        if id == _inFlightID { return cancel() }
        if queuedIDs.contains(id) { return leaveQueue(id) == .applied ? id : nil }
        if id == moreID { return cancelMore() }
        return cancel(edit: id)
    }
}

extension Loadable: Sendable where Value: Sendable, Failure: Sendable {}
extension Loadable.Settled: Sendable where Failure: Sendable {}
extension Loadable: Hashable where Value: Hashable, Failure: Hashable {
    /// Hashes the state and the load bookkeeping.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(_value)
        hasher.combine(_inFlightID)
        hasher.combine(_newestID)
        hasher.combine(_settledAt)
    }
}

extension Loadable: CustomReflectable {
    /// The public fields, under their public names, for dumps and snapshots.
    /// The layers appear only once used, so a plain load's snapshot lists
    /// what it has.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [
            ("state", state as Any),
            ("value", value as Any),
            ("settledState", settledState as Any),
            ("inFlightID", inFlightID as Any),
            ("newestID", newestID as Any),
            ("activity", activity as Any),
            ("partialValue", partialValue as Any),
        ]
        if _settledAt != nil || _invalidation != nil {
            children.append(("settledAt", _settledAt as Any))
            children.append(("isInvalidated", isInvalidated as Any))
            // Where the mark is, so a step that only moves it shows in a diff.
            if let invalidation = _invalidation { children.append(("invalidatedBefore", invalidation._newestBefore as Any)) }
        }
        if let layers = _layers?._contents {
            children += layers.mirrorChildren(confirmed: _value)
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

extension Loadable: CustomStringConvertible {
    /// The state, followed by the load in flight, e.g. `refreshing(value: 3) (#2 in flight)`.
    public var description: String {
        var text = state.description
        if case .error = state, let value { text += " (last value: \(describeValue(value)))" }
        if let inFlightID { text += " (\(inFlightID) in flight)" }
        if let activity, activity.isRetry { text += " (\(activity))" }
        if let layers = _layers?._contents { text += layers.descriptionSuffix }
        if isInvalidated { text += " (invalidated)" }
        return text
    }
}
