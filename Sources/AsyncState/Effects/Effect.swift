/// Work a reducer asks the store to do after an action: nothing, async work
/// that sends actions back, a load, several of those at once or in sequence, or
/// a cancellation.
///
/// Effects are values; building one starts nothing. The ``Store`` runs them on
/// the main actor, so effect closures may read main-actor state directly and
/// suspend while they wait; move CPU-heavy work off the main actor yourself.
///
/// ```swift
/// case .refresh:
///     return state.feed.load(Action.feed, LoadRequest(api.fetchFeed))
/// case .queryChanged(let query):
///     return .run { send in send(.found(await search(query))) }
///         .debounced(id: "search", for: .milliseconds(300), clock: clock)
/// ```
public struct Effect<Action> {
    @usableFromInline
    enum Operation {
        case none
        case run(Run)
        case load(Load)
        case merge([Effect])
        case concatenate([Effect], cancelID: CancelID?)
        case cancel(CancelID)
        /// Cancels every effect made in children a parent's action removed.
        case cancelRemoved(RemovedChildren)
        /// Cancels the work of load `id`: always when `supersededBy` is `nil`,
        /// else only if that newer load's policy cancels earlier loads.
        case cancelLoad(LoadID, supersededBy: LoadID?)
        /// Waits for the work of load `id` without owning it: a `join`.
        case joinLoad(LoadID)
        /// Starts a load once the load it waits behind, and the loads queued
        /// behind that one before it, have ended: a `queue`. The load gets
        /// its ID at once; see `QueuedLoad`.
        case queueLoad(QueuedLoad)
        /// Starts queued load `id`, whose turn has come.
        case startQueued(Load, LoadID)
        /// Tells queued load `id`, whose turn has come, the value shown as
        /// it started: a stream that appends starts from it, not from the
        /// value shown when it was queued.
        case startFrom(LoadID, Any)
        /// An effect that already had a cancel ID, marked with one more
        /// (`cancellable(id:)`): each ID cancels it, and the inner one keeps
        /// its meaning — a debounce still debounces, a child's path still
        /// ties the effect to its child.
        case markedCancellable(Effect, CancelID)
    }

    @usableFromInline
    struct Run {
        @usableFromInline var _cancelID: CancelID?
        @usableFromInline let _body: @MainActor @Sendable (Send<Action>) async throws -> Void

        @inlinable
        init(cancelID: CancelID?, _ body: @escaping @MainActor @Sendable (Send<Action>) async throws -> Void) {
            _cancelID = cancelID
            _body = body
        }
    }

    @usableFromInline
    struct Load {
        @usableFromInline var _cancelID: CancelID?
        /// Starts the load: told its ID and where to report, it queues the
        /// actions that announce it and returns the body of its task.
        @usableFromInline let _start: LoadStart<Action>

        @inlinable
        init(cancelID: CancelID? = nil, start: LoadStart<Action>) {
            self._cancelID = cancelID
            self._start = start
        }

        /// Whether this load, once started, cancels the work of the load it
        /// supersedes (its overlap policy).
        @inlinable
        var _cancelsEarlier: Bool { _start._cancelsEarlier }

        /// This load, marked with `cancelID`.
        @inlinable
        func withCancelID(_ cancelID: CancelID?) -> Load {
            var load = self
            load._cancelID = cancelID
            return load
        }

        /// This load seen through `transform`: a scoped feature's load reports
        /// in the parent's actions.
        @inlinable
        func map<NewAction>(_ transform: MainActorFunction<Action, NewAction>) -> Effect<NewAction>.Load {
            Effect<NewAction>.Load(cancelID: _cancelID, start: MappedLoadStart(_start, transform))
        }
    }

    /// A load that waits in a queue (``OverlapPolicy/queue``), in one
    /// reference: an enum case of a load and the closure that announces it
    /// would carry a closure beside the load's references, a payload the
    /// compiler copies through value witnesses.
    @usableFromInline
    final class QueuedLoad {
        /// The load it waits behind.
        @usableFromInline let _behind: LoadID
        @usableFromInline let _load: Load
        /// Makes the action that says load `id` waits (`false`) or was
        /// withdrawn before its turn (`true`).
        @usableFromInline let _announce: MainActorFunction<(LoadID, Bool), Action>

        @inlinable
        init(behind: LoadID, load: Load, announce: MainActorFunction<(LoadID, Bool), Action>) {
            _behind = behind
            _load = load
            _announce = announce
        }
    }

    /// The work: `nil` for ``none``; an everyday load's start (``Load``
    /// with no cancel ID), which needs no box around it; else the operation
    /// in a box. Reducers return `.none` for most actions, and a `nil`
    /// reference copies and destroys for free, where an enum holding
    /// closures would go through outlined copy functions on every action.
    /// Effects that do work allocate anyway.
    @usableFromInline let _work: EffectWork?

    /// Whether `_work` is a load's start rather than a box.
    @usableFromInline let _isLoad: Bool

