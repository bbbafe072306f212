import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

@Suite("AsyncValue")
@MainActor
struct AsyncValueTests {
    typealias Value = AsyncValue<Int, AnyError>

    @Test("a slow earlier load can never overwrite a faster later one")
    func slowEarlierFastLater() async {
        let value = Value()
        let slow = Gate<Int>(), fast = Gate<Int>()
        let first = Task { await value.load { await slow.value() ?? -1 } }
        await slow.waitForArrivals()
        let second = Task { await value.load { try await fast.wait() } }
        await fast.waitForArrivals()
        fast.open(with: 2)
        await second.value
        slow.open(with: 1)
        await first.value
        #expect(value.state == .success(value: 2))
    }

    /// Loadables that recorded IDs in one lane or another, and the ID a
    /// host made from each gives its first load.
    nonisolated static let recorded: [(Loadable<RowValues, TestError>, LoadID)] = {
        var loaded = EditedRows()
        _ = loaded.apply(.started(LoadID(5)))
        _ = loaded.apply(.finished(LoadID(5), [1: 1]))
        var queued = loaded
        _ = queued.apply(.queued(LoadID(9)))
        var edited = loaded
        _ = edited.start(7, SetRow(1, to: 2))
        _ = edited.apply(.edit(.confirmed(LoadID(7))))
        return [(EditedRows(), LoadID(1)), (loaded, LoadID(6)), (queued, LoadID(10)), (edited, LoadID(8))]
    }()

    // From an outside reading: the host numbered from #1, so a value made
    // from a loadable loaded before dropped every load, and an edit answered
    // `.confirmed` that never showed.
    @Test("a value made from a loadable that recorded loads numbers its own past them, so they are applied", arguments: recorded)
    func numbersPastRecordedIDs(loadable: Loadable<RowValues, TestError>, first: LoadID) async {
        let rows = AsyncValue(loadable, clock: nil)
        await rows.load(LoadRequest { () async throws(TestError) in [1: 10] })
        #expect(rows.value == [1: 10] && rows.loadable.newestID == first)
        let edit = await rows.edit(SetRow(1, to: 11), LoadRequest { () async throws(TestError) in })
        #expect(edit == .confirmed(first.next))
        #expect(rows.value == [1: 11])
    }

    // From an outside reading: the operation and a sleep of zero raced,
    // and which won changed from run to run.
    @Test("a timeout of zero or less times out at once, without running the operation", arguments: [Duration.zero, .seconds(-1)])
    func timeoutOfZero(limit: Duration) async {
        let value = AsyncValue<Int, TestError>()
        var calls = 0
        await value.load(
            LoadRequest { () async throws(TestError) in
                calls += 1
                await Task.yield()
                return 1
            }.timeout(LoadTimeout(limit, clock: TestClock(), failure: .timedOut)))
        #expect(value.error == .timedOut && calls == 0)
    }

    @Test("a paged list made from a loadable whose newest ID is a load more's numbers past it, so its next page is appended")
    func numbersPastRecordedMoreID() async throws {
        var feed = Loadable<Pages<Int, Int>, TestError>()
        _ = feed.apply(.started(LoadID(1)))
        _ = feed.apply(.finished(LoadID(1), Pages([1], next: 2)))
        let request = try #require(feed.nextRequest)
        _ = feed.apply(.more(request, .started(LoadID(4))))
        _ = feed.apply(.more(request, .finished(LoadID(4), Pages([2], next: 3))))
        let list = AsyncValue(feed, clock: nil)
        await list.loadMore { cursor in LoadRequest { () async throws(TestError) in Pages([cursor], next: cursor + 1) } }
        #expect(list.value?.elements == [1, 2, 3] && list.loadable.newestMoreID == LoadID(5))
    }

    @Test("awaiting a superseded load returns normally")
    func supersededCallerReturns() async {
        let value = Value()
        let a = Gate<Int>(), b = Gate<Int>()
        let first = Task { await value.load { try await a.wait() } }
        await a.waitForArrivals()
        let second = Task { await value.load { try await b.wait() } }
        await first.value
        #expect(a.observedCancellation)
        #expect(value.isLoading)
        b.open(with: 2)
        await second.value
        #expect(value.value == 2)
    }

    @Test("cancel() mid-load returns to the previous value, not an error")
    func cancelMidLoad() async {
        let value = Value(value: 1)
        let gate = Gate<Int>()
        let loading = Task { await value.load { try await gate.wait() } }
        await gate.waitForArrivals()
        #expect(value.state == .refreshing(value: 1))
        value.cancel()
        #expect(value.state == .success(value: 1))
        await loading.value
        #expect(value.state == .success(value: 1))
        #expect(value.error == nil)
    }

