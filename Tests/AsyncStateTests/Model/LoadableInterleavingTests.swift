import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// For any order in which overlapping loads report back, the newest started
/// load decides the outcome and nothing stale is ever applied.
@Suite("Loadable: random interleavings")
struct LoadableInterleavingTests {
    enum Outcome: CaseIterable { case finish, fail, cancel }

    @Test("all loads start, then report in a random order", arguments: [1, 2, 3, 4, 5, 8])
    func startThenReport(loads: Int) {
        var random = SplitMix64(seed: UInt64(loads) * 7919)
        for _ in 0..<2_000 {
            let initial = Bool.random(using: &random) ? Resource(value: -1) : Resource()
            var resource = initial
            for n in 1...loads { _ = resource.apply(.started(id(UInt64(n)))) }
            let outcomes = (1...loads).map { _ in Outcome.allCases.randomElement(using: &random)! }
            let order = (1...loads).shuffled(using: &random)
            for n in order {
                let action = report(n, outcomes[n - 1])
                let disposition = resource.apply(action)
                #expect(disposition == (n == loads ? .applied : .dropped), "\(action) in order \(order)")
            }
            let expected: AsyncState<Int, TestError> =
                switch outcomes[loads - 1] {
                case .finish: .success(value: loads)
                case .fail: .error(error: .offline)
                case .cancel: initial.state
                }
            #expect(resource.state == expected, "outcomes \(outcomes), order \(order)")
            #expect(!resource.isLoading)
        }
    }

    @Test("starts and reports interleave at random")
    func interleaved() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<5_000 {
            var resource = Resource()
            // What an independent model expects: the newest start, and the
            // settled state to return to.
            var newest = 0
            var inFlight: Int?
            var settled: AsyncState<Int, TestError> = .notLoaded
            var lastValue: Int?
            var pending: [Int] = []
            var started = 0
            let total = Int.random(in: 1...6, using: &random)
            while started < total || !pending.isEmpty {
                if started < total, pending.isEmpty || Bool.random(using: &random) {
                    started += 1
                    _ = resource.apply(.started(id(UInt64(started))))
                    newest = started
                    inFlight = started
                    pending.append(started)
                    continue
                }
                let n = pending.remove(at: Int.random(in: 0..<pending.count, using: &random))
                let outcome = Outcome.allCases.randomElement(using: &random)!
                let disposition = resource.apply(report(n, outcome))
                let shouldApply = n == newest && inFlight == n
                #expect(disposition == (shouldApply ? .applied : .dropped))
                guard shouldApply else { continue }
                inFlight = nil
                switch outcome {
                case .finish: settled = .success(value: n); lastValue = n
                case .fail: settled = .error(error: .offline)
                case .cancel: break
                }
                #expect(resource.state == settled)
                #expect(resource.value == lastValue)
            }
            #expect(!resource.isLoading)
            #expect(resource.state == settled)
        }
    }

    private func report(_ n: Int, _ outcome: Outcome) -> LoadAction<Int, TestError> {
        switch outcome {
        case .finish: .finished(id(UInt64(n)), n)
        case .fail: .failed(id(UInt64(n)), .offline)
        case .cancel: .cancelled(id(UInt64(n)))
        }
    }
}
