/// A local change to a value, shown at once while the mutation that makes it
/// on the server is in flight — a like, a rename, a row marked done.
///
/// An edit is data, not a closure, so state holding it stays `Equatable` and
/// prints in logs and snapshots. Write edits that say what the value should
/// become ("set liked to true") rather than how to change it ("toggle"): an
/// edit can be applied again on top of a newer confirmed value, and setting
/// twice is still right where toggling twice is not.
///
/// ```swift
/// enum PostEdit: Edit {
///     case like(postID: Int)
///     case rename(postID: Int, title: String)
///
///     func apply(to posts: inout [Post]) -> Bool {
///         switch self {
///         case .like(let id):
///             guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
///             posts[index].isLiked = true
///         case .rename(let id, let title):
///             guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
///             posts[index].title = title
///         }
///         return true
///     }
/// }
/// ```
public protocol Edit<Value>: Equatable {
    /// The value this edit changes.
    associatedtype Value

    /// Applies the edit to `value` and returns `true`; or returns `false`,
    /// leaving `value` unchanged, when the edit no longer fits it — for
    /// example the row it changes is gone from a newer confirmed value.
    func apply(to value: inout Value) -> Bool
}

/// What can happen to an ``Optimistic`` value: a load of the confirmed value,
/// or a mutation carrying the edit it shows while in flight.
public enum EditAction<Change: Edit, Failure: Equatable> where Change.Value: Equatable {
    /// A load of the confirmed value, as for a ``Loadable``.
    case load(LoadAction<Change.Value, Failure>)
    /// Mutation `load.id` with the optimistic edit `edit`: `.started` shows
    /// the edit, `.finished` confirms it with the edit the server applied
    /// (usually the same), `.failed` and `.cancelled` roll it back.
    case mutation(Change, LoadAction<Change, Failure>)

    /// The ID of the load or mutation this action is about.
    @inlinable
    public var id: LoadID {
        switch self {
        case .load(let load): load.id
        case .mutation(_, let load): load.id
        }
    }
}

extension EditAction: Equatable {}
extension EditAction: Sendable where Change: Sendable, Change.Value: Sendable, Failure: Sendable {}

extension EditAction: CustomStringConvertible {
    /// `load(finished(#1, …))`, `mutation(like(3), started(#2))`.
    public var description: String {
        switch self {
        case .load(let load): "load(\(load))"
        case .mutation(let edit, let load): "mutation(\(describeValue(edit)), \(load))"
        }
    }
}
