import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// A wait longer than a clock can represent — `.seconds(Int64.max)` on a
/// `ContinuousClock` traps ("Not enough bits") — is clamped to the longest
/// sleep, about 146 years, as a backoff, a timeout and a `Cache`'s timers
/// are: the effect waits, and is cancelled like any other. A test clock
/// shows the wait each clock is asked for.
@Suite("Effect: a wait no clock can represent", .hangGuard)
@MainActor
struct LongestWaitTests {
    enum Timed: String, CaseIterable, Sendable {
        case delayed, debounced, poll
    }

    @Test(
        "asks its clock for the longest sleep at most, and is cancelled while it waits",
        arguments: Timed.allCases, [Duration.seconds(Int64.max), .nanoseconds(Int64.max)])
    func longest(timed: Timed, wait: Duration) async {
        let clock = TestClock()
        let reducer = Reduce<[Int], Int> { state, action in
            switch action {
            case 0:
                switch timed {
                case .delayed: return Effect.send(1).delayed(for: wait, clock: clock).cancellable(id: "wait")
                case .debounced: return Effect.send(1).debounced(id: "wait", for: wait, clock: clock)
                case .poll: return Effect.poll(id: "wait", every: wait, clock: clock) { _ in 1 }
                }
            case -1:
                return .cancel(id: "wait")
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [Int](), reducer: reducer)
        let task = store.send(0)
        await clock.waitForSleepers()
        // About 146 years: what a `ContinuousClock` represents, with room.
        #expect(clock.nextDeadline == TestClock.Instant(offset: .nanoseconds(Int64.max / 2)))
        store.send(-1)
        await task.finish()
        #expect(store.state == [])
        #expect(store.runningEffectCount == 0)
    }

    /// The longest `Duration`, 128 bits of attoseconds: one second more
    /// overflows. (Before it had an `Int128` initializer, 18 times the longest
    /// of 64 bits of seconds, as near as it gets.)
    static var past64Bits: Duration {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            Duration(attoseconds: .max)
        } else {
            .seconds(Int64.max) * 18
        }
    }

    @Test("a maxAge of any length: a value is fresh, and no sum traps")
    func longestMaxAge() {
        var value = Loadable<Int, TestError>()
        value.setValue(1, at: LoadClock.Instant(offset: .seconds(10)))
        #expect(!value.isStale(maxAge: Self.past64Bits, at: LoadClock.Instant(offset: .seconds(20))))
        let far = LoadClock.Instant(offset: Self.past64Bits)
        #expect(far.advanced(by: Self.past64Bits) == LoadClock.Instant(offset: .seconds(Int64.max) * 2))
        #expect(far.duration(to: LoadClock.Instant(offset: .zero - Self.past64Bits)) == .zero - .seconds(Int64.max) * 2)
    }

    @Test("a cache's collection and poll waits of any length are clamped, and keep the entry meanwhile")
    func longestCacheWaits() async {
        let clock = TestClock()
        let cache = Cache<Int, Int, TestError>(clock: clock, staleAfter: .seconds(30), collectAfter: Self.past64Bits) { key in
            LoadRequest { () async throws(TestError) in key }
        }
        let subscription = cache.subscribe(7)
        await subscription.loaded()
        clock.advance(by: .seconds(1))
        cache.poll(7, every: Self.past64Bits)
        await clock.waitForSleepers()
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(1) + .nanoseconds(Int64.max / 2)))
        subscription.cancel()
        await clock.waitForSleepers(2)
        #expect(cache[7] != nil, "kept until its collection time")
        cache.stopPolling(7)
        #expect(cache.count == 1)
    }
}
