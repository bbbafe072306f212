import AsyncState

struct FeedError: Error, Equatable {
    var message: String
}

/// A row with its own loader, for `forEach`.
struct Row: Reducer {
    struct State: Equatable {
        var detail = Loadable<String, FeedError>()
    }

    enum Action: Equatable {
        case open
        case detail(LoadAction<String, FeedError>)
    }

    let fetch: @MainActor @Sendable () async throws -> String

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .open:
            let fetch = fetch
            return state.detail.load(Action.detail, LoadRequest(mapError: { FeedError(message: "\($0)") }) { try await fetch() })
        case .detail(let load):
            return state.detail.reduce(load)
        }
    }
}

/// A settings child, for `Scope`.
struct Settings: Reducer {
    struct State: Equatable {
        var isCompact = false
    }

    enum Action: Equatable {
        case toggle
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.isCompact.toggle()
        return .none
    }
}

/// A feed: the everyday API — enum cases as embed functions, a typed load,
/// an overlap policy, a scope, keyed rows and an optional sheet.
struct Feed: Reducer {
    struct State: Equatable {
        var feed = Loadable<[String], FeedError>()
        var save = Loadable<Int, FeedError>()
        var settings = Settings.State()
        var rows: KeyedStates<Int, Row.State> = [1: Row.State(), 2: Row.State()]
        var sheet: Settings.State?
    }

    enum Action: Equatable {
        case refresh
        case saveTapped
        case feed(LoadAction<[String], FeedError>)
        case save(LoadAction<Int, FeedError>)
        case settings(Settings.Action)
        case row(Int, Row.Action)
        case sheet(Settings.Action)
    }

    let items: [String]

    static func reducer(items: [String]) -> some Reducer<State, Action> {
        Feed(items: items)
            .combined(
                with: Scope(
                    state: \State.settings, action: Action.settings,
                    extract: { if case .settings(let action) = $0 { return action } else { return nil } }
                ) { Settings() }
            )
            .forEach(
                \.rows, action: Action.row,
                extract: { if case .row(let id, let action) = $0 { return (id, action) } else { return nil } }
            ) { Row(fetch: { "detail" }) }
            .ifLet(
                \.sheet, action: Action.sheet,
                extract: { if case .sheet(let action) = $0 { return action } else { return nil } }
            ) { Settings() }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refresh:
            let items = items
            return state.feed.load(Action.feed, LoadRequest { () async throws(FeedError) -> [String] in items })
        case .saveTapped:
            return state.save.load(Action.save, LoadRequest { () async throws(FeedError) -> Int in 1 }, overlap: .firstWins)
        case .feed(let load):
            return state.feed.reduce(load)
        case .save(let load):
            return state.save.reduce(load)
        case .settings, .row, .sheet:
            return .none
        }
    }
}

struct Offline: Error {}

/// A store of the app's own that loads one value, without a reducer.
@MainActor
final class ProfileStore: AsyncValueStore {
    let asyncValue = AsyncValue<Int, AnyError>()
}
