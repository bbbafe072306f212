/// Any clock measured in `Duration`, reading the time elapsed since this
/// `LoadClock` was made — the one clock type every freshness stamp uses.
///
/// Freshness needs the time a value settled, and a reducer must not read a
/// clock. So the load's effect reads it, from the `LoadClock` its request is
/// stamped by (``LoadRequest/stamped(by:)``), and delivers it inside the
/// action (``LoadAction/at(_:_:)``). Wrapping every clock in this one type
/// keeps the clock's own type out of ``Loadable``'s: a `ContinuousClock` in
/// an app, a `TestClock` in tests.
///
/// ```swift
/// let clock = LoadClock(ContinuousClock())
/// let now = clock.now                       // e.g. 12.5 seconds
/// let stale = profile.isStale(maxAge: .seconds(60), at: now)
/// ```
///
/// Instants from two different `LoadClock`s measure from different origins:
/// give one feature one `LoadClock` and pass it everywhere it stamps or asks.
/// It is a `Clock` itself, so retries, timeouts and debounces can sleep on it.
public struct LoadClock: Clock, Sendable {
    /// A point on a `LoadClock`: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// How long after the clock was made this instant is.
        public let offset: Duration

        /// The instant `offset` after the clock was made.
        @inlinable
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later. Both are first clamped to
        /// ±`Int64.max` seconds, so that no sum overflows: a `maxAge` or a
        /// wait of any size has a defined instant — never a trap.
        @inlinable
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset._clampedForArithmetic + duration._clampedForArithmetic)
        }

        /// The time from this instant to `other`, clamped as
        /// ``advanced(by:)`` clamps.
        @inlinable
        public func duration(to other: Instant) -> Duration {
            other.offset._clampedForArithmetic - offset._clampedForArithmetic
        }

        /// Whether `lhs` comes first.
        @inlinable
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, e.g. `1.5 seconds`.
        public var description: String { "\(offset)" }
    }

    /// The base clock, erased — in one reference, so a request or a host
    /// that carries a clock copies one word for it.
    private let base: Base

    private final class Base: Sendable {
        let elapsed: @Sendable () -> Duration
        let sleep: @Sendable (Duration) async throws -> Void

        init(elapsed: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
            self.elapsed = elapsed
            self.sleep = sleep
        }
    }

    /// A clock that reads `base` and sleeps on it; its time starts now, at zero.
    public init<C: Clock>(_ base: C) where C.Duration == Duration {
        let start = base.now
        self.base = Base(elapsed: { start.duration(to: base.now) }, sleep: { try await base.sleep(for: $0) })
    }

    /// A clock whose time is `elapsed()` and which sleeps with `sleep`.
    package init(elapsed: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.base = Base(elapsed: elapsed, sleep: sleep)
    }

    /// The time since this clock was made.
    public var now: Instant { Instant(offset: base.elapsed()) }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps on the base clock until `deadline`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await base.sleep(now.duration(to: deadline).clampedForSleeping)
    }
}

extension Duration {
    /// This duration within ±`Int64.max` seconds (292 billion years): the
    /// sum or difference of two such never overflows `Duration`'s 128 bits,
    /// and every offset and age a screen uses is far inside it.
    @inlinable
    var _clampedForArithmetic: Duration {
        min(max(self, .seconds(-Int64.max)), .seconds(Int64.max))
    }

    /// The longest wait any clock is asked for: about 146 years.
    ///
    /// A `ContinuousClock` converts a wait to nanoseconds in 64 bits and
    /// traps once the deadline passes about 292 years of uptime ("Not enough
    /// bits"), so every wait the package sleeps for — a backoff, a timeout,
    /// a poll, a delay, a debounce — is clamped here first. Nothing a screen
    /// waits for comes near it.
    static var longestSleep: Duration { .nanoseconds(Int64.max / 2) }

    /// This duration, clamped to `0...longestSleep`.
    var clampedForSleeping: Duration { min(max(self, .zero), .longestSleep) }
}

extension Clock {
    /// Sleeps for `duration` clamped as `Duration.clampedForSleeping`
    /// says, when the clock counts in `Duration` as the standard library's
    /// and the package's clocks do. A clock with a duration type of its own
    /// is asked for the wait as given: its range is its own.
    func sleepClamped(for duration: Self.Duration) async throws {
        if let wait = duration as? Swift.Duration, let clamped = wait.clampedForSleeping as? Self.Duration {
            try await sleep(for: clamped)
        } else {
            try await sleep(for: duration)
        }
    }
}
