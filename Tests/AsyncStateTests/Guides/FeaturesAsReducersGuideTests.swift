import AsyncState
import AsyncStateTestSupport
import Testing

// The code of the "Features as reducers" article
// (Sources/AsyncState/Documentation.docc/FeaturesAsReducers.md), copied
// verbatim so the article is known to compile and run. Change both together.
// `Post`, `FeedAPI` and `FeedError` are the article's unstated dependencies.

enum FeaturesAsReducersGuide {
    enum FeedError: Error, Equatable { case offline }

    struct Post: Equatable, Sendable {
        let title: String
    }

    struct FeedAPI: Sendable {
        var latest: @MainActor @Sendable () async throws(FeedError) -> [Post]

        // Suspends once, as a network call would: an operation that answers
        // without suspending settles inside the `send` that started it.
        static let live = FeedAPI(latest: {
            await Task.yield()
            return [Post(title: "Hello")]
        })
    }

    struct Feed: Reducer {
        struct State: Equatable {
            var posts = Loadable<[Post], FeedError>()
        }

        enum Action: Equatable {
            case pulledToRefresh
            case posts(LoadAction<[Post], FeedError>)
        }

        let api: FeedAPI

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .pulledToRefresh:
                return state.posts.load(Action.posts, LoadRequest(api.latest))
            case .posts(let load):
                return state.posts.reduce(load)
            }
        }
    }

    @Suite("Features as reducers guide")
    @MainActor
    struct Tests {
        @Test func runningIt() async {
            let store = Store(initialState: Feed.State(), reducer: Feed(api: .live))
            await store.send(.pulledToRefresh).finish()

            #expect(store.posts.state == .success(value: [Post(title: "Hello")]))
        }

        @Test func theStartedActionIsProcessedInsideSend() {
            let store = Store(initialState: Feed.State(), reducer: Feed(api: .live))
            let task = store.send(.pulledToRefresh)
            #expect(store.posts.inFlightID == LoadID(1))
            task.cancel()
        }
    }
}
