import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// `AsyncValue` is the one host: it offers what the old `OptimisticValue`
/// (optimistic edits) and a paged value did, and freshness and every overlap
/// policy, on one value. Real tasks driven by gates and a test clock.
@Suite("AsyncValue: edits, pages, freshness and overlap", .hangGuard)
@MainActor
struct AsyncValueLayersTests {
    typealias Numbers = AsyncValue<[Int], TestError>
    typealias PagedNumbers = AsyncValue<Pages<Int, Int>, TestError>

    /// Sets one number of an array: applying it twice is still right.
    struct SetAt: Edit {
        var index: Int
        var to: Int
        func apply(to numbers: inout [Int]) -> Bool {
            guard numbers.indices.contains(index) else { return false }
            numbers[index] = to
            return true
        }
    }

    /// Makes one row of a paged list negative.
    struct Negate: Edit {
        var row: Int
        func apply(to rows: inout Pages<Int, Int>) -> Bool {
            guard let index = rows.firstIndex(of: row) else { return false }
            rows[index] = -row
            return true
        }
    }

    /// A save that waits on `gate`: it succeeds when the gate opens with
    /// `true`, and fails with `.offline` otherwise (also when cancelled, which
    /// the load turns into `.cancelled`). Each call is noted in `calls`.
    static func save(_ gate: Gate<Bool>, _ name: String = "", calls: LockedValue<[String]>? = nil) -> LoadRequest<Void, TestError> {
        LoadRequest { () async throws(TestError) in
            calls?.withLock { $0.append(name) }
            let succeeded = (try? await gate.wait()) ?? false
            if !succeeded { throw .offline }
        }
    }

    /// Page `number` of a list of `count` pages: rows `number`1…`number`3.
    static func rows(_ number: Int, of count: Int) -> Pages<Int, Int> {
        Pages((1...3).map { number * 10 + $0 }, next: number < count ? number + 1 : nil)
    }

    /// A request for a page that answers at once.
    static func page(_ number: Int, of count: Int) -> LoadRequest<Pages<Int, Int>, TestError> {
        LoadRequest { () async throws(TestError) in rows(number, of: count) }
    }

    /// A request for a page that waits on `gate`; a failed or cancelled wait is `.offline`.
    static func page(_ gate: Gate<Pages<Int, Int>>) -> LoadRequest<Pages<Int, Int>, TestError> {
        LoadRequest { () async throws(TestError) in
            do { return try await gate.wait() } catch { throw .offline }
        }
    }

    /// A request that calls `service`, whose gates the test opens.
    static func call(_ service: FlakyService) -> LoadRequest<Int, TestError> {
        LoadRequest { () async throws(TestError) in try await service.call() }
    }

    // MARK: Edits

    @Test("an edit shows at once; when its request succeeds it joins the confirmed value, and edit returns .confirmed with its ID")
    func editConfirmed() async {
        let numbers = Numbers(value: [0, 0, 0])
        let gate = Gate<Bool>()
        let editing = await startCaller { await numbers.edit(SetAt(index: 1, to: 5), Self.save(gate)) }
        await gate.waitForArrivals()
        #expect(numbers.value == [0, 5, 0])
        #expect(numbers.loadable.confirmedValue == [0, 0, 0])
        #expect(numbers.pendingEdits == [LoadID(1): AnyEdit(SetAt(index: 1, to: 5))])
        gate.open(with: true)
        #expect(await editing.value == .confirmed(LoadID(1)))
        #expect(numbers.value == [0, 5, 0])
        #expect(numbers.loadable.confirmedValue == [0, 5, 0])
        #expect(numbers.pendingEdits.isEmpty)
        #expect(numbers.editError == nil)
    }

