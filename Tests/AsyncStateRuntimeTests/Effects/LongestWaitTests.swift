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
}
