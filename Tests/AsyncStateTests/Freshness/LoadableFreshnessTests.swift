import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("Freshness: staleness is a pure question of settle time, max age and now")
struct LoadableStalenessTests {
    @Test(
        "a value settled at 1 s, asked at `now` with `maxAge`",
        arguments: [
            // (maxAge ms, now ms, stale)
            (1_000, 1_500, false),
            (1_000, 1_999, false),
            (1_000, 2_000, true), // exactly maxAge old is stale
            (1_000, 9_000, true),
            (0, 1_000, true), // zero: always stale
            (-5_000, 1_000, true), // negative: the same as zero
            (1_000, 500, false), // a clock that went back: fresh
        ])
    func table(maxAge: Int, now: Int, stale: Bool) {
        #expect(freshlyLoaded(at: 1_000).isStale(maxAge: .milliseconds(maxAge), at: instant(ms: now)) == stale)
    }

    @Test("a loadable with no value is stale, whatever the max age")
    func noValue() {
        #expect(Loadable<Int, TestError>().isStale(maxAge: .seconds(3_600), at: instant(ms: 0)))
        var failed = Loadable<Int, TestError>()
        _ = failed.apply(.started(LoadID(1)))
        _ = failed.apply(.at(instant(ms: 0), .failed(LoadID(1), .offline)))
        #expect(failed.isStale(maxAge: .seconds(3_600), at: instant(ms: 0)))
    }

    @Test("a value whose age is unknown — settled by a load without a clock — is stale")
    func unknownAge() {
        var loadable = Loadable<Int, TestError>()
        _ = loadable.apply(.started(LoadID(1)))
        _ = loadable.apply(.finished(LoadID(1), 1))
        #expect(loadable.settledAt == nil)
        #expect(loadable.isStale(maxAge: .seconds(3_600), at: instant(ms: 0)))
    }

    // From mutation testing: keeping the stamp of the load before broke no test.
    @Test("a load without a clock after one with a clock forgets the age: stale")
    func unstampedAfterStamped() {
        var loadable = freshlyLoaded(at: 100)
        #expect(!loadable.isStale(maxAge: .seconds(60), at: instant(ms: 100)))
        _ = loadable.apply(.started(LoadID(2)))
        #expect(loadable.apply(.finished(LoadID(2), 2)) == .applied)
        #expect(loadable.settledAt == nil)
        #expect(loadable.isStale(maxAge: .seconds(60), at: instant(ms: 100)))
    }

