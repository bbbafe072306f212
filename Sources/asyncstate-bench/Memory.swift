import AsyncState

#if canImport(Glibc)
    import Glibc
#endif

/// Case 6: memory. Resident memory is read from `/proc/self/statm` (Linux).
@MainActor
enum Memory {
    /// Resident bytes now, or `nil` where `/proc` is unavailable.
    static func residentBytes() -> Int? {
        #if os(Linux)
            guard let file = fopen("/proc/self/statm", "r") else { return nil }
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 128)
            guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
            let fields = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: " ").compactMap { Int($0) }
            guard fields.count >= 2 else { return nil }
            return fields[1] * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }

    static func run(_ budget: Budget) async -> [Result] {
        guard residentBytes() != nil else {
            return [Result(group: "6", name: "memory", sample: Sample(values: [0]), text: "not measured: /proc/self/statm is unavailable")]
        }
        var results: [Result] = []

        // Growth over 1,000,000 sends: must be flat (no unbounded history).
        let sends = budget.iterations(1_000_000)
        let store = Store(initialState: 0, reducer: Counter())
        for _ in 0..<10_000 { store.send(.increment) }
        let before = residentBytes() ?? 0
        for _ in 0..<sends { store.send(.increment) }
        let growth = (residentBytes() ?? 0) - before
        consume(store.state)
        results.append(
            Result(
                group: "6", name: "resident memory growth over \(sends) sends", sample: Sample(values: [0]),
                text: "\(growth) bytes (\(Report.format(Double(growth) / 1_048_576, digits: 3)) MiB)  "
                    + (growth < 1_048_576 ? "✓ target < 1 MiB" : "✗ MISSED target < 1 MiB")
            ))

        // Bytes per in-flight load vs a bare suspended Task.
        let count = budget.iterations(20_000)
        let parking = Parking()
        let taskBefore = residentBytes() ?? 0
        var tasks: [Task<Int, Never>] = []
        tasks.reserveCapacity(count)
        for slot in 0..<count { tasks.append(Task { await parking.park(slot) }) }
        for _ in 0..<4 { await Task.yield() }
        let perTask = Double((residentBytes() ?? 0) - taskBefore) / Double(count)
        // Each kind stays parked until all three are measured: memory freed
        // by one kind would be reused by the next, which then grows the
        // resident set by almost nothing (an untyped load read as 26 bytes).

        let loadParking = Parking()
        let loads = Store(initialState: Loader.State(), reducer: Loader(parking: loadParking))
        let loadBefore = residentBytes() ?? 0
        var handles: [StoreTask] = []
        handles.reserveCapacity(count)
        for slot in 0..<count { handles.append(loads.send(.loadParked(slot))) }
        for _ in 0..<4 { await Task.yield() }
        let perLoad = Double((residentBytes() ?? 0) - loadBefore) / Double(count)
        let typedHandles = handles

        // The same, for an untyped load (`AnyError`), the path Statable-style code takes.
        let untypedParking = Parking()
        let untypedLoads = Store(initialState: Loader.State(), reducer: Loader(parking: untypedParking))
        let untypedBefore = residentBytes() ?? 0
        handles = []
        handles.reserveCapacity(count)
        for slot in 0..<count { handles.append(untypedLoads.send(.loadParkedUntyped(slot))) }
        for _ in 0..<4 { await Task.yield() }
        let perUntypedLoad = Double((residentBytes() ?? 0) - untypedBefore) / Double(count)
        parking.releaseAll()
        for task in tasks { consume(await task.value) }
        tasks = []
        loadParking.releaseAll()
        for handle in typedHandles { await handle.finish() }
        consume(loads.runningEffectCount)
        untypedParking.releaseAll()
        for handle in handles { await handle.finish() }
        consume(untypedLoads.runningEffectCount)

        results.append(
            Result(group: "6", name: "bytes per suspended bare Task", sample: Sample(values: [0]), text: "\(Int(perTask)) bytes  baseline"))
        for (name, bytes) in [("bytes per in-flight load", perLoad), ("bytes per in-flight untyped (AnyError) load", perUntypedLoad)] {
            results.append(
                Result(
                    group: "6", name: name, sample: Sample(values: [0]),
                    text: "\(Int(bytes)) bytes  \(Report.format(bytes / max(perTask, 1), digits: 2))× bare Task  "
                        + (bytes / max(perTask, 1) <= 1.2 ? "✓ target ≤1.2×" : "✗ MISSED target ≤1.2×")
                ))
        }
        return results
    }
}