    @Test("two edits in flight: one fails and rolls back only itself, onto the value a load brought in between")
    func twoEditsAndALoad() async {
        let numbers = Numbers(value: [0, 0])
        let like = Gate<Bool>(), rename = Gate<Bool>(), poll = Gate<[Int]>()
        let liking = await startCaller { await numbers.edit(SetAt(index: 0, to: 5), Self.save(like)) }
        let renaming = await startCaller { await numbers.edit(SetAt(index: 1, to: 7), Self.save(rename)) }
        await like.waitForArrivals()
        await rename.waitForArrivals()
        #expect(numbers.value == [5, 7], "both edits show at once")
        let polling = await startCaller { await numbers.load { () async throws(TestError) in (try? await poll.wait()) ?? [] } }
        await poll.waitForArrivals()
        poll.open(with: [1, 2])
        await polling.value
        #expect(numbers.value == [5, 7], "the poll does not erase the pending edits")
        #expect(numbers.loadable.confirmedValue == [1, 2])
        like.open(with: false)
        #expect(await liking.value == .failed(LoadID(1), .offline))
        #expect(numbers.value == [1, 7], "only the failed edit is rolled back, onto the polled value")
        #expect(numbers.editError == .offline)
        rename.open(with: true)
        #expect(await renaming.value == .confirmed(LoadID(2)))
        #expect(numbers.value == [1, 7])
        #expect(numbers.loadable.confirmedValue == [1, 7])
        #expect(numbers.pendingEdits.isEmpty)
    }

    @Test("cancel(edit:) rolls the edit back at once and cancels its request; the edit ends .cancelled, never an error")
    func cancelEdit() async throws {
        let numbers = Numbers(value: [0, 0])
        let gate = Gate<Bool>()
        let editing = await startCaller { await numbers.edit(SetAt(index: 0, to: 5), Self.save(gate)) }
        await gate.waitForArrivals()
        let id = try #require(numbers.pendingEdits.keys.first)
        numbers.cancel(edit: id)
        #expect(numbers.value == [0, 0])
        #expect(await editing.value == .cancelled(id))
        #expect(gate.observedCancellation)
        #expect(numbers.pendingEdits.isEmpty)
        #expect(numbers.editError == nil)
    }

    // From an outside reading: given a load's ID, it cancelled the load.
    @Test("cancel(edit:) with an ID that names no pending edit — a load's — cancels nothing")
    func cancelEditOfALoadsID() async throws {
        let numbers = Numbers(value: [0, 0])
        let gate = Gate<[Int]>()
        let loading = await startCaller {
            await numbers.load(LoadRequest { () async throws(TestError) in (try? await gate.wait()) ?? [] })
        }
        await gate.waitForArrivals()
        let id = try #require(numbers.loadable.inFlightID)
        numbers.cancel(edit: id)
        #expect(numbers.isLoading && !gate.observedCancellation)
        gate.open(with: [3, 4])
        await loading.value
        #expect(numbers.value == [3, 4])
    }

    @Test("cancelling the calling task rolls the edit back and cancels its request; it is not an error")
    func cancelEditCaller() async {
        let numbers = Numbers(value: [0, 0])
        let gate = Gate<Bool>()
        let editing = await startCaller { await numbers.edit(SetAt(index: 0, to: 5), Self.save(gate)) }
        await gate.waitForArrivals()
        editing.cancel()
        let last = await editing.value
        #expect(last == .cancelled(LoadID(1)), "the edit started, and ended cancelled")
        #expect(numbers.value == [0, 0])
        #expect(gate.observedCancellation)
        #expect(numbers.pendingEdits.isEmpty)
        #expect(numbers.editError == nil)
    }

