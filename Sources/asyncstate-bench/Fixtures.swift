import AsyncState
import Observation

// The features and baselines the benchmarks run.

/// Baseline: a direct method call mutating a final class.
final class DirectCounter {
    var value = 0

    @inline(never)
    func increment() { value &+= 1 }
}

/// Baseline: a plain, non-generic `@Observable` class.
@Observable
final class ObservableCounter {
    var value = 0
}

/// For scale: the same on a generic `@Observable` class, which rebuilds its
/// key path on every access.
@Observable
final class GenericObservableCounter<Tag> {
    var value = 0
}

/// Baseline for the value model: a hand-written `switch` on a plain enum.
enum PlainLoadState {
    case idle, loading, loaded(Int), failed

    enum Event { case start, finish(Int) }

    mutating func handle(_ event: Event) {
        switch (self, event) {
        case (.idle, .start), (.failed, .start), (.loaded, .start): self = .loading
        case (.loading, .start): break
        case (.loading, .finish(let value)): self = .loaded(value)
        case (_, .finish): break
        }
    }
}

/// The trivial reducer: a counter.
struct Counter: Reducer {
    enum Action: Sendable { case increment }

    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        state &+= 1
        return .none
    }
}

/// A parent that scopes `Counter` into a field, and keeps 1,000 keyed
/// counters.
struct Parent: Reducer {
    struct State {
        var child = 0
        var rows = KeyedStates((0..<1_000).map { ($0, 0) })
    }

    enum Action: Sendable {
        case child(Counter.Action)
        case row(Int, Counter.Action)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }

    static var scoped: some Reducer<State, Action> {
        Parent().combined(
            with: Scope(
                state: \.child, action: Action.child,
                extract: {
                    if case .child(let action) = $0 { action } else { nil }
                }
            ) { Counter() })
    }

    static var keyed: some Reducer<State, Action> {
        Parent().forEach(
            \.rows, action: Action.row,
            extract: {
                if case .row(let id, let action) = $0 { (id, action) } else { nil }
            }
        ) { Counter() }
    }
}

/// Holds suspended operations until the benchmark releases them. A slot
/// released before its operation parks is remembered, so the order in which
/// tasks happen to run never matters.
@MainActor
final class Parking {
    private var waiting: [Int: CheckedContinuation<Int, Never>] = [:]
    private var released: Set<Int> = []
    private var releasedAll = false

    /// How many operations are parked now.
    var parkedCount: Int { waiting.count }

    func park(_ slot: Int) async -> Int {
        if releasedAll || released.remove(slot) != nil { return slot }
        return await withCheckedContinuation { waiting[slot] = $0 }
    }

    func release(_ slot: Int) {
        if let continuation = waiting.removeValue(forKey: slot) {
            continuation.resume(returning: slot)
        } else {
            released.insert(slot)
        }
    }

    func releaseAll() {
        releasedAll = true
        for slot in Array(waiting.keys) { release(slot) }
    }
}

/// A feature whose loads return at once, or wait in a parking slot.
struct Loader: Reducer {
    struct State {
        var item = Loadable<Int, Never>()
        var untypedItem = Loadable<Int, AnyError>()
    }

    enum Action: Sendable {
        case loadNow
        case loadAfterYield
        case loadParked(Int)
        case loadParkedUntyped(Int)
        case item(LoadAction<Int, Never>)
        case untypedItem(LoadAction<Int, AnyError>)
        case ping, pong
    }

    let parking: Parking

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .loadNow:
            return state.item.load(Action.item, LoadRequest { () async throws(Never) in 1 })
        case .loadAfterYield:
            return state.item.load(
                Action.item,
                LoadRequest { () async throws(Never) in
                    await Task.yield()
                    return 1
                })
        case .loadParked(let slot):
            let parking = parking
            return state.item.load(
                Action.item, LoadRequest { () async throws(Never) in await parking.park(slot) },
                overlap: .latestWins(cancellingEarlier: false))
        case .loadParkedUntyped(let slot):
            let parking = parking
            return state.untypedItem.load(
                Action.untypedItem, LoadRequest { () async throws in await parking.park(slot) },
                overlap: .latestWins(cancellingEarlier: false))
        case .item(let load):
            return state.item.reduce(load)
        case .untypedItem(let load):
            return state.untypedItem.reduce(load)
        case .ping:
            return .send(.pong)
        case .pong:
            return .none
        }
    }
}

extension Loader.State: Equatable {}
extension Loader.Action: Equatable {}
