import Testing

/// What an exhaustive check has seen: how many cases it played and how many
/// failed, the first few of which it records. Gives the thread back every few
/// milliseconds (``TimeSlice``) so that tests running alongside go on.
package struct ExhaustiveTally {
    package private(set) var checked = 0
    package private(set) var failures = 0
    private var slice = TimeSlice()

    package init() {}

    /// Counts one case; a `problem` fails it, recorded with `context` (what
    /// replays it) while at most five have failed.
    ///
    /// - Returns: whether the case passed.
    @discardableResult
    package mutating func count(_ problem: String?, _ context: @autoclosure () -> String) async -> Bool {
        checked += 1
        await slice.yieldIfSpent()
        guard let problem else { return true }
        failures += 1
        if failures <= 5 { Issue.record(Comment(rawValue: "\(context()): \(problem)")) }
        return false
    }

    /// Prints how many cases `name` checked, and expects exactly `expected`
    /// of them — pinned, so a change to the enumeration cannot silently
    /// shrink the check — and none failed.
    package func expect(_ name: String, checked expected: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        print("\(name) checked: \(checked)")
        #expect(checked == expected, sourceLocation: sourceLocation)
        #expect(failures == 0, sourceLocation: sourceLocation)
    }
}
