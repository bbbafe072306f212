/// The generation of one load: every load started gets a new, larger ID.
///
/// A load's result is applied only while its ID is the newest one its
/// ``Loadable`` has started, which is what makes "last started wins" hold.
/// IDs print as `#1`, `#2`, … so they read well in logs and snapshots.
public struct LoadID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The generation number; larger is newer.
    public let rawValue: UInt64

    /// Creates the ID of generation `rawValue`.
    @inlinable
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The ID that follows this one.
    @inlinable
    public var next: LoadID { LoadID(rawValue &+ 1) }

    /// Whether `lhs` is an older generation than `rhs`.
    @inlinable
    public static func < (lhs: LoadID, rhs: LoadID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `#` followed by the generation number, e.g. `#3`.
    public var description: String { "#\(rawValue)" }
}
