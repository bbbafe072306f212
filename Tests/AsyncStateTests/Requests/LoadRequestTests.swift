import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@testable import AsyncState

/// What the server throws when a call fails: not a `TestError`, so each
/// source's own way of making the failure shows.
struct ServerDown: Error, Equatable {}

/// A server whose every call waits on a gate of its own; a failed gate's
/// error is thrown as it is.
@MainActor
final class GatedServer {
    private var gates: [Gate<Int>] = []
    /// How many calls were made.
    private(set) var calls = 0

    /// The gate of call `index` (from 0), made ahead of the call if needed.
    subscript(index: Int) -> Gate<Int> {
        while gates.count <= index { gates.append(Gate()) }
        return gates[index]
    }

    func call() async throws -> Int {
        let gate = self[calls]
        calls += 1
        return try await gate.wait()
    }
}

/// A sequence of one element: the answer of one call to the server.
struct OneCall: AsyncSequence {
    let server: GatedServer

    struct AsyncIterator: AsyncIteratorProtocol {
        var server: GatedServer?

        @MainActor
        mutating func next() async throws -> Int? {
            guard let server else { return nil }
            self.server = nil
            return try await server.call()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(server: server) }
}

/// A feature that loads one number with one request, whatever it is.
struct RequestLoader<Failure: Error & Equatable & Sendable>: Reducer {
    struct State: Equatable {
        var number = Loadable<Int, Failure>()
    }

    enum Action: Equatable {
        case load
        case cancel
        case number(LoadAction<Int, Failure>)
    }

    let request: LoadRequest<Int, Failure>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load: state.number.load(Action.number, request)
        case .cancel: .cancel(load: state.number.cancel())
        case .number(let load): state.number.reduce(load)
        }
    }
}

/// The sources a `LoadRequest` can run, each reading one number from a
/// `GatedServer`.
enum RequestSource: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// An operation that throws `TestError` itself.
    case typed
    /// An untyped operation whose errors `mapError:` turns into `TestError`.
    case mapError
    /// An untyped operation whose errors become `AnyError`.
    case anyError
    /// A stream of whole values.
    case stream
    /// A stream of parts, folded into a value that starts at 100.
    case accumulatingStream

    var testDescription: String { rawValue }

    @MainActor
    func scenario(_ options: RequestOptions) -> any RequestScenario {
        let server = GatedServer()
        let clock = TestClock()
        let mapped = LockedValue(0)
        let mapError: @Sendable (any Error) -> TestError = { error in
            mapped.withLock { $0 += 1 }
            return error is ServerDown ? .offline : .timedOut
        }
        switch self {
        case .typed:
            let request = LoadRequest { () async throws(TestError) -> Int in
                do { return try await server.call() } catch { throw .offline }
            }
            return Scenario(request, server: server, clock: clock, options: options, serverDown: .offline, timedOut: .timedOut)
        case .mapError:
            let request = LoadRequest(mapError: mapError) { try await server.call() }
            return Scenario(
                request, server: server, clock: clock, options: options, serverDown: .offline, timedOut: .timedOut, mapped: mapped)
        case .anyError:
            let request = LoadRequest<Int, AnyError> { try await server.call() }
            return Scenario(
                request, server: server, clock: clock, options: options, serverDown: AnyError(ServerDown()),
                timedOut: AnyError(TestError.timedOut))
        case .stream:
            let request = LoadRequest(stream: { OneCall(server: server) }, mapError: mapError)
            return Scenario(
                request, server: server, clock: clock, options: options, serverDown: .offline, timedOut: .timedOut, mapped: mapped,
                streams: true)
        case .accumulatingStream:
            let request = LoadRequest(stream: { OneCall(server: server) }, initial: 100, mapError: mapError) { $0 += $1 }
            return Scenario(
                request, server: server, clock: clock, options: options, serverDown: .offline, timedOut: .timedOut, mapped: mapped,
                streams: true, result: 107)
        }
    }
}

/// What a request adds around its source, and the effect start path the
/// store takes.
struct RequestOptions: CustomTestStringConvertible, Sendable {
    var retry = false
    var timeout = false
    var stamped = false
    var start = EffectStart.immediate

