import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// Loads over an `AsyncSequence`: each element is progress, applied only
/// while its load is in flight; the end of the sequence finishes the load.
@Suite("Streams: loads over an AsyncSequence")
@MainActor
struct StreamLoadTests {
    typealias Feature = StreamingFeature

    let sources = [StreamSource(), StreamSource()]

    /// A store that already shows `[9]`.
    func makeStore(_ configure: (inout Feature) -> Void = { _ in }) -> TestStore<Feature.State, Feature.Action> {
        var feature = Feature(sources: sources)
        configure(&feature)
        return TestStore(initialState: Feature.State(numbers: Loadable(value: [9])), reducer: feature)
    }

    /// Load `raw` of the store's `[9]` in flight, showing `partial` once it has streamed some.
    func refreshing(_ raw: UInt64 = 1, partial: [Int]? = nil) -> Loadable<[Int], TestError> {
        Loadable(
            expecting: .refreshing(value: partial ?? [9]), settledState: .success(value: [9]), inFlightID: id(raw), partialValue: partial)
    }

    /// Load `raw` settled with `value`.
    func settled(_ value: [Int], id raw: UInt64 = 1) -> Loadable<[Int], TestError> {
        Loadable(expecting: .success(value: value), newestID: id(raw))
    }

    func start(_ store: TestStore<Feature.State, Feature.Action>, _ index: Int = 0, id raw: UInt64 = 1) async {
        store.send(.load(index))
        await store.receive(.numbers(.started(id(raw)))) { $0.numbers = self.refreshing(raw) }
    }

    func receive(
        _ store: TestStore<Feature.State, Feature.Action>, _ action: LoadAction<[Int], TestError>, _ expected: Loadable<[Int], TestError>
    ) async {
        await store.receive(.numbers(action)) { $0.numbers = expected }
    }

