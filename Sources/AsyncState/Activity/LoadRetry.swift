/// What a ``LoadAction/retrying(_:_:)`` action reports: which attempt
/// failed, how, and how long the load waits before the next one.
///
/// A screen can render it as "Retrying (2 of 3) in 4 s…": the next attempt is
/// `attempt + 1` of `attempts`, after `wait`.
public struct LoadRetry<Failure: Equatable>: Equatable {
    /// The attempt that failed, counting from 1.
    public let attempt: Int
    /// How many attempts the load's ``RetryPolicy`` allows in all.
    public let attempts: Int
    /// Why the attempt failed.
    public let failure: Failure
    /// How long the load waits before the next attempt.
    public let wait: Duration

    /// Creates the report of a failed `attempt` out of `attempts`, followed by `wait`.
    @inlinable
    public init(attempt: Int, of attempts: Int, failure: Failure, wait: Duration) {
        self.attempt = attempt
        self.attempts = attempts
        self.failure = failure
        self.wait = wait
    }
}

extension LoadRetry: Hashable where Failure: Hashable {}
extension LoadRetry: Sendable where Failure: Sendable {}

extension LoadRetry: CustomStringConvertible {
    /// A short form such as `attempt 1 of 3 failed: offline; next in 2 seconds`.
    public var description: String {
        "attempt \(attempt) of \(attempts) failed: \(describeValue(failure)); next in \(wait)"
    }
}
