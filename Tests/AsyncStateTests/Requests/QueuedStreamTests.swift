import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// A stream that appends, queued behind another load, starts from the value
/// shown when its turn comes — "the value shown when the load started" — not
/// from the one shown when it was queued (found by an outside reading: it
/// lost the load before it and the edits confirmed while it waited).
@Suite("Streams: a queued stream that appends starts at its turn", .hangGuard)
@MainActor
struct QueuedStreamTests {
    /// Sets the first element: an edit of a `[Int]`.
    struct SetFirst: Edit {
        var value: Int
        func apply(to list: inout [Int]) -> Bool {
            guard !list.isEmpty else { return false }
            list[0] = value
            return true
        }
    }

    nonisolated static func appending(_ source: StreamSource) -> LoadRequest<[Int], TestError> {
        LoadRequest(stream: { GatedSequence(source: source) }, mode: .append, initial: [], mapError: { _ in .offline }) {
            $0.append($1)
        }
    }

    /// Ends `source`'s stream after one element, `element`.
    static func finish(_ source: StreamSource, with element: Int) {
        source[0].open(with: element)
        source[1].fail(with: StreamSource.End())
    }

    @Test(
        "it appends to the value the load before it left, also when nothing was shown as it queued",
        arguments: [[0], nil] as [[Int]?])
    func startsFromThePreviousLoadsValue(shown: [Int]?) async {
        let first = StreamSource(), second = StreamSource()
        let value = shown.map { AsyncValue<[Int], TestError>(value: $0) } ?? AsyncValue<[Int], TestError>()
        let a = await startCaller { await value.load(Self.appending(first)) }
        await first[0].waitForArrivals()
        let b = await startCaller { await value.load(Self.appending(second), overlap: .queue) }
        #expect(value.waitingCount == 1)
        Self.finish(first, with: 1)
        await a.value
        #expect(value.value == (shown ?? []) + [1])
        await second[0].waitForArrivals()
        Self.finish(second, with: 2)
        await b.value
        #expect(value.value == (shown ?? []) + [1, 2])
    }

    @Test("an edit confirmed while it waited is kept")
    func keepsAnEditConfirmedWhileItWaited() async {
        let first = StreamSource(), second = StreamSource()
        let value = AsyncValue<[Int], TestError>(value: [0])
        let a = await startCaller { await value.load(Self.appending(first)) }
        await first[0].waitForArrivals()
        let b = await startCaller { await value.load(Self.appending(second), overlap: .queue) }
        let outcome = await value.edit(SetFirst(value: 100), LoadRequest { () async throws(TestError) in })
        #expect(outcome == .confirmed(LoadID(3)))
        #expect(value.value == [100])
        Self.finish(first, with: 1)
        await a.value
        #expect(value.value == [100, 1])
        await second[0].waitForArrivals()
        Self.finish(second, with: 2)
        await b.value
        #expect(value.value == [100, 1, 2])
    }

    /// A list loaded by a reducer, through `Scope`, so the start value also
    /// reaches a child's queued load.
    struct Feed: Reducer {
        struct State: Equatable { var list = Loadable<[Int], TestError>(value: [0]) }
        enum Action: Equatable {
            case load(Int)
            case queue(Int)
            case list(LoadAction<[Int], TestError>)
        }
        let sources: [StreamSource]

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .load(let index): state.list.load(Action.list, QueuedStreamTests.appending(sources[index]))
            case .queue(let index): state.list.load(Action.list, QueuedStreamTests.appending(sources[index]), overlap: .queue)
            case .list(let load): state.list.reduce(load)
            }
        }
    }

    struct Parent: Reducer {
        struct State: Equatable { var feed = Feed.State() }
        enum Action: Equatable { case feed(Feed.Action) }
        let sources: [StreamSource]

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            Scope(state: \.feed, action: Action.feed, extract: { if case .feed(let action) = $0 { action } else { nil } }) {
                Feed(sources: sources)
            }
            .reduce(into: &state, action: action)
        }
    }

    @Test("from a reducer, through Scope, it appends to the value the load before it left")
    func scopedReducer() async {
        let sources = [StreamSource(), StreamSource()]
        let store = Store(initialState: Parent.State(), reducer: Parent(sources: sources))
        let a = store.send(.feed(.load(0)))
        await sources[0][0].waitForArrivals()
        let b = store.send(.feed(.queue(1)))
        #expect(store.state.feed.list.queuedIDs.count == 1)
        Self.finish(sources[0], with: 1)
        await a.finish()
        #expect(store.state.feed.list.value == [0, 1])
        await sources[1][0].waitForArrivals()
        Self.finish(sources[1], with: 2)
        await b.finish()
        #expect(store.state.feed.list.value == [0, 1, 2])
    }
}