    @Test("edits overlapping under .queue each show at once; their requests run one after another, in order")
    func queuedEdits() async {
        let numbers = Numbers(value: [0, 0])
        let first = Gate<Bool>(), second = Gate<Bool>()
        let calls = LockedValue<[String]>([])
        let one = await startCaller { await numbers.edit(SetAt(index: 0, to: 1), Self.save(first, "first", calls: calls), overlap: .queue) }
        await first.waitForArrivals()
        let two = await startCaller {
            await numbers.edit(SetAt(index: 1, to: 2), Self.save(second, "second", calls: calls), overlap: .queue)
        }
        #expect(numbers.value == [1, 2], "the queued edit shows at once")
        #expect(numbers.pendingEdits.keys == [LoadID(1), LoadID(2)])
        #expect(calls.current == ["first"], "the second save waits for the first")
        first.open(with: true)
        #expect(await one.value == .confirmed(LoadID(1)))
        await second.waitForArrivals()
        #expect(calls.current == ["first", "second"])
        second.open(with: true)
        #expect(await two.value == .confirmed(LoadID(2)))
        #expect(numbers.loadable.confirmedValue == [1, 2])
        #expect(numbers.pendingEdits.isEmpty)
    }

    @Test("an edit under .firstWins while one is pending starts nothing, shows nothing, and returns nil")
    func firstWinsEdit() async {
        let numbers = Numbers(value: [0, 0])
        let gate = Gate<Bool>()
        let calls = LockedValue<[String]>([])
        let one = await startCaller { await numbers.edit(SetAt(index: 0, to: 1), Self.save(gate, "first", calls: calls)) }
        await gate.waitForArrivals()
        let ignored = await numbers.edit(SetAt(index: 1, to: 2), Self.save(Gate(), "second", calls: calls), overlap: .firstWins)
        #expect(ignored == nil)
        #expect(numbers.value == [1, 0])
        #expect(numbers.pendingEdits.keys == [LoadID(1)])
        gate.open(with: true)
        #expect(await one.value == .confirmed(LoadID(1)))
        #expect(calls.current == ["first"])
    }

    @Test("an edit under .join while one is pending waits for that edit to settle, shows nothing itself, and returns nil")
    func joinEdit() async {
        let numbers = Numbers(value: [0, 0])
        let gate = Gate<Bool>()
        let calls = LockedValue<[String]>([])
        let one = await startCaller { await numbers.edit(SetAt(index: 0, to: 1), Self.save(gate, "first", calls: calls)) }
        await gate.waitForArrivals()
        let joiner = await startCaller {
            let last = await numbers.edit(SetAt(index: 1, to: 2), Self.save(Gate(), "second", calls: calls), overlap: .join)
            return (last, numbers.pendingEdits.isEmpty)
        }
        #expect(numbers.value == [1, 0])
        gate.open(with: true)
        #expect(await one.value == .confirmed(LoadID(1)))
        let (last, settledWhenReturned) = await joiner.value
        #expect(last == nil)
        #expect(settledWhenReturned, "it returned only once the edit it joined had settled")
        #expect(calls.current == ["first"])
        #expect(numbers.loadable.confirmedValue == [1, 0])
    }

    @Test("an edit under .latestWins while one is pending cancels that one, rolling it back, and shows instead")
    func latestWinsEdit() async {
        let numbers = Numbers(value: [0, 0])
        let first = Gate<Bool>(), second = Gate<Bool>()
        let one = await startCaller { await numbers.edit(SetAt(index: 0, to: 1), Self.save(first)) }
        await first.waitForArrivals()
        let two = await startCaller { await numbers.edit(SetAt(index: 1, to: 2), Self.save(second), overlap: .latestWins) }
        await second.waitForArrivals()
        #expect(await one.value == .cancelled(LoadID(1)))
        #expect(first.observedCancellation)
        #expect(numbers.value == [0, 2], "the superseded edit is rolled back; the newer one shows")
        second.open(with: true)
        #expect(await two.value == .confirmed(LoadID(2)))
        #expect(numbers.loadable.confirmedValue == [0, 2])
        #expect(numbers.editError == nil)
    }

    // MARK: Pages

