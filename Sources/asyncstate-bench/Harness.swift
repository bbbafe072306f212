/// A small benchmark harness: each case runs interleaved with its baseline in
/// the same process, several times, and reports the median and range of
/// nanoseconds per operation.

/// Values the optimizer must not delete. Every case folds its results in here;
/// the total is printed at the end.
@MainActor var checksum: UInt64 = 0

@MainActor @inline(never)
func consume(_ value: Int) {
    checksum = checksum &+ UInt64(truncatingIfNeeded: value)
}

/// How much work each measurement does.
struct Budget {
    var runs: Int
    var scale: Double

    /// `base` iterations, scaled down for `--quick`, at least 1.
    func iterations(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

    /// The same total work in `factor` times as many, shorter runs — for cases
    /// timed through thread wake-ups, whose speed drifts within a run.
    func finer(_ factor: Int) -> Budget { Budget(runs: runs * factor, scale: scale / Double(factor)) }
}

/// Nanoseconds per operation over several runs.
struct Sample {
    var values: [Double]

    var median: Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var min: Double { values.min() ?? 0 }
    var max: Double { values.max() ?? 0 }
}

/// One line of the report.
struct Result {
    var group: String
    var name: String
    var sample: Sample
    /// The baseline's name, when this is not itself a baseline.
    var baselineName: String?
    /// This case's time over the baseline's in each round; the reported ratio
    /// is their median. Pairing runs that were measured next to each other
    /// cancels the machine's drift between rounds.
    var roundRatios: [Double] = []
    /// The ratio the issue sets as the target, if any.
    var target: Double?
    /// Shown instead of ns/op, for non-timing results (memory).
    var text: String?

    var ratio: Double? { roundRatios.isEmpty ? nil : Sample(values: roundRatios).median }
}

/// Something measured: `body(n, stopwatch)` performs `n` operations and
/// returns a value to consume. A body with setup or teardown calls
/// `stopwatch.start()` and `stop()` around the operations; otherwise the whole
/// body is timed.
struct Measured {
    var name: String
    var iterations: Int
    var body: @MainActor (Int, Stopwatch) async -> Int

    init(name: String, iterations: Int, body: @escaping @MainActor (Int, Stopwatch) async -> Int) {
        self.name = name
        self.iterations = iterations
        self.body = body
    }

    init(name: String, iterations: Int, body: @escaping @MainActor (Int) async -> Int) {
        self.init(name: name, iterations: iterations) { n, _ in await body(n) }
    }
}

/// Times the parts of a benchmark between `start()` and `stop()`, added up:
/// a body may time several batches, with untimed setup between them. A
/// second `stop()` without a `start()` changes nothing.
@MainActor
final class Stopwatch {
    private let clock = ContinuousClock()
    private var started: ContinuousClock.Instant?
    private(set) var elapsed: Duration?

    func start() { started = clock.now }

    func stop() {
        guard let started else { return }
        elapsed = (elapsed ?? .zero) + started.duration(to: clock.now)
        self.started = nil
    }

    /// Adds `duration` to the time measured — for bodies that time many short
    /// stretches between untimed setup, instead of one `start()`/`stop()`.
    func add(_ duration: Duration) {
        elapsed = (elapsed ?? .zero) + duration
    }
}

@MainActor
enum Harness {
    /// Runs `baseline` and `cases` alternately, `budget.runs` times after one
    /// warm-up round, and returns one result per case (baseline first).
    static func compare(
        group: String,
        baseline: Measured,
        cases: [(Measured, target: Double?)],
        budget: Budget
    ) async -> [Result] {
        let all = [baseline] + cases.map(\.0)
        var samples = Array(repeating: Sample(values: []), count: all.count)
        for round in 0...budget.runs {
            for (index, measured) in all.enumerated() {
                let nanoseconds = await time(measured)
                if round > 0 { samples[index].values.append(nanoseconds) }
            }
        }
        var results = [Result(group: group, name: baseline.name, sample: samples[0], baselineName: nil, target: nil)]
        for (offset, entry) in cases.enumerated() {
            let sample = samples[offset + 1]
            results.append(
                Result(
                    group: group, name: entry.0.name, sample: sample,
                    baselineName: baseline.name,
                    roundRatios: zip(sample.values, samples[0].values).map { $0 / $1 },
                    target: entry.target
                ))
        }
        return results
    }

    /// Nanoseconds per operation of one run.
    static func time(_ measured: Measured) async -> Double {
        let clock = ContinuousClock()
        let stopwatch = Stopwatch()
        let start = clock.now
        let value = await measured.body(measured.iterations, stopwatch)
        let elapsed = stopwatch.elapsed ?? start.duration(to: clock.now)
        consume(value)
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return nanoseconds / Double(measured.iterations)
    }
}