    /// Every combination of options, on both effect start paths.
    static let all: [RequestOptions] = EffectStart.allCases.flatMap { start in
        [false, true].flatMap { retry in
            [false, true].flatMap { timeout in
                [false, true].map { stamped in RequestOptions(retry: retry, timeout: timeout, stamped: stamped, start: start) }
            }
        }
    }

    var testDescription: String {
        let names = [retry ? "retry" : nil, timeout ? "timeout" : nil, stamped ? "stamped" : nil].compactMap(\.self)
        return (names.isEmpty ? "plain" : names.joined(separator: "+")) + ", \(start)"
    }
}

/// The behaviours every request must show, whatever its source.
@MainActor
protocol RequestScenario {
    func succeeds() async
    func fails() async
    func recoversOnRetry() async
    func isCancelled() async
    func timesOut() async
}

/// One row of the table: a request of one source, with its options, and
/// what its load must report through `Loadable.load`.
@MainActor
struct Scenario<Failure: Error & Equatable & Sendable>: RequestScenario {
    typealias Store = TestStore<RequestLoader<Failure>.State, RequestLoader<Failure>.Action>

    let server: GatedServer
    let clock: TestClock
    let options: RequestOptions
    /// The source's request with the options applied.
    let request: LoadRequest<Int, Failure>
    /// What the source makes of a call that throws `ServerDown`.
    let serverDown: Failure
    /// The timeout's failure.
    let timedOut: Failure
    /// How many times `mapError` ran, if the source has one.
    let mapped: LockedValue<Int>?
    /// Whether the source streams: its value is progress before the end.
    let streams: Bool
    /// What the load makes of the server's answer, 7.
    let result: Int

    init(
        _ source: LoadRequest<Int, Failure>, server: GatedServer, clock: TestClock, options: RequestOptions, serverDown: Failure,
        timedOut: Failure, mapped: LockedValue<Int>? = nil, streams: Bool = false, result: Int = 7
    ) {
        var request = source
        if options.retry { request = request.retry(RetryPolicy(attempts: 2, clock: clock)) }
        if options.timeout { request = request.timeout(LoadTimeout(.seconds(30), clock: clock, failure: timedOut)) }
        if options.stamped { request = request.stamped(by: LoadClock(clock)) }
        self.server = server
        self.clock = clock
        self.options = options
        self.request = request
        self.serverDown = serverDown
        self.timedOut = timedOut
        self.mapped = mapped
        self.streams = streams
        self.result = result
    }

    func makeStore() -> Store {
        // Checking purity also checks that the stamp is read by the effect, never by the reducer.
        let store = TestStore(initialState: RequestLoader.State(), reducer: RequestLoader(request: request), checksPurity: true)
        store.effectStart = options.start
        return store
    }

    /// The first attempt's activity: its plan, if it has a retry policy, is known from the start.
    var firstAttempt: LoadActivity<Failure> { LoadActivity(reason: .firstLoad, attempts: options.retry ? 2 : nil) }

    /// The second attempt's activity, after `ServerDown`.
    var secondAttempt: LoadActivity<Failure> {
        LoadActivity(reason: .firstLoad, attempt: 2, attempts: 2, wait: .zero, lastFailure: serverDown)
    }

    /// Starts load #1: `.started`, then at once its plan if it has a retry policy.
    func start(_ store: Store) async {
        store.send(.load)
        await store.receive(.number(.started(id(1)))) { $0.number = Loadable(expecting: .loading, inFlightID: id(1)) }
        if options.retry {
            await store.receive(.number(.planned(id(1), attempts: 2))) {
                $0.number = Loadable(expecting: .loading, inFlightID: id(1), activity: firstAttempt)
            }
        }
    }