    @Test("cancelling the calling task returns to the previous value")
    func cancelCaller() async {
        let value = Value()
        let gate = Gate<Int>()
        let loading = Task { await value.load { try await gate.wait() } }
        await gate.waitForArrivals()
        loading.cancel()
        await loading.value
        #expect(value.state == .notLoaded)
        #expect(!value.isLoading)
    }

    @Test("loadIfNeeded after a failure loads again")
    func loadIfNeededAfterFailure() async {
        let value = Value()
        await value.load { throw Offline() }
        await value.loadIfNeeded { 5 }
        #expect(value.state == .success(value: 5))
    }

    @Test("loadIfNeeded while loading joins the load in flight instead of starting another")
    func loadIfNeededWhileLoading() async {
        let value = Value()
        let gate = Gate<Int>()
        let calls = ChangeCounter()
        let first = Task {
            await value.load {
                calls.increment(); return try await gate.wait()
            }
        }
        await gate.waitForArrivals()
        let second = Task {
            await value.loadIfNeeded {
                calls.increment(); return 99
            }
        }
        gate.open(with: 1)
        await first.value
        await second.value
        #expect(calls.value == 1)
        #expect(value.value == 1)
    }

    @Test("first wins: a second start while one is in flight is ignored")
    func firstWins() async {
        let value = Value()
        let gate = Gate<Int>()
        let first = Task { await value.load(overlap: .firstWins) { try await gate.wait() } }
        await gate.waitForArrivals()
        await value.load(overlap: .firstWins) { 99 }
        #expect(value.isLoading)
        gate.open(with: 1)
        await first.value
        #expect(value.value == 1)
    }

    @Test("join: a second caller waits for the result in flight")
    func join() async {
        let value = Value()
        let gate = Gate<Int>()
        let first = Task { await value.load(overlap: .join) { try await gate.wait() } }
        await gate.waitForArrivals()
        let joined = Task {
            await value.load(overlap: .join) { 99 }
            return value.value
        }
        gate.open(with: 1)
        await first.value
        #expect(await joined.value == 1)
    }

    @Test("reload repeats the last load")
    func reload() async {
        let value = Value()
        let calls = ChangeCounter()
        await value.load {
            calls.increment(); return calls.value
        }
        await value.reload()
        #expect(value.value == 2)
    }

    @Test("reload repeats the last load that started, not a start its policy ignored")
    func reloadSkipsIgnoredStart() async {
        let value = AsyncValue<String, TestError>()
        let gate = Gate<String>()
        let first = await startCaller {
            await value.load { () async throws(TestError) in (try? await gate.wait()) ?? "cancelled" }
        }
        await gate.waitForArrivals()
        await value.load(overlap: .firstWins) { () async throws(TestError) in "ignored" }
        gate.open(with: "first")
        await first.value
        await value.reload()
        #expect(value.value == "first", "the reload ran the first load again")
    }

    @Test("reload before any load does nothing")
    func reloadFirst() async {
        let value = Value()
        await value.reload()
        #expect(value.state == .notLoaded)
    }

    @Test("typed failures stay typed")
    func typed() async {
        let value = AsyncValue<Int, TestError>()
        await value.load { () async throws(TestError) -> Int in throw .timedOut }
        #expect(value.error == .timedOut)
        await value.load(LoadRequest(mapError: { _ in .offline }) { throw Offline() })
        #expect(value.error == .offline)
    }

    @Test("reset and setValue")
    func resetAndSet() async {
        let value = Value()
        value.setValue(3)
        #expect(value.state == .success(value: 3))
        value.reset()
        #expect(value.state == .notLoaded)
        #expect(value.value == nil)
    }

    @Test("a withObservationTracking read of value fires when a load settles")
    func observation() async {
        let value = Value()
        let gate = Gate<Int>()
        let loading = Task { await value.load { try await gate.wait() } }
        await gate.waitForArrivals()
        let changes = ChangeCounter()
        withObservationTracking {
            _ = value.value
        } onChange: {
            changes.increment()
        }
        #expect(changes.value == 0)
        gate.open(with: 4)
        await loading.value
        #expect(changes.value == 1)
    }

    @Test("transitions report each load action and drops")
    func transitions() async {
        let value = Value()
        var lines: [String] = []
        value.observeTransitions { lines.append("\($0.action.map { "\($0)" } ?? "-")\($0.isDropped ? " dropped" : "")") }
        await value.load { 1 }
        #expect(lines == ["-", "started(#1)", "finished(#1, 1)"])
    }

