import AsyncState
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
        return patient(TestStore(initialState: Feature.State(numbers: Loadable(value: [9])), reducer: feature))
    }

    func start(_ store: TestStore<Feature.State, Feature.Action>, _ index: Int = 0, id raw: UInt64 = 1) async {
        store.send(.load(index))
        await store.receive(.numbers(.started(id(raw)))) { _ = $0.numbers.apply(.started(id(raw))) }
    }

    func receive(_ store: TestStore<Feature.State, Feature.Action>, _ action: LoadAction<[Int], TestError>) async {
        await store.receive(.numbers(action)) { _ = $0.numbers.apply(action) }
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
                await receive(store, .progress(id(1), shown[index]))
                #expect(store.state.numbers.state == .refreshing(value: shown[index]))
                #expect(store.state.numbers.value == shown[index])
            }
        }
        sources[0][2].fail(with: StreamSource.End())
        await receive(store, .finished(id(1), result))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: result))
        #expect(store.state.numbers.partialValue == nil)
    }

    @Test("a stream that fails mid-way fails the load; the partial value goes, the last value stays")
    func failureMidStream() async {
        let store = makeStore()
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]))
        sources[0][1].fail(with: TestError.timedOut)
        await receive(store, .failed(id(1), .timedOut))
        await store.finish()
        #expect(store.state.numbers.state == .error(error: .timedOut))
        #expect(store.state.numbers.value == [9])
    }

    @Test("cancelling mid-stream returns to the settled state, without the partial value")
    func cancelMidStream() async {
        let store = makeStore()
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]))
        store.send(.cancel) { _ = $0.numbers.cancel() }
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
        await receive(store, .progress(id(1), [1]))
        store.send(.keepPartialAndCancel) {
            $0.numbers.setValue([1])
            _ = $0.numbers.cancel()
        }
        await store.receive(.numbers(.cancelled(id(1))))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: [1]))
    }

    @Test("a superseded stream can never write: its late parts and its end are dropped")
    func supersededStream() async {
        let store = makeStore { $0.overlap = .latestWins(cancellingEarlier: false) }
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]))
        await start(store, 1, id: 2)
        #expect(store.state.numbers.state == .refreshing(value: [9]))
        sources[0][1].open(with: 2)
        await store.receive(.numbers(.progress(id(1), [1, 2]))) // dropped: no change
        sources[1][0].open(with: 5)
        await receive(store, .progress(id(2), [5]))
        sources[0][2].fail(with: StreamSource.End())
        await store.receive(.numbers(.finished(id(1), [1, 2]))) // dropped
        sources[1][1].fail(with: StreamSource.End())
        await receive(store, .finished(id(2), [5]))
        await store.finish()
        #expect(store.state.numbers.state == .success(value: [5]))
    }

    @Test("a stream that yields after being cancelled changes nothing, and its element is not reported")
    func yieldsAfterCancel() async {
        let store = makeStore { $0.ignoresCancellation = true }
        await start(store)
        sources[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]))
        await sources[0][1].waitForArrivals()
        store.send(.cancel) { _ = $0.numbers.cancel() }
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
        await receive(store, .progress(id(1), [1]))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        await receive(store, .failed(id(1), .timedOut))
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
        store.send(.cancel) { _ = $0.numbers.cancel() }
        await store.receive(.numbers(.cancelled(id(1))))
        await store.finish()
    }

    @Test("with a retry policy, a failed attempt's partial value goes and a fresh stream starts over")
    func retriedStream() async {
        let clock = TestClock()
        let attempts = [StreamSource(), StreamSource()]
        let counter = LockedValue(0)
        let feature = RetriedStream(attempts: attempts, counter: counter, retry: RetryPolicy(attempts: 2, clock: clock))
        let store = patient(TestStore(initialState: Feature.State(), reducer: feature))
        store.send(.load(0))
        await store.receive(.numbers(.started(id(1)))) { _ = $0.numbers.apply(.started(id(1))) }
        attempts[0][0].open(with: 1)
        await receive(store, .progress(id(1), [1]))
        attempts[0][1].fail(with: TestError.offline)
        let retry = LoadRetry<TestError>(attempt: 1, of: 2, failure: .offline, wait: .zero)
        await receive(store, .retrying(id(1), retry))
        #expect(store.state.numbers.state == .loading)
        #expect(store.state.numbers.value == nil)
        attempts[1][0].open(with: 7)
        await receive(store, .progress(id(1), [7]))
        attempts[1][1].fail(with: StreamSource.End())
        await receive(store, .finished(id(1), [7]))
        await store.finish()
        #expect(counter.current == 2)
    }

    @Test("a stream of whole values finishes with the last; one that yields none returns to the settled state")
    func wholeValues() async {
        let store = patient(TestStore(initialState: Loadable<Int, TestError>(value: 3), reducer: WholeValues(sources: sources)))
        store.send(.load(0))
        await store.receive(.value(.started(id(1)))) { _ = $0.apply(.started(id(1))) }
        sources[0][0].open(with: 4)
        await store.receive(.value(.progress(id(1), 4))) { _ = $0.apply(.progress(id(1), 4)) }
        sources[0][1].open(with: 5)
        await store.receive(.value(.progress(id(1), 5))) { _ = $0.apply(.progress(id(1), 5)) }
        sources[0][2].fail(with: StreamSource.End())
        await store.receive(.value(.finished(id(1), 5))) { _ = $0.apply(.finished(id(1), 5)) }
        store.send(.load(1))
        await store.receive(.value(.started(id(2)))) { _ = $0.apply(.started(id(2))) }
        sources[1][0].fail(with: StreamSource.End())
        await store.receive(.value(.cancelled(id(2)))) { _ = $0.apply(.cancelled(id(2))) }
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
            return state.load(Action.value, LoadRequest(stream: { GatedSequence(source: source) }, mapError: { $0 as? TestError ?? .offline }))
        case .value(let load):
            return state.reduce(load)
        }
    }
}
