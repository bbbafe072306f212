/// A list loaded page by page: its elements in order, where each page ends,
/// and the cursor of the page after the last one.
///
/// `Pages` is the value of a paged ``Loadable``: the first page (or a
/// refresh) loads a whole `Pages` into the loadable's value lane, and each
/// "load more" loads one more page into its more lane, appended here
/// (``Loadable/loadMore(_:_:overlap:)``). A page as a load returns it is a
/// `Pages` too, of one page:
///
/// ```swift
/// func posts(after cursor: Int?) async throws(FeedError) -> Pages<Post, Int> {
///     let response = try await api.posts(page: cursor ?? 1)
///     return Pages(response.posts, next: response.nextPage)   // nil: the last page
/// }
/// ```
///
/// It is a collection of its elements, so rows bind to it directly and an
/// ``Edit`` changes it like an array: `posts[index].isLiked = true`.
/// Inserting or removing elements keeps the page boundaries: an element
/// inserted goes into the page it is inserted in.
public struct Pages<Element, Cursor> {
    @usableFromInline var _elements: [Element]
    /// The end offset in `_elements` of each page kept, in order.
    @usableFromInline var _pageEnds: [Int]
    /// The number of the first page kept, counting from 1: above 1 once a
    /// window has let older pages go.
    @usableFromInline var _firstPage: Int
    /// Where the page after the last one starts, or `nil` at the end.
    public var next: Cursor?

    /// One page of `elements`, followed by the page at `next` (`nil`: the end).
    @inlinable
    public init(_ elements: [Element], next: Cursor?) {
        _elements = elements
        _pageEnds = [elements.count]
        _firstPage = 1
        self.next = next
    }

    /// The elements of every page kept, in order.
    @inlinable
    public var elements: [Element] { _elements }

    /// How many pages are kept.
    @inlinable
    public var pageCount: Int { _pageEnds.count }

    /// Whether there is a page after the last one.
    @inlinable
    public var hasMore: Bool { next != nil }

    /// The number of the page a "load more" would load now, counting from 1.
    @inlinable
    public var nextPage: Int { _firstPage + _pageEnds.count }

    /// Appends `page`'s pages and takes its cursor, in O(page), then lets the
    /// oldest pages go while more than `window` are kept.
    @inlinable
    public mutating func append(_ page: Pages, window: Int? = nil) {
        let offset = _elements.count
        _elements.append(contentsOf: page._elements)
        for end in page._pageEnds { _pageEnds.append(offset + end) }
        next = page.next
        if let window { keepNewest(window) }
    }

    /// Lets the oldest pages go until at most `window` are kept — one, for a
    /// window below one — as every lane of a windowed list does. Costs
    /// O(window): the kept elements move to the front, which a window exists
    /// to keep small.
    @usableFromInline
    mutating func keepNewest(_ window: Int) {
        let window = Swift.max(window, 1)
        guard _pageEnds.count > window else { return }
        let dropped = _pageEnds.count - window
        let removed = _pageEnds[dropped - 1]
        _elements.removeFirst(removed)
        _pageEnds.removeFirst(dropped)
        for index in _pageEnds.indices { _pageEnds[index] -= removed }
        _firstPage += dropped
    }
}

extension Pages: RandomAccessCollection, MutableCollection {
    @inlinable
    public var startIndex: Int { _elements.startIndex }

    @inlinable
    public var endIndex: Int { _elements.endIndex }

    /// The element at `position`.
    @inlinable
    public subscript(position: Int) -> Element {
        get { _elements[position] }
        set { _elements[position] = newValue }
        _modify { yield &_elements[position] }
    }

    /// The elements in `bounds`. Setting them replaces them, as
    /// `replaceSubrange` does, with any number of elements — as an array's
    /// slice does; `MutableCollection`'s own setter traps unless the counts
    /// match.
    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<Pages> {
        get {
            precondition(bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex, "Pages slice bounds out of range")
            return Slice(base: self, bounds: bounds)
        }
        set { replaceSubrange(bounds, with: newValue) }
    }
}

extension Pages: RangeReplaceableCollection {
    /// No pages, and no page after them.
    @inlinable
    public init() {
        _elements = []
        _pageEnds = []
        _firstPage = 1
        next = nil
    }

