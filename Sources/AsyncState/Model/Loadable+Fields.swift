// The fields of a loadable, set one by one — for the testing library, which
// lets a test describe the state a step should leave by value
// (`Loadable(expecting:…)`) instead of replaying actions through `apply`,
// which would check the state machine against itself.

extension Loadable {
    /// Every stored field of a loadable, by its public name.
    package struct Fields {
        package var confirmedValue: Value?
        package var partialValue: Value?
        package var settledState: AsyncState<Value, Failure>
        package var inFlightID: LoadID?
        package var newestID: LoadID?
        package var activity: LoadActivity<Failure>?
        package var settledAt: LoadClock.Instant?
        /// `.some(id)`: invalidated when `id` was the newest load started (not queued).
        package var invalidatedBefore: LoadID??
        package var queuedIDs: [LoadID] = []
        package var pendingEdits: [(LoadID, AnyEdit<Value>)] = []
        package var reappliedEdits: [AnyEdit<Value>] = []
        package var conflicts: [LoadID] = []
        package var editError: Failure?
        package var newestEditID: LoadID?
        package var loadingMore: (id: LoadID, request: PageRequest)?
        package var newestMoreID: LoadID?
        package var moreActivity: LoadActivity<Failure>?
        package var moreError: Failure?
        package var window: Int?

        package init(settledState: AsyncState<Value, Failure>) {
            self.settledState = settledState
        }
    }

    /// A loadable with exactly these fields; its state and value shown follow
    /// from them, as in any loadable.
    package init(fields: Fields) {
        self.init()
        _value = fields.confirmedValue
        _partial = fields.partialValue
        switch fields.settledState {
        case .error(let failure): _settled = .failure(failure)
        case .success(let value):
            _settled = .success
            if !_value.isSome { _value = value }
        case .notLoaded, .loading, .refreshing: _settled = .notLoaded
        }
        _inFlightID = fields.inFlightID
        _newestID = fields.newestID
        if let activity = fields.activity {
            _attempts = LoadAttempts(activity)
            _lastFailure = activity.lastFailure
        } else {
            _attempts = nil
            _lastFailure = nil
        }
        _settledAt = fields.settledAt
        _invalidation = fields.invalidatedBefore.map { Invalidation(newestBefore: $0) }
        var layers = LoadLayers<Value, Failure>()
        layers._queued = fields.queuedIDs
        layers._edits._pendingIDs = fields.pendingEdits.map(\.0)
        layers._edits._pendingEdits = fields.pendingEdits.map(\.1)
        layers._edits._unreflected = fields.reappliedEdits
        layers._edits._newestID = fields.newestEditID
        layers._edits._error = fields.editError
        layers._edits.show(on: _partial ?? _value)
        if !fields.conflicts.isEmpty { layers._edits._conflicts = fields.conflicts }
        layers._more._inFlight = fields.loadingMore.map { MoreLane.InFlight(id: $0.id, request: $0.request) }
        layers._more._newestID = fields.newestMoreID
        layers._more._activity = fields.moreActivity
        layers._more._error = fields.moreError
        // Clamped as `Loadable(window:)` clamps it: a window below one page keeps one.
        layers._window = fields.window.map { max($0, 1) }
        if !layers.isEmpty { _layers = LayerBox(layers) }
    }

    /// The ID after every one this loadable has seen started or queued, in
    /// each lane: where a store hosting it numbers its loads from, so that
    /// they are newer.
    @usableFromInline
    var idAfterRecorded: LoadID {
        // No array of the lanes' IDs: a cache makes a host for every key it
        // adds, mostly from an empty loadable, which has no layers.
        var newest = _newestID
        func consider(_ id: LoadID?) {
            if let id, newest.map({ id > $0 }) ?? true { newest = id }
        }
        if let layers = _layers?._contents {
            consider(layers._more._newestID)
            consider(layers._edits._newestID)
            // Queued IDs are at most `newestID` in a loadable its actions
            // built; one written by its fields (`Loadable(expecting:)`) may
            // say otherwise.
            for id in layers._queued { consider(id) }
        }
        guard let newest else { return LoadID(1) }
        // The last ID has no next: the store reports it as a first ID.
        return newest.rawValue == .max ? newest : newest.next
    }

    /// The newest edit ever started here; an edit's start must be newer.
    @inlinable
    public var newestEditID: LoadID? { _layers?._contents._edits._newestID }

    /// The newest "load more" ever started here; a start must be newer.
    @inlinable
    public var newestMoreID: LoadID? { _layers?._contents._more._newestID }

    /// Edits confirmed while a load that may have read the server before them
    /// runs: that load's values get them again when they arrive.
    @inlinable
    public var reappliedEdits: [AnyEdit<Value>] { _layers?._contents._edits._unreflected ?? [] }

    /// The newest load started before the last ``invalidate()`` — not one
    /// that was queued, which starts after it: `nil` if the value is not
    /// invalidated, `.some(nil)` if no load had started.
    @inlinable
    public var invalidatedBefore: LoadID?? { _invalidation.map { $0._newestBefore } }
}
