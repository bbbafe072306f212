/// A value flattened into its leaves, `path: text` in the value's order —
/// the form a recording file keeps each state in, so a replay can name the
/// fields where it diverged without decoding the state.
package struct FieldLeaves: Equatable, Sendable {
    package var entries: [Entry]

    package struct Entry: Equatable, Sendable {
        package var path: String
        package var text: String

        package init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    package init(entries: [Entry]) {
        self.entries = entries
    }

    package init(_ value: Any) {
        entries = []
        var objects = ObjectWalk()
        flatten(value, path: "", depth: 0, objects: &objects)
        // Two leaves can print the same path (dictionary keys that print
        // alike); a file keeps a state by paths, so each repeat is numbered:
        // `tags[tag]`, `tags[tag] #2`.
        var seen: [String: Int] = [:]
        for index in entries.indices {
            let count = seen[entries[index].path, default: 0] + 1
            seen[entries[index].path] = count
            if count > 1 { entries[index].path += " #\(count)" }
        }
    }

    /// Flattens `value` at `path`; an object met again is a leaf, `Name(↩︎)`
    /// or `Name(↑)`, as in a dump (`ObjectWalk`), so a graph that shares
    /// nodes or holds cycles flattens in polynomial time.
    private mutating func flatten(_ value: Any, path: String, depth: Int, objects: inout ObjectWalk) {
        if depth > ValueDump.depthLimit || ValueDump.leafText(value) != nil {
            if depth > ValueDump.depthLimit { objects.cut() }
            entries.append(Entry(path: path, text: ValueDump.renderOneLine(value, ancestors: objects.ancestors)))
            return
        }
        let mirror = Mirror(reflecting: value)
        if let again = objects.enter(value, mirror, depth: depth) { return entries.append(Entry(path: path, text: again)) }
        defer { objects.leave(mirror, depth: depth) }
        switch mirror.displayStyle {
        case .optional:
            if let some = mirror.children.first {
                flatten(some.value, path: path, depth: depth + 1, objects: &objects)
            } else {
                entries.append(Entry(path: path, text: "nil"))
            }
        case .collection where !mirror.children.isEmpty:
            for (index, child) in mirror.children.enumerated() {
                flatten(child.value, path: path + "[\(index)]", depth: depth + 1, objects: &objects)
            }
        case .dictionary where !mirror.children.isEmpty:
            let pairs = ValueDump.keyValuePairs(of: value, mirror)
            for run in ValueDump.runsOfEqualKeys(pairs) {
                let childPath = path + "[\(pairs[run.lowerBound].key)]"
                guard run.count > 1 else {
                    flatten(pairs[run.lowerBound].value, path: childPath, depth: depth + 1, objects: &objects)
                    continue
                }
                // Keys that print alike: each value is flattened from the
                // same start, and the values are put in the order of their
                // leaves' text (as a dump prints them).
                let start = objects
                var groups: [[Entry]] = []
                for pair in pairs[run] {
                    var leaves = FieldLeaves(entries: [])
                    var each = start
                    leaves.flatten(pair.value, path: childPath, depth: depth + 1, objects: &each)
                    groups.append(leaves.entries)
                    objects.absorb(each, from: start)
                }
                entries += groups.sorted { $0.map(\.text).lexicographicallyPrecedes($1.map(\.text)) }.joined()
            }
        case .struct, .class, .tuple:
            for field in ValueDump.fields(mirror) {
                let label = field.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "?"
                flatten(field.value, path: path.isEmpty ? label : path + "." + label, depth: depth + 1, objects: &objects)
            }
        default:
            entries.append(Entry(path: path, text: ValueDump.renderOneLine(value, ancestors: objects.ancestors)))
        }
    }

    /// The leaves that differ from `old` to `self`, in this value's order,
    /// each leaf only `old` has just after the leaf before it there — the
    /// same shape of lines ``FieldDiff`` prints.
    package func changes(from old: FieldLeaves) -> [String] {
        FieldDiff.lines(fromNamed: old.entries.map { ($0.path, $0.text) }, toNamed: entries.map { ($0.path, $0.text) })
    }

    /// The entries whose text differs from `old`'s, when `self` has exactly
    /// `old`'s paths in `old`'s order — how a recording file writes a step
    /// that changed no structure — or `nil` when the paths differ.
    package func changedEntries(from old: FieldLeaves) -> [Entry]? {
        guard entries.count == old.entries.count, zip(entries, old.entries).allSatisfy({ $0.path == $1.path }) else { return nil }
        return zip(entries, old.entries).filter { $0.text != $1.text }.map(\.0)
    }

    /// `self` with the texts of `changed` put in; `nil` if one of its paths
    /// is not here.
    package func replacing(_ changed: [Entry]) -> FieldLeaves? {
        var result = self
        let position = Dictionary(entries.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        for entry in changed {
            guard let index = position[entry.path] else { return nil }
            result.entries[index].text = entry.text
        }
        return result
    }
}
