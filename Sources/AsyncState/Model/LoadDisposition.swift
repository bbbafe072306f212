/// What became of a ``LoadAction`` given to ``Loadable/apply(_:)``.
public enum LoadDisposition: Hashable, Sendable {
    /// The action changed the loadable's state.
    case applied
    /// The action was ignored because it is about a load that is no longer the
    /// newest one in flight (or, for `.started`, an ID that is not new).
    case dropped

    /// Whether the action was dropped.
    @inlinable
    public var isDropped: Bool { self == .dropped }
}
