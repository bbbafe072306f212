/// How long a load waits between a failed attempt and the next one.
///
/// ```swift
/// let steady = Backoff.constant(.seconds(1))                                     // 1 s, 1 s, 1 s…
/// let growing = Backoff.exponential(initial: .seconds(1), maximum: .seconds(30))  // 1 s, 2 s, 4 s… at most 30 s
/// ```
///
/// Waits are `Duration` arithmetic, not floating-point seconds: 300 ms
/// doubled is 600 ms exactly, and prints so. An integral multiplier is exact
/// to the attosecond; a fractional one is rounded to the nanosecond.
///
/// Every input has a defined wait and none traps: a negative duration counts
/// as zero, a multiplier below 1 (or not a number) as 1, and a wait that
/// would pass `maximum` — including one too large for a `Duration` — is
/// `maximum`. No wait is longer than about 146 years, the most a clock can
/// be asked to sleep, whatever `maximum` says.
public struct Backoff: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case constant(Duration)
        case exponential(initial: Duration, multiplier: Double, maximum: Duration)
    }

    @usableFromInline let _kind: Kind

    @inlinable
    init(_ kind: Kind) {
        _kind = kind
    }

    /// No wait: the next attempt starts at once.
    public static var none: Backoff { Backoff(.constant(.zero)) }

    /// The same `wait` before every retry.
    public static func constant(_ wait: Duration) -> Backoff {
        Backoff(.constant(wait.clampedForSleeping))
    }

    /// `initial` before the first retry, multiplied by `multiplier` before
    /// each one after, never more than `maximum`.
    public static func exponential(initial: Duration, multiplier: Double = 2, maximum: Duration) -> Backoff {
        let multiplier = multiplier >= 1 ? multiplier : 1 // also catches NaN
        let maximum = maximum.clampedForSleeping
        return Backoff(.exponential(initial: min(max(initial, .zero), maximum), multiplier: multiplier, maximum: maximum))
    }

    /// The wait after attempt `attempt` (counting from 1) failed, before jitter.
    public func wait(after attempt: Int) -> Duration {
        switch _kind {
        case .constant(let wait):
            return wait
        case .exponential(let initial, let multiplier, let maximum):
            // Zero stays zero, whatever the power: multiplied in floating
            // point, a power that overflows made it `0 × ∞`, not a number,
            // which read as the maximum; multiplied whole, it never reached
            // the maximum, and looped once per attempt.
            guard initial > .zero else { return .zero }
            let steps = max(attempt, 1) - 1
            if multiplier == multiplier.rounded(), multiplier <= 0x1p32 {
                return Self.scaled(initial, byWhole: Int64(multiplier), steps: steps, maximum: maximum)
            }
            return Self.scaled(initial, by: multiplier, steps: steps, maximum: maximum)
        }
    }

    /// `initial` multiplied `steps` times by the whole number `factor`, in
    /// exact `Duration` arithmetic, stopping at `maximum` before it could
    /// overflow: at most about 90 multiplications for a factor of 2 or more.
    static func scaled(_ initial: Duration, byWhole factor: Int64, steps: Int, maximum: Duration) -> Duration {
        guard factor > 1 else { return initial }
        var wait = initial
        for _ in 0..<steps {
            guard wait <= maximum / factor else { return maximum }
            wait = wait * factor
        }
        return min(wait, maximum)
    }

    /// `initial` multiplied by `factor` to the power `steps`, rounded to the
    /// nanosecond: the factor's power in floating point (where overflow is
    /// `infinity`, not a trap), applied to the whole nanoseconds of `initial`.
    static func scaled(_ initial: Duration, by factor: Double, steps: Int, maximum: Duration) -> Duration {
        let nanoseconds = initial.nanoseconds * power(factor, steps)
        guard nanoseconds < maximum.nanoseconds, nanoseconds < 0x1p62 else { return maximum }
        return min(.nanoseconds(Int64(nanoseconds.rounded())), maximum)
    }

    /// `base` to the power `exponent` by squaring: a few multiplications even
    /// for a huge `exponent`, and `infinity` rather than a trap when it overflows.
    static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var base = base
        var exponent = exponent
        while exponent > 0, result.isFinite {
            if exponent & 1 == 1 { result *= base }
            base *= base
            exponent >>= 1
        }
        return result
    }

    /// The backoff as written in code, e.g. `exponential(initial: 1.0 seconds, multiplier: 2.0, maximum: 30.0 seconds)`.
    public var description: String {
        switch _kind {
        case .constant(let wait): "constant(\(wait))"
        case .exponential(let initial, let multiplier, let maximum):
            "exponential(initial: \(initial), multiplier: \(multiplier), maximum: \(maximum))"
        }
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in nanoseconds, as a floating-point number: exact below
    /// 2^53 ns (104 days).
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds / 1_000_000_000)
    }
}