    @Test("loadMore appends the next page; at the end of the list it starts nothing and returns at once")
    func loadMoreAppends() async {
        let feed = PagedNumbers()
        await feed.load(Self.page(1, of: 2))
        #expect(feed.value?.elements == [11, 12, 13])
        #expect(feed.hasMore)
        await feed.loadMore { cursor in Self.page(cursor, of: 2) }
        #expect(feed.value?.elements == [11, 12, 13, 21, 22, 23])
        #expect(feed.value?.pageCount == 2)
        #expect(!feed.hasMore)
        #expect(feed.loadable.newestMoreID == LoadID(2))
        let asked = LockedValue(0)
        await feed.loadMore { cursor in
            asked.withLock { $0 += 1 }
            return Self.page(cursor, of: 2)
        }
        #expect(asked.current == 0, "there is no next page to ask for")
        #expect(feed.loadable.newestMoreID == LoadID(2))
        var both = Self.rows(1, of: 2)
        both.append(Self.rows(2, of: 2))
        #expect(feed.state == .success(value: both))
    }

    @Test("a load more in flight: it says so, the list is not loading, a second loadMore starts nothing, and .join waits for it")
    func loadMoreInFlight() async {
        let feed = PagedNumbers()
        await feed.load(Self.page(1, of: 3))
        let gate = Gate<Pages<Int, Int>>()
        let more = await startCaller { await feed.loadMore { _ in Self.page(gate) } }
        await gate.waitForArrivals()
        #expect(feed.isLoadingMore)
        #expect(feed.loadable.loadingMore == PageRequest(page: 2, list: LoadID(1)))
        #expect(feed.moreActivity == LoadActivity(reason: .nextPage))
        #expect(!feed.isLoading, "the list itself is not loading")
        let asked = LockedValue(0)
        let request = { (cursor: Int) -> LoadRequest<Pages<Int, Int>, TestError> in
            asked.withLock { $0 += 1 }
            return Self.page(cursor, of: 3)
        }
        await feed.loadMore(request)
        let joiner = await startCaller {
            await feed.loadMore(request, overlap: .join)
            return feed.value?.elements
        }
        let queued = await startCaller {
            await feed.loadMore(request, overlap: .queue)
            return feed.value?.elements
        }
        gate.open(with: Self.rows(2, of: 3))
        await more.value
        #expect(await joiner.value == [11, 12, 13, 21, 22, 23])
        #expect(await queued.value == [11, 12, 13, 21, 22, 23], "the page in flight is the next one: .queue waits for it too")
        #expect(asked.current == 0, "neither the ignored nor the waiting calls asked for a page")
        #expect(!feed.isLoadingMore)
        #expect(feed.moreActivity == nil)
        #expect(feed.hasMore)
    }

    @Test("a loadMore under .latestWins while one is in flight loads the page again, superseding it")
    func loadMoreLatestWins() async {
        let feed = PagedNumbers()
        await feed.load(Self.page(1, of: 3))
        let first = Gate<Pages<Int, Int>>(), second = Gate<Pages<Int, Int>>()
        let earlier = await startCaller { await feed.loadMore { _ in Self.page(first) } }
        await first.waitForArrivals()
        let later = await startCaller { await feed.loadMore({ _ in Self.page(second) }, overlap: .latestWins) }
        await second.waitForArrivals()
        #expect(first.observedCancellation)
        #expect(feed.loadable.moreID == LoadID(3))
        #expect(feed.loadable.loadingMore == PageRequest(page: 2, list: LoadID(1)))
        second.open(with: Self.rows(2, of: 3))
        await later.value
        // The superseded page, should its work still answer, is dropped.
        first.open(with: Pages([-1], next: nil))
        await earlier.value
        #expect(feed.value?.elements == [11, 12, 13, 21, 22, 23])
        #expect(feed.value?.pageCount == 2)
        #expect(feed.moreError == nil)
    }