    @Test(
        "what a refresh shows while it streams, per mode",
        arguments: [
            (StreamMode.startEmpty, [[1], [1, 2]], [1, 2]),
            (.append, [[9, 1], [9, 1, 2]], [9, 1, 2]),
            (.keepUntilEnd, [], [1, 2]),
        ])
    func modes(mode: StreamMode, shown: [[Int]], result: [Int]) async {
        let store = makeStore { $0.mode = mode }
        await start(store)
        for (index, element) in [1, 2].enumerated() {
            sources[0][index].open(with: element)
            if index < shown.count {
                await receive(store, .progress(id(1), shown[index]), refreshing(partial: shown[index]))
                #expect(store.state.numbers.state == .refreshing(value: shown[index]))
                #expect(store.state.numbers.value == shown[index])
            }
        }
        sources[0][2].fail(with: StreamSource.End())
        await receive(store, .finished(id(1), result), settled(result))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: result))
        #expect(store.state.numbers.partialValue == nil)
    }

    @Test("a stream that fails mid-way fails the load; the partial value goes, the last value stays")
    func failureMidStream() async {
        let store = makeStore()
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]), refreshing(partial: [1]))
        sources[0][1].fail(with: TestError.timedOut)
        await receive(store, .failed(id(1), .timedOut), Loadable(expecting: .error(error: .timedOut), value: [9], newestID: id(1)))
        await store.finish()
        #expect(store.state.numbers.state == .error(error: .timedOut))
        #expect(store.state.numbers.value == [9])
    }

    @Test("cancelling mid-stream returns to the settled state, without the partial value")
    func cancelMidStream() async {
        let store = makeStore()
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]), refreshing(partial: [1]))
        store.send(.cancel) { $0.numbers = self.settled([9]) }
        await store.receive(.numbers(.cancelled(id(1))))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: [9]))
        #expect(sources[0][1].observedCancellation)
    }

    @Test("to keep the partial value on cancel, a reducer stores it first with setValue")
    func keepPartialOnCancel() async {
        let store = makeStore()
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]), refreshing(partial: [1]))
        store.send(.keepPartialAndCancel) { $0.numbers = self.settled([1]) }
        await store.receive(.numbers(.cancelled(id(1))))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: [1]))
    }

    @Test("a superseded stream can never write: its late parts and its end are dropped")
    func supersededStream() async {
        let store = makeStore { $0.overlap = .latestWins(cancellingEarlier: false) }
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]), refreshing(partial: [1]))
        await start(store, 1, id: 2)
        #expect(store.state.numbers.state == .refreshing(value: [9]))
        sources[0][1].open(with: 2)
        await store.receive(.numbers(.progress(id(1), [1, 2]))) // dropped: no change
        sources[1][0].open(with: 5)
        await receive(store, .progress(id(2), [5]), refreshing(2, partial: [5]))
        sources[0][2].fail(with: StreamSource.End())
        await store.receive(.numbers(.finished(id(1), [1, 2]))) // dropped
        sources[1][1].fail(with: StreamSource.End())
        await receive(store, .finished(id(2), [5]), settled([5], id: 2))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: [5]))
    }

    @Test("a stream that yields after being cancelled changes nothing, and its element is not reported")
    func yieldsAfterCancel() async {
        let store = makeStore { $0.ignoresCancellation = true }
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]), refreshing(partial: [1]))
        await sources[0][1].waitForArrivals()
        store.send(.cancel) { $0.numbers = self.settled([9]) }
        sources[0][1].open(with: 2) // the stream ignores cancellation and yields
        await store.receive(.numbers(.cancelled(id(1))))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: [9]))
        #expect(sources[0].requests == 2)
    }

    @Test("a stream that never ends runs until its timeout, which fails the load")
    func neverEndingWithTimeout() async {
        let clock = TestClock()
        let store = makeStore { $0.timeout = LoadTimeout(.seconds(30), clock: clock, failure: .timedOut) }
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]), refreshing(partial: [1]))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        await receive(store, .failed(id(1), .timedOut), Loadable(expecting: .error(error: .timedOut), value: [9], newestID: id(1)))
        await store.finish()
        #expect(store.state.numbers.value == [9])
        #expect(sources[0][1].observedCancellation)
    }

    @Test("a stream that never ends, without a timeout, stays in flight until cancelled")
    func neverEndingWithoutTimeout() async {
        let store = makeStore()
        await start(store)
        await sources[0][0].waitForArrivals()
        #expect(store.state.numbers.isLoading)
        #expect(store.runningEffectCount == 1)
        store.send(.cancel) { $0.numbers = self.settled([9]) }
        await store.receive(.numbers(.cancelled(id(1))))
        await store.finish()
    }

    @Test("with a retry policy, a failed attempt's partial value goes and a fresh stream starts over")
    func retriedStream() async {
        let clock = TestClock()
        let attempts = [StreamSource(), StreamSource()]
        let counter = LockedValue(0)
        let feature = RetriedStream(attempts: attempts, counter: counter, retry: RetryPolicy(attempts: 2, clock: clock))
        let store = TestStore(initialState: Feature.State(), reducer: feature)
        let first = LoadActivity<TestError>(reason: .firstLoad, attempts: 2)
        let second = LoadActivity<TestError>(reason: .firstLoad, attempt: 2, attempts: 2, wait: .zero, lastFailure: .offline)
        store.send(.load(0))
        await receive(store, .started(id(1)), Loadable(expecting: .loading, inFlightID: id(1)))
        await receive(store, .planned(id(1), attempts: 2), Loadable(expecting: .loading, inFlightID: id(1), activity: first))
        attempts[0][0].open(with: 1)
        await receive(
            store, .progress(id(1), [1]),
            Loadable(expecting: .refreshing(value: [1]), inFlightID: id(1), activity: first, partialValue: [1]))
        attempts[0][1].fail(with: TestError.offline)
        let retry = LoadRetry<TestError>(attempt: 1, of: 2, failure: .offline, wait: .zero)
        await receive(store, .retrying(id(1), retry), Loadable(expecting: .loading, inFlightID: id(1), activity: second))
        #expect(store.state.numbers.state == .loading)
        #expect(store.state.numbers.value == nil)
        attempts[1][0].open(with: 7)
        await receive(
            store, .progress(id(1), [7]),
            Loadable(expecting: .refreshing(value: [7]), inFlightID: id(1), activity: second, partialValue: [7]))
        attempts[1][1].fail(with: StreamSource.End())
        await receive(store, .finished(id(1), [7]), settled([7]))
        await store.finish()
        #expect(counter.current == 2)
    }

    @Test("a stream of whole values finishes with the last; one that yields none returns to the settled state")
    func wholeValues() async {
        let store = TestStore(initialState: Loadable<Int, TestError>(value: 3), reducer: WholeValues(sources: sources))
        func refreshing(_ raw: UInt64, from value: Int, partial: Int? = nil) -> Loadable<Int, TestError> {
            Loadable(
                expecting: .refreshing(value: partial ?? value), settledState: .success(value: value), inFlightID: id(raw),
                partialValue: partial)
        }
        store.send(.load(0))
        await store.receive(.value(.started(id(1)))) { $0 = refreshing(1, from: 3) }
        sources[0][0].open(with: 4)
        await store.receive(.value(.progress(id(1), 4))) { $0 = refreshing(1, from: 3, partial: 4) }
        sources[0][1].open(with: 5)
        await store.receive(.value(.progress(id(1), 5))) { $0 = refreshing(1, from: 3, partial: 5) }
        sources[0][2].fail(with: StreamSource.End())
        await store.receive(.value(.finished(id(1), 5))) { $0 = Loadable(expecting: .success(value: 5), newestID: id(1)) }
        store.send(.load(1))
        await store.receive(.value(.started(id(2)))) { $0 = refreshing(2, from: 5) }
        sources[1][0].fail(with: StreamSource.End())
        await store.receive(.value(.cancelled(id(2)))) { $0 = Loadable(expecting: .success(value: 5), newestID: id(2)) }
        await store.finish()
        #expect(store.state.state == .success(value: 5))
    }
}

/// Streams from a fresh source on each attempt.
struct RetriedStream: Reducer {
    let attempts: [StreamSource]
    let counter: LockedValue<Int>
    let retry: RetryPolicy<TestError>

    func reduce(into state: inout StreamingFeature.State, action: StreamingFeature.Action) -> Effect<StreamingFeature.Action> {
        switch action {
        case .load:
            let attempts = attempts, counter = counter
            let request = LoadRequest<[Int], TestError>(
                stream: {
                    let attempt = counter.withLock { count in
                        defer { count += 1 }
                        return count
                    }
                    return GatedSequence(source: attempts[attempt])
                },
                initial: [], mapError: { $0 as? TestError ?? .offline }
            ) { $0.append($1) }
            return state.numbers.load(StreamingFeature.Action.numbers, request.retry(retry))
        case .numbers(let load):
            return state.numbers.reduce(load)
        case .cancel, .keepPartialAndCancel:
            return .none
        }
    }
}

/// One number loaded over streams of whole values.
struct WholeValues: Reducer {
    enum Action: Equatable {
        case load(Int)
        case value(LoadAction<Int, TestError>)
    }

    let sources: [StreamSource]

    func reduce(into state: inout Loadable<Int, TestError>, action: Action) -> Effect<Action> {
        switch action {
        case .load(let index):
            let source = sources[index]
            return state.load(
                Action.value, LoadRequest(stream: { GatedSequence(source: source) }, mapError: { $0 as? TestError ?? .offline }))
        case .value(let load):
            return state.reduce(load)
        }
    }
}