    /// Replaces the elements in `subrange`, keeping page boundaries: a page
    /// boundary inside the range moves to where the replaced elements end,
    /// and one after it shifts by the change in count — so elements inserted
    /// where a page ends join that page. Elements added at the end of the
    /// list join the last page, also when the pages before it are empty.
    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        let inserted = newElements.count
        let change = inserted - subrange.count
        let isAppend = subrange.lowerBound == _elements.count
        _elements.replaceSubrange(subrange, with: newElements)
        if _pageEnds.isEmpty {
            if !_elements.isEmpty { _pageEnds = [_elements.count] }
            return
        }
        // Every page ends where the list ended: the ones before the last
        // stay there, and the last takes what was added.
        if isAppend {
            _pageEnds[_pageEnds.count - 1] = _elements.count
            return
        }
        for index in _pageEnds.indices {
            let end = _pageEnds[index]
            if end >= subrange.upperBound {
                _pageEnds[index] = end + change
            } else if end > subrange.lowerBound {
                _pageEnds[index] = subrange.lowerBound + Swift.min(inserted, end - subrange.lowerBound)
            }
        }
        // The last page always ends with the list.
        _pageEnds[_pageEnds.count - 1] = _elements.count
    }

    /// Removes every element, keeping the pages — now empty — and the cursor
    /// of the next page, as removing them one by one does: a "load more"
    /// after it loads the page it would have loaded before. (The standard
    /// library's default started a new list, with no page after it.)
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        _elements.removeAll(keepingCapacity: keepCapacity)
        for index in _pageEnds.indices { _pageEnds[index] = 0 }
    }

    /// Removes the elements that `shouldBeRemoved` picks, each from its own
    /// page: the elements kept stay in the pages they were in, as with
    /// `remove(at:)`. (The standard library's default moves kept elements
    /// forward across page ends.) If `shouldBeRemoved` throws, nothing is
    /// removed.
    @inlinable
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var kept: [Element] = []
        kept.reserveCapacity(_elements.count)
        var ends: [Int] = []
        ends.reserveCapacity(_pageEnds.count)
        var start = 0
        for end in _pageEnds {
            for element in _elements[start..<end] where try !shouldBeRemoved(element) { kept.append(element) }
            ends.append(kept.count)
            start = end
        }
        _elements = kept
        _pageEnds = ends
    }

    /// The elements that `isIncluded` keeps, each in its own page, with the
    /// same cursor of the next page (see ``removeAll(where:)``).
    @inlinable
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Pages {
        var filtered = self
        try filtered.removeAll { try !isIncluded($0) }
        return filtered
    }
}

extension Pages: Equatable where Element: Equatable, Cursor: Equatable {
    /// Equal when the elements, the page boundaries and the next cursor are.
    @inlinable
    public static func == (lhs: Pages, rhs: Pages) -> Bool {
        lhs._elements == rhs._elements && lhs._pageEnds == rhs._pageEnds && lhs._firstPage == rhs._firstPage
            && lhs.next == rhs.next
    }
}

extension Pages: Hashable where Element: Hashable, Cursor: Hashable {
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_elements)
        hasher.combine(_pageEnds)
        hasher.combine(_firstPage)
        hasher.combine(next)
    }
}

extension Pages: Sendable where Element: Sendable, Cursor: Sendable {}

extension Pages: CustomStringConvertible {
    /// A short form that tells apart lists a "load more" treats differently,
    /// e.g. `40 elements in 2 pages, more at 3`; once a window has let older
    /// pages go, `30 elements in pages 3–5, more at 6`; and with a page
    /// size that differs from the first page's, each size:
    /// `3 elements in 2 pages (1, 2), end`.
    public var description: String {
        let pages =
            if _firstPage == 1 {
                "\(pageCount) page\(pageCount == 1 ? "" : "s")"
            } else if pageCount == 1 {
                "page \(_firstPage)"
            } else {
                "pages \(_firstPage)–\(_firstPage + pageCount - 1)"
            }
        let sizes = pageSizes
        let sizesText = sizes.allSatisfy { $0 == sizes.first } ? "" : " (" + sizes.map(String.init).joined(separator: ", ") + ")"
        let more = next.map { ", more at \(describeValue($0))" } ?? ", end"
        let count = _elements.count
        return "\(count) element\(count == 1 ? "" : "s") in \(pages)" + sizesText + more
    }