    @Test("a failed load more keeps every row; its failure is moreError, not the list's error; the next one retries after it")
    func loadMoreFails() async {
        let feed = PagedNumbers()
        await feed.load(Self.page(1, of: 2))
        let failing = Gate<Pages<Int, Int>>()
        failing.fail(with: TestError.offline)
        await feed.loadMore { _ in Self.page(failing) }
        #expect(feed.value?.elements == [11, 12, 13])
        #expect(feed.moreError == .offline)
        #expect(feed.error == nil)
        #expect(feed.state == .success(value: Self.rows(1, of: 2)))
        let gate = Gate<Pages<Int, Int>>()
        let retry = await startCaller { await feed.loadMore { _ in Self.page(gate) } }
        await gate.waitForArrivals()
        #expect(feed.moreActivity == LoadActivity(reason: .retryAfterFailure, lastFailure: .offline))
        gate.open(with: Self.rows(2, of: 2))
        await retry.value
        #expect(feed.value?.elements == [11, 12, 13, 21, 22, 23])
        #expect(feed.moreError == nil)
    }

    @Test("a refresh supersedes a load more in flight: its work is cancelled and its page never shows")
    func refreshSupersedesLoadMore() async {
        let feed = PagedNumbers()
        await feed.load(Self.page(1, of: 3))
        let gate = Gate<Pages<Int, Int>>()
        let more = await startCaller { await feed.loadMore { _ in Self.page(gate) } }
        await gate.waitForArrivals()
        let refreshed = Pages([101, 102, 103], next: 2)
        await feed.load(LoadRequest { () async throws(TestError) in refreshed })
        #expect(gate.observedCancellation)
        await more.value
        #expect(!feed.isLoadingMore)
        #expect(feed.value == refreshed)
        #expect(feed.moreError == nil, "a superseded load more is not a failure")
    }

    @Test("a window keeps only the newest pages")
    func window() async {
        let feed = PagedNumbers(Loadable(window: 2), clock: nil)
        await feed.load(Self.page(1, of: 4))
        await feed.loadMore { Self.page($0, of: 4) }
        await feed.loadMore { Self.page($0, of: 4) }
        #expect(feed.value?.elements == [21, 22, 23, 31, 32, 33])
        #expect(feed.value?.pageCount == 2)
        #expect(feed.value?.nextPage == 4)
        #expect(feed.loadable.window == 2)
    }

    @Test("an edit of a paged list stays shown across a load more, and its confirmation keeps it")
    func editAcrossLoadMore() async {
        let feed = PagedNumbers()
        await feed.load(Self.page(1, of: 2))
        let gate = Gate<Bool>()
        let editing = await startCaller { await feed.edit(Negate(row: 12), Self.save(gate)) }
        await gate.waitForArrivals()
        #expect(feed.value?.elements == [11, -12, 13])
        await feed.loadMore { Self.page($0, of: 2) }
        #expect(feed.value?.elements == [11, -12, 13, 21, 22, 23])
        gate.open(with: true)
        #expect(await editing.value == .confirmed(LoadID(2)))
        #expect(feed.loadable.confirmedValue?.elements == [11, -12, 13, 21, 22, 23])
    }

    // MARK: Freshness

    @Test("AsyncValue(clock:) stamps each load with its time: fresh until maxAge has passed, then stale")
    func stampsAndAges() async {
        let clock = TestClock()
        let number = AsyncValue<Int, TestError>(clock: clock)
        #expect(number.isStale(maxAge: .seconds(60)), "nothing loaded yet")
        clock.advance(by: .seconds(5))
        await number.load { () async throws(TestError) in 1 }
        #expect(number.loadable.settledAt == LoadClock.Instant(offset: .seconds(5)))
        #expect(!number.isStale(maxAge: .seconds(60)))
        clock.advance(by: .seconds(59))
        #expect(!number.isStale(maxAge: .seconds(60)))
        clock.advance(by: .seconds(1))
        #expect(number.isStale(maxAge: .seconds(60)))
    }

    @Test("with a clock, setValue is as fresh as a load")
    func setValueIsFresh() {
        let clock = TestClock()
        let number = AsyncValue<Int, TestError>(clock: clock)
        clock.advance(by: .seconds(3))
        number.setValue(4)
        #expect(number.loadable.settledAt == LoadClock.Instant(offset: .seconds(3)))
        #expect(!number.isStale(maxAge: .seconds(10)))
    }