    func succeeds() async {
        let store = makeStore()
        await start(store)
        await server[0].waitForArrivals()
        if options.timeout { await clock.waitForSleepers(1) }
        // Stamped at the time it arrives: 5 s after the clock was made.
        clock.advance(by: .seconds(5))
        server[0].open(with: 7)
        if streams {
            await store.receive(.number(.progress(id(1), result))) {
                $0.number = Loadable(
                    expecting: .refreshing(value: result), inFlightID: id(1), activity: firstAttempt, partialValue: result)
            }
        }
        await receiveEnd(store)
        await store.finish()
        #expect(server.calls == 1)
        #expect(mapped?.current ?? 0 == 0)
    }

    /// Receives the load's end with the server's answer, stamped if the request is.
    func receiveEnd(_ store: Store) async {
        let finished = LoadAction<Int, Failure>.finished(id(1), result)
        let stamp = LoadClock.Instant(offset: .seconds(5))
        await store.receive(.number(options.stamped ? .at(stamp, finished) : finished)) {
            $0.number = Loadable(expecting: .success(value: result), newestID: id(1), settledAt: options.stamped ? stamp : nil)
        }
    }

    func fails() async {
        let store = makeStore()
        await start(store)
        server[0].fail(with: ServerDown())
        if options.retry {
            await store.receive(.number(.retrying(id(1), LoadRetry(attempt: 1, of: 2, failure: serverDown, wait: .zero)))) {
                $0.number = Loadable(expecting: .loading, inFlightID: id(1), activity: secondAttempt)
            }
            server[1].fail(with: ServerDown())
        }
        // A failure is never stamped: only a value has an age.
        await store.receive(.number(.failed(id(1), serverDown))) {
            $0.number = Loadable(expecting: .error(error: serverDown), newestID: id(1))
        }
        await store.finish()
        #expect(server.calls == (options.retry ? 2 : 1))
        if let mapped { #expect(mapped.current == server.calls, "each attempt's error was mapped once") }
    }

    func recoversOnRetry() async {
        let store = makeStore()
        await start(store)
        server[0].fail(with: ServerDown())
        await store.receive(.number(.retrying(id(1), LoadRetry(attempt: 1, of: 2, failure: serverDown, wait: .zero)))) {
            $0.number = Loadable(expecting: .loading, inFlightID: id(1), activity: secondAttempt)
        }
        // The second attempt calls the source again: a stream starts over.
        await server[1].waitForArrivals()
        clock.advance(by: .seconds(5))
        server[1].open(with: 7)
        if streams {
            await store.receive(.number(.progress(id(1), result))) {
                $0.number = Loadable(
                    expecting: .refreshing(value: result), inFlightID: id(1), activity: secondAttempt, partialValue: result)
            }
        }
        await receiveEnd(store)
        await store.finish()
        #expect(server.calls == 2)
    }

    func isCancelled() async {
        let store = makeStore()
        await start(store)
        await server[0].waitForArrivals()
        store.send(.cancel) { $0.number = Loadable(expecting: .notLoaded, newestID: id(1)) }
        await store.receive(.number(.cancelled(id(1)))) // already settled by cancel(): dropped
        await store.finish()
        #expect(server[0].observedCancellation)
        #expect(server.calls == 1, "a cancelled load is not retried")
        #expect(mapped?.current ?? 0 == 0, "cancellation never reaches mapError")
        #expect(clock.sleeperCount == 0, "the timeout's timer stopped with the load")
    }

    func timesOut() async {
        let store = makeStore()
        await start(store)
        await server[0].waitForArrivals()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        await store.receive(.number(.failed(id(1), timedOut))) {
            $0.number = Loadable(expecting: .error(error: timedOut), newestID: id(1))
        }
        await store.finish()
        #expect(server[0].observedCancellation)
        #expect(server.calls == 1, "the load's timeout ends it, with no further attempt")
        #expect(mapped?.current ?? 0 == 0, "the timeout's failure is not mapped")
    }
}

/// One `LoadRequest` works the same through a reducer's `Loadable.load`,
/// whatever its source — typed operation, `mapError:`, `AnyError`, stream,
/// accumulating stream — with or without a retry policy, a timeout and a
/// stamping clock, on both effect start paths.
@Suite("Requests: every source, with every option, through Loadable.load")
@MainActor
struct LoadRequestTableTests {
    @Test(
        "a load that succeeds reports its start, its plan, its progress and its value, stamped if asked",
        arguments: RequestSource.allCases, RequestOptions.all)
    func succeeds(source: RequestSource, options: RequestOptions) async {
        await source.scenario(options).succeeds()
    }

