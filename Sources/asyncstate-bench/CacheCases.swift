import AsyncState

/// Issue 17's cases: reading a shared cache's entry against reading a
/// `Loadable` from a store's state, with few keys and with 10,000.
@MainActor
enum CacheCases {
    struct Screen: Reducer {
        struct State { var profile = Loadable<Int, Never>(value: 7) }
        func reduce(into state: inout State, action: Void) -> Effect<Void> { .none }
    }

    /// A cache holding `count` keys, all loaded and in use; the subscriptions
    /// are returned so they stay alive while measured.
    static func filledCache(_ count: Int) async -> (Cache<Int, Int, Never>, [Cache<Int, Int, Never>.Subscription]) {
        let cache = Cache<Int, Int, Never>(clock: ContinuousClock(), staleAfter: .seconds(3_600)) { key in
            LoadRequest { () async throws(Never) in key }
        }
        var subscriptions: [Cache<Int, Int, Never>.Subscription] = []
        subscriptions.reserveCapacity(count)
        for key in 0..<count { subscriptions.append(cache.subscribe(key)) }
        for subscription in subscriptions { await subscription.loaded() }
        precondition(cache.count == count && cache[count - 1]?.value == count - 1, "every key must be loaded")
        return (cache, subscriptions)
    }

    static func run(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(2_000_000)
        // Setup, outside the stopwatch: filling the caches runs one load per key.
        let (small, smallSubscriptions) = await filledCache(10)
        let (large, largeSubscriptions) = await filledCache(10_000)
        // A fixed pseudo-random order of keys, so the large cache is not read
        // in an order the hardware can prefetch.
        let order: [Int] = {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            return (0..<4_096).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return Int(state % 10_000)
            }
        }()
        let store = Store(initialState: Screen.State(), reducer: Screen())
        let baseline = Measured(name: "read a Loadable from a store's state", iterations: n) { n in
            var sum = 0
            for _ in 0..<n { sum &+= store.state.profile.value ?? 0 }
            return sum
        }
        let smallHit = Measured(name: "Cache hit, 10 keys", iterations: n) { n in
            var sum = 0
            for i in 0..<n { sum &+= small[i % 10]?.value ?? 0 }
            return sum
        }
        let largeHit = Measured(name: "Cache hit, 10,000 keys", iterations: n) { n in
            var sum = 0
            for i in 0..<n { sum &+= large[order[i & 4_095]]?.value ?? 0 }
            return sum
        }
        // For scale, no target: a plain `Dictionary` lookup of the same keys
        // in the same order — SipHash and a copy of the value out, what a
        // hit cost before the cache had its own index.
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ($0, Loadable<Int, Never>(value: $0)) })
        let dictionaryHit = Measured(name: "Dictionary<Int, Loadable> lookup, 10,000 keys (scale)", iterations: n) { n in
            var sum = 0
            for i in 0..<n { sum &+= dictionary[order[i & 4_095]]?.value ?? 0 }
            return sum
        }
        let results = await Harness.compare(
            group: "8", baseline: baseline, cases: [(smallHit, 2), (largeHit, 2), (dictionaryHit, nil)], budget: budget)
        withExtendedLifetime((smallSubscriptions, largeSubscriptions)) {}
        return results
    }
}
