/// What can happen to one edit of a ``Loadable``: it starts (and shows at
/// once), waits its turn, is retried, and ends confirmed, failed or cancelled.
///
/// Each case names the ``LoadID`` the store gave the edit's request, like a
/// ``LoadAction``: the edit's own request runs as a load, and the store sends
/// these for you (``Loadable/edit(_:_:_:overlap:)``). A feature routes them
/// inside ``LoadAction/edit(_:)``, with its loads.
///
/// | action | the edit | otherwise |
/// |---|---|---|
/// | `.started(id, e)`, `id` newer than every edit started | pending and shown at once, on top of the edits before it | dropped |
/// | `.confirmed(id)`, `id` pending | joins the confirmed value; a load that may have read the server before it gets it again | dropped |
/// | `.failed(id, f)`, `id` pending | rolled back, alone; ``Loadable/editError`` is `f` | dropped |
/// | `.cancelled(id)`, `id` pending | rolled back, alone — never a failure | dropped |
/// | `.retrying(id, r)`, `id` pending | stays pending and shown | dropped |
public enum EditAction<Value, Failure: Equatable> {
    /// Edit `id` began: `edit` is pending and shown.
    case started(LoadID, AnyEdit<Value>)
    /// Edit `id`'s request succeeded: the edit joins the confirmed value.
    case confirmed(LoadID)
    /// Edit `id`'s request failed: the edit is rolled back.
    case failed(LoadID, Failure)
    /// Edit `id` was cancelled: the edit is rolled back. Cancellation is not failure.
    case cancelled(LoadID)
    /// An attempt of edit `id`'s request failed and it tries again after a
    /// wait; the edit stays shown.
    case retrying(LoadID, LoadRetry<Failure>)

    /// The ID of the edit this action is about.
    @inlinable
    public var id: LoadID {
        switch self {
        case .started(let id, _), .confirmed(let id), .failed(let id, _), .cancelled(let id), .retrying(let id, _): id
        }
    }
}

extension EditAction: Equatable {}
extension EditAction: Hashable where Failure: Hashable {}
extension EditAction: Sendable where Failure: Sendable {}

extension EditAction: CustomStringConvertible {
    /// A short form such as `started(#2, like(3))`.
    public var description: String {
        switch self {
        case .started(let id, let edit): "started(\(id), \(edit))"
        case .confirmed(let id): "confirmed(\(id))"
        case .failed(let id, let failure): "failed(\(id), \(describeValue(failure)))"
        case .cancelled(let id): "cancelled(\(id))"
        case .retrying(let id, let retry): "retrying(\(id), \(retry))"
        }
    }
}
