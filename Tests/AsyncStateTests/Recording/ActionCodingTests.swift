import AsyncState
import Foundation
import Testing

/// The kit's actions in a recording file: each case reads back as the case
/// that was written, so a replay runs the actions the store ran.
@Suite("Actions: encoded and decoded as the case written")
struct ActionCodingTests {
    struct Failure: Error, Equatable, Codable {
        var reason: String
    }

    static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test("every edit action but a start (which needs the edit types) reads back as written")
    func editActions() throws {
        let actions: [EditAction<Int, Failure>] = [
            .confirmed(LoadID(1)), .failed(LoadID(2), Failure(reason: "x")), .cancelled(LoadID(3)),
            .retrying(LoadID(4), LoadRetry(attempt: 1, of: 3, failure: Failure(reason: "y"), wait: .seconds(2))),
        ]
        for action in actions {
            #expect(try Self.roundTrip(action) == action)
        }
    }

    @Test("every cache action but invalidateAll (a closure) reads back as written")
    func cacheActions() throws {
        let now = LoadClock.Instant(offset: .seconds(5))
        let actions: [CacheAction<String, Int, Failure>] = [
            .subscribe("k", at: now), .unsubscribe("k"), .prefetch("k", at: now), .entry("k", .finished(LoadID(1), 7)),
            .invalidate("k"), .refetchStale(at: now), .refetch("k"), .collect("k", token: 9),
        ]
        for action in actions {
            #expect(try "\(Self.roundTrip(action))" == "\(action)")
        }
    }
}
