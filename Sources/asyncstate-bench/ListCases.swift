import AsyncState

/// Issue 15: appending a page costs O(page), and edit layers cost a little
/// over a plain load — each against a plain `Loadable` measured in the same run.
@MainActor
enum ListCases {
    typealias Feed = Loadable<Pages<Int, Int>, Never>

    static let pageSize = 20
    static let pageCount = 1_000
    /// Pages 1…1,000, built once so building them is never timed; page k's next cursor is k + 1.
    static let pages: [Pages<Int, Int>] = (1...pageCount).map { k in
        Pages(Array((k - 1) * pageSize..<k * pageSize), next: k < pageCount ? k + 1 : nil)
    }

    /// Loads more of `feed` — a `.started` and a `.finished` — with page `k`.
    static func loadMore(_ feed: inout Feed, page k: Int, id: inout LoadID, in pages: [Pages<Int, Int>]) {
        id = id.next
        let request = PageRequest(page: k, list: feed.newestID)
        _ = feed.apply(.more(request, .started(id)))
        _ = feed.apply(.more(request, .finished(id, pages[k - 1])))
    }

    /// How a composed list is set up: the first page stamped for freshness,
    /// an edit confirmed (so its layer is in use) and, if `pending`, another
    /// still pending.
    enum Layers { case none, composed, composedWithPendingEdit }

    /// An edit of a number in a page, for the composed list.
    struct SetRow: Edit {
        var index: Int
        var value: Int
        func apply(to rows: inout Pages<Int, Int>) -> Bool {
            guard rows.indices.contains(index) else { return false }
            rows[index] = value
            return true
        }
    }

    /// Times loading more with pages `timed`, ten at a time, after building
    /// the list up to the page before them untimed. Per page.
    static func appends(_ name: String, _ timed: ClosedRange<Int>, layers: Layers = .none) -> (Int) -> Measured {
        { n in
            Measured(name: name, iterations: n) { n, stopwatch in
                let clock = ContinuousClock()
                let pages = Self.pages
                var sum = 0
                for _ in 0..<max(1, n / timed.count) {
                    var feed = Feed()
                    var id = LoadID(1)
                    _ = feed.apply(.started(id))
                    if layers == .none {
                        _ = feed.apply(.finished(id, pages[0]))
                    } else {
                        _ = feed.apply(.at(LoadClock.Instant(offset: .seconds(1)), .finished(id, pages[0])))
                        _ = feed.apply(.edit(.started(LoadID(1_000_000), AnyEdit(SetRow(index: 0, value: -1)))))
                        _ = feed.apply(.edit(.confirmed(LoadID(1_000_000))))
                        if layers == .composedWithPendingEdit {
                            _ = feed.apply(.edit(.started(LoadID(1_000_001), AnyEdit(SetRow(index: 1, value: -1)))))
                        }
                    }
                    for k in 2..<timed.lowerBound { loadMore(&feed, page: k, id: &id, in: pages) }
                    let start = clock.now
                    for k in timed { loadMore(&feed, page: k, id: &id, in: pages) }
                    stopwatch.add(start.duration(to: clock.now))
                    sum &+= feed.value?.count ?? 0
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
        let first = appends("paged list load more, pages 2–11 of 1,000, per page", 2...11)(budget.iterations(20_000))
        let last = appends("paged list load more, pages 991–1,000, per page", 991...1_000)(budget.iterations(20_000))
        let composed = appends("composed list (stamped, edits confirmed) load more, pages 2–11", 2...11, layers: .composed)(
            budget.iterations(20_000))
        let pendingEdit = appends(
            "composed list with an edit pending load more, pages 2–11 (scale)", 2...11, layers: .composedWithPendingEdit)(
                budget.iterations(20_000))
        let mutation = Measured(name: "edit .started + .confirmed, per edit", iterations: n) { n in
            var value = Loadable<[Int], Never>(value: numbers)
            var id = LoadID(0)
            var sum = 0
            for i in 0..<n {
                id = id.next
                let edit = AnyEdit(SetNumber(index: i % 100, value: i))
                _ = value.apply(.edit(.started(id, edit)))
                _ = value.apply(.edit(.confirmed(id)))
                sum &+= value.value?[i % 100] ?? 0
            }
            return sum
        }
        let reload = Measured(name: "load .started + .finished under 3 pending edits", iterations: n) { n in
            var value = Loadable<[Int], Never>(value: numbers)
            for k in 1...3 { _ = value.apply(.edit(.started(LoadID(UInt64(k)), AnyEdit(SetNumber(index: k, value: -k))))) }
            var id = LoadID(10)
            var sum = 0
            for _ in 0..<n {
                id = id.next
                _ = value.apply(.started(id))
                _ = value.apply(.finished(id, numbers))
                sum &+= value.value?[1] ?? 0
            }
            return sum
        }
        var results = await Harness.compare(
            group: "9", baseline: baseline, cases: [(first, nil), (last, nil), (mutation, nil), (reload, nil)], budget: budget)
        // The promise itself: the 1,000th append costs no more than twice the first.
        let growth = await Harness.compare(group: "9", baseline: first, cases: [(last, 2.0)], budget: budget)
        results.append(contentsOf: growth.dropFirst())
        // Issue 25: appending through the composed feed costs at most 1.5× a plain append.
        let layered = await Harness.compare(group: "9", baseline: first, cases: [(composed, 1.5), (pendingEdit, nil)], budget: budget)
        results.append(contentsOf: layered.dropFirst())
        return results
    }
}
