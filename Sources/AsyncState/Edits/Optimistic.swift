/// A value shown with pending local edits on top of its confirmed value — an
/// optimistic update that undoes cleanly.
///
/// What is shown, ``value``, is always the ``confirmed`` value with the
/// ``pending`` edits applied in the order their mutations started. Each
/// mutation has its own ``LoadID``, given by the store like any load's, and
/// ``apply(_:)`` keeps these rules:
///
/// | what happens | outcome |
/// |---|---|
/// | mutation `id` starts with edit `e` | `e` is pending and shown at once |
/// | mutation `id` finishes | its edit joins the confirmed value; only its own edit leaves ``pending`` |
/// | a confirmed edit does not apply to the confirmed value | the confirmed value stays as it is; the next load brings the server's |
/// | mutation `id` fails or is cancelled | only its own edit is rolled back; ``mutationError`` records a failure |
/// | a load settles while edits are pending | it replaces the confirmed value; the pending edits are applied on top again |
/// | a load that started before a mutation was confirmed settles after it | the confirmed edit is applied on top of the load's value again, so it is not lost |
/// | a rollback after a newer load | the newer value stays; only the edit leaves |
/// | a confirm, rollback or cancel of a mutation that is unknown or already settled | dropped, and reported as dropped; nothing changes |
/// | a pending edit that no longer applies to a newer confirmed value | kept pending but not shown, and listed in ``conflicts`` until it applies again or its mutation settles |
///
/// Nothing confirmed is ever lost: a confirmed edit is part of the confirmed
/// value, and is applied again on the result of the one load that could have
/// read the server before it.
///
/// ```swift
/// var posts = Optimistic<PostEdit, LoadError>(confirmed: [Post(id: 1)])
/// _ = posts.apply(.mutation(.like(postID: 1), .started(LoadID(1))))
/// posts.value        // post 1 liked, at once
/// _ = posts.apply(.mutation(.like(postID: 1), .failed(LoadID(1), .offline)))
/// posts.value        // post 1 as confirmed again
/// ```
public struct Optimistic<Change: Edit, Failure: Equatable>: Equatable where Change.Value: Equatable {
    public typealias Value = Change.Value

    /// The confirmed lane: loads replace its value, confirmed edits join it.
    @usableFromInline var _confirmed: Loadable<Value, Failure>
    /// The mutations in flight and their edits, in start order. Two arrays
    /// searched linearly rather than a hashed collection: a screen has a few
    /// mutations in flight, and a hashed index would allocate for each.
    @usableFromInline var _pendingIDs: [LoadID]
    @usableFromInline var _pendingEdits: [Change]
    /// Edits confirmed while the load in flight was already running: that
    /// load may have read the server before them, so they are applied again
    /// on its value. Cleared whenever a load starts or settles.
    @usableFromInline var _unreflected: [Change]
    /// The confirmed value with the pending edits applied.
    @usableFromInline var _shown: Value?
    @usableFromInline var _conflicts: [LoadID]
    @usableFromInline var _newestMutationID: LoadID?
    @usableFromInline var _mutationError: Failure?

    /// A value with nothing confirmed yet; edits wait for the first load.
    @inlinable
    public init() {
        self.init(_confirmed: Loadable())
    }

    /// A value whose confirmed value is `confirmed`.
    @inlinable
    public init(confirmed: Value) {
        self.init(_confirmed: Loadable(value: confirmed))
    }

    @inlinable
    init(_confirmed: Loadable<Value, Failure>) {
        self._confirmed = _confirmed
        _pendingIDs = []
        _pendingEdits = []
        _unreflected = []
        _shown = _confirmed.value
        _conflicts = []
        _newestMutationID = nil
        _mutationError = nil
    }

    /// What to show: the confirmed value with the pending edits applied in order.
    @inlinable
    public var value: Value? { _shown }

    /// The confirmed lane, as a ``Loadable``: its value, load state and error.
    @inlinable
    public var confirmed: Loadable<Value, Failure> { _confirmed }

    /// The edits of the mutations in flight, by mutation ID, in start order.
    /// Built when read, in O(pending).
    @inlinable
    public var pending: KeyedStates<LoadID, Change> { KeyedStates(zip(_pendingIDs, _pendingEdits)) }

    /// Pending mutations whose edits do not apply to the confirmed value now,
    /// so are not shown; they stay pending until their mutation settles.
    @inlinable
    public var conflicts: [LoadID] { _conflicts }

    /// The failure of the last mutation that failed, until another mutation starts.
    @inlinable
    public var mutationError: Failure? { _mutationError }

    /// Whether mutation `id` is in flight.
    @inlinable
    public func isPending(_ id: LoadID) -> Bool { _pendingIDs.contains(id) }

