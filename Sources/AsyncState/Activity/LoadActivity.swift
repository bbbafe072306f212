/// Why a load is running and which attempt it is on: what a screen needs to
/// tell a first load from a refresh from a retry after a failure, without
/// keeping flags of its own.
///
/// ``Loadable/activity`` holds one while a load is in flight, beside the
/// five-case ``AsyncState``:
///
/// ```swift
/// if let activity = feed.activity, let wait = activity.wait, let attempts = activity.attempts {
///     banner = "Retrying (\(activity.attempt) of \(attempts)) after \(wait)…"
/// } else if feed.activity?.reason == .retryAfterFailure, let failure = feed.activity?.lastFailure {
///     banner = "Trying again after \(failure)…"
/// }
/// ```
///
/// Whether content is on screen is ``Loadable/value``'s to say; the reason is
/// about the chain of loads, which a newer load that supersedes the one in
/// flight continues.
public struct LoadActivity<Failure: Equatable>: Equatable {
    /// What the state was when the chain of loads in flight began.
    public enum Reason: Hashable, Sendable {
        /// Nothing was loaded: a screen shows a skeleton.
        case firstLoad
        /// A value was shown and stays shown while the load runs.
        case refresh
        /// The last load failed; its failure stays readable in ``lastFailure``
        /// until this one settles. A value may still be shown.
        case retryAfterFailure
        /// A paged list loads the page after the last one shown (its more
        /// lane); after a failed "load more" the reason is
        /// ``retryAfterFailure``.
        case nextPage
    }

    /// Why the load is running.
    public let reason: Reason
    /// The attempt running or about to run, counting from 1.
    public let attempt: Int
    /// How many attempts the load's ``RetryPolicy`` allows, known from the
    /// start (``LoadAction/planned(_:attempts:)``); `nil` for a load without
    /// a retry policy.
    public let attempts: Int?
    /// How long the load waits (or waited) before this attempt; `nil` for the first.
    /// It stays through the attempt: no action marks the moment a wait ends,
    /// so a banner says "after" the wait, which holds in both.
    public let wait: Duration?
    /// The failure of the previous attempt, or — for the first attempt of a
    /// ``Reason/retryAfterFailure`` — the failure the load started from.
    public let lastFailure: Failure?

    /// An activity with these fields — for expected values in tests, and
    /// previews.
    @inlinable
    public init(reason: Reason, attempt: Int = 1, attempts: Int? = nil, wait: Duration? = nil, lastFailure: Failure? = nil) {
        self.reason = reason
        self.attempt = attempt
        self.attempts = attempts
        self.wait = wait
        self.lastFailure = lastFailure
    }

    /// The activity of a chain of loads that begins at `settled`.
    @inlinable
    package init<Value: Equatable>(startingFrom settled: AsyncState<Value, Failure>, hasValue: Bool) {
        if case .error(let failure) = settled {
            self.init(LoadAttempts(startingAfterFailure: true, hasValue: hasValue), lastFailure: failure)
        } else {
            self.init(LoadAttempts(startingAfterFailure: false, hasValue: hasValue), lastFailure: nil)
        }
    }

    /// This activity once `retry` is reported: on to the next attempt.
    @inlinable
    func retrying(_ retry: LoadRetry<Failure>) -> LoadActivity {
        LoadActivity(reason: reason, attempt: retry._nextAttempt, attempts: retry.attempts, wait: retry.wait, lastFailure: retry.failure)
    }

    /// This activity once the load says how many attempts it makes.
    @inlinable
    func planning(_ attempts: Int) -> LoadActivity {
        LoadActivity(reason: reason, attempt: attempt, attempts: attempts, wait: wait, lastFailure: lastFailure)
    }

    /// Whether this is a second or later attempt of the same load.
    @inlinable
    public var isRetry: Bool { attempt > 1 }
}

extension LoadActivity {
    /// The activity `attempts` describes, after `lastFailure`.
    @inlinable
    init(_ attempts: LoadAttempts<Failure>, lastFailure: Failure?) {
        self.init(
            reason: attempts.reason, attempt: attempts.attempt, attempts: attempts.attempts, wait: attempts.wait,
            lastFailure: lastFailure)
    }
}

/// What a ``LoadActivity`` says but its last failure: why the load runs,
/// which attempt of how many, and the wait before it — plain data, which
/// copies inline whatever the failure holds (see `Loadable._attempts`).
@usableFromInline
struct LoadAttempts<Failure: Equatable>: Equatable, Sendable {
    @usableFromInline let reason: LoadActivity<Failure>.Reason
    @usableFromInline let attempt: Int
    @usableFromInline let attempts: Int?
    @usableFromInline let wait: Duration?

    @inlinable
    init(reason: LoadActivity<Failure>.Reason, attempt: Int = 1, attempts: Int? = nil, wait: Duration? = nil) {
        self.reason = reason
        self.attempt = attempt
        self.attempts = attempts
        self.wait = wait
    }

    /// The first attempt of a chain of loads, which begins after a failure
    /// or not, with a value shown or not.
    @inlinable
    init(startingAfterFailure failed: Bool, hasValue: Bool) {
        self.init(reason: failed ? .retryAfterFailure : hasValue ? .refresh : .firstLoad)
    }

    /// The attempts of `activity`.
    @inlinable
    init(_ activity: LoadActivity<Failure>) {
        self.init(reason: activity.reason, attempt: activity.attempt, attempts: activity.attempts, wait: activity.wait)
    }

    /// These attempts once `retry` is reported: on to the next one.
    @inlinable
    func retrying(_ retry: LoadRetry<Failure>) -> LoadAttempts {
        LoadAttempts(reason: reason, attempt: retry._nextAttempt, attempts: retry.attempts, wait: retry.wait)
    }

    /// These attempts once the load says how many it makes.
    @inlinable
    func planning(_ attempts: Int) -> LoadAttempts {
        LoadAttempts(reason: reason, attempt: attempt, attempts: attempts, wait: wait)
    }
}

extension LoadActivity: Hashable where Failure: Hashable {}
extension LoadActivity: Sendable where Failure: Sendable {}

extension LoadActivity: CustomStringConvertible {
    /// A short form such as `refresh, attempt 2 of 3 after 1 seconds (last failure: offline)`.
    public var description: String {
        var text = "\(reason), attempt \(attempt)"
        if let attempts { text += " of \(attempts)" }
        if let wait { text += " after \(wait)" }
        if let lastFailure { text += " (last failure: \(describeValue(lastFailure)))" }
        return text
    }
}
