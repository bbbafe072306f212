import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// Random typing, removing and adding of rows (`forEach`), each of which
/// searches debounced by the one ID every row uses, and of a sheet (`ifLet`)
/// with a row of its own, checked step by step against the reference: a
/// row shows the last query typed into it once 300 ms pass without another,
/// and only while the row — the same row, not one added later under its
/// key — is there. Nothing of a removed child runs on: after every step the
/// store runs exactly two effects per row that waits out a debounce (the
/// concatenation `debounced` makes, and the sleep it waits for).
///
/// Half the sequences run the screen with every effect marked by one more
/// ID (`SearchScreen.marked`), which `.leave` cancels: a mark
/// adds an ID and takes none away, so rows still debounce apart and removal
/// still cancels a row's search.
///
/// Seeded like the other randomized checks: `ASYNCSTATE_SEED` replays a run,
/// `ASYNCSTATE_SEQUENCES` changes how many sequences the check plays.
@Suite("Reliability: a child's effects, randomized", .hangGuard)
@MainActor
struct ChildEffectModelTests {
    /// One row of the reference: what it shows, and the query waiting out
    /// its debounce, due at `due` (in milliseconds on the test clock).
    struct ReferenceRow: Equatable {
        var shown: String?
        var waiting: (query: String, due: Int)?

        static func == (lhs: ReferenceRow, rhs: ReferenceRow) -> Bool {
            lhs.shown == rhs.shown && lhs.waiting?.query == rhs.waiting?.query && lhs.waiting?.due == rhs.waiting?.due
        }
    }

    @Test("1,000 random sequences of typing, removing and adding rows and a sheet agree with the reference")
    func randomized() async {
        // Capped at its own count: CI asks for 10,000 sequences under the
        // thread sanitizer, where each step of real tasks and a store costs
        // ten times as much, and 10,000 took 295 s, the whole sanitized run.
        // There even 1,000 took 172 s, the longest test of that run: it
        // plays 400.
        let run = RandomizedRun(defaultCount: 1_000, maximum: 1_000, sanitizedMaximum: 400)
        var steps = 0
        guard await run.playSequences({ await Self.play(seed: $0, steps: &steps) }) else { return }
        print("child-effect check: \(run.count) sequences, \(steps) steps, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
    }

    static func play(seed: UInt64, steps: inout Int) async -> String? {
        var random = SplitMix64(seed: seed)
        let clock = TestClock()
        let isMarked = Bool.random(using: &random)
        let store =
            isMarked
            ? Store(initialState: SearchScreen.State(rows: [:], pinned: [:]), reducer: SearchScreen.marked(clock: clock))
            : Store(initialState: SearchScreen.State(rows: [:], pinned: [:]), reducer: SearchScreen(clock: clock).composed)
        var rows: [Int: ReferenceRow] = [:]
        var sheet: ReferenceRow?
        var now = 0
        var log: [String] = [isMarked ? "marked" : "unmarked"]
        var queries = 0

        func settle(_ row: inout ReferenceRow) {
            if let waiting = row.waiting, waiting.due <= now { (row.shown, row.waiting) = (waiting.query, nil) }
        }

        let length = Int.random(in: 1...24, using: &random)
        for _ in 0..<length {
            steps += 1
            let key = Int.random(in: 1...3, using: &random)
            queries += 1
            let query = "q\(queries)"
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                log.append("type \(query) in row \(key)")
                store.send(.row(key, .typed(query)))
                rows[key]?.waiting = (query, now + 300)
            case 30..<42:
                log.append("remove row \(key)")
                store.send(.remove(key))
                rows[key] = nil
            case 42..<54:
                log.append("add row \(key)")
                store.send(.add(key))
                // Over a row already there, a new state for the same row:
                // what it showed is gone, what waits goes on.
                rows[key] = ReferenceRow(shown: nil, waiting: rows[key]?.waiting)
            case 54..<58:
                log.append("remove and add back row \(key)")
                store.send(.replace(key))
                // The same row to the reducer: what waits goes on, what was
                // shown is gone with the old state.
                rows[key] = ReferenceRow(shown: nil, waiting: rows[key]?.waiting)
            case 58..<64:
                log.append("type \(query) in the sheet")
                store.send(.sheet(.row(1, .typed(query))))
                sheet?.waiting = (query, now + 300)
            case 64..<70:
                log.append("present the sheet")
                store.send(.present)
                // Presenting replaces a sheet already there: its row is new,
                // but its search, to the reducer, the same sheet's.
                sheet = ReferenceRow(shown: nil, waiting: sheet?.waiting)
            case 70..<76:
                log.append("dismiss the sheet")
                store.send(.dismiss)
                sheet = nil
            case 76..<80:
                log.append("leave the screen")
                store.send(.leave)
                // Only the marked screen cancels what waits.
                if isMarked {
                    for key in rows.keys { rows[key]!.waiting = nil }
                    sheet?.waiting = nil
                }
            default:
                let step = [100, 200, 300][Int.random(in: 0..<3, using: &random)]
                log.append("advance \(step) ms")
                // Every debounce must be asleep before the clock moves.
                _ = await store.waitUntilIdle(on: clock)
                clock.advance(by: .milliseconds(step))
                now += step
                for key in rows.keys { settle(&rows[key]!) }
                if sheet != nil { settle(&sheet!) }
            }
            guard await store.waitUntilIdle(on: clock) else { return "the store never settled after: \(log)" }
            for key in 1...3 {
                let shown = store.state.rows[key].map { $0.results.value }
                let expected = rows[key].map(\.shown)
                if shown != expected {
                    return "row \(key) shows \(String(describing: shown)), expected \(String(describing: expected)), after: \(log)"
                }
            }
            let sheetShown = store.state.sheet.map { $0.rows[1]?.results.value }
            if sheetShown != sheet.map(\.shown) {
                return "the sheet shows \(String(describing: sheetShown)), expected \(String(describing: sheet?.shown)), after: \(log)"
            }
            let waiting = rows.values.filter { $0.waiting != nil }.count + (sheet?.waiting == nil ? 0 : 1)
            if store.runningEffectCount != 2 * waiting {
                return "\(store.runningEffectCount) effects run, \(waiting) debounces wait, after: \(log)"
            }
        }
        return nil
    }
}
