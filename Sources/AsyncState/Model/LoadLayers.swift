// The layers of a `Loadable` used less often than a plain load — optimistic
// edits, the more lane of a paged list, the queue — and how the value lane
// tells them what happened. They live on the heap, in one copy-on-write box,
// so a plain load copies, compares and destroys one word for all of them.

/// The state of a loadable's less used layers.
@usableFromInline
struct LoadLayers<Value: Equatable, Failure: Equatable>: Equatable {
    /// The optimistic edits.
    @usableFromInline var _edits = EditLayer<Value, Failure>()
    /// The more lane of a paged list.
    @usableFromInline var _more = MoreLane<Failure>()
    /// The most pages a paged list keeps; `nil` keeps every page.
    @usableFromInline var _window: Int?
    /// Loads waiting their turn (`OverlapPolicy.queue`), oldest first.
    @usableFromInline var _queued: [LoadID] = []

    @inlinable
    init() {}

    /// Whether any layer still holds something — a box that holds nothing
    /// compares equal to no box at all.
    @inlinable
    var isEmpty: Bool { _edits.isEmpty && _more.isEmpty && _window == nil && _queued.isEmpty }
}

extension LoadLayers: Sendable where Value: Sendable, Failure: Sendable {}

/// The box that holds a loadable's layers, copied before it is changed when
/// another loadable shares it.
///
/// Why `@unchecked Sendable` is safe: the box is changed only through
/// `Loadable.withLayers`, which first makes sure the loadable holds the only
/// reference (`isKnownUniquelyReferenced`), copying the box if not. So a box
/// that two values — and so possibly two threads — can reach is never
/// changed again; each reads its own immutable contents, as the copies of an
/// `Array`'s buffer do. It is `Sendable` only when its contents are.
@usableFromInline
final class LayerBox<Value: Equatable, Failure: Equatable>: @unchecked Sendable {
    // Unchecked: the only write is `withLayers`' `inout` on a box the
    // loadable holds uniquely, which runs no code that could reach the box
    // again. Checked, every read of `value` called `swift_beginAccess`, an
    // opaque call that made the optimizer copy the whole loadable out of a
    // store first (≈ 30 ns a read; BENCHMARKS.md, step 19).
    @exclusivity(unchecked) @usableFromInline var _contents: LoadLayers<Value, Failure>

    @inlinable
    init(_ contents: LoadLayers<Value, Failure>) {
        _contents = contents
    }
}

extension LayerBox: Equatable {
    @inlinable
    static func == (lhs: LayerBox, rhs: LayerBox) -> Bool {
        lhs === rhs || lhs._contents == rhs._contents
    }
}

extension Loadable {
    /// Equal when every field is, a box of empty layers counting as none.
    @inlinable
    public static func == (lhs: Loadable, rhs: Loadable) -> Bool {
        lhs._value == rhs._value && lhs._partial == rhs._partial && lhs._settled == rhs._settled
            && lhs._inFlightID == rhs._inFlightID && lhs._newestID == rhs._newestID && lhs._attempts == rhs._attempts
            && lhs._lastFailure == rhs._lastFailure
            && lhs._settledAt == rhs._settledAt && lhs._invalidation == rhs._invalidation
            && sameLayers(lhs._layers, rhs._layers)
    }

