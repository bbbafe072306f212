/// What a ``LoadAction/retrying(_:_:)`` action reports: which attempt
/// failed, how, and how long the load waits before the next one.
///
/// A screen can render it as "Retrying (2 of 3) in 4 s…": the next attempt is
/// `attempt + 1` of `attempts`, after `wait`.
public struct LoadRetry<Failure: Equatable>: Equatable {
    /// The attempt that failed, counting from 1.
    @inlinable public var attempt: Int { _storage.attempt }
    /// How many attempts the load's ``RetryPolicy`` allows in all.
    @inlinable public var attempts: Int { _storage.attempts }
    /// Why the attempt failed.
    @inlinable public var failure: Failure { _storage.failure }
    /// How long the load waits before the next attempt.
    @inlinable public var wait: Duration { _storage.wait }

    // One reference, not four fields: inline, the report made every
    // `LoadAction` larger (a `.finished` 16 → 30 ns), and as an `indirect`
    // payload it was copied and destroyed through generic value witnesses.
    // A class holding it is copied with a retain (BENCHMARKS.md, step 19).
    @usableFromInline let _storage: Storage

    /// Creates the report of a failed `attempt` out of `attempts`, followed by `wait`.
    @inlinable
    public init(attempt: Int, of attempts: Int, failure: Failure, wait: Duration) {
        _storage = Storage(attempt: attempt, attempts: attempts, failure: failure, wait: wait)
    }

    /// The attempt that follows: `attempt + 1`, or `Int.max` for a report
    /// that says `Int.max` (one read from a file, say), which has no next.
    @inlinable
    var _nextAttempt: Int { attempt < .max ? attempt + 1 : .max }

    /// Equal when every field is.
    @inlinable
    public static func == (lhs: LoadRetry, rhs: LoadRetry) -> Bool {
        lhs._storage === rhs._storage
            || (lhs.attempt == rhs.attempt && lhs.attempts == rhs.attempts && lhs.failure == rhs.failure
                && lhs.wait == rhs.wait)
    }

    /// The fields, never changed after `init`.
    @usableFromInline
    final class Storage {
        @usableFromInline let attempt: Int
        @usableFromInline let attempts: Int
        @usableFromInline let failure: Failure
        @usableFromInline let wait: Duration

        @inlinable
        init(attempt: Int, attempts: Int, failure: Failure, wait: Duration) {
            self.attempt = attempt
            self.attempts = attempts
            self.failure = failure
            self.wait = wait
        }
    }
}

extension LoadRetry: Hashable where Failure: Hashable {
    /// Hashes the four fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(attempt)
        hasher.combine(attempts)
        hasher.combine(failure)
        hasher.combine(wait)
    }
}

extension LoadRetry: Sendable where Failure: Sendable {}
// Why `@unchecked Sendable` is safe: every field is a `let`, set in `init`
// and never changed, so threads that share the object only read it; and it
// is `Sendable` only when the failure it holds is.
extension LoadRetry.Storage: @unchecked Sendable where Failure: Sendable {}

extension LoadRetry: CustomReflectable {
    /// The four fields, as if stored in the report itself.
    public var customMirror: Mirror {
        Mirror(self, children: ["attempt": attempt, "attempts": attempts, "failure": failure, "wait": wait])
    }
}

extension LoadRetry: CustomStringConvertible {
    /// A short form such as `attempt 1 of 3 failed: offline; next in 2 seconds`.
    public var description: String {
        "attempt \(attempt) of \(attempts) failed: \(describeValue(failure)); next in \(wait)"
    }
}
