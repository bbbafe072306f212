import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

/// `Pages` edited as a collection, as an `Edit` does, keeps its pages and
/// its cursor whichever way an edit is spelled; and two lists that a "load
/// more" treats differently never dump alike (found by an outside reading).
@Suite("Pages: edited as a collection")
struct PagesCollectionTests {
    typealias List = Loadable<Pages<Int, Int>, TestError>

    /// Two pages, [1, 2] and [3, 4], with more at cursor 3.
    static func twoPages() -> Pages<Int, Int> {
        var pages = Pages<Int, Int>([1, 2], next: 2)
        pages.append(Pages([3, 4], next: 3))
        return pages
    }

    // From an outside reading: the setter `MutableCollection` gives traps
    // unless the counts match, where an array's works.
    @Test(
        "assigning a slice of another length replaces the range, as replaceSubrange does",
        arguments: [(0..<2, [Int]()), (0..<1, [7, 8, 9]), (1..<3, [5]), (4..<4, [9])])
    func sliceAssignment(range: Range<Int>, elements: [Int]) {
        var assigned = Self.twoPages()
        assigned[range] = Pages(elements, next: nil)[...]
        var replaced = Self.twoPages()
        replaced.replaceSubrange(range, with: elements)
        #expect(assigned == replaced)
        #expect(assigned[range.lowerBound..<range.lowerBound + elements.count].elementsEqual(elements))
    }

    @Test("removeAll(where:) keeps each kept element in its page, as remove(at:) does")
    func removeAllWhereKeepsBoundaries() {
        var byPredicate = Self.twoPages()
        byPredicate.removeAll { $0 == 1 }
        var byIndex = Self.twoPages()
        byIndex.remove(at: 0)
        #expect(byPredicate.elements == [2, 3, 4])
        #expect(byPredicate == byIndex)
        #expect(byPredicate.description == "3 elements in 2 pages (1, 2), more at 3")
    }

    @Test("filter keeps each kept element in its page, and the cursor")
    func filterKeepsPages() {
        let odd = Self.twoPages().filter { $0 % 2 == 1 }
        #expect(odd.elements == [1, 3])
        #expect(odd.pageCount == 2 && odd.next == 3)
    }

    @Test("removeAll(where:) that throws removes nothing")
    func removeAllWhereThrowing() {
        struct Stop: Error {}
        var pages = Self.twoPages()
        #expect(throws: Stop.self) { try pages.removeAll { if $0 == 3 { throw Stop() } else { true } } }
        #expect(pages == Self.twoPages())
    }

    @Test("removeAll() keeps the pages, now empty, and the cursor, whether or not it keeps capacity", arguments: [false, true])
    func removeAllKeepsCursor(keepingCapacity: Bool) {
        var cleared = Self.twoPages()
        cleared.removeAll(keepingCapacity: keepingCapacity)
        #expect(cleared.isEmpty)
        #expect(cleared.hasMore && cleared.nextPage == 3)
        #expect(cleared.pageCount == 2)
    }

    @Test(
        "an element added joins the page that ends where it goes; at the end of the list, the last page",
        arguments: [
            ("inserted where page 1 ends", [1, 2, 3, 4], 2, "5 elements in 2 pages (3, 2), more at 3"),
            ("appended", [1, 2, 3, 4], 4, "5 elements in 2 pages (2, 3), more at 3"),
            ("appended after the last page's rows were removed", [1, 2], 2, "3 elements in 2 pages (2, 1), more at 3"),
            ("appended after every row was removed", [], 0, "1 element in 2 pages (0, 1), more at 3"),
        ])
    func insertionJoinsPage(case name: String, kept: [Int], at position: Int, description: String) {
        var pages = Self.twoPages()
        pages.removeAll { !kept.contains($0) }
        pages.insert(9, at: position)
        #expect(pages.description == description)
    }

    // From mutation testing: a boundary at the end of the replaced range.
    @Test("replacing a page's last element with more moves its boundary to where the new elements end")
    func replacingAtAPageEndGrowsThatPage() {
        var pages = Pages<Int, Int>([1, 2], next: 2)
        pages.append(Pages([3], next: nil))
        pages.replaceSubrange(1..<2, with: [7, 8])
        #expect(pages.elements == [1, 7, 8, 3])
        #expect(pages.description == "4 elements in 2 pages (3, 1), end", "both new elements stay in the first page")
    }