    @Test("only a success records the settle time; a failure and a cancellation keep the old one")
    func onlySuccessStamps() {
        var loadable = freshlyLoaded(at: 100)
        _ = loadable.apply(.started(LoadID(2)))
        #expect(loadable.apply(.at(instant(ms: 300), .failed(LoadID(2), .offline))) == .applied)
        #expect(
            loadable
                == Loadable(expecting: .error(error: .offline), value: 1, newestID: LoadID(2), settledAt: instant(ms: 100)))
        _ = loadable.apply(.started(LoadID(3)))
        #expect(loadable.apply(.at(instant(ms: 500), .cancelled(LoadID(3)))) == .applied)
        #expect(
            loadable
                == Loadable(expecting: .error(error: .offline), value: 1, newestID: LoadID(3), settledAt: instant(ms: 100)))
        #expect(loadable.value == 1)
    }

    @Test("a dropped (stale) result records no time")
    func droppedRecordsNothing() {
        var loadable = freshlyLoaded(at: 100)
        _ = loadable.apply(.started(LoadID(2)))
        let before = loadable
        #expect(loadable.apply(.at(instant(ms: 300), .finished(LoadID(1), 9))) == .dropped)
        #expect(loadable == before)
        #expect(loadable.settledAt == instant(ms: 100))
    }

    @Test("setValue(_:at:) records its time; reset forgets the time and the invalidation")
    func setValueAndReset() {
        var loadable = freshlyLoaded(at: 100)
        loadable.setValue(5, at: instant(ms: 700))
        #expect(loadable == Loadable(expecting: .success(value: 5), newestID: LoadID(1), settledAt: instant(ms: 700)))
        loadable.invalidate()
        loadable.reset()
        #expect(loadable.settledAt == nil)
        #expect(!loadable.isInvalidated)
        #expect(loadable == Loadable(expecting: .notLoaded, newestID: LoadID(1)))
    }

    @Test("setValue without a time keeps the age of the load before it")
    func setValueKeepsAge() {
        var loadable = freshlyLoaded(at: 100)
        loadable.setValue(5)
        #expect(loadable.settledAt == instant(ms: 100))
    }

    @Test("a stamped action means what the unstamped one means; only a success records its time")
    func sameMeaning() {
        let actions: [LoadAction<Int, TestError>] = [
            .started(LoadID(1)), .started(LoadID(2)), .finished(LoadID(1), 1), .failed(LoadID(2), .offline),
            .started(LoadID(3)), .cancelled(LoadID(3)), .started(LoadID(4)),
            .retrying(LoadID(4), LoadRetry(attempt: 1, of: 2, failure: .timedOut, wait: .seconds(1))),
            .progress(LoadID(4), 3), .finished(LoadID(4), 4), .finished(LoadID(4), 5),
        ]
        var plain = Loadable<Int, TestError>()
        var stamped = Loadable<Int, TestError>()
        var settledAt: LoadClock.Instant?
        for (index, action) in actions.enumerated() {
            let disposition = stamped.apply(.at(instant(ms: index), action))
            #expect(plain.apply(action) == disposition)
            if case .finished = action, disposition == .applied { settledAt = instant(ms: index) }
            #expect(stamped.settledAt == settledAt)
            #expect(stamped.state == plain.state)
            #expect(stamped.settledState == plain.settledState)
            #expect(stamped.inFlightID == plain.inFlightID)
            #expect(stamped.newestID == plain.newestID)
            #expect(stamped.activity == plain.activity)
            #expect(stamped.partialValue == plain.partialValue)
        }
        #expect(settledAt == instant(ms: 9))
    }
}

