/// What can happen to one load, as a value a reducer can apply.
///
/// Each case names the ``LoadID`` of the load it is about, so a result from a
/// load that has since been superseded can be recognised and dropped.
/// The store's load effect sends these for you; a feature only routes them:
///
/// ```swift
/// enum Action {
///     case refresh
///     case profile(LoadAction<Profile, ProfileError>)
/// }
/// ```
///
/// Four actions begin and end a load: `.started`, then one of `.finished`,
/// `.failed` or `.cancelled`. Between them a load may report `.retrying`
/// (an attempt failed and another follows after a wait) and `.progress`
/// (a partial value). Like results, both apply only while their load is the
/// one in flight.
public enum LoadAction<Value: Equatable, Failure: Equatable> {
    /// Load `id` began.
    case started(LoadID)
    /// Load `id` produced its value.
    case finished(LoadID, Value)
    /// Load `id` failed.
    case failed(LoadID, Failure)
    /// Load `id` was cancelled. Cancellation is not failure.
    case cancelled(LoadID)
    /// An attempt of load `id` failed and the load tries again after a wait
    /// (see ``RetryPolicy``). The load stays in flight.
    case retrying(LoadID, LoadRetry<Failure>)
    /// Load `id` produced a partial value, shown while it goes on (see
    /// ``StreamMode``). Its final value still arrives with `.finished`.
    case progress(LoadID, Value)

    /// The ID of the load this action is about.
    @inlinable
    public var id: LoadID {
        switch self {
        case .started(let id), .finished(let id, _), .failed(let id, _), .cancelled(let id), .retrying(let id, _),
            .progress(let id, _):
            id
        }
    }
}

extension LoadAction: Equatable {}
extension LoadAction: Hashable where Value: Hashable, Failure: Hashable {}
extension LoadAction: Sendable where Value: Sendable, Failure: Sendable {}

extension LoadAction: CustomStringConvertible {
    /// A short form such as `finished(#2, "Lee")`.
    public var description: String {
        switch self {
        case .started(let id): "started(\(id))"
        case .finished(let id, let value): "finished(\(id), \(describeValue(value)))"
        case .failed(let id, let error): "failed(\(id), \(describeValue(error)))"
        case .cancelled(let id): "cancelled(\(id))"
        case .retrying(let id, let retry): "retrying(\(id), \(retry))"
        case .progress(let id, let value): "progress(\(id), \(describeValue(value)))"
        }
    }
}
