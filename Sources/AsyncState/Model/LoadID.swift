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

    /// The largest ID a store may number its first load with: from it,
    /// 2^63 loads fit before the IDs would wrap past `UInt64.max` — and a
    /// wrapped ID, older than every one before it, is dropped.
    static let largestFirst = LoadID(UInt64(Int64.max))

    /// Why a store cannot number its loads from `first`; `nil` when it can.
    package static func problem(ofFirst first: LoadID) -> String? {
        guard first > largestFirst else { return nil }
        return
            "A store's first load ID, \(first), is past \(largestFirst) (2^63 − 1): its IDs would wrap to #0 and every load from then on be dropped as older. Number loads from a smaller ID, or host a loadable that records smaller ones."
    }

    /// `#` followed by the generation number, e.g. `#3`.
    public var description: String { "#\(rawValue)" }
}
