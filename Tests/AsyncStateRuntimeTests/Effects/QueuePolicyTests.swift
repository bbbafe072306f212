import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// A save button whose saves queue: each save waits on its own gate and logs
/// when it starts.
struct QueuedSaves: Reducer {
    struct State: Equatable { var save = Loadable<Int, TestError>() }
    enum Action {
        case save(Int, Gate<Int>)
        /// A start of the same resource under `.latestWins`, logged as its number.
        case refresh(Int, Gate<Int>)
        /// The same, as `.latestWins(cancellingEarlier: false)`.
        case refreshKeepingEarlier(Int, Gate<Int>)
        case cancelTapped
        /// Cancels the load in flight only; the queued ones stay queued.
        case cancelInFlight
        /// A start under `.firstWins`, logged as its number.
        case tap(Int, Gate<Int>)
        case invalidate
        case saved(LoadAction<Int, TestError>)
    }

    let log: LockedValue<[Int]>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .save(let number, let gate):
            let log = log
            let request = LoadRequest { () async throws(TestError) in
                log.withLock { $0.append(number) }
                do { return try await gate.wait() } catch { throw .offline }
            }
            return state.save.load(Action.saved, request, overlap: .queue)
                .cancellable(id: "save")
        case .refresh(let number, let gate):
            let log = log
            let request = LoadRequest { () async throws(TestError) in
                log.withLock { $0.append(number) }
                do { return try await gate.wait() } catch { throw .offline }
            }
            return state.save.load(Action.saved, request, overlap: .latestWins)
        case .refreshKeepingEarlier(let number, let gate):
            let log = log
            let request = LoadRequest { () async throws(TestError) in
                log.withLock { $0.append(number) }
                do { return try await gate.wait() } catch { throw .offline }
            }
            return state.save.load(Action.saved, request, overlap: .latestWins(cancellingEarlier: false))
        case .cancelTapped:
            return .cancel(id: "save")
        case .cancelInFlight:
            return .cancel(load: state.save.cancel())
        case .tap(let number, let gate):
            let log = log
            let request = LoadRequest { () async throws(TestError) in
                log.withLock { $0.append(number) }
                do { return try await gate.wait() } catch { throw .offline }
            }
            return state.save.load(Action.saved, request, overlap: .firstWins)
        case .invalidate:
            state.save.invalidate()
            return .none
        case .saved(let load):
            return state.save.reduce(load)
        }
    }
}

