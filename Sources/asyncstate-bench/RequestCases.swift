import AsyncState

/// Issue 25: every request shape a user takes — typed, `mapError:`,
/// `AnyError`, with retries, a stream, a paged list, a cache entry, and a
/// composed "optimistic + fresh + paged" list — each a load whose operation
/// answers at once, against the floor of any such load: a bare
/// `Task.immediate` that awaits an operation made for it.
@MainActor
enum RequestCases {
    struct Failure: Error, Equatable {
        init() {}
        init(_ error: any Error) {}
    }

    /// Sets one number of a page, for the composed list's pending edit.
    struct SetNumber: Edit {
        var index: Int
        var value: Int
        func apply(to numbers: inout Pages<Int, Int>) -> Bool {
            guard numbers.indices.contains(index) else { return false }
            numbers[index] = value
            return true
        }
    }

    /// One feature with a loadable per shape, each loaded by one action.
    struct Shapes: Reducer {
        struct State {
            var typed = Loadable<Int, Failure>()
            var mapped = Loadable<Int, Failure>()
            var untyped = Loadable<Int, AnyError>()
            var retried = Loadable<Int, Failure>()
            var streamed = Loadable<Int, Failure>()
            var paged = Loadable<Pages<Int, Int>, Failure>()
            var composed = Loadable<Pages<Int, Int>, Failure>()
        }

        enum Action {
            case typed, mapped, untyped, retried, streamed, pageFirst, pageMore, composed
            case typedLoad(LoadAction<Int, Failure>)
            case mappedLoad(LoadAction<Int, Failure>)
            case untypedLoad(LoadAction<Int, AnyError>)
            case retriedLoad(LoadAction<Int, Failure>)
            case streamedLoad(LoadAction<Int, Failure>)
            case pagedLoad(LoadAction<Pages<Int, Int>, Failure>)
            case composedLoad(LoadAction<Pages<Int, Int>, Failure>)
        }

        let clock = LoadClock(ContinuousClock())
        let retry = RetryPolicy<Failure>(attempts: 3, backoff: .constant(.seconds(1)))
        static let page = Pages(Array(0..<20), next: 1)

