/// How long a load waits between a failed attempt and the next one.
///
/// ```swift
/// Backoff.constant(.seconds(1))                                     // 1 s, 1 s, 1 s…
/// Backoff.exponential(initial: .seconds(1), maximum: .seconds(30))  // 1 s, 2 s, 4 s… at most 30 s
/// ```
///
/// Every input has a defined wait and none traps: a negative duration counts
/// as zero, a multiplier below 1 (or not a number) as 1, and a wait that
/// would pass `maximum` — including one too large for a `Duration` — is
/// `maximum`.
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
        Backoff(.constant(max(wait, .zero)))
    }

    /// `initial` before the first retry, multiplied by `multiplier` before
    /// each one after, never more than `maximum`.
    public static func exponential(initial: Duration, multiplier: Double = 2, maximum: Duration) -> Backoff {
        let multiplier = multiplier >= 1 ? multiplier : 1 // also catches NaN
        let maximum = max(maximum, .zero)
        return Backoff(.exponential(initial: min(max(initial, .zero), maximum), multiplier: multiplier, maximum: maximum))
    }

    /// The wait after attempt `attempt` (counting from 1) failed, before jitter.
    public func wait(after attempt: Int) -> Duration {
        switch _kind {
        case .constant(let wait):
            return wait
        case .exponential(let initial, let multiplier, let maximum):
            // Computed in floating point, where overflow is `infinity` rather
            // than a trap, and capped before it becomes a `Duration` again.
            let seconds = initial.seconds * Self.power(multiplier, max(attempt, 1) - 1)
            return seconds < maximum.seconds ? min(.seconds(seconds), maximum) : maximum
        }
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
}
