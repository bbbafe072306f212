/// The changes from one value to another, field by field, in the order the
/// fields appear in the value: `profile.state: .loading → .success(value: 3)`.
///
/// One diff serves logs, snapshots, `TestStore` failures and replay
/// divergences, so a change reads the same wherever it is shown. Its rules:
/// - Two values of the same shape (same type and fields, an optional holding
///   something on both sides, collections of one count) are compared inside,
///   each field at its own path.
/// - Anything else is one change at its path — `pair: nil → Pair(x: 1, y: 2)`,
///   `list: [] → [7, 8]` — on one line, or with the old side directly above the
///   new side when the line would be long.
/// - A field, element or key present on one side only is `path: + new` or
///   `path: - old`, listed where it stands, never gathered at the end.
package enum FieldDiff {
    /// A change whose one-line form is longer than this prints on three lines.
    static let lineLimit = 120

    /// The lines that describe the changes from `old` to `new`; empty when the
    /// two print the same.
    package static func lines(from old: Any, to new: Any) -> [String] {
        var lines: [String] = []
        compare(old, new, path: "", depth: 0, walk: Walk(), into: &lines)
        return lines
    }

    /// The pairs of objects one diff has compared. An object is compared
    /// once with each other: its graph may share nodes or hold cycles, and
    /// compared along every path, a ring of two objects with three fields
    /// each took 3³² steps.
    private final class Walk {
        struct Pair: Hashable {
            let old: ObjectIdentifier
            let new: ObjectIdentifier
        }
        var compared: Set<Pair> = []
    }

    /// The changes between two lists of named texts (a recording's leaves):
    /// names in the new list's order, each old-only name after its
    /// predecessor there.
    package static func lines(fromNamed old: [(String, String)], toNamed new: [(String, String)]) -> [String] {
        var lines: [String] = []
        merge(
            old.map { ($0.0, LeafText(text: $0.1)) }, new.map { ($0.0, LeafText(text: $0.1)) }, path: { $0 }, depth: 0, walk: Walk(),
            into: &lines)
        return lines
    }

    private static func compare(_ old: Any, _ new: Any, path: String, depth: Int, walk: Walk, into lines: inout [String]) {
        guard depth <= ValueDump.depthLimit, ValueDump.leafText(old) == nil, ValueDump.leafText(new) == nil,
            type(of: old) == type(of: new)
        else { return change(old, new, path: path, into: &lines) }
        let oldMirror = Mirror(reflecting: old)
        let newMirror = Mirror(reflecting: new)
        guard oldMirror.displayStyle == newMirror.displayStyle else { return change(old, new, path: path, into: &lines) }
        if newMirror.displayStyle == .class {
            // One object on both sides prints the same on both: no change.
            let pair = Walk.Pair(old: ObjectIdentifier(old as AnyObject), new: ObjectIdentifier(new as AnyObject))
            guard pair.old != pair.new, walk.compared.insert(pair).inserted else { return }
        }
        switch newMirror.displayStyle {
        case .optional:
            guard let oldSome = oldMirror.children.first, let newSome = newMirror.children.first else {
                return change(old, new, path: path, into: &lines)
            }
            compare(oldSome.value, newSome.value, path: path, depth: depth + 1, walk: walk, into: &lines)
        case .collection:
            let oldItems = oldMirror.children.map(\.value)
            let newItems = newMirror.children.map(\.value)
            guard !oldItems.isEmpty, !newItems.isEmpty else { return change(old, new, path: path, into: &lines) }
            for index in 0..<max(oldItems.count, newItems.count) {
                let itemPath = path + "[\(index)]"
                switch (index < oldItems.count, index < newItems.count) {
                case (true, true): compare(oldItems[index], newItems[index], path: itemPath, depth: depth + 1, walk: walk, into: &lines)
                case (false, _): lines.append("\(itemPath): + \(ValueDump.renderOneLine(newItems[index]))")
                case (_, false): lines.append("\(itemPath): - \(ValueDump.renderOneLine(oldItems[index]))")
                }
            }
        case .dictionary:
            compareKeyed(old, oldMirror, new, newMirror, path: path, depth: depth, walk: walk, into: &lines)
        case .enum:
            // A short change reads best whole (`.loading → .success(value: 3)`);
            // a long one within one case goes inside its payload, so a page
            // appended to a loaded list is one line, not the list twice.
            guard let oldCase = oldMirror.children.first, let newCase = newMirror.children.first,
                oldCase.label == newCase.label, let name = newCase.label,
                ValueDump.renderOneLine(old).count + ValueDump.renderOneLine(new).count + display(path).count + 5 > lineLimit
            else { return change(old, new, path: path, into: &lines) }
            let oldPayload = labelled(ValueDump.fields(Mirror(reflecting: oldCase.value), payloadOf: oldCase.value))
            let newPayload = labelled(ValueDump.fields(Mirror(reflecting: newCase.value), payloadOf: newCase.value))
            let casePath = join(path, name)
            if newPayload.count == 1, newPayload[0].name == "0", oldPayload.count == 1 {
                compare(oldPayload[0].value, newPayload[0].value, path: casePath, depth: depth + 1, walk: walk, into: &lines)
            } else {
                merge(oldPayload, newPayload, path: { join(casePath, $0) }, depth: depth, walk: walk, into: &lines)
            }
        case .struct, .class, .tuple:
            let oldFields = labelled(ValueDump.fields(oldMirror))
            let newFields = labelled(ValueDump.fields(newMirror))
            merge(oldFields, newFields, path: { join(path, $0) }, depth: depth, walk: walk, into: &lines)
        default:
            change(old, new, path: path, into: &lines)
        }
    }

    /// Dictionaries and keyed collections: by key, in the collection's order
    /// (sorted for a `Dictionary`); for an ordered one, a change of order
    /// first, as `keys: [1, 2] → [2, 1]`.
    private static func compareKeyed(
        _ old: Any, _ oldMirror: Mirror, _ new: Any, _ newMirror: Mirror, path: String, depth: Int, walk: Walk,
        into lines: inout [String]
    ) {
        let oldPairs = ValueDump.keyValuePairs(of: old, oldMirror)
        let newPairs = ValueDump.keyValuePairs(of: new, newMirror)
        guard !oldPairs.isEmpty, !newPairs.isEmpty else { return change(old, new, path: path, into: &lines) }
        if new is any OrderedKeyValuePairs {
            let newKeys = Set(newPairs.map(\.key))
            let oldKeys = Set(oldPairs.map(\.key))
            let oldOrder = oldPairs.map(\.key).filter(newKeys.contains)
            let newOrder = newPairs.map(\.key).filter(oldKeys.contains)
            if oldOrder != newOrder {
                change(
                    text: "[" + oldOrder.joined(separator: ", ") + "]", "[" + newOrder.joined(separator: ", ") + "]",
                    path: join(path, "keys"), into: &lines)
            }
        }
        merge(
            oldPairs.map { ($0.key, $0.value) }, newPairs.map { ($0.key, $0.value) }, path: { path + "[\($0)]" }, depth: depth,
            walk: walk, into: &lines)
    }

    /// Compares two lists of named parts: the names in the new list's order,
    /// each name only the old list has just after the name before it there.
    /// A name that repeats (dictionary keys that print alike) is told apart
    /// by its place among its repeats, `tags[tag] #2`, as a recording's
    /// leaves are (`FieldLeaves`).
    private static func merge(
        _ old: [(name: String, value: Any)], _ new: [(name: String, value: Any)], path: (String) -> String, depth: Int,
        walk: Walk, into lines: inout [String]
    ) {
        if old.map(\.name) == new.map(\.name) {
            for (before, after) in zip(old, new) {
                compare(before.value, after.value, path: path(after.name), depth: depth + 1, walk: walk, into: &lines)
            }
            return
        }
        /// Each part with its repeat number: 1 for a name's first part.
        func numbered(_ parts: [(name: String, value: Any)]) -> [(key: Key, value: Any)] {
            var seen: [String: Int] = [:]
            return parts.map { part in
                let count = seen[part.name, default: 0] + 1
                seen[part.name] = count
                return (Key(name: part.name, repeat: count), part.value)
            }
        }
        func display(_ key: Key) -> String {
            Self.display(path(key.name)) + (key.repeat > 1 ? " #\(key.repeat)" : "")
        }
        let old = numbered(old)
        let new = numbered(new)
        let oldByKey = Dictionary(old.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let newKeys = Set(new.map(\.key))
        // The old-only parts that follow each key (or the start, nil), in order.
        var removedAfter: [Key?: [(key: Key, value: Any)]] = [:]
        var previous: Key?
        for part in old {
            if newKeys.contains(part.key) {
                previous = part.key
            } else {
                removedAfter[previous, default: []].append(part)
            }
        }
        func removed(after key: Key?) {
            for part in removedAfter[key] ?? [] {
                lines.append("\(display(part.key)): - \(ValueDump.renderOneLine(part.value))")
            }
        }
        removed(after: nil)
        for part in new {
            if let before = oldByKey[part.key] {
                let partPath = path(part.key.name) + (part.key.repeat > 1 ? " #\(part.key.repeat)" : "")
                compare(before, part.value, path: partPath, depth: depth + 1, walk: walk, into: &lines)
                removed(after: part.key)
            } else {
                lines.append("\(display(part.key)): + \(ValueDump.renderOneLine(part.value))")
            }
        }
    }

    /// A part's name and which of the parts with that name it is.
    private struct Key: Hashable {
        let name: String
        let `repeat`: Int
    }

    private static func change(_ old: Any, _ new: Any, path: String, into lines: inout [String]) {
        change(text: ValueDump.renderOneLine(old), ValueDump.renderOneLine(new), path: path, into: &lines)
    }

    private static func change(text old: String, _ new: String, path: String, into lines: inout [String]) {
        guard old != new else { return }
        let name = display(path)
        if name.count + old.count + new.count + 5 <= lineLimit {
            lines.append("\(name): \(old) → \(new)")
        } else {
            lines += ["\(name):", "  - \(old)", "  + \(new)"]
        }
    }

    private static func labelled(_ fields: [(label: String?, value: Any)]) -> [(name: String, value: Any)] {
        fields.enumerated().map { index, field in
            let label = field.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "\(index)"
            return (label, field.value)
        }
    }

    private static func join(_ path: String, _ label: String) -> String {
        path.isEmpty ? label : path + "." + label
    }

    private static func display(_ path: String) -> String {
        path.isEmpty ? "(value)" : path
    }
}

/// A leaf's text, already rendered: dumps as itself.
private struct LeafText: DumpedByDescription {
    var text: String
    var dumpText: String { text }
}
