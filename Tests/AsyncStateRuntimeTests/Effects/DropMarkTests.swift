import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// Every combinator keeps the mark that says "the action behind this effect
/// was dropped as stale", so the store reports the drop in the transition
/// whatever a reducer builds around `Loadable.reduce`.
@Suite("Effect: the stale-drop mark")
@MainActor
struct DropMarkTests {
    typealias Combinator = @MainActor @Sendable (_ dropped: Effect<Int>, _ other: Effect<Int>) -> Effect<Int>

    /// Each combinator, applied with the dropped effect in the place it names.
    nonisolated static let combinators: [(name: String, combine: Combinator)] = [
        ("merge(dropped, other)", { .merge($0, $1) }),
        ("merge(other, dropped)", { .merge($1, $0) }),
        ("merge([dropped])", { dropped, _ in .merge([dropped]) }),
        ("dropped.merging(with: other)", { $0.merging(with: $1) }),
        ("other.merging(with: dropped)", { $1.merging(with: $0) }),
        ("concatenate(dropped, other)", { .concatenate($0, $1) }),
        ("concatenate(other, dropped)", { .concatenate($1, $0) }),
        ("concatenate([dropped])", { dropped, _ in .concatenate([dropped]) }),
        ("concatenate(dropped, .none)", { dropped, _ in .concatenate(dropped, .none) }),
        ("dropped.concatenating(with: other)", { $0.concatenating(with: $1) }),
        ("other.concatenating(with: dropped)", { $1.concatenating(with: $0) }),
        ("dropped.map", { dropped, _ in dropped.map { $0 + 1 } }),
        ("dropped.cancellable(id:)", { dropped, _ in dropped.cancellable(id: "a") }),
        ("dropped.cancellable(id:cancelInFlight:)", { dropped, _ in dropped.cancellable(id: "a", cancelInFlight: true) }),
        ("merge(dropped, other).cancellable(id:)", { .merge($0, $1).cancellable(id: "a") }),
        ("concatenate(dropped, other).cancellable(id:)", { .concatenate($0, $1).cancellable(id: "a") }),
        // A zero wait on a test clock returns at once: nothing waits on real time.
        ("dropped.delayed(for:clock:)", { dropped, _ in dropped.delayed(for: .zero, clock: TestClock()) }),
        ("dropped.debounced(id:for:clock:)", { dropped, _ in dropped.debounced(id: "a", for: .zero, clock: TestClock()) }),
    ]

    /// The drop mark of the one transition a reducer returning `effect` makes.
    func reportedDrop(_ effect: Effect<Int>) async -> Bool {
        let store = Store(initialState: 0, reducer: Reduce<Int, Int> { _, action in action == 0 ? effect : .none })
        var marks: [Bool] = []
        store.observeTransitions { transition in
            if transition.action == 0 { marks.append(transition.isDropped) }
        }
        await store.send(0).finish()
        return marks == [true]
    }

    @Test("a dropped action's mark survives the combinator", arguments: combinators.indices)
    func keepsMark(_ index: Int) async {
        var stale = Loadable<Int, Never>()
        let dropped: Effect<Int> = stale.reduce(.finished(LoadID(1), 1))
        let other = Effect<Int>.send(7)
        let name = Self.combinators[index].name
        #expect(await reportedDrop(Self.combinators[index].combine(dropped, other)), "\(name)")
    }

    @Test("an applied action stays unmarked through the same combinators", arguments: combinators.indices)
    func addsNoMark(_ index: Int) async {
        var fresh = Loadable<Int, Never>()
        let applied: Effect<Int> = fresh.reduce(.started(LoadID(1)))
        let other = Effect<Int>.send(7)
        let name = Self.combinators[index].name
        #expect(await !reportedDrop(Self.combinators[index].combine(applied, other)), "\(name)")
    }
}
