import AsyncState
import AsyncStateControls
import Testing

/// Posts that take optimistic likes, over a server that answers a fetch
/// with the posts as they were when the request arrived — so a refresh can
/// miss a like that lands while it travels.
struct LikesFeature: Reducer {
    struct Post: Equatable, Sendable {
        var id: Int
        var isLiked = false
    }

    struct Like: Edit, CustomStringConvertible {
        var id: Int

        func apply(to posts: inout [Post]) -> Bool {
            guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
            posts[index].isLiked = true
            return true
        }

        var description: String { "like(\(id))" }
    }

    struct State: Equatable {
        var posts = Loadable<[Post], SearchFailure>()
    }

    enum Action: Equatable {
        case refresh
        case like(Int)
        case posts(LoadAction<[Post], SearchFailure>)
    }

    @MainActor
    final class Server: Sendable {
        private var posts = [Post(id: 1), Post(id: 2)]
        private let fetched: @Sendable () async -> Void
        private let liked: @Sendable () async -> Void

        init(_ operations: ControlledOperations) {
            fetched = operations.operation("fetch", returning: ())
            liked = operations.operation("like", returning: ())
        }

        func fetch() async -> [Post] {
            let snapshot = posts
            await fetched()
            return snapshot
        }

        func like(_ id: Int) async {
            await liked()
            if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].isLiked = true }
        }
    }

    let server: Server
    /// Shows a finished load's posts as they came, dropping every edit — a
    /// bug the explorer must find.
    var dropsEditsOnRefresh = false

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let server = server
        switch action {
        case .refresh:
            return state.posts.load(Action.posts, LoadRequest { () async throws(SearchFailure) in await server.fetch() })
        case .like(let id):
            return state.posts.edit(
                Action.posts, Like(id: id), LoadRequest { () async throws(SearchFailure) in await server.like(id) })
        case .posts(.finished(let id, let posts)) where dropsEditsOnRefresh && state.posts.inFlightID == id:
            state.posts = Loadable(value: posts)
            return .none
        case .posts(let load):
            return state.posts.reduce(load)
        }
    }
}

/// An inbox of rows, each its own loadable message; starring one is an
/// optimistic edit, and once the server confirms it the row moves out of the
/// inbox into `starred` — a correct reducer, whose rows change places.
enum StarredInbox {
    struct Message: Equatable, Sendable {
        var id: Int
        var isStarred = false
    }

    struct Star: Edit, CustomStringConvertible {
        func apply(to message: inout Message) -> Bool {
            message.isStarred = true
            return true
        }

        var description: String { "star" }
    }

    /// A row known by its place in the array only.
    struct Row: Equatable {
        var id: Int
        var message: Loadable<Message, SearchFailure>
    }

    /// The same row, `Identifiable`: known by its ID.
    struct IdentifiedRow: Equatable, Identifiable {
        var id: Int
        var message: Loadable<Message, SearchFailure>
    }

    struct State<Element: Equatable>: Equatable {
        var rows: [Element]
        var starred: [Message] = []
    }

    enum Action: Equatable {
        case star(Int)
        case row(Int, LoadAction<Message, SearchFailure>)
    }

    static func rows() -> State<Row> { State(rows: [1, 2].map { Row(id: $0, message: Loadable(value: Message(id: $0))) }) }

    static func identifiedRows() -> State<IdentifiedRow> {
        State(rows: [1, 2].map { IdentifiedRow(id: $0, message: Loadable(value: Message(id: $0))) })
    }
}

/// The inbox over either kind of row.
struct StarredInboxReducer<Element: Equatable>: Reducer {
    typealias State = StarredInbox.State<Element>
    typealias Action = StarredInbox.Action

