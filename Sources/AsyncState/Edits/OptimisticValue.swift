import Observation

/// A main-actor, observable ``Optimistic`` value with `load { … }` and
/// `mutate(edit) { … }` — optimistic updates without writing a reducer.
///
/// ```swift
/// let posts = OptimisticValue<PostEdit, PostError>()
/// await posts.load { () async throws(PostError) in try await api.posts() }
/// try await posts.mutate(.like(postID: 3)) { () async throws(PostError) in try await api.like(3) }
/// ```
///
/// It runs on the same ``Store`` and the same pure ``Optimistic/apply(_:)``
/// as a reducer would, so every rule of ``Optimistic`` holds. Reading
/// ``value`` registers an observation dependency.
@MainActor
public final class OptimisticValue<Change: Edit, Failure: Equatable>: Observable where Change.Value: Equatable {
    public typealias Value = Change.Value

    enum Action {
        case run(Effect<Action>)
        case edited(EditAction<Change, Failure>)
        case cancel(LoadID)
    }

    struct Feature: Reducer {
        func reduce(into state: inout Optimistic<Change, Failure>, action: Action) -> Effect<Action> {
            switch action {
            case .run(let effect): effect
            case .edited(let edit): state.reduce(edit)
            case .cancel(let id): .cancel(load: state.cancel(mutation: id))
            }
        }
    }

    private let store: Store<Optimistic<Change, Failure>, Action>

    /// A value with nothing confirmed yet.
    public init() {
        store = Store(initialState: Optimistic(), reducer: Feature())
    }

    /// A value whose confirmed value is `confirmed`.
    public init(confirmed: Value) {
        store = Store(initialState: Optimistic(confirmed: confirmed), reducer: Feature())
    }

    /// The full state: confirmed lane, pending edits, conflicts.
    public var optimistic: Optimistic<Change, Failure> { store.state }

    /// What to show: the confirmed value with the pending edits applied in order.
    public var value: Value? { store.state.value }

    /// The edits of the mutations in flight, in start order.
    public var pending: KeyedStates<LoadID, Change> { store.state.pending }

    /// The failure of the last mutation that failed, until another starts.
    public var mutationError: Failure? { store.state.mutationError }

    /// Loads the confirmed value; pending edits stay shown on top of it.
    public func load(
        overlap: OverlapPolicy = .latestWins,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Value
    ) async where Failure: Error, Value: SendableMetatype {
        await store.send(.run(store.state.load(Action.edited, overlap: overlap, operation: operation))).finish()
    }

    /// Shows `edit` at once and runs `operation`: the edit joins the confirmed
    /// value when it returns, and is rolled back — alone — when it throws
    /// (rethrown here) or is cancelled (which returns normally).
    public func mutate(
        _ edit: Change,
        _ operation: @escaping @MainActor @Sendable () async throws(Failure) -> Void
    ) async throws(Failure) where Failure: Error, Change: Sendable {
        let failure = FailureBox<Failure>()
        let effect: Effect<Action> = store.state.mutate(Action.edited, edit) { () async throws(Failure) in
            do throws(Failure) {
                try await operation()
            } catch {
                // Cancellation wins, as for every load: a mutation cancelled
                // while it throws was cancelled, not failed.
                if !Task.isCancelled { failure.value = error }
                throw error
            }
        }
        await store.send(.run(effect)).finish()
        if let error = failure.value, !Task.isCancelled { throw error }
    }

    /// Rolls mutation `id` back at once and cancels its work.
    public func cancel(mutation id: LoadID) {
        store.send(.cancel(id))
    }
}

/// Where a mutation leaves its failure for the caller to rethrow.
@MainActor
private final class FailureBox<Failure> {
    var value: Failure?
}