    @Test("a failed reload leaves the value shown, and stale")
    func failedReloadIsStale() async {
        let clock = TestClock()
        let number = AsyncValue<Int, TestError>(clock: clock)
        await number.load { () async throws(TestError) in 1 }
        await number.load { () async throws(TestError) -> Int in throw .offline }
        #expect(number.value == 1)
        #expect(number.isStale(maxAge: .seconds(60)))
    }

    @Test("invalidate() marks the value stale and reloads it with the last request, returning once the reload settled")
    func invalidateReloads() async {
        let clock = TestClock()
        let service = FlakyService()
        let number = AsyncValue<Int, TestError>(clock: clock)
        service[0].open(with: 1)
        await number.load(Self.call(service))
        #expect(!number.isStale(maxAge: .seconds(60)))
        let invalidating = await startCaller { await number.invalidate() }
        await service[1].waitForArrivals()
        #expect(number.isInvalidated)
        #expect(number.isStale(maxAge: .seconds(60)))
        #expect(number.state == .refreshing(value: 1))
        service[1].open(with: 2)
        await invalidating.value
        #expect(number.state == .success(value: 2))
        #expect(!number.isInvalidated)
        #expect(!number.isStale(maxAge: .seconds(60)))
    }

    @Test("invalidate() before anything loaded marks the value stale and loads nothing; the next loadIfNeeded loads")
    func invalidateBeforeLoading() async {
        let number = AsyncValue<Int, TestError>(clock: TestClock())
        await number.invalidate()
        #expect(number.isInvalidated)
        #expect(number.state == .notLoaded)
        #expect(number.runningCount == 0)
        await number.loadIfNeeded(maxAge: .seconds(60)) { () async throws(TestError) in 1 }
        #expect(number.value == 1)
        #expect(!number.isInvalidated)
    }

    // Changed by design (CHANGELOG): an invalidation no longer waits for the
    // load in flight; the reload supersedes it at once (TanStack Query's
    // `cancelRefetch`).
    @Test("invalidate() while a load is in flight supersedes it at once: its work is cancelled and its result never shows")
    func invalidateSupersedesLoadInFlight() async {
        let service = FlakyService()
        let number = AsyncValue<Int, TestError>(value: 0, clock: TestClock())
        let loading = await startCaller { await number.load(Self.call(service)) }
        await service[0].waitForArrivals()
        let invalidating = await startCaller { await number.invalidate() }
        await service[1].waitForArrivals()
        #expect(service[0].observedCancellation)
        await loading.value
        #expect(number.isLoading)
        service[1].open(with: 2)
        await invalidating.value
        #expect(number.state == .success(value: 2))
        #expect(!number.isInvalidated)
    }

    // MARK: Overlap

    /// What a load started while another is in flight does, under each policy.
    struct OverlapCase: Sendable, CustomTestStringConvertible {
        let policy: OverlapPolicy
        /// Whether the earlier load's work is cancelled.
        let cancelsEarlier: Bool
        /// Whether the later load's operation runs at once, or after the earlier one ends.
        let runsAtOnce: Bool
        /// How many calls the two loads make.
        let calls: Int
        /// The value that settles.
        let value: Int
        var testDescription: String { "\(policy)" }
    }

