/// The optimistic-edit layer of a ``Loadable``: the pending edits, in start
/// order, shown on top of the confirmed value; the edits confirmed while a
/// load that may predate them runs; conflicts and the last failure.
///
/// The rules, each written once here:
///
/// - What is shown is the base — the partial value of the load in flight,
///   else the confirmed value — with every pending edit applied in order.
/// - A confirmed edit joins the confirmed value, and is remembered as
///   *unreflected* while any load that may have read the server before it
///   runs; that load's partial and final values get it again, so nothing
///   confirmed is lost. A load started later reads the server after it.
/// - A failed or cancelled edit leaves alone: only its own edit is rolled back.
/// - A pending edit that does not apply to the base is kept, unshown, as a
///   conflict, until it applies again or its edit settles.
@usableFromInline
struct EditLayer<Value: Equatable, Failure: Equatable>: Equatable {
    /// The pending edits' IDs and edits, in start order. Two arrays searched
    /// linearly rather than a hashed collection: a screen has a few edits in
    /// flight, and a hashed index would allocate for each.
    @usableFromInline var _pendingIDs: [LoadID] = []
    @usableFromInline var _pendingEdits: [AnyEdit<Value>] = []
    /// Edits confirmed while a load that may have read the server before them
    /// runs; cleared when a load starts or every lane settles.
    @usableFromInline var _unreflected: [AnyEdit<Value>] = []
    /// The base with the pending edits applied; meaningful while an edit is
    /// pending (`isShowing`).
    @usableFromInline var _shown: Value?
    /// Pending edits that do not apply to the base now.
    @usableFromInline var _conflicts: [LoadID] = []
    /// The newest edit ever started; a start must be newer.
    @usableFromInline var _newestID: LoadID?
    /// The failure of the last edit that failed, until another starts.
    @usableFromInline var _error: Failure?

    @inlinable
    init() {}

    /// Whether pending edits decide what is shown.
    @inlinable
    var isShowing: Bool { !_pendingIDs.isEmpty }

    /// Whether the layer holds nothing a value would show or compare.
    @inlinable
    var isEmpty: Bool { _pendingIDs.isEmpty && _unreflected.isEmpty && !_error.isSome && _newestID == nil }

    /// The pending edits by ID, in start order.
    var pending: KeyedStates<LoadID, AnyEdit<Value>> { KeyedStates(zip(_pendingIDs, _pendingEdits)) }

    /// `value` with the unreflected confirmed edits applied again.
    @inlinable
    func reapplyingConfirmed(to value: consuming Value) -> Value {
        for edit in _unreflected { _ = edit.apply(to: &value) }
        return value
    }

    /// Recomputes what is shown over `base`: one copy of it and one
    /// application per pending edit.
    @inlinable
    mutating func show(on base: Value?) {
        if !_conflicts.isEmpty { _conflicts.removeAll() }
        guard var shown = base, isShowing else {
            _shown = nil
            return
        }
        for (id, edit) in zip(_pendingIDs, _pendingEdits) where !edit.apply(to: &shown) {
            _conflicts.append(id)
        }
        _shown = shown
    }

    /// A load started: every edit confirmed so far is on the server it reads.
    @inlinable
    mutating func loadStarted() {
        if !_unreflected.isEmpty { _unreflected.removeAll() }
    }

    /// No lane is in flight: no load left can predate a confirmed edit.
    @inlinable
    mutating func lanesSettled() {
        if !_unreflected.isEmpty { _unreflected.removeAll() }
    }

    /// Removes edit `id`; returns its edit if it was pending.
    @inlinable
    mutating func removePending(_ id: LoadID) -> AnyEdit<Value>? {
        guard let index = _pendingIDs.firstIndex(of: id) else { return nil }
        _pendingIDs.remove(at: index)
        return _pendingEdits.remove(at: index)
    }
}

extension EditLayer: Sendable where Value: Sendable, Failure: Sendable {}

