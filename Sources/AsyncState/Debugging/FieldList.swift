/// A value flattened into `path: text` leaves, so two states can be compared
/// field by field: `profile.state: .loading → .success(value: 3)`.
package struct FieldList: Equatable {
    var entries: [(path: String, text: String)]

    package static func == (lhs: FieldList, rhs: FieldList) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.path == $1.path && $0.text == $1.text }
    }

    package init(_ value: Any) {
        entries = []
        flatten(value, path: "", depth: 0)
    }

    private mutating func flatten(_ value: Any, path: String, depth: Int) {
        if depth > ValueDump.depthLimit || ValueDump.leafText(value) != nil {
            entries.append((path, ValueDump.renderOneLine(value)))
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let some = mirror.children.first {
                flatten(some.value, path: path, depth: depth + 1)
            } else {
                entries.append((path, "nil"))
            }
        case .collection:
            entries.append((join(path, "count"), String(mirror.children.count)))
            for (index, child) in mirror.children.enumerated() {
                flatten(child.value, path: path + "[\(index)]", depth: depth + 1)
            }
        case .dictionary:
            let pairs = ValueDump.keyValuePairs(of: value, mirror)
            entries.append((join(path, "count"), String(pairs.count)))
            if value is any OrderedKeyValuePairs {
                entries.append((join(path, "keys"), "[" + pairs.map(\.key).joined(separator: ", ") + "]"))
            }
            for pair in pairs {
                flatten(pair.value, path: path + "[\(pair.key)]", depth: depth + 1)
            }
        case .struct, .class, .tuple:
            for field in ValueDump.fields(mirror) {
                let label = field.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "?"
                flatten(field.value, path: join(path, label), depth: depth + 1)
            }
        default:
            entries.append((path, ValueDump.renderOneLine(value)))
        }
    }

    private func join(_ path: String, _ label: String) -> String {
        path.isEmpty ? label : path + "." + label
    }

    /// The fields that differ from `old` to `self`, as readable lines.
    package func changes(from old: FieldList) -> [String] {
        let oldByPath = Dictionary(old.entries.map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })
        let newPaths = Set(entries.map(\.path))
        var lines: [String] = []
        for entry in entries {
            let name = entry.path.isEmpty ? "(value)" : entry.path
            switch oldByPath[entry.path] {
            case nil: lines.append("\(name): + \(entry.text)")
            case let previous? where previous != entry.text: lines.append("\(name): \(previous) → \(entry.text)")
            default: break
            }
        }
        for entry in old.entries where !newPaths.contains(entry.path) {
            lines.append("\(entry.path.isEmpty ? "(value)" : entry.path): - \(entry.text)")
        }
        return lines
    }
}