    @Test("append(_:window:) with a window below one page keeps one, as Loadable(window:) does")
    func windowBelowOneKeepsOnePage() {
        var pages = Pages<Int, Int>([1, 2], next: 2)
        pages.append(Pages([3, 4], next: 3), window: 0)
        #expect(pages.elements == [3, 4])
        #expect(pages.pageCount == 1)
        #expect(pages.nextPage == 3)
    }

    /// Removes a row: the natural spelling of a delete.
    struct RemoveRow: Edit {
        var row: Int
        func apply(to pages: inout Pages<Int, Int>) -> Bool {
            guard pages.contains(row) else { return false }
            pages.removeAll { $0 == row }
            return true
        }
    }

    /// Clears every row loaded so far.
    struct ClearRows: Edit {
        func apply(to pages: inout Pages<Int, Int>) -> Bool {
            pages.removeAll()
            return true
        }
    }

    /// A list of two pages, [1, 2] and [3, 4], loaded through both lanes.
    static func loadedList(window: Int?) -> List {
        var list = List(window: window)
        _ = list.apply(.started(LoadID(1)))
        _ = list.apply(.finished(LoadID(1), Pages([1, 2], next: 2)))
        let request = list.nextRequest!
        _ = list.apply(.more(request, .started(LoadID(2))))
        _ = list.apply(.more(request, .finished(LoadID(2), Pages([3, 4], next: 3))))
        return list
    }

    @Test("after a confirmed delete edit, a window lets go of the oldest page's rows only")
    func deleteEditThenWindow() {
        var list = Self.loadedList(window: 2)
        _ = list.apply(.edit(.started(LoadID(3), AnyEdit(RemoveRow(row: 1)))))
        _ = list.apply(.edit(.confirmed(LoadID(3))))
        #expect(list.value?.elements == [2, 3, 4])
        let request = list.nextRequest!
        #expect(request.page == 3)
        _ = list.apply(.more(request, .started(LoadID(4))))
        _ = list.apply(.more(request, .finished(LoadID(4), Pages([5, 6], next: nil))))
        // Page 1 (now [2]) goes; pages 2 ([3, 4]) and 3 ([5, 6]) stay.
        #expect(list.value?.elements == [3, 4, 5, 6])
    }

    @Test("after a confirmed edit that clears the rows, the page in flight still lands, and the clear applies to it")
    func clearEditKeepsNextPage() {
        var list = Self.loadedList(window: nil)
        let request = list.nextRequest!
        _ = list.apply(.more(request, .started(LoadID(3))))
        _ = list.apply(.edit(.started(LoadID(4), AnyEdit(ClearRows()))))
        _ = list.apply(.edit(.confirmed(LoadID(4))))
        #expect(list.value?.elements == [])
        #expect(list.hasMore)
        #expect(list.apply(.more(request, .finished(LoadID(3), Pages([5, 6], next: nil)))) == .applied)
        // The page was asked for before the clear was confirmed, so it may
        // hold rows the clear removed: the confirmed edit applies again.
        #expect(list.value?.pageCount == 3)
        #expect(list.value?.elements == [])
        #expect(!list.hasMore && !list.isLoadingMore)
    }

    @Test(
        "lists that a load more treats differently describe and dump differently",
        arguments: [
            ("a window let page 1 go", "2 elements in page 2, more at 3"),
            ("the same rows, split otherwise", "3 elements in 2 pages (1, 2), more at 3"),
        ])
    func differencesShow(case name: String, description: String) {
        var windowed = Pages<Int, Int>([1], next: 2)
        windowed.append(Pages([2, 3], next: 3), window: 1)
        let fresh = Pages<Int, Int>([2, 3], next: 3)
        var split1 = Pages<Int, Int>([1], next: 2)
        split1.append(Pages([2, 3], next: 3))
        var split2 = Pages<Int, Int>([1, 2], next: 2)
        split2.append(Pages([3], next: 3))
        let (list, other) = name.hasPrefix("a window") ? (windowed, fresh) : (split1, split2)
        #expect(list != other)
        #expect(list.description == description)
        #expect(list.description != other.description)
        #expect(String(dumping: list) != String(dumping: other))
    }
}