// Changed by design: `FreshLoadable.needsRefetch` and `reduce(_:refetch:)`
// are gone. An invalidation no longer waits for the load it overtook: the
// caller reloads at once, superseding it. These tests check what the
// loadable itself now says — invalidated, overtaken, stale — and the reload
// rules are tested in a store (LoadableFreshnessStoreTests).
@Suite("Freshness: invalidation, also of loads in flight")
struct LoadableInvalidationTests {
    @Test("invalidating a settled value marks it stale and keeps it readable")
    func settledValue() {
        var loadable = freshlyLoaded(at: 0)
        #expect(!loadable.isStale(maxAge: .seconds(60), at: instant(ms: 1)))
        loadable.invalidate()
        #expect(loadable.isStale(maxAge: .seconds(60), at: instant(ms: 1)))
        #expect(
            loadable
                == Loadable(
                    expecting: .success(value: 1), newestID: LoadID(1), settledAt: instant(ms: 0), invalidatedBefore: LoadID(1)))
        #expect(loadable.value == 1)
    }

    @Test("a load in flight before the invalidation is overtaken: its result is shown, and the value stays invalidated")
    func overtakenLoadSettles() {
        var loadable = freshlyLoaded(at: 0)
        _ = loadable.apply(.started(LoadID(2)))
        loadable.invalidate()
        #expect(loadable.isOvertaken(LoadID(2)))
        #expect(!loadable.isOvertaken(LoadID(3)))
        #expect(loadable.apply(.at(instant(ms: 20), .finished(LoadID(2), 2))) == .applied)
        #expect(
            loadable
                == Loadable(
                    expecting: .success(value: 2), newestID: LoadID(2), settledAt: instant(ms: 20), invalidatedBefore: LoadID(2)))
        #expect(loadable.isStale(maxAge: .seconds(60), at: instant(ms: 21)))
    }

    @Test("an overtaken load that fails or is cancelled leaves the value invalidated", arguments: [false, true])
    func overtakenLoadEndsOtherwise(cancel: Bool) {
        var loadable = freshlyLoaded(at: 0)
        _ = loadable.apply(.started(LoadID(2)))
        loadable.invalidate()
        _ = loadable.apply(cancel ? .cancelled(LoadID(2)) : .failed(LoadID(2), .offline))
        #expect(loadable.isInvalidated)
        #expect(loadable.invalidatedBefore == LoadID(2))
        #expect(loadable.isStale(maxAge: .seconds(60), at: instant(ms: 1)))
    }

    @Test("a load started after the invalidation answers it: its success makes the value fresh")
    func loadAfterInvalidation() {
        var loadable = freshlyLoaded(at: 0)
        loadable.invalidate()
        _ = loadable.apply(.started(LoadID(2)))
        #expect(!loadable.isOvertaken(LoadID(2)))
        _ = loadable.apply(.at(instant(ms: 20), .finished(LoadID(2), 2)))
        #expect(loadable == Loadable(expecting: .success(value: 2), newestID: LoadID(2), settledAt: instant(ms: 20)))
        #expect(!loadable.isStale(maxAge: .seconds(60), at: instant(ms: 30)))
    }

    @Test("a load started after the invalidation that fails leaves the value invalidated and stale")
    func answeredButFailed() {
        var loadable = freshlyLoaded(at: 0)
        loadable.invalidate()
        _ = loadable.apply(.started(LoadID(2)))
        _ = loadable.apply(.at(instant(ms: 20), .failed(LoadID(2), .offline)))
        #expect(loadable.isInvalidated)
        #expect(loadable.isStale(maxAge: .seconds(60), at: instant(ms: 30)))
        // Nothing reloads by itself: no retry loop. The next trigger or user does.
        #expect(!loadable.isLoading)
    }

    @Test("a second invalidation overtakes the load in flight that answered the first")
    func invalidateTwice() {
        var loadable = freshlyLoaded(at: 0)
        loadable.invalidate()
        _ = loadable.apply(.started(LoadID(2)))
        loadable.invalidate()
        #expect(loadable.isOvertaken(LoadID(2)))
        _ = loadable.apply(.finished(LoadID(2), 2))
        #expect(loadable.isInvalidated)
        #expect(loadable.invalidatedBefore == LoadID(2))
    }

    @Test("invalidating a loadable that never loaded is allowed; setValue does not answer an invalidation")
    func neverLoaded() {
        var loadable = Loadable<Int, TestError>()
        loadable.invalidate()
        #expect(loadable == Loadable(expecting: .notLoaded, invalidatedBefore: .some(nil)))
        #expect(!loadable.isOvertaken(LoadID(1)))
        loadable.setValue(3, at: instant(ms: 5))
        #expect(loadable.isInvalidated)
        #expect(loadable.isStale(maxAge: .seconds(60), at: instant(ms: 6)))
    }
}

extension LoadableInvalidationTests {
    @Test("a load queued before invalidate() starts after it, on its turn, and answers it; the load in flight then does not")
    func queuedLoadAnswers() {
        var user = Loadable<Int, TestError>()
        _ = user.apply(.started(LoadID(1)))
        _ = user.apply(.queued(LoadID(2)))
        user.invalidate()
        #expect(user.invalidatedBefore == .some(LoadID(1)), "the newest load started, not the queued one")
        #expect(user.isOvertaken(LoadID(1)) && !user.isOvertaken(LoadID(2)))
        #expect(user.apply(.finished(LoadID(1), 1)) == .applied)
        #expect(user.isInvalidated, "#1 started before the invalidation")
        #expect(user.apply(.started(LoadID(2))) == .applied)
        #expect(user.apply(.finished(LoadID(2), 2)) == .applied)
        #expect(!user.isInvalidated && user.value == 2)
    }
}