    @Test("releasing a value with a load in flight frees it and cancels the work")
    func released() async {
        let gate = Gate<Int>()
        weak var weakValue: Value?
        var loading: Task<Void, Never>?
        do {
            let value = Value()
            weakValue = value
            loading = Task { [weak value] in await value?.load { try await gate.wait() } }
            await gate.waitForArrivals()
        }
        loading?.cancel()
        await loading?.value
        #expect(weakValue == nil)
        #expect(gate.observedCancellation)
    }

    @Test("reset forgets the last request, and what its closure captured: reload does nothing until the next load")
    func resetForgetsTheRequest() async {
        final class Captured: Sendable {}
        weak var released: Captured?
        let value = Value()
        do {
            let captured = Captured()
            released = captured
            await value.load { withExtendedLifetime(captured) { 1 } }
        }
        #expect(released != nil, "kept for reload()")
        value.reset()
        #expect(released == nil)
        await value.reload()
        #expect(value.state == .notLoaded, "nothing to reload")
    }

    // From an outside reading: the start stored its request after the
    // observer's reset had forgotten it, so reload() loaded it again and
    // what its closure captured stayed.
    @Test(
        "reset from a change handler while a load starts forgets its request too: reload does nothing",
        arguments: ["set", "loaded"])
    func resetWhileStarting(before: String) async {
        final class Captured: Sendable {}
        weak var released: Captured?
        let value = Value(value: 1)
        if before == "loaded" { await value.load { 0 } }
        withObservationTracking {
            _ = value.isLoading
        } onChange: {
            MainActor.assumeIsolated { value.reset() }
        }
        do {
            let captured = Captured()
            released = captured
            await value.load { withExtendedLifetime(captured) { 7 } }
        }
        #expect(value.state == .notLoaded)
        #expect(released == nil)
        await value.reload()
        #expect(value.state == .notLoaded, "nothing to reload")
    }

    // From a second reading: a load that ended cancelled before its call
    // returned was not kept, so reload() repeated an older request.
    @Test(
        "a load that ends cancelled as it starts, not by a reset, is the one reload repeats",
        arguments: ["cancelled from a change handler", "throws CancellationError at once"])
    func cancelledAsItStartsIsKept(case name: String) async {
        let value = Value()
        await value.load { 1 }
        let calls = LockedValue(0)
        if name == "cancelled from a change handler" {
            withObservationTracking {
                _ = value.isLoading
            } onChange: {
                MainActor.assumeIsolated { value.cancel() }
            }
            await value.load {
                calls.withLock { $0 += 1 }
                return 2
            }
        } else {
            await value.load { () async throws -> Int in
                calls.withLock { $0 += 1 }
                if calls.current == 1 { throw CancellationError() }
                return 2
            }
        }
        #expect(value.state == .success(value: 1))
        await value.reload()
        #expect(value.state == .success(value: 2), "the second load, repeated")
    }
}

@Suite("AnyError")
struct AnyErrorTests {
    struct Described: Error { let text: String }

    @Test("equal when the same Equatable error")
    func equatable() {
        #expect(AnyError(TestError.offline) == AnyError(TestError.offline))
        #expect(AnyError(TestError.offline) != AnyError(TestError.timedOut))
    }

    @Test("non-Equatable errors compare by type and printed form")
    func described() {
        #expect(AnyError(Described(text: "a")) == AnyError(Described(text: "a")))
        #expect(AnyError(Described(text: "a")) != AnyError(Described(text: "b")))
        #expect(AnyError(Described(text: "a")) != AnyError(TestError.offline))
    }

    // From an outside reading: a class error prints its type's name alone,
    // so two failures with different messages compared equal, and a reader
    // of `moreError` or `editError` was not told when one replaced the other.
    final class APIFailure: Error, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    @Test(
        "errors of a class that is not Equatable compare by identity",
        arguments: [
            ("the same instance", true),
            ("another instance, the same message", false),
            ("another message", false),
        ])
    func classErrors(case name: String, equal: Bool) {
        let timeout = APIFailure("timeout")
        let other =
            switch name {
            case "the same instance": timeout
            case "another instance, the same message": APIFailure("timeout")
            default: APIFailure("server said 503")
            }
        #expect((AnyError(timeout) == AnyError(other)) == equal)
    }

