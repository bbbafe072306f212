#if canImport(AsyncStateTesting)
    import AsyncState
    import AsyncStateTesting

    /// Case 7: one test-store step — send an action whose effect sends another,
    /// then receive it — against the same on a plain `Store`.
    @MainActor
    enum TestStoreCase {
        static func run(_ budget: Budget) async -> [Result] {
            let budget = budget.finer(3)
            let n = budget.iterations(50_000)
            let store = Measured(name: "Store: send + await the effect's action", iterations: n) { n in
                let store = Store(initialState: Loader.State(), reducer: Loader(parking: Parking()))
                for _ in 0..<n { await store.send(.ping).finish() }
                return store.runningEffectCount
            }
            let testStore = Measured(name: "TestStore: send + receive (exhaustive)", iterations: n) { n in
                let store = TestStore(initialState: Loader.State(), reducer: Loader(parking: Parking()))
                for _ in 0..<n {
                    store.send(.ping)
                    await store.receive(.pong)
                }
                await store.finish()
                return store.runningEffectCount
            }
            return await Harness.compare(group: "7", baseline: store, cases: [(testStore, nil)], budget: budget)
        }
    }
#endif