    let starred: @Sendable () async -> Void
    let id: (Element) -> Int
    let message: WritableKeyPath<Element, Loadable<StarredInbox.Message, SearchFailure>>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .star(let rowID):
            guard let index = state.rows.firstIndex(where: { id($0) == rowID }) else { return .none }
            let starred = starred
            return state.rows[index][keyPath: message].edit(
                { .row(rowID, $0) }, StarredInbox.Star(), LoadRequest { () async throws(SearchFailure) in await starred() })
        case .row(let rowID, let load):
            guard let index = state.rows.firstIndex(where: { id($0) == rowID }) else { return .none }
            let effect = state.rows[index][keyPath: message].reduce(load).map { Action.row(rowID, $0) }
            if case .edit(.confirmed) = load, let confirmed = state.rows[index][keyPath: message].value {
                state.starred.append(confirmed)
                state.rows.remove(at: index)
            }
            return effect
        }
    }
}

@Suite("Exploring optimistic edits")
@MainActor
struct ExplorerEditTests {
    @Test("a like across a refresh that read the server before it: every ordering keeps the confirmed like")
    func likeAcrossRefresh() async {
        let report = await explore(LikesFeature.State(), script: [.refresh, .like(1)]) {
            LikesFeature(server: LikesFeature.Server($0))
        }
        #expect(report.failure == nil)
        #expect(report.isComplete)
        #expect(report.orderingCount == 3)
        #expect(report.promises.contains("no confirmed edit lost"))
    }

    @Test("a reducer that drops confirmed edits when a refresh lands is caught, and its minimized recording replays it")
    func lostEditCaught() async throws {
        let report = await explore(LikesFeature.State(), script: [.refresh, .like(1)]) {
            LikesFeature(server: LikesFeature.Server($0), dropsEditsOnRefresh: true)
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no confirmed edit lost")
        #expect(failure.message == "posts: confirmed edit like(1) missing from its value")
        #expect(failure.ordering == ["send(.refresh)", "send(.like(1))", "answer like #0", "answer fetch #0"])
        #expect(failure.minimized.steps.last?.state.posts.value?.first?.isLiked == false)
    }

    /// The likes, over a reducer that shows the posts as they were before
    /// the like once the server confirms it — a bug the explorer must find.
    struct ForgetsConfirmedLikes: Reducer {
        let base: LikesFeature

        func reduce(into state: inout LikesFeature.State, action: LikesFeature.Action) -> Effect<LikesFeature.Action> {
            let effect = base.reduce(into: &state, action: action)
            if case .posts(.edit(.confirmed)) = action {
                state.posts = Loadable(value: [LikesFeature.Post(id: 1), LikesFeature.Post(id: 2)])
            }
            return effect
        }
    }

    // From a mutation round: a check that skipped confirmations passed,
    // since every other lost edit here is lost by a refresh's result.
    @Test("a reducer that loses an edit as it is confirmed, with no refresh, is caught")
    func editLostAtConfirmation() async throws {
        let initial = LikesFeature.State(posts: Loadable(value: [LikesFeature.Post(id: 1), LikesFeature.Post(id: 2)]))
        let report = await explore(initial, script: [.like(1)]) {
            ForgetsConfirmedLikes(base: LikesFeature(server: LikesFeature.Server($0)))
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no confirmed edit lost")
        #expect(failure.message == "posts: confirmed edit like(1) missing from its value")
    }

    @Test("a row that leaves its array when its edit is confirmed loses nothing, known by place or by ID")
    func rowLeavesArray() async {
        let byPlace = await explore(StarredInbox.rows(), script: [.star(1)]) { operations in
            StarredInboxReducer<StarredInbox.Row>(
                starred: operations.operation("star", returning: ()), id: \.id, message: \.message)
        }
        #expect(byPlace.failure == nil, "\(byPlace.failure.map { "\($0.invariant): \($0.message)" } ?? "")")
        let byID = await explore(StarredInbox.identifiedRows(), script: [.star(1)]) { operations in
            StarredInboxReducer<StarredInbox.IdentifiedRow>(
                starred: operations.operation("star", returning: ()), id: \.id, message: \.message)
        }
        #expect(byID.failure == nil, "\(byID.failure.map { "\($0.invariant): \($0.message)" } ?? "")")
    }
}
