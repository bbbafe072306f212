/// Any `Clock` measured in `Duration`, seen as the time elapsed since this
/// adapter was made — so ``Cache`` can take `some Clock<Duration>` (a
/// `ContinuousClock` in an app, a test clock in tests) without making the
/// clock's type part of its own.
@usableFromInline
struct ElapsedClock: Clock {
    @usableFromInline
    struct Instant: InstantProtocol, CustomStringConvertible {
        @usableFromInline let offset: Duration

        @usableFromInline
        init(offset: Duration) { self.offset = offset }

        @usableFromInline
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        @usableFromInline
        func duration(to other: Instant) -> Duration { other.offset - offset }

        @usableFromInline
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        @usableFromInline
        var description: String { "\(offset)" }
    }

    private let elapsed: @Sendable () -> Duration
    private let sleepFor: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ base: C) where C.Duration == Duration {
        let start = base.now
        elapsed = { start.duration(to: base.now) }
        sleepFor = { try await base.sleep(for: $0) }
    }

    @usableFromInline
    var now: Instant { Instant(offset: elapsed()) }

    @usableFromInline
    var minimumResolution: Duration { .nanoseconds(1) }

    @usableFromInline
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await sleepFor(now.duration(to: deadline))
    }
}