    @Test(
        "a load whose attempts fail reports each retry and ends with the source's failure",
        arguments: RequestSource.allCases, RequestOptions.all)
    func fails(source: RequestSource, options: RequestOptions) async {
        await source.scenario(options).fails()
    }

    @Test(
        "a load whose first attempt fails tries the source again and ends with its value",
        arguments: RequestSource.allCases, RequestOptions.all.filter(\.retry))
    func recoversOnRetry(source: RequestSource, options: RequestOptions) async {
        await source.scenario(options).recoversOnRetry()
    }

    @Test(
        "a cancelled load ends .cancelled: never a failure, never retried, never mapped",
        arguments: RequestSource.allCases, RequestOptions.all)
    func isCancelled(source: RequestSource, options: RequestOptions) async {
        await source.scenario(options).isCancelled()
    }

    @Test(
        "a load that takes too long ends with the timeout's failure, and its work is cancelled",
        arguments: RequestSource.allCases, RequestOptions.all.filter(\.timeout))
    func timesOut(source: RequestSource, options: RequestOptions) async {
        await source.scenario(options).timesOut()
    }
}

@Suite("Requests: what a request holds")
@MainActor
struct LoadRequestOptionsTests {
    @Test("a request's options read back, and nil removes them")
    func optionsReadBack() {
        let plain = LoadRequest { () async throws(TestError) in 1 }
        #expect(plain.retryPolicy == nil && plain.loadTimeout == nil && plain.clock == nil)
        #expect(plain.isDirect, "an operation with no retry and no timeout takes the fast path")
        let full = plain.retry(RetryPolicy(attempts: 3)).timeout(LoadTimeout(.seconds(2), failure: .timedOut)).stamped(
            by: LoadClock(TestClock()))
        #expect(full.retryPolicy?.attempts == 3)
        #expect(full.loadTimeout != nil)
        #expect(full.clock != nil)
        #expect(!full.isDirect)
        let cleared = full.retry(nil).timeout(nil)
        #expect(cleared.retryPolicy == nil && cleared.loadTimeout == nil)
        #expect(cleared.clock != nil && cleared.isDirect, "a stamp keeps the fast path")
    }

    @Test("a stream never takes the fast path")
    func streamIsNotDirect() {
        let request = LoadRequest<Int, TestError>(stream: { OneCall(server: GatedServer()) }, mapError: { _ in .offline })
        #expect(!request.isDirect)
    }
}

/// A load with a retry policy says how many attempts it makes as it starts:
/// `.planned(id, attempts:)`, right after `.started`, so `activity.attempts`
/// is known from the first attempt (before issue 25 it was `nil` until the
/// first retry).
@Suite("Requests: the plan of a retried load")
@MainActor
struct RetryPlanTests {
    /// The states a load starts from, and the reason and last failure its activity names.
    nonisolated static let starts: [(Loadable<Int, TestError>, LoadActivity<TestError>.Reason, TestError?)] = [
        (Loadable(), .firstLoad, nil),
        (Loadable(value: 5), .refresh, nil),
        (Loadable(expecting: .error(error: .offline), newestID: LoadID(1)), .retryAfterFailure, .offline),
    ]

