/// What a "load more" asked for: page `page` of the list whose newest load
/// was `list` when it was asked.
///
/// A more-lane action carries it (``LoadAction/more(_:_:)``), so a page can
/// be told apart from a page of a list that has since been replaced: a
/// "load more" starts only while its request is still the next one, and a
/// refresh started since — a newer `list` — supersedes it.
public struct PageRequest: Hashable, Sendable, CustomStringConvertible {
    /// The page asked for, counting from 1 (the first page).
    public let page: Int
    /// The newest load of the list when the page was asked for.
    public let list: LoadID?

    /// A request for page `page` of the list whose newest load is `list`.
    @inlinable
    public init(page: Int, list: LoadID?) {
        self.page = page
        self.list = list
    }

    /// `page 2 of #1`.
    public var description: String { "page \(page) of \(list.map { "\($0)" } ?? "no load")" }
}
