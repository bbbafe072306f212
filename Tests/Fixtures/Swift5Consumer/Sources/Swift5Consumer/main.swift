import AsyncState

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the features and exits with 1 if anything differs from what Swift 6
/// mode gives.
@MainActor
func check() async -> [String] {
    var failures: [String] = []
    func expect(_ condition: Bool, _ what: String) {
        if !condition { failures.append(what) }
    }

    let store = Store(initialState: Feed.State(), reducer: Feed.reducer(items: ["a", "b"]))
    var log: [String] = []
    store.logTransitions { log.append($0) }
    await store.send(.refresh).finish()
    expect(store.feed.value == ["a", "b"], "the feed loads its items")
    await store.send(.row(2, .open)).finish()
    expect(store.rows[2]?.detail.value == "detail", "row 2 loads its detail")
    expect(store.rows[1]?.detail.value == nil, "row 1 stays unloaded")
    store.send(.settings(.toggle))
    expect(store.settings.isCompact, "the scoped child runs")
    await store.send(.saveTapped).finish()
    expect(store.save.value == 1, "the save runs")
    expect(!log.isEmpty, "transitions are logged")

    let value = AsyncValue<Int, AnyError>()
    await value.load { 42 }
    expect(value.value == 42, "AsyncValue loads")
    await value.loadIfNeeded { 0 }
    expect(value.value == 42, "loadIfNeeded keeps a success")

    let operations = OperationTracker<String, AnyError>()
    let saved = await operations.run("save") { 7 }
    expect(saved == .success(7), "an operation returns its result")
    await operations.run("delete") { throw CancellationError() }
    expect(operations.error(for: "delete") == nil, "a cancelled operation is not an error")
    await operations.run("sync") { () throws -> Int in throw Offline() }
    expect(operations.hasErrors && operations.clearError(for: "sync") != nil, "an error can be cleared")
    expect(operations.errors.isEmpty, "no error is left")

    let profile = ProfileStore()
    await profile.loadIfNeeded { 3 }
    expect(profile.value == 3, "a conforming store loads")
    return failures
}

let failures = await check()
for failure in failures { print("Swift5Consumer: failed: \(failure)") }
print(failures.isEmpty ? "Swift5Consumer: every check passed" : "Swift5Consumer: \(failures.count) checks failed")
exit(failures.isEmpty ? 0 : 1)