    /// Whether the action that produced this effect was dropped as stale; the
    /// store reports it in the action's ``Transition``. Every combinator keeps it.
    @usableFromInline var _isDropped: Bool

    @inlinable
    init(_ operation: Operation, isDropped: Bool = false) {
        if case .none = operation { _work = nil } else { _work = OperationBox<Operation>(operation) }
        _isLoad = false
        _isDropped = isDropped
    }

    /// A load effect. Built here rather than through `init(_:isDropped:)`,
    /// whose check for `.none` copied the whole operation: two retains and
    /// two releases per load.
    @inlinable
    init(_ load: Load) {
        if load._cancelID == nil {
            _work = load._start
            _isLoad = true
        } else {
            _work = OperationBox<Operation>(.load(load))
            _isLoad = false
        }
        _isDropped = false
    }

    /// No work, from an action that was dropped as stale.
    @inlinable
    static var dropped: Effect { Effect(.none, isDropped: true) }

    /// Whether the action that produced this effect was dropped as stale.
    @inlinable
    var isDropped: Bool { _isDropped }

    /// Whether this is ``none``.
    @inlinable
    var isNone: Bool { _work == nil }

    /// What to run. Inlinable so the store's specialized runner reads it
    /// without looking up the generic `Operation` type at run time.
    @inlinable
    var operation: Operation {
        guard let work = _work else { return .none }
        // Unchecked: `_isLoad` says which of the two the initializer stored.
        if _isLoad { return .load(Load(start: unsafeDowncast(work, to: LoadStart<Action>.self))) }
        return unsafeDowncast(work, to: OperationBox<Operation>.self)._contents
    }

    /// No work.
    @inlinable
    public static var none: Effect { Effect(.none) }

    /// Runs `body` on the main actor; it may send any number of actions back.
    ///
    /// Once the effect is cancelled, further sends are ignored. Throwing
    /// `CancellationError` ends the effect quietly; any other error ends it and
    /// is reported by ``Store`` as a runtime issue — catch errors you expect and
    /// turn them into actions.
    public static func run(
        _ body: @escaping @MainActor @Sendable (Send<Action>) async throws -> Void
    ) -> Effect {
        Effect(.run(Run(cancelID: nil, body)))
    }

    /// Sends `action` back to the store as soon as the effect runs.
    public static func send(_ action: Action) -> Effect where Action: Sendable {
        .run { send in send(action) }
    }

    /// Runs all `effects` at the same time.
    @inlinable
    public static func merge(_ effects: Effect...) -> Effect {
        merge(effects)
    }

    /// Runs all `effects` at the same time.
    // Inlinable, so a reducer's merge is specialized for its action: out of
    // line, each call looked up `Effect`'s generic metadata.
    @inlinable
    public static func merge(_ effects: [Effect]) -> Effect {
        let active = effects.filter { !$0.isNone }
        let isDropped = effects.contains { $0._isDropped }
        switch active.count {
        case 0: return Effect(.none, isDropped: isDropped)
        case 1: return active[0].markingDropped(if: isDropped)
        default: return Effect(.merge(active), isDropped: isDropped)
        }
    }

    /// Runs `effects` one after another, each starting when the previous one
    /// has finished.
    @inlinable
    public static func concatenate(_ effects: Effect...) -> Effect {
        concatenate(effects)
    }

    /// Runs `effects` one after another, each starting when the previous one
    /// has finished.
    // Inlinable, as `merge(_:)` is and for the same reason.
    @inlinable
    public static func concatenate(_ effects: [Effect]) -> Effect {
        let active = effects.filter { !$0.isNone }
        let isDropped = effects.contains { $0._isDropped }
        switch active.count {
        case 0: return Effect(.none, isDropped: isDropped)
        case 1: return active[0].markingDropped(if: isDropped)
        default: return Effect(.concatenate(active, cancelID: nil), isDropped: isDropped)
        }
    }

