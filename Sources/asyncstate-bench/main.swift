#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// asyncstate-bench: `swift run -c release asyncstate-bench [--quick] [--filter TEXT]`.
// Every ratio compares against a baseline measured in this same run.

let usage = """
    Usage: asyncstate-bench [--quick] [--filter TEXT]

      --quick         a seconds-long smoke run (fewer iterations and runs)
      --filter TEXT   run only the groups whose title contains TEXT (case-insensitive)
      -h, --help      show this help
    """

var budget = Budget(runs: 7, scale: 1)
var filter: String?
var remaining = CommandLine.arguments.dropFirst()
while let argument = remaining.popFirst() {
    switch argument {
    case "--quick":
        budget = Budget(runs: 2, scale: 0.02)
    case "--filter":
        guard let text = remaining.popFirst() else {
            print("asyncstate-bench: --filter needs a value\n\n\(usage)")
            exit(2)
        }
        filter = text.lowercased()
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        print("asyncstate-bench: unknown argument \(argument)\n\n\(usage)")
        exit(2)
    }
}

#if DEBUG
    print("warning: a debug build; measure with `swift run -c release asyncstate-bench`")
#endif

let groups: [(String, @MainActor (Budget) async -> [Result])] = {
    var groups: [(String, @MainActor (Budget) async -> [Result])] = [
        ("1. value model: AsyncState transitions and the pure load reducer", Cases.valueModel),
        ("2. Store.send with a trivial reducer", Cases.send),
        ("3. scoped and keyed children", Cases.children),
        ("4. load round trip", Cases.loadRoundTrip),
        ("5. stale drops with loads in flight", Cases.staleDrops),
        ("6. memory", Memory.run),
    ]
    #if canImport(AsyncStateTesting)
        groups.append(("7. test store", TestStoreCase.run))
    #endif
    groups.append(("8. shared cache: a hit against a store read", CacheCases.run))
    groups.append(("9. lists and writes: page appends and edit layers", ListCases.run))
    groups.append(("10. load lifecycle: a retry step and a progress action against a .finished", LifecycleCases.run))
    groups.append(("11. every request shape, answering at once, against the floor of any load", RequestCases.run))
    groups.append(("12. observation: a send tells only the readers of what changed", ObservationCases.run))
    groups.append(("13. record and explore: a recorded send, and exploring per ordering", RecordingCases.run))
    return groups
}()

print(
    """
    asyncstate-bench — \(budget.runs) runs per case\(budget.scale < 1 ? " (quick)" : "") (groups 4, 5, 7: \(budget.finer(3).runs) shorter ones), \
    ns/op median (min–max); a ratio is the median of each run's ratio to the baseline run beside it
    """)
// Memory is measured first, before other cases free memory that the
// allocator would reuse and hide; its results print in their place.
let selected = groups.filter { title, _ in filter.map { title.lowercased().contains($0) } ?? true }
var early: [String: [Result]] = [:]
for (title, run) in selected where title.hasPrefix("6.") {
    early[title] = await run(budget)
}
var ran = 0
for (title, run) in selected {
    Report.header(title)
    if let results = early[title] {
        Report.print(results)
    } else {
        Report.print(await run(budget))
    }
    ran += 1
}
if ran == 0 {
    print("asyncstate-bench: no group matches --filter \(filter ?? "")")
    exit(2)
}
print("")
print("checksum: \(checksum)")
