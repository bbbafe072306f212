/// A paged list's window: how many pages it keeps, and how to let the
/// oldest go from a value of the loadable's type.
///
/// The trim is made where the value's type is known to be ``Pages`` —
/// `Loadable(window:)` — so a lane that keeps the window calls it without
/// casting `Value` to ``Pages`` at run time: the cast, a protocol
/// conformance lookup, cost about 1,200 instructions on every load of a
/// windowed list (BENCHMARKS.md, issue 25, seventeenth pass).
@usableFromInline
struct PageWindow<Value>: Equatable {
    /// The most pages kept, at least one.
    @usableFromInline let _pages: Int
    /// Lets the oldest pages of a value go until at most `_pages` are left.
    @usableFromInline let _keep: @Sendable (inout Value) -> Void

    /// A window of `pages` pages — one if fewer — over pages of `Pages<Element, Cursor>`.
    @inlinable
    init<Element, Cursor>(pages: Int) where Value == Pages<Element, Cursor> {
        let pages = Swift.max(pages, 1)
        _pages = pages
        _keep = { if $0.pageCount > pages { $0.trim(to: pages) } }
    }

    /// A window of `pages` pages over values of a type known only at run
    /// time, cast once here; `nil` when it is not a ``Pages``. For expected
    /// values.
    init?(casting pages: Int) {
        guard let paged = Value.self as? any PageAppending.Type else { return nil }
        let pages = Swift.max(pages, 1)
        _pages = pages
        _keep = { value in withUnsafeMutablePointer(to: &value) { paged.keep(pages, of: $0) } }
    }

    /// Equal when they keep as many pages: the trim follows from the type.
    @inlinable
    static func == (lhs: PageWindow, rhs: PageWindow) -> Bool { lhs._pages == rhs._pages }
}

extension PageWindow: Sendable {}
