import AsyncState
import AsyncStateTestSupport
import Foundation
import Testing

@Suite("LoadClock.Instant: encoded, decoded, and refused past what a clock reads")
struct InstantCodingTests {
    static func decoded(_ offset: Duration) throws -> LoadClock.Instant {
        try JSONDecoder().decode(LoadClock.Instant.self, from: JSONEncoder().encode(offset))
    }

    @Test(
        "an instant reads back as written, up to Int64.max seconds either way",
        arguments: [
            Duration.zero, .seconds(90), .nanoseconds(-1), .seconds(Int64.max), .seconds(Int64.min),
        ])
    func roundTrip(offset: Duration) throws {
        #expect(try Self.decoded(offset) == LoadClock.Instant(offset: offset))
    }

    // From an outside reading: a recording whose `.at` stamp held such an
    // instant was read, and the reducer's staleness check trapped on it.
    @Test(
        "an instant further out is a decoding error, not a staleness check that traps",
        arguments: [
            Duration.seconds(Int64.max) * 16, .seconds(Int64.min) * 16, .seconds(Int64.max) + .nanoseconds(1),
        ])
    func refused(offset: Duration) {
        #expect(throws: DecodingError.self) { try Self.decoded(offset) }
    }

    @Test("the staleness rule holds at the furthest instant that reads")
    func stalenessAtTheEdge() throws {
        var value = Loadable<Int, TestError>()
        _ = value.apply(.started(LoadID(1)))
        let furthest = try Self.decoded(.seconds(Int64.max))
        _ = value.apply(.at(furthest, .finished(LoadID(1), 5)))
        #expect(!value.isStale(maxAge: .seconds(Int64.max) * 8, at: furthest))
        #expect(value.isStale(maxAge: .seconds(1), at: furthest.advanced(by: .seconds(1))))
    }
}
