import AsyncState

/// Issue 15: appending a page costs O(page), and edit layers cost a little
/// over a plain load — each against a plain `Loadable` measured in the same run.
@MainActor
enum ListCases {
    typealias Feed = PagedLoadable<Int, Int, Never>

    static let pageSize = 20
    static let pageCount = 1_000
    /// Pages 1…1,000, built once so building them is never timed; page k's next cursor is k + 1.
    static let pages: [Page<Int, Int>] = (1...pageCount).map { k in
        Page(Array((k - 1) * pageSize..<k * pageSize), next: k < pageCount ? k + 1 : nil)
    }

    /// Loads more of `feed` — a `.started` and a `.finished` — with page `k`.
    static func loadMore(_ feed: inout Feed, page k: Int, id: inout LoadID, in pages: [Page<Int, Int>]) {
        id = id.next
        let request = PageRequest(generation: feed.generation, cursor: k)
        _ = feed.apply(.more(request, .started(id)))
        _ = feed.apply(.more(request, .finished(id, pages[k - 1])))
    }

    /// Times loading more with pages `timed`, ten at a time, after building
    /// the list up to the page before them untimed. Per page.
    static func appends(_ name: String, _ timed: ClosedRange<Int>) -> (Int) -> Measured {
        { n in
            Measured(name: name, iterations: n) { n, stopwatch in
                let clock = ContinuousClock()
                let pages = Self.pages
                var sum = 0
                for _ in 0..<max(1, n / timed.count) {
                    var feed = Feed()
                    var id = LoadID(1)
                    _ = feed.apply(.list(.started(id)))
                    _ = feed.apply(.list(.finished(id, pages[0])))
                    for k in 2..<timed.lowerBound { loadMore(&feed, page: k, id: &id, in: pages) }
                    let start = clock.now
                    for k in timed { loadMore(&feed, page: k, id: &id, in: pages) }
                    stopwatch.add(start.duration(to: clock.now))
                    sum &+= feed.elements.count
                }
                return sum
            }
        }
    }

    /// A value of 100 numbers, and an edit that sets one of them.
    struct SetNumber: Edit {
        var index: Int
        var value: Int
        func apply(to numbers: inout [Int]) -> Bool {
            guard numbers.indices.contains(index) else { return false }
            numbers[index] = value
            return true
        }
    }

    static let numbers = Array(0..<100)

    static func run(_ budget: Budget) async -> [Result] {
        let n = budget.iterations(200_000)
        // A local, so the loops do not go through the global's lazy accessor.
        let numbers = Self.numbers
        let baseline = Measured(name: "Loadable<[Int]> .started + .finished, per load", iterations: n) { n in
            var loadable = Loadable<[Int], Never>()
            var id = LoadID(0)
            var sum = 0
            for _ in 0..<n {
                id = id.next
                _ = loadable.apply(.started(id))
                _ = loadable.apply(.finished(id, numbers))
                sum &+= loadable.value?.count ?? 0
            }
            return sum
        }
        let first = appends("PagedLoadable load more, pages 2–11 of 1,000, per page", 2...11)(budget.iterations(20_000))
        let last = appends("PagedLoadable load more, pages 991–1,000, per page", 991...1_000)(budget.iterations(20_000))
        let mutation = Measured(name: "Optimistic mutation .started + .finished, per mutation", iterations: n) { n in
            var value = Optimistic<SetNumber, Never>(confirmed: numbers)
            var id = LoadID(0)
            var sum = 0
            for i in 0..<n {
                id = id.next
                let edit = SetNumber(index: i % 100, value: i)
                _ = value.apply(.mutation(edit, .started(id)))
                _ = value.apply(.mutation(edit, .finished(id, edit)))
                sum &+= value.value?[i % 100] ?? 0
            }
            return sum
        }
        let reload = Measured(name: "Optimistic load .started + .finished under 3 pending edits", iterations: n) { n in
            var value = Optimistic<SetNumber, Never>(confirmed: numbers)
            for k in 1...3 { _ = value.apply(.mutation(SetNumber(index: k, value: -k), .started(LoadID(UInt64(k))))) }
            var id = LoadID(10)
            var sum = 0
            for _ in 0..<n {
                id = id.next
                _ = value.apply(.load(.started(id)))
                _ = value.apply(.load(.finished(id, numbers)))
                sum &+= value.value?[1] ?? 0
            }
            return sum
        }
        var results = await Harness.compare(
            group: "9", baseline: baseline, cases: [(first, nil), (last, nil), (mutation, nil), (reload, nil)], budget: budget)
        // The promise itself: the 1,000th append costs no more than twice the first.
        let growth = await Harness.compare(group: "9", baseline: first, cases: [(last, 2.0)], budget: budget)
        results.append(contentsOf: growth.dropFirst())
        return results
    }
}