@Suite("OverlapPolicy.queue", .hangGuard)
@MainActor
struct QueuePolicyTests {
    @Test("starts of the same resource run one after another, in the order they were made, each settling the state")
    func fifo() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let gates = (1...4).map { _ in Gate<Int>() }
        let one = store.send(.save(1, gates[0]))
        let two = store.send(.save(2, gates[1]))
        let three = store.send(.save(3, gates[2]))
        #expect(store.save.queuedIDs == [LoadID(2), LoadID(3)], "each queued save has its ID from the start")
        await gates[0].waitForArrivals()
        #expect(log.current == [1])
        gates[0].open(with: 10)
        await one.finish()
        await gates[1].waitForArrivals()
        #expect(store.save.value == 10 && store.save.isLoading, "the first save settled before the second started")
        #expect(store.save.inFlightID == LoadID(2) && store.save.queuedIDs == [LoadID(3)])
        // A start made while a queued run is in flight joins the end of the queue.
        let four = store.send(.save(4, gates[3]))
        gates[1].open(with: 20)
        await two.finish()
        await gates[2].waitForArrivals()
        #expect(log.current == [1, 2, 3])
        gates[2].open(with: 30)
        await three.finish()
        await gates[3].waitForArrivals()
        gates[3].open(with: 40)
        await four.finish()
        #expect(log.current == [1, 2, 3, 4])
        #expect(store.save.state == .success(value: 40))
        #expect(store.runningEffectCount == 0)
    }

    @Test("a queued start takes its ID at once and sends .queued(id), then .started(id) in its turn")
    func queuedThenStarted() async {
        let store = TestStore(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: LockedValue([])))
        let first = Gate<Int>(), second = Gate<Int>()
        store.send(.save(1, first))
        await receive(store, .started(id(1))) { $0.save = Loadable(expecting: .loading, inFlightID: id(1)) }
        store.send(.save(2, second))
        await receive(store, .queued(id(2))) { $0.save = Loadable(expecting: .loading, inFlightID: id(1), queuedIDs: [id(2)]) }
        first.open(with: 1)
        await receive(store, .finished(id(1), 1)) {
            $0.save = Loadable(expecting: .success(value: 1), newestID: id(2), queuedIDs: [id(2)])
        }
        await receive(store, .started(id(2))) {
            $0.save = Loadable(expecting: .refreshing(value: 1), settledState: .success(value: 1), inFlightID: id(2))
        }
        second.open(with: 2)
        await receive(store, .finished(id(2), 2)) { $0.save = Loadable(expecting: .success(value: 2), newestID: id(2)) }
        await store.finish()
    }

    /// Receives `.saved(load)`: the feature's actions carry gates, so they are not `Equatable`.
    func receive(
        _ store: TestStore<QueuedSaves.State, QueuedSaves.Action>, _ load: LoadAction<Int, TestError>,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        assert: @escaping (inout QueuedSaves.State) -> Void
    ) async {
        await store.receive(
            "saved(\(load))",
            matching: {
                if case .saved(let action) = $0 { action == load } else { false }
            }, assert: assert, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    @Test("cancelling removes the runs that have not started: they never run")
    func cancelRemovesWaiting() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let first = Gate<Int>(), second = Gate<Int>(), third = Gate<Int>()
        let one = store.send(.save(1, first))
        let two = store.send(.save(2, second))
        await first.waitForArrivals()
        store.send(.cancelTapped)
        await one.finish()
        await two.finish()
        #expect(log.current == [1], "the waiting save never started")
        #expect(first.observedCancellation)
        #expect(store.save.state == .notLoaded, "cancellation is not failure")
        // The queue is empty again: the next save starts at once.
        let three = store.send(.save(3, third))
        third.open(with: 3)
        await three.finish()
        #expect(log.current == [1, 3] && store.save.value == 3)
    }

    @Test("with nothing in flight a queued start runs at once")
    func idle() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let gate = Gate<Int>()
        gate.open(with: 5)
        await store.send(.save(1, gate)).finish()
        #expect(store.save.value == 5)
    }

    @Test("the policy prints as written in code")
    func description() {
        #expect(OverlapPolicy.queue.description == "queue")
        #expect(OverlapPolicy.queue != .join)
    }

    @Test("AsyncValue: queued loads run in order; cancel() removes the waiting ones")
    func asyncValue() async {
        let value = AsyncValue<Int, AnyError>()
        let log = LockedValue<[Int]>([])
        let gates = (1...3).map { _ in Gate<Int>() }
        let loads = (0..<3).map { k in
            Task {
                await value.load(overlap: .queue) {
                    log.withLock { $0.append(k) }
                    return try await gates[k].wait()
                }
            }
        }
        await gates[0].waitForArrivals()
        gates[0].open(with: 0)
        await gates[1].waitForArrivals()
        #expect(value.value == 0 && log.current == [0, 1])
        value.cancel()
        for load in loads { await load.value }
        #expect(log.current == [0, 1], "the third load never started")
        #expect(value.state == .success(value: 0))
    }

    @Test("OperationTracker: the tracker shows how many runs wait; cancel removes them")
    func trackerWaiting() async {
        let tracker = OperationTracker<String, AnyError>()
        let log = LockedValue<[Int]>([])
        let gates = (0..<3).map { _ in Gate<Int>() }
        let first = Task {
            await tracker.run("save", overlap: .queue) {
                log.withLock { $0.append(0) }; return try await gates[0].wait()
            }
        }
        await gates[0].waitForArrivals()
        var rest: [Task<OperationResult<Int, AnyError>, Never>] = []
        for k in 1..<3 {
            rest.append(
                await startCaller {
                    await tracker.run("save", overlap: .queue) {
                        log.withLock { $0.append(k) }; return try await gates[k].wait()
                    }
                })
        }
        // Each run is counted as soon as its call is queued.
        #expect(tracker.waitingCount("save") == 2 && tracker.isActive("save"))
        gates[0].open(with: 0)
        #expect(await first.value.value == 0)
        await gates[1].waitForArrivals()
        #expect(tracker.waitingCount("save") == 1)
        tracker.cancel("save")
        #expect(tracker.waitingCount("save") == 0)
        for run in rest { #expect(await run.value.value == nil) }
        #expect(log.current == [0, 1])
        #expect(!tracker.isActive("save") && tracker.error(for: "save") == nil)
    }

    @Test("OperationTracker: queued runs all complete, in order")
    func trackerInOrder() async {
        let tracker = OperationTracker<String, AnyError>()
        let log = LockedValue<[Int]>([])
        let gate = Gate<Int>()
        let first = Task {
            await tracker.run("save", overlap: .queue) {
                log.withLock { $0.append(0) }; return try await gate.wait()
            }
        }
        await gate.waitForArrivals()
        var rest: [Task<OperationResult<Int, AnyError>, Never>] = []
        for k in 1..<4 {
            rest.append(
                await startCaller {
                    await tracker.run("save", overlap: .queue) {
                        log.withLock { $0.append(k) }; return k
                    }
                })
        }
        #expect(tracker.waitingCount("save") == 3)
        gate.open(with: 0)
        #expect(await first.value.value == 0)
        var results: [Int?] = []
        for run in rest { results.append(await run.value.value) }
        #expect(results == [1, 2, 3])
        #expect(log.current == [0, 1, 2, 3])
        #expect(tracker.waitingCount("save") == 0)
    }

    // Changed by design (issue 25): a queued load gets its ID when it is
    // queued, so a later latest-wins start supersedes it as it supersedes the
    // load in flight. Before, the queued save still started once the load
    // before it ended and, started last, overtook the refresh.
    @Test("a latestWins start while runs wait in the queue supersedes the load in flight and the waiting runs: they never start")
    func latestWinsBesideAQueue() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let first = Gate<Int>(), queued = Gate<Int>(), refresh = Gate<Int>()
        let one = store.send(.save(1, first))
        let two = store.send(.save(2, queued))
        await first.waitForArrivals()
        #expect(store.save.queuedIDs == [LoadID(2)])
        let three = store.send(.refresh(3, refresh))
        #expect(store.save.inFlightID == LoadID(3))
        #expect(store.save.queuedIDs.isEmpty, "the refresh superseded the queued save")
        await refresh.waitForArrivals()
        #expect(first.observedCancellation, "the refresh cancelled the load in flight")
        await one.finish()
        await two.finish()
        #expect(log.current == [1, 3], "the queued save never started")
        #expect(queued.cancellationCount == 0, "nothing ever waited on the queued save's gate")
        refresh.open(with: 30)
        await three.finish()
        #expect(store.save.state == .success(value: 30))
        #expect(store.runningEffectCount == 0)
    }
    @Test("a start queued after the load in flight was cancelled waits behind the loads still queued")
    func queueAfterCancellingInFlight() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let gates = (1...3).map { _ in Gate<Int>() }
        let one = store.send(.save(1, gates[0]))
        let two = store.send(.save(2, gates[1]))
        await gates[0].waitForArrivals()
        store.send(.cancelInFlight)
        #expect(store.save.inFlightID == nil && store.save.queuedIDs == [LoadID(2)])
        let three = store.send(.save(3, gates[2]))
        #expect(store.save.queuedIDs == [LoadID(2), LoadID(3)], "the new save queued behind the waiting one")
        await one.finish()
        await gates[1].waitForArrivals()
        gates[1].open(with: 20)
        await two.finish()
        await gates[2].waitForArrivals()
        gates[2].open(with: 30)
        await three.finish()
        #expect(log.current == [1, 2, 3], "every save ran, in order")
        #expect(store.save.state == .success(value: 30))
    }

    @Test("OperationTracker: a save queued after the first save's caller left waits behind the save already queued")
    func trackerQueueAfterFirstCallerLeft() async {
        let tracker = OperationTracker<String, TestError>()
        let log = LockedValue<[Int]>([])
        let gates = (0..<3).map { _ in Gate<Int>() }
        func save(_ k: Int) -> LoadRequest<Int, TestError> {
            LoadRequest { () async throws(TestError) in
                log.withLock { $0.append(k) }
                do { return try await gates[k].wait() } catch { throw .offline }
            }
        }
        // The first save ignores cancellation, as many network calls do: its
        // work runs on after its caller leaves, and the queue waits for it.
        let stubborn = LoadRequest { () async throws(TestError) in
            log.withLock { $0.append(0) }
            return await gates[0].value() ?? -1
        }
        let first = await startCaller { await tracker.run("save", stubborn, overlap: .queue) }
        await gates[0].waitForArrivals()
        let second = await startCaller { await tracker.run("save", save(1), overlap: .queue) }
        first.cancel()
        #expect(await first.value == .cancelled)
        #expect(tracker.waitingCount("save") == 1)
        let third = await startCaller { await tracker.run("save", save(2), overlap: .queue) }
        #expect(tracker.waitingCount("save") == 2, "the third save queued behind the second")
        gates[0].open(with: 0)
        await gates[1].waitForArrivals()
        gates[1].open(with: 1)
        #expect(await second.value == .success(1))
        await gates[2].waitForArrivals()
        gates[2].open(with: 2)
        #expect(await third.value == .success(2))
        #expect(log.current == [0, 1, 2])
    }

    @Test("a latestWins(cancellingEarlier: false) start withdraws the queued loads: they never run, though the load in flight runs on")
    func latestWinsKeepingEarlierWithdrawsQueued() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let first = Gate<Int>(), queued = Gate<Int>(), refresh = Gate<Int>()
        let one = store.send(.save(1, first))
        let two = store.send(.save(2, queued))
        await first.waitForArrivals()
        let three = store.send(.refreshKeepingEarlier(3, refresh))
        #expect(store.save.inFlightID == LoadID(3) && store.save.queuedIDs.isEmpty)
        await refresh.waitForArrivals()
        #expect(!first.observedCancellation, "the earlier load's work runs on")
        first.open(with: 10)
        await one.finish()
        await two.finish()
        #expect(log.current == [1, 3], "the queued save never started")
        refresh.open(with: 30)
        await three.finish()
        #expect(store.save.state == .success(value: 30))
        #expect(store.runningEffectCount == 0)
    }
    @Test("while queued loads wait for a cancelled load's work, a firstWins start is ignored and a join waits for the last queued load")
    func startsBesideAWaitingQueue() async {
        let value = AsyncValue<Int, TestError>()
        let first = Gate<Int>(), queued = Gate<Int>()
        // The first load ignores cancellation: its work winds down only when its gate opens.
        let one = await startCaller { await value.load { () async throws(TestError) in await first.value() ?? -1 } }
        await first.waitForArrivals()
        let two = await startCaller {
            await value.load(overlap: .queue) { () async throws(TestError) in
                do { return try await queued.wait() } catch { throw .offline }
            }
        }
        one.cancel()
        await one.value
        #expect(!value.isLoading && value.waitingCount == 1)
        await value.load(overlap: .firstWins) { () async throws(TestError) in 98 }
        #expect(value.waitingCount == 1 && value.value == nil, "the firstWins start was ignored")
        let joined = await startCaller { await value.load(overlap: .join) { () async throws(TestError) in 99 } }
        #expect(value.waitingCount == 1, "the join started nothing")
        first.open(with: 1)
        await queued.waitForArrivals()
        queued.open(with: 2)
        await two.value
        await joined.value
        #expect(value.value == 2, "the join waited for the queued load")
    }
    @Test("beside a load in flight that an invalidation overtook, a firstWins start leaves the save queued after it")
    func firstWinsBesideOvertakenInFlight() async {
        let log = LockedValue<[Int]>([])
        let store = Store(initialState: QueuedSaves.State(), reducer: QueuedSaves(log: log))
        let gates = (0..<3).map { _ in Gate<Int>() }
        let one = store.send(.save(1, gates[0]))
        await gates[0].waitForArrivals()
        store.send(.invalidate)
        let two = store.send(.save(2, gates[1]))
        #expect(store.save.queuedIDs == [LoadID(2)] && !store.save.isOvertaken(LoadID(2)))
        let three = store.send(.tap(3, gates[2]))
        #expect(store.save.queuedIDs == [LoadID(2)], "the tap was ignored: the queued save answers the invalidation")
        gates[0].open(with: 10)
        await one.finish()
        await gates[1].waitForArrivals()
        gates[1].open(with: 20)
        await two.finish()
        await three.finish()
        #expect(log.current == [1, 2], "the queued save reached the server")
        #expect(store.save.state == .success(value: 20) && !store.save.isInvalidated)
    }
}