extension Loadable {
    /// The pending optimistic edits by ID, in start order — each shown on top
    /// of the confirmed value until its request settles. A row's "saving…"
    /// mark reads it.
    public var pendingEdits: KeyedStates<LoadID, AnyEdit<Value>> { _layers?._contents._edits.pending ?? KeyedStates() }

    /// Whether edit `id` is pending.
    @inlinable
    public func isPending(edit id: LoadID) -> Bool { _layers?._contents._edits._pendingIDs.contains(id) ?? false }

    /// Pending edits that do not apply to the value now (their row is gone),
    /// so are not shown; they stay pending until they apply again or settle.
    @inlinable
    public var conflicts: [LoadID] { _layers?._contents._edits._conflicts ?? [] }

    /// The failure of the last edit whose request failed, until another edit
    /// starts — an error banner over the rows.
    @inlinable
    public var editError: Failure? { _layers?._contents._edits._error }

    /// The ID of the newest pending edit, which the ``OverlapPolicy`` of a
    /// new edit is measured against.
    @inlinable
    var newestPendingEdit: LoadID? { _layers?._contents._edits._pendingIDs.last }

    /// The pending edits' IDs, in start order.
    @inlinable
    var pendingEditIDs: [LoadID] { _layers?._contents._edits._pendingIDs ?? [] }

    /// Rolls edit `id` back at once, as if it were cancelled.
    ///
    /// - Returns: `id` if it was pending, so a reducer can also cancel its
    ///   request with ``Effect/cancel(load:)``; `nil` if unknown or settled.
    @inlinable
    @discardableResult
    public mutating func cancel(edit id: LoadID) -> LoadID? {
        applyEdit(.cancelled(id)) == .applied ? id : nil
    }

    /// Applies an edit's action; see the table in ``EditAction``.
    @inlinable
    @inline(never)
    mutating func applyEdit(_ action: EditAction<Value, Failure>) -> LoadDisposition {
        switch action {
        case .started(let id, let edit):
            if let newest = _layers?._contents._edits._newestID, id <= newest { return .dropped }
            let base = _partial ?? _value
            withLayers { layers in
                let wasShowing = layers._edits.isShowing
                layers._edits._newestID = id
                layers._edits._pendingIDs.append(id)
                layers._edits._pendingEdits.append(edit)
                layers._edits._error = nil
                guard wasShowing else { return layers._edits.show(on: base) }
                // The new edit goes on top: apply it alone instead of recomputing.
                if !layers._edits._shown.isSome || !edit.apply(to: &layers._edits._shown!) {
                    if base.isSome { layers._edits._conflicts.append(id) }
                }
            }
        case .confirmed(let id):
            guard isPending(edit: id), let edit = withLayers({ $0._edits.removePending(id) }) else { return .dropped }
            if var confirmed = _value, edit.apply(to: &confirmed) { _value = confirmed }
            // What the load in flight streamed may predate the edit too.
            if var partial = _partial, edit.apply(to: &partial) { _partial = partial }
            let mayPredate = _inFlightID != nil || _layers?._contents._more._inFlight != nil
            let base = _partial ?? _value
            withLayers { layers in
                if mayPredate { layers._edits._unreflected.append(edit) }
                layers._edits.show(on: base)
            }
        case .failed(let id, let failure):
            guard isPending(edit: id) else { return .dropped }
            _ = withLayers { $0._edits.removePending(id) }
            let base = _partial ?? _value
            withLayers { layers in
                layers._edits._error = failure
                layers._edits.show(on: base)
            }
        case .cancelled(let id):
            guard isPending(edit: id) else { return .dropped }
            _ = withLayers { $0._edits.removePending(id) }
            let base = _partial ?? _value
            withLayers { $0._edits.show(on: base) }
        case .retrying(let id, _):
            // An edit being retried stays pending: its edit stays shown.
            return isPending(edit: id) ? .applied : .dropped
        }
        return .applied
    }
}
