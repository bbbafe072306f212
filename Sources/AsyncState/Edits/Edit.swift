/// A local change to a value, shown at once while the request that makes it
/// on the server runs — a like, a rename, a row marked done.
///
/// An edit is data, not a closure, so state holding it stays `Equatable`,
/// prints in logs and snapshots, and records and replays. Write edits that
/// say what the value should become ("set liked to true") rather than how to
/// change it ("toggle"): an edit is applied again on top of every newer value
/// a load brings while it is pending, and setting twice is still right where
/// toggling twice is not.
///
/// ```swift
/// enum PostEdit: Edit {
///     case setLiked(postID: Int, Bool)
///
///     func apply(to posts: inout [Post]) -> Bool {
///         switch self {
///         case .setLiked(let id, let liked):
///             guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
///             posts[index].isLiked = liked
///             return true
///         }
///     }
/// }
/// ```
///
/// The value an edit changes is the loadable's: `[Post]` for a
/// `Loadable<[Post], …>`, ``Pages`` for a paged list, which is a collection
/// of its rows like an array.
public protocol Edit<Value>: Equatable, Sendable {
    /// The value this edit changes.
    associatedtype Value

    /// Applies the edit to `value` and returns `true`; or returns `false`,
    /// leaving `value` unchanged, when the edit no longer fits it — for
    /// example the row it changes is gone from a newer value.
    func apply(to value: inout Value) -> Bool
}

/// Any ``Edit`` of a `Value`, so a ``Loadable`` can hold edits of every type
/// that changes its value.
///
/// Two `AnyEdit`s are equal when they wrap equal edits of the same type.
public struct AnyEdit<Value>: Hashable, Sendable, CustomStringConvertible {
    // Boxed: an existential of a protocol that is not class-bound is stored
    // inline and copied through its type's value witnesses, and so was every
    // `LoadAction` that holds one — on every load, edit or not. One reference
    // keeps the action a plain value (BENCHMARKS.md, step 19).
    @usableFromInline let _box: Box

    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let edit: any Edit<Value>
        init(_ edit: any Edit<Value>) { self.edit = edit }
    }

    /// The wrapped edit.
    public var base: any Edit<Value> { _box.edit }

    /// Wraps `edit`.
    public init(_ edit: some Edit<Value>) {
        _box = Box(edit)
    }

    /// Applies the wrapped edit; see ``Edit/apply(to:)``.
    @inlinable
    public func apply(to value: inout Value) -> Bool {
        _box.edit.apply(to: &value)
    }

    /// Equal when both wrap equal edits of one type.
    public static func == (lhs: AnyEdit, rhs: AnyEdit) -> Bool {
        lhs.base.isEqual(to: rhs.base)
    }

    /// Hashes the wrapped edit's type: equal edits have the same type, and
    /// an edit need not be `Hashable`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: base)))
    }

    /// The wrapped edit, as the model's descriptions print a payload.
    public var description: String { describeValue(base) }
}

extension AnyEdit: CustomReflectable {
    /// The wrapped edit, as `base`: dumps and snapshots show the edit, not its box.
    public var customMirror: Mirror { Mirror(self, children: ["base": base], displayStyle: .struct) }
}

extension Edit {
    fileprivate func isEqual(to other: any Edit<Value>) -> Bool {
        (other as? Self) == self
    }
}