    /// Whether two loadables' layers are equal, without comparing contents
    /// when neither has a box or both share one: a store compares a
    /// loadable its views read after every action, and comparing the
    /// layers' contents (unspecialized, with two empty ones made for want
    /// of a box) cost about 3,000 instructions (BENCHMARKS.md, issue 26).
    @inlinable
    static func sameLayers(_ lhs: LayerBox<Value, Failure>?, _ rhs: LayerBox<Value, Failure>?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs === rhs || lhs._contents == rhs._contents
        case (let box?, nil), (nil, let box?): box._contents.isEmpty
        }
    }

    /// Changes the layers in place, making the box first, or copying it when
    /// another value shares it.
    @inlinable
    mutating func withLayers<Result>(_ body: (inout LoadLayers<Value, Failure>) -> Result) -> Result {
        if _layers == nil {
            _layers = LayerBox(LoadLayers())
        } else if !isKnownUniquelyReferenced(&_layers!) {
            _layers = LayerBox(_layers!._contents)
        }
        return body(&_layers!._contents)
    }

    // MARK: The queue

    /// The loads waiting their turn behind the one in flight
    /// (``OverlapPolicy/queue``), oldest first.
    @inlinable
    public var queuedIDs: [LoadID] { _layers?._contents._queued ?? [] }

    /// `.queued(id)`: load `id` waits its turn.
    @inlinable
    mutating func enterQueue(_ id: LoadID) -> LoadDisposition {
        if let newest = _newestID, id <= newest { return .dropped }
        _newestID = id
        withLayers { $0._queued.append(id) }
        return .applied
    }

    /// `.cancelled(id)` of a load not in flight: a queued load leaves the
    /// queue before its turn; anything else is stale.
    @inlinable
    mutating func leaveQueue(_ id: LoadID) -> LoadDisposition {
        guard let layers = _layers, let index = layers._contents._queued.firstIndex(of: id) else { return .dropped }
        withLayers { _ = $0._queued.remove(at: index) }
        return .applied
    }

    /// Queued load `id` takes its turn: it and the loads queued before it
    /// leave the queue (those before it, if any are left, were overtaken).
    @inlinable
    mutating func startQueued(_ id: LoadID) {
        withLayers { layers in
            layers._queued.removeAll { $0 <= id }
            layers._more.supersede()
            layers._edits.loadStarted()
        }
    }

    // MARK: What the value lane tells the layers

    /// A load newer than every one seen started: it supersedes the loads
    /// queued before it and the "load more" in flight, and every edit
    /// confirmed so far is on the server it reads.
    @inlinable
    mutating func startedLoad(superseding id: LoadID) {
        withLayers { layers in
            layers._queued.removeAll { $0 < id }
            layers._more.supersede()
            layers._edits.loadStarted()
        }
    }

    /// The value lane settled: with no lane in flight, no load can have read
    /// the server before an edit any more; the value shown follows.
    @inlinable
    mutating func laneSettled() {
        let moreInFlight = _layers?._contents._more._inFlight != nil
        // The base only while edits show: a copy of a paged list's value
        // retains both of its arrays.
        let base = _layers?._contents._edits.isShowing == true ? _value : nil
        withLayers { layers in
            if !moreInFlight { layers._edits.lanesSettled() }
            layers._edits.show(on: base)
        }
    }

    /// Shows `partial`, the load in flight's progress, with the edits
    /// confirmed since it started applied again, and the pending edits on top.
    @inlinable
    mutating func showProgress(_ partial: Value) {
        guard let layers = _layers else {
            _partial = partial
            return
        }
        var partial = partial
        if let window = layers._contents._window { Self.keep(window, of: &partial) }
        guard !layers._contents._edits.isEmpty else {
            _partial = partial
            return
        }
        _partial = layers._contents._edits.reapplyingConfirmed(to: partial)
        refreshShown()
    }

    /// Recomputes the value shown from the base — the partial value, else the
    /// confirmed one — and the pending edits.
    @inlinable
    mutating func refreshShown() {
        guard let layers = _layers, layers._contents._edits.isShowing else { return }
        let base = _partial ?? _value
        withLayers { $0._edits.show(on: base) }
    }
}

extension LoadLayers {
    /// The layers' fields for a loadable's mirror, each only once its layer
    /// is used.
    func mirrorChildren(confirmed: Value?) -> [(label: String?, value: Any)] {
        var children: [(label: String?, value: Any)] = []
        if !_queued.isEmpty { children.append(("queuedIDs", _queued as Any)) }
        if !_edits.isEmpty || _edits._newestID != nil {
            children.append(("confirmedValue", confirmed as Any))
            children.append(("pendingEdits", _edits.pending as Any))
            children.append(("reappliedEdits", _edits._unreflected as Any))
            children.append(("conflicts", _edits._conflicts as Any))
            children.append(("editError", _edits._error as Any))
            children.append(("newestEditID", _edits._newestID as Any))
        }
        if !_more.isEmpty {
            children.append(("loadingMore", _more._inFlight?.request as Any))
            children.append(("moreID", _more._inFlight?.id as Any))
            children.append(("moreActivity", _more._activity as Any))
            children.append(("moreError", _more._error as Any))
            children.append(("newestMoreID", _more._newestID as Any))
        }
        if let window = _window { children.append(("window", window as Any)) }
        return children
    }

    /// What a loadable's description adds for its layers.
    var descriptionSuffix: String {
        var text = ""
        if !_queued.isEmpty { text += " (queued: " + _queued.map(\.description).joined(separator: ", ") + ")" }
        if !_edits.pending.isEmpty {
            text += " (pending: " + _edits.pending.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        if let error = _edits._error { text += " [edit error: \(describeValue(error))]" }
        if let more = _more._inFlight { text += " (\(more.id) loading \(more.request))" }
        if let error = _more._error { text += " [more error: \(describeValue(error))]" }
        return text
    }
}
