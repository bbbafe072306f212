import AsyncState
import AsyncStateControls
import Testing

typealias Fresh = FreshLoadable<Int, TestError, TestClock.Instant>

/// The instant `milliseconds` after a test clock's start.
func at(_ milliseconds: Int) -> TestClock.Instant {
    TestClock.Instant(offset: .milliseconds(milliseconds))
}

/// A fresh loadable whose load #1 finished with `value` at `settled` ms.
func settled(_ value: Int = 1, at settled: Int = 0) -> Fresh {
    var fresh = Fresh()
    _ = fresh.apply(.started(LoadID(1)), at: at(settled))
    _ = fresh.apply(.finished(LoadID(1), value), at: at(settled))
    return fresh
}

@Suite("Freshness: staleness is a pure question of settle time, max age and now")
struct StalenessTests {
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
        #expect(settled(at: 1_000).isStale(maxAge: .milliseconds(maxAge), at: at(now)) == stale)
    }

    @Test("a loadable with no value is stale, whatever the max age")
    func noValue() {
        #expect(Fresh().isStale(maxAge: .seconds(3_600), at: at(0)))
        var failed = Fresh()
        _ = failed.apply(.started(LoadID(1)), at: at(0))
        _ = failed.apply(.failed(LoadID(1), .offline), at: at(0))
        #expect(failed.isStale(maxAge: .seconds(3_600), at: at(0)))
    }

    @Test("only a success records the settle time; a failure and a cancellation keep the old one")
    func onlySuccessStamps() {
        var fresh = settled(at: 100)
        _ = fresh.apply(.started(LoadID(2)), at: at(200))
        _ = fresh.apply(.failed(LoadID(2), .offline), at: at(300))
        #expect(fresh.settledAt == at(100))
        _ = fresh.apply(.started(LoadID(3)), at: at(400))
        _ = fresh.apply(.cancelled(LoadID(3)), at: at(500))
        #expect(fresh.settledAt == at(100))
        #expect(fresh.value == 1)
    }

    @Test("a dropped (stale) result records no time")
    func droppedRecordsNothing() {
        var fresh = settled(at: 100)
        _ = fresh.apply(.started(LoadID(2)), at: at(200))
        #expect(fresh.apply(.finished(LoadID(1), 9), at: at(300)) == .dropped)
        #expect(fresh.settledAt == at(100))
    }

    @Test("setValue records its time; reset forgets the time and the invalidation")
    func setValueAndReset() {
        var fresh = settled(at: 100)
        fresh.setValue(5, at: at(700))
        #expect(fresh.settledAt == at(700))
        fresh.invalidate()
        fresh.reset()
        #expect(fresh.settledAt == nil)
        #expect(!fresh.isInvalidated)
        #expect(fresh.state == .notLoaded)
    }

    @Test("the four load actions mean what they mean for a Loadable")
    func sameMeaning() {
        let actions: [LoadAction<Int, TestError>] = [
            .started(LoadID(1)), .started(LoadID(2)), .finished(LoadID(1), 1), .failed(LoadID(2), .offline),
            .started(LoadID(3)), .cancelled(LoadID(3)), .started(LoadID(4)), .finished(LoadID(4), 4),
        ]
        var plain = Loadable<Int, TestError>()
        var fresh = Fresh()
        for (index, action) in actions.enumerated() {
            #expect(plain.apply(action) == fresh.apply(action, at: at(index)))
            #expect(plain == fresh.loadable)
        }
    }
}

@Suite("Freshness: invalidation, also of loads in flight")
struct InvalidationTests {
    @Test("invalidating a settled value marks it stale and asks for a fresh load at once")
    func settledValue() {
        var fresh = settled(at: 0)
        #expect(!fresh.isStale(maxAge: .seconds(60), at: at(1)))
        fresh.invalidate()
        #expect(fresh.isStale(maxAge: .seconds(60), at: at(1)))
        #expect(fresh.needsRefetch)
        #expect(fresh.value == 1) // the value stays readable
    }

    @Test("a load in flight before the invalidation may settle, and a fresh load is due right after")
    func overtakenLoadSettlesThenRefetch() {
        var fresh = settled(at: 0)
        _ = fresh.apply(.started(LoadID(2)), at: at(10))
        fresh.invalidate()
        #expect(fresh.isOvertaken(LoadID(2)))
        #expect(!fresh.needsRefetch) // wait for it to settle first
        #expect(fresh.apply(.finished(LoadID(2), 2), at: at(20)) == .applied)
        #expect(fresh.value == 2) // its value is shown
        #expect(fresh.isInvalidated)
        #expect(fresh.needsRefetch)
    }

    @Test("an overtaken load that fails or is cancelled is followed by a fresh load too", arguments: [false, true])
    func overtakenLoadEndsOtherwise(cancel: Bool) {
        var fresh = settled(at: 0)
        _ = fresh.apply(.started(LoadID(2)), at: at(10))
        fresh.invalidate()
        _ = fresh.apply(cancel ? .cancelled(LoadID(2)) : .failed(LoadID(2), .offline), at: at(20))
        #expect(fresh.needsRefetch)
    }

    @Test("a load started after the invalidation answers it: no follow-up, and its success makes the value fresh")
    func loadAfterInvalidation() {
        var fresh = settled(at: 0)
        fresh.invalidate()
        _ = fresh.apply(.started(LoadID(2)), at: at(10))
        #expect(!fresh.isOvertaken(LoadID(2)))
        #expect(!fresh.needsRefetch)
        _ = fresh.apply(.finished(LoadID(2), 2), at: at(20))
        #expect(!fresh.isInvalidated)
        #expect(!fresh.needsRefetch)
        #expect(!fresh.isStale(maxAge: .seconds(60), at: at(30)))
    }

    @Test("a load started after the invalidation that fails leaves the value stale but asks for nothing more")
    func answeredButFailed() {
        var fresh = settled(at: 0)
        fresh.invalidate()
        _ = fresh.apply(.started(LoadID(2)), at: at(10))
        _ = fresh.apply(.failed(LoadID(2), .offline), at: at(20))
        #expect(fresh.isInvalidated)
        #expect(fresh.isStale(maxAge: .seconds(60), at: at(30)))
        #expect(!fresh.needsRefetch) // no retry loop: the next trigger or user reloads it
    }

    @Test("a second invalidation overtakes the follow-up in flight as well")
    func invalidateTwice() {
        var fresh = settled(at: 0)
        fresh.invalidate()
        _ = fresh.apply(.started(LoadID(2)), at: at(10))
        fresh.invalidate()
        #expect(fresh.isOvertaken(LoadID(2)))
        _ = fresh.apply(.finished(LoadID(2), 2), at: at(20))
        #expect(fresh.needsRefetch)
    }

    @Test("invalidating a loadable that never loaded asks for its first load; setValue does not answer an invalidation")
    func neverLoaded() {
        var fresh = Fresh()
        fresh.invalidate()
        #expect(fresh.needsRefetch)
        fresh.setValue(3, at: at(5))
        #expect(fresh.isInvalidated)
        #expect(fresh.needsRefetch)
    }
}