    @Test(
        "every overlap policy, for a load started while another is in flight",
        arguments: [
            OverlapCase(policy: .latestWins, cancelsEarlier: true, runsAtOnce: true, calls: 2, value: 2),
            OverlapCase(policy: .latestWins(cancellingEarlier: false), cancelsEarlier: false, runsAtOnce: true, calls: 2, value: 2),
            OverlapCase(policy: .firstWins, cancelsEarlier: false, runsAtOnce: false, calls: 1, value: 1),
            OverlapCase(policy: .join, cancelsEarlier: false, runsAtOnce: false, calls: 1, value: 1),
            OverlapCase(policy: .queue, cancelsEarlier: false, runsAtOnce: false, calls: 2, value: 2),
        ])
    func overlap(_ example: OverlapCase) async {
        let service = FlakyService()
        let number = AsyncValue<Int, TestError>()
        let first = await startCaller { await number.load(Self.call(service)) }
        await service[0].waitForArrivals()
        let second = await startCaller { await number.load(Self.call(service), overlap: example.policy) }
        #expect(number.waitingCount == (example.policy == .queue ? 1 : 0))
        if example.runsAtOnce { await service[1].waitForArrivals() }
        #expect(service[0].observedCancellation == example.cancelsEarlier)
        service[0].open(with: 1)
        await first.value
        if example.policy == .queue { await service[1].waitForArrivals() }
        let calls = service.calls
        service[1].open(with: 2)
        await second.value
        #expect(calls == example.calls)
        #expect(number.state == .success(value: example.value))
        #expect(number.waitingCount == 0)
        #expect(number.runningCount == 0)
    }

    @Test("queue: loads started while one runs wait their turn, counted by waitingCount, and each settles in order")
    func queue() async {
        let service = FlakyService()
        let number = AsyncValue<Int, TestError>()
        let first = await startCaller { await number.load(Self.call(service), overlap: .queue) }
        await service[0].waitForArrivals()
        let second = await startCaller {
            await number.load(Self.call(service), overlap: .queue)
            return number.value
        }
        let third = await startCaller {
            await number.load(Self.call(service), overlap: .queue)
            return number.value
        }
        #expect(number.waitingCount == 2)
        #expect(number.loadable.queuedIDs == [LoadID(2), LoadID(3)])
        #expect(service.calls == 1)
        service[0].open(with: 1)
        await first.value
        await service[1].waitForArrivals()
        #expect(number.waitingCount == 1)
        #expect(number.loadable.inFlightID == LoadID(2))
        service[1].open(with: 2)
        #expect(await second.value == 2)
        await service[2].waitForArrivals()
        #expect(number.waitingCount == 0)
        service[2].open(with: 3)
        #expect(await third.value == 3)
        #expect(number.state == .success(value: 3))
    }

    @Test("cancel() also cancels the loads waiting in the queue: they never start, and their callers return")
    func cancelEmptiesQueue() async {
        let service = FlakyService()
        let number = AsyncValue<Int, TestError>(value: 0)
        let first = await startCaller { await number.load(Self.call(service), overlap: .queue) }
        await service[0].waitForArrivals()
        let second = await startCaller { await number.load(Self.call(service), overlap: .queue) }
        #expect(number.waitingCount == 1)
        number.cancel()
        #expect(number.waitingCount == 0, "cancel() returns at once to the previous state, its queue included")
        #expect(number.state == .success(value: 0))
        await first.value
        await second.value
        #expect(number.waitingCount == 0)
        #expect(service.calls == 1, "the queued load never started")
        #expect(service[0].observedCancellation)
        // Its callers returned at once; the work's own end comes when it returns.
        await yieldUntil { number.runningCount == 0 }
        #expect(number.runningCount == 0)
        #expect(number.error == nil)
    }

    @Test("a latest-wins load supersedes the load in flight and the loads waiting in the queue")
    func latestWinsSupersedesQueue() async {
        let service = FlakyService()
        let number = AsyncValue<Int, TestError>()
        let first = await startCaller { await number.load(Self.call(service), overlap: .queue) }
        await service[0].waitForArrivals()
        let queued = await startCaller { await number.load(Self.call(service), overlap: .queue) }
        #expect(number.waitingCount == 1)
        let latest = await startCaller { await number.load(Self.call(service)) }
        await service[1].waitForArrivals()
        #expect(number.waitingCount == 0)
        #expect(service[0].observedCancellation)
        await first.value
        await queued.value
        service[1].open(with: 3)
        await latest.value
        #expect(number.state == .success(value: 3))
        #expect(service.calls == 2, "the queued load never started")
        // Its callers returned at once; the work's own end comes when it returns.
        await yieldUntil { number.runningCount == 0 }
        #expect(number.runningCount == 0)
    }
}
