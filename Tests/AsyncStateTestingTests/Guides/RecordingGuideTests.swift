import AsyncState
import AsyncStateTesting
import Testing

// The code of "Record, replay, minimize and explore" in the "Testing features"
// guide and of the recording types' doc comments, copied verbatim so it is
// known to compile and pass. Change both together.

enum RecordingGuide {
    /// The guide's feature: a search whose newest query wins.
    struct Search: Reducer {
        struct State: Equatable {
            var query = ""
            var results = Loadable<[String], SearchError>()
        }

        enum Action: Equatable, Codable {
            case typed(String)
            case results(LoadAction<[String], SearchError>)
        }

        let fetch: @MainActor @Sendable (String) async throws(SearchError) -> [String]

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .typed(let query):
                state.query = query
                let fetch = fetch
                return state.results.load(Action.results, LoadRequest { () async throws(SearchError) in try await fetch(query) })
            case .results(let load):
                return state.results.reduce(load)
            }
        }
    }

    struct SearchError: Error, Equatable, Codable {
        var message: String
    }

    /// What the guide's app talks to.
    struct SearchAPI {
        var search: @MainActor @Sendable (String) async throws(SearchError) -> [String]
    }

    static let api = SearchAPI(search: { query throws(SearchError) in ["\(query) 1", "\(query) 2"] })

    /// A bug report's attachment: a recording an app wrote.
    @MainActor static let bugReport: String = {
        let recording = Recording(
            replaying: [.typed("s"), .results(.started(LoadID(1))), .results(.finished(LoadID(1), ["s 1"]))], from: Search.State(),
            through: Search(fetch: api.search))
        return try! recording.jsonLines()
    }()

    @Suite("Guide: record, replay, minimize and explore")
    @MainActor
    struct RecordingGuideTests {
        @Test("an app records what its store processes")
        func records() throws {
            let recorder = Recorder<Search.State, Search.Action>()
            let store = Store(initialState: Search.State(), reducer: Search(fetch: api.search))
            store.record(into: recorder)
            store.send(.typed("swift"))
            let recording = recorder.recording // initialState, steps, readings
            #expect(recording?.actions.first == .typed("swift"))
            #expect(recording?.steps.last?.state.results.value == ["swift 1", "swift 2"])
        }

        @Test("a bounded recorder that watches a generator, written as JSON lines")
        func watches() throws {
            let recorder = Recorder<Search.State, Search.Action>(capacity: 500)
            let jitter = recorder.watching(SplitMix64(seed: 1), named: "jitter")
            let store = Store(initialState: Search.State(), reducer: Search(fetch: api.search))
            store.record(into: recorder)
            store.send(.typed("s"))
            let file = try recorder.recording?.jsonLines()
            #expect(file?.hasPrefix(#"{"action":"#) == true)
            _ = jitter
        }

        @Test @MainActor func replaysTheBugReport() throws {
            let transcript = try RecordingTranscript<Search.Action>(jsonLines: bugReport)
            assertReplay(transcript, from: Search.State(), reducer: Search(fetch: { _ in [] }))
        }

        @Test("a replay through a changed reducer fails at the step that differs")
        func replayFails() throws {
            let transcript = try RecordingTranscript<Search.Action>(jsonLines: bugReport)
            withKnownIssue {
                assertReplay(transcript, from: Search.State(query: "other"), reducer: Search(fetch: { _ in [] }))
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains(#"query: "" → "other""#)
            }
        }

        @Test("minimizing a recording to the steps a failure needs")
        func minimizes() throws {
            let recording = Recording(
                replaying: [
                    .typed("s"), .results(.started(LoadID(1))), .typed("sw"), .results(.started(LoadID(2))),
                    .results(.finished(LoadID(1), ["s 1"])), .results(.finished(LoadID(2), [])),
                ], from: Search.State(), through: Search(fetch: api.search))
            let smallest = recording.minimized(through: Search(fetch: { _ in [] })) { $0.steps.last?.state.results.value == [] }
            #expect(smallest.actions == [.results(.started(LoadID(2))), .results(.finished(LoadID(2), []))])
        }

        @Test @MainActor func everyOrdering() async {
            await assertExploration(Search.State(), script: [.typed("s"), .typed("sw")]) { operations in
                Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
            }
        }

        @Test("explore reports the orderings it ran")
        func exploreReport() async {
            let report = await explore(Search.State(), script: [.typed("s"), .typed("sw")]) { operations in
                Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
            }
            // report.orderingCount == 3, report.failure == nil
            #expect(report.orderingCount == 3)
            #expect(report.failure == nil)
        }

        @Test("an invariant of the feature's own, broken in some ordering, fails the test with the ordering")
        func invariantFails() async {
            let nonEmpty = Invariant<Search.State>("results only for a query") { $0.results.value == nil || !$0.query.isEmpty }
            let stillTyping = Invariant<Search.State>("results match the query") { state in
                state.results.value.map { $0.allSatisfy { $0.hasPrefix(state.query) } } ?? true
            }
            await withKnownIssue {
                await assertExploration(Search.State(), script: [.typed("s"), .typed("sw")], invariants: [nonEmpty, stillTyping]) {
                    operations in
                    Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
                }
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return text.contains(#"broke "results match the query""#) && text.contains("Minimized recording")
            }
        }

        // From an outside reading: `explore` took a bound of steps, the
        // assertion did not.
        @Test("the bound of steps an ordering may take reaches the exploration")
        func stepBound() async {
            await withKnownIssue {
                let report = await assertExploration(Search.State(), script: [.typed("s"), .typed("sw")], maximumSteps: 1) { operations in
                    Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
                }
                #expect(report.failure?.message == "the ordering made 1 choices without settling")
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains("without settling")
            }
        }

        @Test("an exploration that reaches its bound of orderings before trying them all fails")
        func orderingBound() async {
            await withKnownIssue {
                let report = await assertExploration(Search.State(), script: [.typed("s"), .typed("sw")], maximumOrderings: 1) {
                    operations in
                    Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
                }
                #expect(!report.isComplete)
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains("stopped at its bound of 1 orderings before trying them all")
            }
        }

        @Test("a broken promise's report counts the minimized recording's steps against the ordering's")
        func minimizedStepCount() async throws {
            let stillTyping = Invariant<Search.State>("results match the query") { state in
                state.results.value.map { $0.allSatisfy { $0.hasPrefix(state.query) } } ?? true
            }
            let report = await explore(Search.State(), script: [.typed("s"), .typed("sw")], invariants: [stillTyping]) { operations in
                Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
            }
            let failure = try #require(report.failure)
            #expect(failure.minimized.steps.count < failure.recording.steps.count)
            let counted = "(\(failure.minimized.steps.count) of \(failure.recording.steps.count) steps"
            await withKnownIssue {
                await assertExploration(Search.State(), script: [.typed("s"), .typed("sw")], invariants: [stillTyping]) { operations in
                    Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
                }
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains(counted)
            }
        }
    }
}