    @Test("a reader of moreError is told when a failure of a class replaces another")
    @MainActor
    func moreErrorOfAClassChanges() async {
        let list = AsyncValue<Pages<Int, Int>, AnyError>()
        await list.load { Pages([1], next: 1) }
        await list.loadMore { (_: Int) in LoadRequest { throw APIFailure("timeout") } }
        let told = LockedValue(false)
        withObservationTracking {
            _ = list.moreError
        } onChange: {
            told.withLock { $0 = true }
        }
        await list.loadMore { (_: Int) in LoadRequest { throw APIFailure("server said 503") } }
        #expect((list.moreError?.base as? APIFailure)?.message == "server said 503")
        #expect(told.current)
    }

    @Test("is an Error itself: thrown and caught as any Error, it keeps what was thrown")
    func isAnError() {
        do {
            throw AnyError(TestError.offline)
        } catch {
            #expect((error as? AnyError)?.base as? TestError == .offline)
        }
    }

    @Test("keeps the original error and prints it")
    func base() {
        #expect(AnyError(TestError.offline).base is TestError)
        #expect(AnyError(TestError.offline).description == "offline")
    }

    // From an outside reading: a load that rethrew another value's error
    // wrapped it twice — printed alike, unequal, its base an AnyError.
    @Test("an AnyError thrown again is not wrapped twice: its base is the error first thrown")
    @MainActor
    func rethrown() async {
        let user = AsyncValue<Int, AnyError>()
        await user.load { throw TestError.offline }
        /// Throws untyped, as a network layer's helper does.
        func rethrowing(_ error: (any Error)?) throws -> Int {
            if let error { throw error }
            return 1
        }
        let settings = AsyncValue<Int, AnyError>()
        await settings.load { () async throws -> Int in try rethrowing(user.error) }
        #expect(settings.error == user.error)
        #expect(settings.error?.base as? TestError == .offline)
        #expect(AnyError(AnyError(AnyError(TestError.timedOut))).base as? TestError == .timedOut)
    }
}

/// `cancel()` and `reset()` end the load at once for its callers, also when
/// its operation ignores cancellation and returns only later: the state went
/// back at once, and "`load` returns once the load has been cancelled".
@Suite("AsyncValue: cancelling ends the load for its callers at once", .hangGuard)
@MainActor
struct AsyncValueCancelReleaseTests {
    enum Ending: CaseIterable { case cancel, reset }

    @Test("the caller returns at once, whether the attempt is timed or not", arguments: Ending.allCases, [false, true])
    func callerReturns(ending: Ending, timed: Bool) async {
        let clock = TestClock()
        let value = AsyncValue<Int, TestError>()
        let gate = Gate<Int>()
        // An operation that ignores cancellation: it returns only when the gate opens.
        var request = LoadRequest<Int, TestError> { () async throws(TestError) in await gate.value() ?? -1 }
        if timed { request = request.timeout(LoadTimeout(.seconds(30), clock: clock, failure: .timedOut)) }
        let returned = LockedValue(false)
        let caller = await startCaller {
            await value.load(request)
            returned.withLock { $0 = true }
        }
        await gate.waitForArrivals()
        switch ending {
        case .cancel: value.cancel()
        case .reset: value.reset()
        }
        #expect(value.state == .notLoaded)
        await yieldUntil { returned.withLock { $0 } }
        #expect(returned.withLock { $0 }, "the caller returned while the operation still ran")
        // An untimed operation still runs, blocked on the gate; a timed
        // attempt's own end comes when its timer race settles.
        if !timed { #expect(value.runningCount == 1, "its work still runs") }
        gate.open(with: 1)
        await caller.value
        await yieldUntil { value.runningCount == 0 }
        #expect(value.runningCount == 0 && value.state == .notLoaded, "the operation's late answer is dropped")
    }

    @Test("cancel() leaves a pending edit's caller waiting; the edit goes on")
    func editGoesOn() async {
        let value = AsyncValue<Int, TestError>()
        value.setValue(1)
        let (load, save) = (Gate<Int>(), Gate<Bool>())
        let loaded = LockedValue(false)
        let loading = await startCaller {
            await value.load { () async throws(TestError) in await load.value() ?? -1 }
            loaded.withLock { $0 = true }
        }
        await load.waitForArrivals()
        let adding = await startCaller { await value.edit(AddOne(), saving(save)) }
        await save.waitForArrivals()
        value.cancel()
        await yieldUntil { loaded.withLock { $0 } }
        #expect(loaded.withLock { $0 }, "the load's caller returned")
        #expect(value.value == 2, "the edit still shows")
        save.open(with: true)
        guard case .confirmed = await adding.value else {
            Issue.record("the edit did not confirm")
            return
        }
        #expect(value.value == 2)
        load.open(with: 5)
        await loading.value
    }
}
