import AsyncState
import AsyncStateControls

/// The demo's pretend backend: every call waits a seeded, random latency on
/// the given clock and may fail, so runs are reproducible from a seed.
public struct DemoAPI: Sendable {
    /// Why a request failed.
    public enum Failure: Error, Equatable, Sendable, Codable, CustomStringConvertible {
        case offline
        case serverError

        public var description: String {
            switch self {
            case .offline: "offline"
            case .serverError: "server error"
            }
        }
    }

    private let wire: Wire

    /// Creates an API whose answers travel over `wire`.
    public init(wire: Wire) {
        self.wire = wire
    }

    /// Creates an API that waits on `clock`; see ``Network`` for latency and failures.
    public init(clock: any Clock<Duration>, network: Network) {
        self.init(wire: Wire(clock: clock, network: network))
    }

    /// Creates an API whose requests each wait until an explorer answers
    /// them (`explore` in `AsyncStateControls`), so it can try every order
    /// in which they come back; see ``Wire/init(answering:failing:)``.
    public init(answering operations: ControlledOperations, failing: [String: Set<Int>] = [:]) {
        self.init(wire: Wire(answering: operations, failing: failing))
    }

    /// The signed-in user's name and where they are; `visit` counts the
    /// loads, so a reload brings back something new.
    @MainActor
    public func profile(visit: Int) async throws(Failure) -> String {
        let cities = ["Singapore", "Tokyo", "Lisbon", "Montréal"]
        return try await respond(to: "profile") { "Lee Wong · \(cities[(visit - 1) % cities.count])" }
    }

    /// A user's name and the revision of their profile the server holds.
    @MainActor
    public func user(_ id: Int, revision: Int) async throws(Failure) -> String {
        let names = [7: "Lee Wong", 8: "Ana Souza"]
        return try await respond(to: "user") { "\(names[id] ?? "user \(id)") r\(revision)" }
    }

    /// The newest posts; `version` changes what a refresh brings back.
    @MainActor
    public func feed(version: Int) async throws(Failure) -> [String] {
        try await respond(to: "feed") {
            (1...3).map { "post \((version - 1) * 3 + $0)" }
        }
    }

    /// Search results for `query`. Broad (short) queries match more and are
    /// slower, as on a real server — which is how old answers arrive late.
    @MainActor
    public func search(_ query: String) async throws(Failure) -> SearchResults {
        let breadth = Double(max(1, 6 - min(query.count, 5))) / 2
        return try await respond(to: "search", slowdown: breadth) {
            let words = ["swift", "swiftui", "switch", "swim", "sweet", "sword", "async", "actor", "await"]
            return SearchResults(query: query, hits: words.filter { $0.hasPrefix(query.lowercased()) })
        }
    }

    /// Saves a document; returns the saved revision.
    @MainActor
    public func save(_ revision: Int) async throws(Failure) -> Int {
        try await respond(to: "save") { revision }
    }

    /// Deletes a draft; returns how many drafts were removed.
    @MainActor
    public func deleteDraft() async throws(Failure) -> Int {
        try await respond(to: "delete") { 1 }
    }

    /// The inbox: a few subjects; `visit` changes what a reload brings back.
    @MainActor
    public func inbox(visit: Int) async throws(Failure) -> [String] {
        try await respond(to: "inbox") { ["re: visit \(visit)", "weekly digest"] }
    }

    /// The catalogue's matches for `query`, in pages that arrive one by one,
    /// each after a seeded latency. Broad queries have more pages.
    @MainActor
    public func catalogPages(_ query: String) -> CatalogPages {
        let words = ["swift", "swiftui", "switch", "swim", "sweet", "sword", "swan", "swap", "sway"]
        let hits = words.filter { $0.hasPrefix(query.lowercased()) }
        let pages = stride(from: 0, to: hits.count, by: 2).map { Array(hits[$0..<min($0 + 2, hits.count)]) }
        return CatalogPages(pages: pages, deliveries: pages.map { _ in wire.delivery(for: "catalog") })
    }

    @MainActor
    private func respond<Value>(to request: String, slowdown: Double = 1, _ value: () -> Value) async throws(Failure) -> Value {
        try await wire.respond(to: request, slowdown: slowdown)
        return value()
    }
}

/// Results of one search, printed compactly in the timeline.
public struct SearchResults: Equatable, Sendable, Codable, CustomStringConvertible {
    public var query: String
    public var hits: [String]

    public init(query: String, hits: [String]) {
        self.query = query
        self.hits = hits
    }

    public var description: String { "\(hits.count) hits for \(query.debugDescription)" }
}

/// The pages of a catalogue search: an `AsyncSequence` that waits for each
/// page's delivery, then yields it (or throws its failure).
public struct CatalogPages: AsyncSequence, Sendable {
    public typealias Element = [String]

    let pages: [[String]]
    let deliveries: [Delivery]

    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let pages: CatalogPages
        var index = 0

        public mutating func next() async throws -> [String]? {
            guard index < pages.pages.count else { return nil }
            defer { index += 1 }
            try await pages.deliveries[index].arrive()
            return pages.pages[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: self)
    }
}