        func page(_ cursor: Int?) -> LoadRequest<Pages<Int, Int>, Failure> {
            LoadRequest { () async throws(Failure) in Shapes.page }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .typed:
                return state.typed.load(Action.typedLoad, LoadRequest { () async throws(Failure) in 1 })
            case .mapped:
                return state.mapped.load(Action.mappedLoad, LoadRequest(mapError: Failure.init) { 1 })
            case .untyped:
                return state.untyped.load(Action.untypedLoad, LoadRequest { () async throws in 1 })
            case .retried:
                return state.retried.load(Action.retriedLoad, LoadRequest { () async throws(Failure) in 1 }.retry(retry))
            case .streamed:
                let request = LoadRequest(stream: { RequestCases.stream() }, mode: .keepUntilEnd, mapError: Failure.init)
                return state.streamed.load(Action.streamedLoad, request)
            case .pageFirst:
                return state.paged.load(Action.pagedLoad, page(nil))
            case .pageMore:
                return state.paged.loadMore(Action.pagedLoad, page)
            case .composed:
                return state.composed.load(Action.composedLoad, page(nil).stamped(by: clock))
            case .typedLoad(let load): return state.typed.reduce(load)
            case .mappedLoad(let load): return state.mapped.reduce(load)
            case .untypedLoad(let load): return state.untyped.reduce(load)
            case .retriedLoad(let load): return state.retried.reduce(load)
            case .streamedLoad(let load): return state.streamed.reduce(load)
            case .pagedLoad(let load): return state.paged.reduce(load)
            case .composedLoad(let load): return state.composed.reduce(load)
            }
        }
    }

    /// A row that loads itself, kept by `forEach`: its load carries the
    /// row's path, so removing the row cancels it.
    struct Row: Reducer {
        enum Action {
            case load
            case result(LoadAction<Int, Failure>)
        }

        func reduce(into state: inout Loadable<Int, Failure>, action: Action) -> Effect<Action> {
            switch action {
            case .load: return state.load(Action.result, LoadRequest { () async throws(Failure) in 1 })
            case .result(let load): return state.reduce(load)
            }
        }
    }

    /// Ten rows, each a `Row`.
    struct Rows: Reducer {
        struct State {
            var rows = KeyedStates((0..<10).map { ($0, Loadable<Int, Failure>()) })
        }

        enum Action {
            case row(Int, Row.Action)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }

        static var composed: some Reducer<State, Action> {
            Rows().forEach(\.rows, action: Action.row, extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } }) {
                Row()
            }
        }
    }

    /// A stream of one element that is there at once — an `AsyncStream`, the
    /// sequence most streams are.
    static func stream() -> AsyncStream<Int> {
        AsyncStream { continuation in
            continuation.yield(1)
            continuation.finish()
        }
    }

    /// Sends `action` `n` times to a fresh store, waiting for each load.
    static func loads(_ action: Shapes.Action, _ name: String, _ n: Int, setUp: ((Store<Shapes.State, Shapes.Action>) async -> Void)? = nil)
        -> Measured
    {
        Measured(name: name, iterations: n) { n in
            let store = Store(initialState: Shapes.State(), reducer: Shapes())
            await setUp?(store)
            for _ in 0..<n { await store.send(action).finish() }
            return store.state.typed.value ?? 1
        }
    }

    static func run(_ budget: Budget) async -> [Result] {
        let budget = budget.finer(3)
        let n = budget.iterations(100_000)
        let floor = Measured(name: "bare Task.immediate {} awaiting an operation", iterations: n) { n in
            var total = 0
            for i in 0..<n {
                let operation = Cases.makeOperation(returning: i)
                total &+= await Task.immediate { await operation() }.value
            }
            return total
        }
        let typed = loads(.typed, "typed load", n)
        let mapped = loads(.mapped, "mapError: load", n)
        let untyped = loads(.untyped, "AnyError load from a reducer", n)
        let retried = loads(.retried, "typed load with a retry policy", n)
        let pageFirst = loads(.pageFirst, "paged list, first page", n)
        // Every page says another follows, so each "load more" appends one.
        let pageMore = loads(.pageMore, "paged list, load more", n) { await $0.send(.pageFirst).finish() }
        let composed = loads(.composed, "composed: stamped paged list under a pending edit", n) { store in
            store.send(.composedLoad(.edit(.started(LoadID(1_000_000_000), AnyEdit(SetNumber(index: 0, value: -1))))))
        }
        let asyncTyped = Measured(name: "AsyncValue.load, typed", iterations: n) { n in
            let value = AsyncValue<Int, Failure>()
            for i in 0..<n { await value.load { () async throws(Failure) in i } }
            return value.value ?? 0
        }
        let asyncUntyped = Measured(name: "AsyncValue<_, AnyError>.load { try … }", iterations: n) { n in
            let value = AsyncValue<Int, AnyError>()
            for i in 0..<n { await value.load { () async throws in i } }
            return value.value ?? 0
        }
        let cacheEntry = Measured(name: "cache entry reload", iterations: n) { n in
            let cache = Cache<Int, Int, Failure>(clock: ContinuousClock(), staleAfter: .seconds(3_600)) { key in
                LoadRequest { () async throws(Failure) in key }
            }
            let subscription = cache.subscribe(7)
            await subscription.loaded()
            let entry = subscription.entry
            for _ in 0..<n { await entry.reload() }
            return entry.value ?? 0
        }
        // Not a target of issue 25: how much a child's load pays for
        // carrying its row's path (BENCHMARKS.md, "ninth pass").
        let keyedChild = Measured(name: "keyed child's load (forEach)", iterations: n) { n in
            let store = Store(initialState: Rows.State(), reducer: Rows.composed)
            for i in 0..<n { await store.send(.row(i % 10, .load)).finish() }
            return store.state.rows[7]?.value ?? 0
        }
        let tracked = Measured(name: "OperationTracker.run", iterations: n) { n in
            let operations = OperationTracker<Int, Failure>()
            var total = 0
            for i in 0..<n {
                if case .success(let value) = await operations.run(1, LoadRequest { () async throws(Failure) in i }) { total &+= value }
            }
            return total
        }
        var results = await Harness.compare(
            group: "11", baseline: floor,
            cases: [
                (typed, 1.5), (mapped, 2), (untyped, 2), (retried, 2), (pageFirst, 2), (pageMore, 2),
                (composed, 2), (asyncTyped, 2), (asyncUntyped, 2), (cacheEntry, 2), (tracked, 2),
                (keyedChild, nil),
            ],
            budget: budget)
        // A stream's floor iterates the same stream: iterating an
        // `AsyncStream` from the main actor takes executor switches (three
        // per stream of one element here) that no load can avoid, and that
        // cost a hundred times the other floor.
        let streamLoads = max(n / 50, 1)
        let streamFloor = Measured(name: "bare Task.immediate {} iterating the same stream", iterations: streamLoads) { n in
            var total = 0
            for _ in 0..<n {
                total &+= await Task.immediate { @MainActor in
                    var last = 0
                    for await element in stream() { last = element }
                    return last
                }.value
            }
            return total
        }
        let streamed = loads(.streamed, "stream of one value", streamLoads)
        results += await Harness.compare(group: "11", baseline: streamFloor, cases: [(streamed, 2)], budget: budget)
        return results
    }
}
