import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// `cancellable(id:)` adds an ID; it never takes one away. An effect marked
/// twice — a debounce marked by a screen, a child's effect marked by its
/// parent — is cancellable by each ID, and keeps doing what the inner one
/// promised.
@Suite("Effects: cancel IDs stack", .hangGuard)
@MainActor
struct StackedCancelIDTests {
    // That a marked debounce still debounces is `ChildEffectTests.debounceWithinRow`.

    @Test(
        "a row's load its parent marks is cancelled by the mark, and still by removing the row",
        arguments: [false, true])
    func markedLoadCancels(byRemoval: Bool) async {
        let clock = TestClock()
        let store = Store(initialState: SearchScreen.State(), reducer: SearchScreen.marked(clock: clock))
        let gate = Gate<String>()
        let opened = store.send(.row(7, .open(gate)))
        await gate.waitForArrivals(1)
        store.send(byRemoval ? .remove(7) : .leave)
        let cancelled = gate.observedCancellation
        gate.open(with: "late")
        await opened.finish()
        #expect(cancelled)
        #expect((store.state.rows[7] == nil) == byRemoval)
    }

    @Test("a debounced effect marked cancellable by another ID: both IDs cancel it")
    func bothIDsCancel() async {
        for outer in [true, false] {
            let clock = TestClock()
            let counter = Counter()
            let store = Store(
                initialState: 0,
                reducer: Reduce<Int, String> { _, action in
                    switch action {
                    case "start":
                        return Effect.run { _ in counter.increment() }
                            .debounced(id: "inner", for: .seconds(1), clock: clock)
                            .cancellable(id: "outer")
                    default:
                        return .cancel(id: action)
                    }
                })
            let started = store.send("start")
            await clock.waitForSleepers(1)
            store.send(outer ? "outer" : "inner")
            clock.advance(by: .seconds(1))
            await started.finish()
            #expect(counter.value == 0, "cancelled by \(outer ? "outer" : "inner")")
        }
    }
}

/// Counts on the main actor.
@MainActor
final class Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