    /// How many elements each page kept holds, in order.
    var pageSizes: [Int] {
        var start = 0
        return _pageEnds.map { end in
            defer { start = end }
            return end - start
        }
    }
}

extension Pages: CustomReflectable {
    /// The elements, how many each page holds, the number of the first page
    /// kept and the cursor, for dumps and snapshots: two lists that dump
    /// alike load the same next page and let the same rows go.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "elements": _elements as Any, "pageSizes": pageSizes as Any, "firstPage": _firstPage as Any, "next": next as Any,
            ], displayStyle: .struct)
    }
}

/// What a paged ``Loadable`` needs of its value without knowing its element
/// and cursor types: where the next page starts, and appending one. Only
/// ``Pages`` conforms. Static, over raw pointers to a value of the
/// conforming type, so generic code calls it without boxing a `Pages` in an
/// existential (a heap allocation for a value of its size).
@usableFromInline
protocol PageAppending {
    /// The number of the page a "load more" of `pages` would load, or `nil`
    /// at the end of the list.
    static func nextPage(of pages: UnsafeRawPointer) -> Int?
    /// Appends `page` to `pages`, keeping at most `window` pages.
    static func append(_ page: UnsafeRawPointer, to pages: UnsafeMutableRawPointer, window: Int?)
    /// Keeps at most `window` pages of `pages`, letting the oldest go.
    static func keep(_ window: Int, of pages: UnsafeMutableRawPointer)
}

extension Pages: PageAppending {
    @usableFromInline
    static func nextPage(of pages: UnsafeRawPointer) -> Int? {
        let pages = pages.assumingMemoryBound(to: Pages.self)
        return pages.pointee.hasMore ? pages.pointee.nextPage : nil
    }

    @usableFromInline
    static func append(_ page: UnsafeRawPointer, to pages: UnsafeMutableRawPointer, window: Int?) {
        pages.assumingMemoryBound(to: Pages.self).pointee.append(page.assumingMemoryBound(to: Pages.self).pointee, window: window)
    }

    @usableFromInline
    static func keep(_ window: Int, of pages: UnsafeMutableRawPointer) {
        pages.assumingMemoryBound(to: Pages.self).pointee.keepNewest(window)
    }
}

// The elements, where each page ends, the first page kept and the next
// cursor — so a recording of a paged list's actions can be written. Decoding
// checks that they agree: a file may say anything, and a list whose page ends
// run past its elements traps at its next "load more" or window.
extension Pages: Codable where Element: Codable, Cursor: Codable {
    private enum CodingKeys: String, CodingKey {
        case _elements, _pageEnds, _firstPage, next
    }

    /// Decodes the elements, the page ends, the first page kept and the next
    /// cursor; throws `DecodingError.dataCorrupted` when they disagree.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let elements = try container.decode([Element].self, forKey: ._elements)
        let ends = try container.decode([Int].self, forKey: ._pageEnds)
        let firstPage = try container.decode(Int.self, forKey: ._firstPage)
        // Page ends rise (a page may be empty) from 0 to the element count;
        // no pages, no elements; page numbers from 1 to half of `Int.max`,
        // so that the list can grow by 2^62 pages before its next page
        // number overflows — more than any list appends (one a nanosecond
        // for 146 years) — where a bound of `Int.max` left a replay that
        // trapped one "load more" later.
        let endsAgree =
            ends.isEmpty
            ? elements.isEmpty
            : ends.first! >= 0 && ends.last! == elements.count && zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 }
        guard endsAgree else {
            throw DecodingError.dataCorruptedError(
                forKey: ._pageEnds, in: container,
                debugDescription: "page ends \(ends) do not divide \(elements.count) elements into pages")
        }
        guard firstPage >= 1, firstPage <= Int.max / 2 - ends.count else {
            throw DecodingError.dataCorruptedError(
                forKey: ._firstPage, in: container, debugDescription: "the first page kept is \(firstPage), not a page number")
        }
        _elements = elements
        _pageEnds = ends
        _firstPage = firstPage
        next = try container.decodeIfPresent(Cursor.self, forKey: .next)
    }

    /// Encodes the elements, the page ends, the first page kept and the next cursor.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_elements, forKey: ._elements)
        try container.encode(_pageEnds, forKey: ._pageEnds)
        try container.encode(_firstPage, forKey: ._firstPage)
        try container.encodeIfPresent(next, forKey: .next)
    }
}
