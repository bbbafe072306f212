/// Any error, made `Equatable` so it can be an ``AsyncState/AsyncState`` failure — the
/// convenient choice when a load throws untyped errors.
///
/// `AnyError` is an `Error` itself, so code written for `any Error` — a
/// Statable user's `Banner(_ error: any Error)` — takes `store.error` as it
/// is. It is the wrapper, though: to cast or localize what the operation
/// threw, read `base` (`error.base as? APIError`; with Foundation,
/// `error.base.localizedDescription`). An `AnyError` thrown again is not
/// wrapped twice. Its untyped overloads
/// (`load { try await … }`) are disfavored, so a closure that throws
/// nothing, or throws `AnyError`, takes the typed one without ambiguity.
///
/// Two `AnyError`s are equal when the wrapped errors are of the same type and
/// compare equal (for `Equatable` errors), are one instance (for an error
/// class that is not `Equatable`: a new failure is a new instance, so a
/// reader of the error is told when one replaces another), or else print
/// the same (`String(reflecting:)`). A class instance inside such an error
/// prints as its type's name alone: make the error `Equatable` to compare
/// what it holds.
///
/// ```swift
/// let profile = AsyncValue<Profile, AnyError>()
/// await profile.load { try await api.profile() }   // untyped throws
/// ```
public struct AnyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The original error.
    public let base: any Error

    /// Wraps `error`; an `AnyError` is kept as it is, so `base` is always
    /// the error first thrown.
    public init(_ error: any Error) {
        self.base = (error as? AnyError)?.base ?? error
    }

    /// Equal when both wrap errors of one type that compare (or print) equal.
    public static func == (lhs: AnyError, rhs: AnyError) -> Bool {
        guard type(of: lhs.base) == type(of: rhs.base) else { return false }
        if let equatable = lhs.base as? any Equatable {
            return equatable.isEqual(toAny: rhs.base)
        }
        // A class instance prints its type's name alone, so printing cannot
        // tell two failures apart; and comparing what they hold would render
        // both whole on the main actor, however large. By identity.
        if type(of: lhs.base) is AnyObject.Type {
            return lhs.base as AnyObject === rhs.base as AnyObject
        }
        return String(reflecting: lhs.base) == String(reflecting: rhs.base)
    }

    /// The wrapped error's description.
    public var description: String { String(describing: base) }

    /// Whether `failure` — a typed load's failure, or what an untyped
    /// operation threw — is a cancellation: `CancellationError`, or an
    /// `AnyError` that wraps one, as a `throws(AnyError)` closure that wraps
    /// whatever it catches throws. One rule for every path: such a failure
    /// never reaches `mapError` or `shouldRetry`. For a `Failure` that is
    /// neither, specialized code folds both casts to `false`.
    @inlinable
    static func isCancellation<Failure>(_ failure: Failure) -> Bool {
        failure is CancellationError || (failure as? AnyError)?.base is CancellationError
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one: `==` for
    /// an `any Equatable` against a value of unknown type.
    package func isEqual(toAny other: Any) -> Bool {
        (other as? Self) == self
    }
}
