import AsyncState
import AsyncStateControls
import Testing

/// What the explorer's checks take for a broken promise, from an outside
/// reading that found three false reports and one missed state.
@Suite("Exploring: what counts as a broken promise")
@MainActor
struct ExplorerCheckTests {
    /// A booking whose failure may hold a cancellation, or only name one.
    enum BookingError: Error, Equatable, Sendable {
        case named(String)
        case interrupted(Interruption)
    }

    /// A cancellation caught and kept as the failure's cause.
    struct Interruption: Equatable, Sendable {
        var cause = CancellationError()
        static func == (lhs: Self, rhs: Self) -> Bool { true }
    }

    struct Booking: Reducer {
        struct State: Equatable {
            var booking = Loadable<String, BookingError>()
        }

        enum Action: Equatable {
            case book
            case booked(LoadAction<String, BookingError>)
        }

        let book: @MainActor @Sendable () async throws(BookingError) -> String

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .book:
                let book = book
                return state.booking.load(Action.booked, LoadRequest { () async throws(BookingError) in try await book() })
            case .booked(let load):
                return state.booking.reduce(load)
            }
        }
    }

    func booking(failingWith failure: BookingError) async -> ExplorationReport<Booking.State, Booking.Action> {
        await explore(Booking.State(), script: [.book]) { operations in
            let book = operations.operation("book") { _ in Result<String, BookingError>.failure(failure) }
            return Booking(book: { () async throws(BookingError) in try await book() })
        }
    }

    @Test("a failure that only names a cancellation is a failure like any other")
    func failureNamingCancellation() async {
        let report = await booking(failingWith: .named("bookingCancellationError"))
        #expect(report.failure == nil)
    }

    @Test("a failure that holds a cancellation breaks \"cancellation is never failure\"")
    func failureHoldingCancellation() async throws {
        let report = await booking(failingWith: .interrupted(Interruption()))
        let failure = try #require(report.failure)
        #expect(failure.invariant == "cancellation is never failure")
    }

    @Test("a late result a reducer lets go by, changing nothing, is not a stale result that won")
    func lateResultIgnored() async {
        let report = await explore(SearchFeature.State(), script: [.search("s"), .cancel]) { operations in
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            var feature = SearchFeature(fetch: { _ throws(SearchFailure) in try await fetch() })
            feature.ignoresCancelled = true
            return feature
        }
        #expect(report.failure == nil)
    }

    @Test("an initial state that breaks an invariant is reported, and minimizes to no step")
    func initialStateChecked() async throws {
        let named = Invariant<SearchFeature.State>("a query is never empty") { !$0.query.isEmpty }
        let report = await explore(SearchFeature.State(), script: [], invariants: [named]) { operations in
            SearchFeature(fetch: { _ throws(SearchFailure) in "-" })
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "a query is never empty")
        #expect(failure.message == "the initial state breaks it")
        #expect(failure.minimized.actions.isEmpty)
    }

    // From a mutation round: a minimization that did not check the initial
    // state passed, since the test above has no step to shrink.
    @Test("an initial state that breaks an invariant minimizes to no step, whatever steps followed")
    func initialStateMinimizesPastSteps() async throws {
        let named = Invariant<SearchFeature.State>("a query is never empty") { !$0.query.isEmpty }
        let report = await explore(SearchFeature.State(), script: [.search("s")], invariants: [named]) { operations in
            let fetch = operations.operation("fetch") { call in Result<String, SearchFailure>.success("r\(call)") }
            return SearchFeature(fetch: { _ throws(SearchFailure) in try await fetch() })
        }
        let failure = try #require(report.failure)
        #expect(failure.message == "the initial state breaks it")
        #expect(!failure.recording.actions.isEmpty)
        #expect(failure.minimized.actions.isEmpty)
    }

    /// Late results kept in a log the state's `==` ignores: it compares
    /// the results only.
    struct IgnoredLog: ExplorerTests.LateResultLog {
        var results = Loadable<String, SearchFailure>()
        var late: [String] = []

        mutating func noteLate(_ value: String) { late.append(value) }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.results == rhs.results }
    }

    @Test("a stale result written where the state's == does not look is caught")
    func staleResultPastEquality() async {
        #expect(await ExplorerTests.staleVerdict(IgnoredLog.self) == "no stale result wins")
    }

    @Test("minimizing a property that holds of no step at all gives no step")
    func minimizesToNothing() {
        let recording = Recording(
            replaying: [.search("a"), .search("b")], from: SearchFeature.State(), through: SearchFeature(fetch: { _ in "-" }))
        let minimized = recording.minimized(through: SearchFeature(fetch: { _ in "-" })) { _ in true }
        #expect(minimized.actions.isEmpty)
    }
}