    @Test(
        "a load with a retry policy sends .planned(id, attempts:) right after .started, so its attempts are known from the first attempt",
        arguments: starts, EffectStart.allCases)
    func plannedRightAfterStarted(
        from start: (initial: Loadable<Int, TestError>, reason: LoadActivity<TestError>.Reason, lastFailure: TestError?),
        path: EffectStart
    ) async {
        let service = FlakyService()
        let retry = RetryPolicy<TestError>(attempts: 3, backoff: .constant(.seconds(1)), clock: TestClock())
        let store = Store(
            initialState: RetryingFeature.State(number: start.initial), reducer: RetryingFeature(service: service, retry: retry),
            firstLoadID: id(2))
        store._effectStart = path
        var steps: [(action: LoadAction<Int, TestError>, activity: LoadActivity<TestError>?)] = []
        store.observeTransitions { transition in
            if case .number(let load) = transition.action { steps.append((load, transition.state.number.activity)) }
        }
        let task = store.send(.load)
        // Inside the send that started it, before its first attempt has answered.
        #expect(steps.map(\.action) == [.started(id(2)), .planned(id(2), attempts: 3)])
        #expect(
            steps.map(\.activity) == [
                LoadActivity(reason: start.reason, lastFailure: start.lastFailure),
                LoadActivity(reason: start.reason, attempts: 3, lastFailure: start.lastFailure),
            ])
        await service[0].waitForArrivals()
        #expect(store.number.activity == LoadActivity(reason: start.reason, attempt: 1, attempts: 3, lastFailure: start.lastFailure))
        service[0].open(with: 7)
        await task.finish()
        #expect(steps.map(\.action) == [.started(id(2)), .planned(id(2), attempts: 3), .finished(id(2), 7)])
        #expect(store.number.activity == nil)
    }

    @Test("a load without a retry policy sends no plan: its number of attempts is unknown", arguments: EffectStart.allCases)
    func noPlanWithoutRetry(path: EffectStart) async {
        let gate = Gate<Int>()
        let request = LoadRequest { () async throws(TestError) in
            do { return try await gate.wait() } catch { throw .offline }
        }
        let store = Store(initialState: RequestLoader<TestError>.State(), reducer: RequestLoader(request: request))
        store._effectStart = path
        var actions: [LoadAction<Int, TestError>] = []
        store.observeTransitions { transition in
            if case .number(let load) = transition.action { actions.append(load) }
        }
        let task = store.send(.load)
        await gate.waitForArrivals()
        #expect(store.number.activity == LoadActivity(reason: .firstLoad))
        #expect(store.number.activity?.attempts == nil)
        gate.open(with: 1)
        await task.finish()
        #expect(actions == [.started(id(1)), .finished(id(1), 1)])
    }

    @Test(
        "a newer load that supersedes a retried one sends its own plan; the superseded load's end is dropped",
        arguments: EffectStart.allCases)
    func supersedingLoadPlansAgain(path: EffectStart) async {
        let service = FlakyService()
        let retry = RetryPolicy<TestError>(attempts: 2, clock: TestClock())
        let store = Store(initialState: RetryingFeature.State(), reducer: RetryingFeature(service: service, retry: retry))
        store._effectStart = path
        var steps: [(action: LoadAction<Int, TestError>, isDropped: Bool)] = []
        store.observeTransitions { transition in
            if case .number(let load) = transition.action { steps.append((load, transition.isDropped)) }
        }
        let first = store.send(.load)
        await service[0].waitForArrivals()
        let second = store.send(.load)
        #expect(store.number.activity == LoadActivity(reason: .firstLoad, attempts: 2))
        await first.finish()
        #expect(service[0].observedCancellation)
        service[1].open(with: 2)
        await second.finish()
        #expect(
            steps.map(\.action) == [
                .started(id(1)), .planned(id(1), attempts: 2), .started(id(2)), .planned(id(2), attempts: 2), .cancelled(id(1)),
                .finished(id(2), 2),
            ])
        #expect(steps.map(\.isDropped) == [false, false, false, false, true, false])
        #expect(store.number.state == .success(value: 2))
        #expect(service.calls == 2, "the superseded load made no second attempt")
    }

    @Test("AsyncValue: a load with a retry policy knows its attempts from the first attempt")
    func asyncValueKnowsAttempts() async {
        let value = AsyncValue<Int, TestError>()
        let gate = Gate<Int>()
        let request = LoadRequest { () async throws(TestError) in
            do { return try await gate.wait() } catch { throw .offline }
        }
        let load = await startCaller { await value.load(request.retry(RetryPolicy(attempts: 4))) }
        await gate.waitForArrivals()
        #expect(value.activity == LoadActivity(reason: .firstLoad, attempts: 4))
        gate.open(with: 3)
        await load.value
        #expect(value.value == 3)
        #expect(value.activity == nil)
    }
}