    /// Applies `action` and says whether it was applied or dropped; see the
    /// table in the type's description. A dropped action changes nothing.
    @inlinable
    public mutating func apply(_ action: EditAction<Change, Failure>) -> LoadDisposition {
        switch action {
        case .load(let load):
            return applyLoad(load)
        case .mutation(let edit, let load):
            return applyMutation(edit, load)
        }
    }

    @inlinable
    mutating func applyLoad(_ load: LoadAction<Value, Failure>) -> LoadDisposition {
        guard case .finished(let id, var newValue) = load else {
            // Starts and settles other than a value: every confirmed edit is
            // already in the confirmed value, and a load started from now on
            // reads the server after them.
            guard _confirmed.apply(load) == .applied else { return .dropped }
            _unreflected.removeAll()
            return .applied
        }
        guard id == _confirmed.inFlightID else { return .dropped }
        for edit in _unreflected { _ = edit.apply(to: &newValue) }
        _unreflected.removeAll()
        _ = _confirmed.apply(.finished(id, newValue))
        recompute()
        return .applied
    }

    @inlinable
    mutating func applyMutation(_ edit: Change, _ load: LoadAction<Change, Failure>) -> LoadDisposition {
        switch load {
        case .started(let id):
            if let newest = _newestMutationID, id <= newest { return .dropped }
            _newestMutationID = id
            _pendingIDs.append(id)
            _pendingEdits.append(edit)
            _mutationError = nil
            // The new edit goes on top: apply it alone instead of recomputing.
            if _shown == nil || !edit.apply(to: &_shown!) {
                if _confirmed.value != nil { _conflicts.append(id) }
            }
        case .finished(let id, let confirmedEdit):
            guard removePending(id) else { return .dropped }
            if var newValue = _confirmed.value, confirmedEdit.apply(to: &newValue) {
                _confirmed.setValue(newValue)
            }
            if _confirmed.isLoading { _unreflected.append(confirmedEdit) }
            recompute()
        case .failed(let id, let failure):
            guard removePending(id) else { return .dropped }
            _mutationError = failure
            recompute()
        case .cancelled(let id):
            guard removePending(id) else { return .dropped }
            recompute()
        case .retrying(let id, _):
            // A mutation being retried stays pending: its edit stays shown.
            return _pendingIDs.contains(id) ? .applied : .dropped
        case .progress:
            // A mutation's result is the edit the server confirms, never a part of it.
            return .dropped
        }
        return .applied
    }

    /// Shows the confirmed value with every pending edit applied in order.
    /// Costs one copy of the value and one application per pending edit.
    @inlinable
    mutating func recompute() {
        if !_conflicts.isEmpty { _conflicts.removeAll() }
        // With nothing pending, what is shown is the confirmed value itself:
        // share its storage instead of copying it.
        guard var shown = _confirmed.value, !_pendingIDs.isEmpty else {
            _shown = _confirmed.value
            return
        }
        for (id, edit) in zip(_pendingIDs, _pendingEdits) where !edit.apply(to: &shown) {
            _conflicts.append(id)
        }
        _shown = shown
    }

    /// Removes mutation `id`'s edit; returns whether it was pending.
    @inlinable
    mutating func removePending(_ id: LoadID) -> Bool {
        guard let index = _pendingIDs.firstIndex(of: id) else { return false }
        _pendingIDs.remove(at: index)
        _pendingEdits.remove(at: index)
        return true
    }

    /// Rolls mutation `id`'s edit back at once, as if it were cancelled.
    ///
    /// - Returns: `id` if it was pending, so a reducer can also cancel its
    ///   work with ``Effect/cancel(load:)``; `nil` if it was unknown or settled.
    @inlinable
    @discardableResult
    public mutating func cancel(mutation id: LoadID) -> LoadID? {
        guard let index = _pendingIDs.firstIndex(of: id) else { return nil }
        _ = applyMutation(_pendingEdits[index], .cancelled(id))
        return id
    }
}

extension Optimistic: Sendable where Change: Sendable, Value: Sendable, Failure: Sendable {}

extension Optimistic: CustomReflectable {
    /// The public fields, for dumps and snapshots.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "value": value as Any,
                "confirmed": confirmed as Any,
                "pending": pending as Any,
                "conflicts": conflicts as Any,
                "mutationError": mutationError as Any,
            ], displayStyle: .struct)
    }
}

extension Optimistic: CustomStringConvertible {
    /// The value shown, then the pending edits, e.g. `[…] (pending: #2 like(1))`.
    public var description: String {
        var text = value.map { describeValue($0) } ?? "nothing confirmed"
        if !pending.isEmpty {
            text += " (pending: " + pending.map { "\($0.key) \(describeValue($0.value))" }.joined(separator: ", ") + ")"
        }
        if let inFlight = confirmed.inFlightID { text += " (\(inFlight) loading)" }
        if let mutationError { text += " [mutation error: \(describeValue(mutationError))]" }
        return text
    }
}
