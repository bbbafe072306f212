/// What can happen to a ``Loadable``, as a value a reducer applies.
///
/// Each case names the ``LoadID`` of the load it is about, so a result from a
/// load that has since been superseded is recognised and dropped. A load's
/// effect sends these for you; a feature only routes them:
///
/// ```swift
/// enum Action {
///     case refresh
///     case profile(LoadAction<Profile, ProfileError>)
/// }
/// ```
///
/// Four actions begin and end a load: `.started`, then one of `.finished`,
/// `.failed` or `.cancelled`. Between them a load may report `.planned` (how
/// many attempts its ``RetryPolicy`` allows), `.retrying` (an attempt failed
/// and another follows after a wait) and `.progress` (a partial value); like
/// results, these apply only while their load is the one in flight. A load
/// started under ``OverlapPolicy/queue`` is `.queued` until its turn.
///
/// The layers of a loadable have cases of their own, and each wraps the same
/// vocabulary: `.more` carries a "load more" of a paged list's more lane,
/// `.edit` what happens to one optimistic edit, and `.at` the time a result
/// arrived, for freshness.
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
    /// Load `id` makes at most `attempts` attempts: sent right after
    /// `.started` by a load with a ``RetryPolicy``, so ``LoadActivity`` can
    /// say "attempt 1 of 3" from the start.
    case planned(LoadID, attempts: Int)
    /// Load `id` waits for the loads before it to end
    /// (``OverlapPolicy/queue``); it is `.started` when its turn comes, or
    /// `.cancelled` if it is cancelled first.
    case queued(LoadID)
    /// An action of the more lane of a paged list: a "load more" of the page
    /// `request` names, whose value is that one page.
    indirect case more(PageRequest, LoadAction)
    /// What happened to one optimistic edit.
    case edit(EditAction<Value, Failure>)
    /// `action`, which arrived at `instant` on the load's ``LoadClock``: a
    /// `.finished` stamped so, and applied, records when the value settled.
    indirect case at(LoadClock.Instant, LoadAction)

    /// The ID of the load or edit this action is about.
    @inlinable
    public var id: LoadID {
        switch self {
        case .started(let id), .finished(let id, _), .failed(let id, _), .cancelled(let id), .retrying(let id, _),
            .progress(let id, _), .planned(let id, _), .queued(let id):
            id
        // The common inner actions matched in place: binding the inner
        // action copies it out of its box, through value witnesses.
        case .more(_, .started(let id)), .more(_, .finished(let id, _)), .more(_, .failed(let id, _)),
            .more(_, .cancelled(let id)), .at(_, .finished(let id, _)), .at(_, .failed(let id, _)), .at(_, .cancelled(let id)):
            id
        case .more(_, let action), .at(_, let action): action.id
        case .edit(let edit): edit.id
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
        case .planned(let id, let attempts): "planned(\(id), \(attempts) attempts)"
        case .queued(let id): "queued(\(id))"
        case .more(let request, let action): "more(\(request), \(action))"
        case .edit(let edit): "edit(\(edit))"
        case .at(let instant, let action): "\(action) at \(instant)"
        }
    }
}
