import AsyncState

/// A document editor whose operations — save and delete — are tracked one
/// by one: each key is its own `Loadable`, so two operations run at once,
/// and a double-tapped Save is ignored while the first one runs.
public struct SaveFeature: Reducer {
    public enum Operation: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        case save, delete
        public var description: String { rawValue }
    }

    public struct State: Equatable, Sendable {
        public var revision = 1
        public var operations: KeyedStates<Operation, Loadable<Int, DemoAPI.Failure>> = [.save: .init(), .delete: .init()]
        public init() {}

        /// Whether `operation` is running — what disables its button.
        public func isActive(_ operation: Operation) -> Bool {
            operations[operation]?.isLoading ?? false
        }
    }

    public enum Action: Equatable, Sendable, Codable {
        case saveTapped
        case deleteTapped
        case operation(Operation, LoadAction<Int, DemoAPI.Failure>)
    }

    let api: DemoAPI

    public init(api: DemoAPI) { self.api = api }

    /// The feature with its keyed operation loaders composed in.
    public static func reducer(api: DemoAPI) -> some Reducer<State, Action> {
        SaveFeature(api: api).forEach(
            \.operations, action: Action.operation,
            extract: {
                if case .operation(let key, let load) = $0 { (key, load) } else { nil }
            }
        ) {
            LoadReducer()
        }
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .saveTapped:
            // First wins: a double tap while saving starts nothing. The save
            // writes the revision its start creates (see `.started` below).
            let api = api, revision = state.revision + 1
            return state.operations[.save, default: Loadable()].load(
                { .operation(.save, $0) }, LoadRequest { () async throws(DemoAPI.Failure) in try await api.save(revision) },
                overlap: .firstWins)
        case .deleteTapped:
            let api = api
            return state.operations[.delete, default: Loadable()].load(
                { .operation(.delete, $0) }, LoadRequest(api.deleteDraft), overlap: .firstWins)
        case .operation(.save, .started):
            state.revision += 1
            return .none
        case .operation:
            return .none
        }
    }
}
