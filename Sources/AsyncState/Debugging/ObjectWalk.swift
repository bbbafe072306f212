/// The objects one walk through a value has met — a dump's
/// (`ValueDump.Dumper`) or a recording's leaves' (`FieldLeaves`) — which keep
/// every value's walk finite and polynomial:
/// - an object met again inside itself is a cycle, `Name(↩︎)`;
/// - an object met again elsewhere — shared, as in a graph whose nodes point
///   at one child — is walked once, then is `Name(↑)`: walked along every
///   path, a graph of 40 such nodes took 2⁴⁰ steps. Except when the depth
///   limit cut something inside it: then a reference to it higher up walks
///   it again and shows more, so nothing is hidden and each object is walked
///   at most once per depth.
struct ObjectWalk {
    /// The objects being walked, outermost first.
    var ancestors: [ObjectIdentifier]
    /// How many values the depth limit had cut when each ancestor was
    /// entered.
    private var cutsOnEntry: [Int] = []
    /// Each object walked, with the shallowest depth it was walked from
    /// with something inside cut — `Int.min` if nothing was.
    private var shown: [ObjectIdentifier: Int] = [:]
    /// How many values the depth limit has cut.
    private var cuts = 0

    init(ancestors: [ObjectIdentifier] = []) {
        self.ancestors = ancestors
    }

    /// The marker of an object met again, or `nil` — then `value` is entered
    /// if it is an object, and `leave(_:depth:)` must follow.
    mutating func enter(_ value: Any, _ mirror: Mirror, depth: Int) -> String? {
        guard mirror.displayStyle == .class else { return nil }
        let id = ObjectIdentifier(value as AnyObject)
        if ancestors.contains(id) { return ValueDump.typeName(value) + "(↩︎)" }
        if let shownFrom = shown[id], depth >= shownFrom { return ValueDump.typeName(value) + "(↑)" }
        ancestors.append(id)
        cutsOnEntry.append(cuts)
        return nil
    }

    /// Leaves the object entered last, at `depth`.
    mutating func leave(_ mirror: Mirror, depth: Int) {
        guard mirror.displayStyle == .class, let id = ancestors.popLast(), let cutsBefore = cutsOnEntry.popLast() else { return }
        shown[id] = min(shown[id] ?? .max, cuts == cutsBefore ? Int.min : depth)
    }

    /// Notes that the depth limit cut a value.
    mutating func cut() {
        cuts += 1
    }

    /// Takes in what `each` met, a walk of one of several values that each
    /// began at `start` — so that which of them shows a shared object first
    /// does not depend on their order.
    mutating func absorb(_ each: ObjectWalk, from start: ObjectWalk) {
        shown.merge(each.shown, uniquingKeysWith: min)
        cuts += each.cuts - start.cuts
    }
}

extension ValueDump {
    /// The runs of `pairs` (sorted by key) whose keys print alike, in order:
    /// a run of more than one holds values whose order is the dictionary's,
    /// which changes from run to run, so each is walked from the same start.
    static func runsOfEqualKeys(_ pairs: [(key: String, value: Any)]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var index = 0
        while index < pairs.count {
            var end = index + 1
            while end < pairs.count, pairs[end].key == pairs[index].key { end += 1 }
            runs.append(index..<end)
            index = end
        }
        return runs
    }
}
