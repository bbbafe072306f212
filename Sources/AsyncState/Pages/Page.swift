/// One page of a list, as a load returns it: its elements and the cursor of
/// the page after it, or `nil` at the end of the list.
public struct Page<Element: Equatable, Cursor: Hashable>: Equatable {
    /// The page's elements, in order.
    public var elements: [Element]
    /// Where the next page starts, or `nil` when this is the last page.
    public var next: Cursor?

    /// A page of `elements`, followed by the page at `next` (`nil`: the end).
    @inlinable
    public init(_ elements: [Element], next: Cursor?) {
        self.elements = elements
        self.next = next
    }
}

extension Page: Sendable where Element: Sendable, Cursor: Sendable {}
extension Page: Hashable where Element: Hashable {}

/// The generation of a paged list: it grows by one each time a first page or a
/// refresh replaces every page, so a page asked for before can be told apart.
public struct ListGeneration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The generation number; larger is newer. `0` is the list before any first page.
    public let rawValue: UInt64

    /// The generation `rawValue`.
    @inlinable
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The generation after this one.
    @inlinable
    public var next: ListGeneration { ListGeneration(rawValue &+ 1) }

    /// Whether `lhs` is older than `rhs`.
    @inlinable
    public static func < (lhs: ListGeneration, rhs: ListGeneration) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `g` followed by the number, e.g. `g2`.
    public var description: String { "g\(rawValue)" }
}

/// What a "load more" asked for: the page at `cursor` of the list of
/// `generation`. Its page is appended only to that list, after the page whose
/// `next` was `cursor`.
public struct PageRequest<Cursor: Hashable>: Hashable {
    /// The list the page belongs to.
    public var generation: ListGeneration
    /// Where the page starts.
    public var cursor: Cursor

    /// A request for the page at `cursor` of the list of `generation`.
    @inlinable
    public init(generation: ListGeneration, cursor: Cursor) {
        self.generation = generation
        self.cursor = cursor
    }
}

extension PageRequest: Sendable where Cursor: Sendable {}

extension PageRequest: CustomStringConvertible {
    /// `g2 @ "c3"`.
    public var description: String { "\(generation) @ \(describeValue(cursor))" }
}

/// What can happen to a ``PagedLoadable``: in the list lane, the first page or
/// a refresh, which replaces every page; in the more lane, one "load more",
/// tagged with what it asked for.
public enum PageAction<Element: Equatable, Cursor: Hashable, Failure: Equatable> {
    /// The first page or a refresh.
    case list(LoadAction<Page<Element, Cursor>, Failure>)
    /// A "load more" of the page `request` names.
    case more(PageRequest<Cursor>, LoadAction<Page<Element, Cursor>, Failure>)

    /// The ID of the load this action is about.
    @inlinable
    public var id: LoadID {
        switch self {
        case .list(let load), .more(_, let load): load.id
        }
    }
}

extension PageAction: Equatable {}
extension PageAction: Sendable where Element: Sendable, Cursor: Sendable, Failure: Sendable {}

extension PageAction: CustomStringConvertible {
    /// `list(started(#1))`, `more(g1 @ 2, finished(#3, 20 elements, next: 3))`.
    public var description: String {
        switch self {
        case .list(let load): "list(\(Self.describe(load)))"
        case .more(let request, let load): "more(\(request), \(Self.describe(load)))"
        }
    }

    static func describe(_ load: LoadAction<Page<Element, Cursor>, Failure>) -> String {
        guard case .finished(let id, let page) = load else { return load.description }
        let next = page.next.map { describeValue($0) } ?? "end"
        return "finished(\(id), \(page.elements.count) elements, next: \(next))"
    }
}