    /// Cancels every running effect marked with ``cancellable(id:cancelInFlight:)``
    /// and this `id`.
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        Effect(.cancel(CancelID(id)))
    }

    /// Cancels the work of load `id`, whatever its ``OverlapPolicy``.
    /// Its `.cancelled(id)` action then arrives like any other result.
    /// `nil` is no work, so `.cancel(load: state.profile.cancel())` reads well.
    public static func cancel(load id: LoadID?) -> Effect {
        guard let id else { return .none }
        return Effect(.cancelLoad(id, supersededBy: nil))
    }

    /// This effect, with the stale-drop mark also set if `isDropped`.
    @inlinable
    func markingDropped(if isDropped: Bool) -> Effect {
        var effect = self
        effect._isDropped = _isDropped || isDropped
        return effect
    }

    /// This effect and `other`, run at the same time.
    @inlinable
    public func merging(with other: Effect) -> Effect {
        // Most reducers return `.none`: skip building a merge then, which also
        // keeps `CombinedReducer` free of allocations on the hot path.
        if other.isNone { return markingDropped(if: other._isDropped) }
        if isNone { return other.markingDropped(if: _isDropped) }
        return .merge(self, other)
    }

    /// This effect, then `next` once this one has finished.
    public func concatenating(with next: Effect) -> Effect {
        .concatenate(self, next)
    }

    /// Marks this effect so ``cancel(id:)`` with `id` can stop it; with
    /// `cancelInFlight`, starting it first cancels earlier effects with that `id`.
    ///
    /// Marking adds an ID and takes none away: work that already has one — a
    /// ``debounced(id:for:clock:)`` effect's, or a child's in a `forEach` — is
    /// cancellable by either, and still debounces, or ends with its child.
    ///
    /// An ID must be equal to itself, as a `Dictionary`'s key must: by one
    /// that is not (a `Double.nan`), nothing is ever cancelled — neither by
    /// ``cancel(id:)`` nor by `cancelInFlight` — and two polls or debounces
    /// under it run side by side.
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        let id = CancelID(id)
        let marked = withCancelID(id)
        return cancelInFlight ? .merge(Effect(.cancel(id)), marked) : marked
    }

    /// This effect, cancellable by `id` too. Work with no cancel ID takes
    /// `id`; work that has one — a debounce's, a child's path — keeps it and
    /// is marked with `id` besides, so marking never undoes an earlier mark.
    private func withCancelID(_ id: CancelID) -> Effect {
        switch operation {
        case .none, .cancel, .cancelRemoved, .cancelLoad, .joinLoad, .startQueued, .startFrom:
            return self
        case .run(var run):
            guard run._cancelID == nil else { return markedCancellable(by: id) }
            run._cancelID = id
            return Effect(.run(run), isDropped: _isDropped)
        case .load(let load):
            guard load._cancelID == nil else { return markedCancellable(by: id) }
            return Effect(load.withCancelID(id)).markingDropped(if: _isDropped)
        case .merge(let effects):
            return Effect(.merge(effects.map { $0.withCancelID(id) }), isDropped: _isDropped)
        case .concatenate(let effects, let cancelID):
            guard cancelID == nil else { return markedCancellable(by: id) }
            return Effect(.concatenate(effects, cancelID: id), isDropped: _isDropped)
        case .queueLoad(let queued):
            guard queued._load._cancelID == nil else { return markedCancellable(by: id) }
            let marked = QueuedLoad(behind: queued._behind, load: queued._load.withCancelID(id), announce: queued._announce)
            return Effect(.queueLoad(marked), isDropped: _isDropped)
        case .markedCancellable:
            return markedCancellable(by: id)
        }
    }

    private func markedCancellable(by id: CancelID) -> Effect {
        Effect(.markedCancellable(self, id), isDropped: _isDropped)
    }

    /// Turns this effect's actions into another action type, typically a
    /// parent's enum case that wraps a child's actions.
    @inlinable
    public func map<NewAction>(_ transform: @escaping (Action) -> NewAction) -> Effect<NewAction> {
        if isNone { return Effect<NewAction>(.none, isDropped: _isDropped) }
        return mapOperation(transform)
    }

    @inlinable
    func mapOperation<NewAction>(_ transform: @escaping (Action) -> NewAction) -> Effect<NewAction> {
        let transform = MainActorFunction(transform)
        let mapped: Effect<NewAction>.Operation
        switch operation {
        case .none:
            mapped = .none
        case .run(let run):
            let body = run._body
            mapped = .run(
                .init(cancelID: run._cancelID) { send in
                    try await body(Send { send(transform($0)) })
                })
        case .load(let load):
            // Unboxed, like the load it maps.
            return Effect<NewAction>(load.map(transform)).markingDropped(if: _isDropped)
        case .merge(let effects):
            mapped = .merge(effects.map { $0.map(transform._body) })
        case .concatenate(let effects, let cancelID):
            mapped = .concatenate(effects.map { $0.map(transform._body) }, cancelID: cancelID)
        case .cancel(let id):
            mapped = .cancel(id)
        case .cancelRemoved(let children):
            mapped = .cancelRemoved(children)
        case .cancelLoad(let id, let newer):
            mapped = .cancelLoad(id, supersededBy: newer)
        case .joinLoad(let id):
            mapped = .joinLoad(id)
        case .queueLoad(let queued):
            let announce = queued._announce
            mapped = .queueLoad(
                Effect<NewAction>.QueuedLoad(
                    behind: queued._behind, load: queued._load.map(transform),
                    announce: MainActorFunction { transform._body(announce._body($0)) }))
        case .startQueued(let load, let id):
            mapped = .startQueued(load.map(transform), id)
        case .startFrom(let id, let value):
            mapped = .startFrom(id, value)
        case .markedCancellable(let effect, let id):
            mapped = .markedCancellable(effect.map(transform._body), id)
        }
        return Effect<NewAction>(mapped, isDropped: _isDropped)
    }
}
