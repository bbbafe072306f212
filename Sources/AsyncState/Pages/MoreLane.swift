/// The more lane of a paged ``Loadable``: the one "load more" in flight and
/// what it asked for, the newest one started, its activity and its failure.
///
/// Its gate is the value lane's rule, kept for one more slot: a start must be
/// newer than every "load more" started, and only the one in flight may end.
/// A value-lane start supersedes it: its page would extend the list that
/// start replaces.
@usableFromInline
struct MoreLane<Failure: Equatable>: Equatable {
    @usableFromInline
    struct InFlight: Equatable {
        @usableFromInline let id: LoadID
        @usableFromInline let request: PageRequest

        @inlinable
        init(id: LoadID, request: PageRequest) {
            self.id = id
            self.request = request
        }
    }

    /// The "load more" in flight.
    @usableFromInline var _inFlight: InFlight?
    /// The newest "load more" ever started; a start must be newer.
    @usableFromInline var _newestID: LoadID?
    /// Why the "load more" in flight runs and its attempt.
    @usableFromInline var _activity: LoadActivity<Failure>?
    /// The failure of the latest "load more", until a page loads or the list
    /// is replaced — a retry row.
    @usableFromInline var _error: Failure?

    @inlinable
    init() {}

    /// Whether the lane holds nothing a value would show or compare.
    @inlinable
    var isEmpty: Bool { _inFlight == nil && _newestID == nil && !_error.isSome }

    /// A value-lane start supersedes the "load more" in flight.
    @inlinable
    mutating func supersede() {
        _inFlight = nil
        _activity = nil
    }

    /// The "load more" in flight ended.
    @inlinable
    mutating func end() {
        _inFlight = nil
        _activity = nil
    }
}

extension MoreLane: Sendable where Failure: Sendable {}
extension MoreLane.InFlight: Sendable {}
