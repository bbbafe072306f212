extension String {
    /// A deterministic, readable rendering of `value`, built with `Mirror`:
    /// structs and classes by field, enums with their associated values,
    /// arrays, sets and dictionaries (sets and dictionaries sorted), optionals
    /// unwrapped, strings quoted, load IDs as `#n`. No addresses, no timestamps,
    /// so the text is stable across runs and machines.
    ///
    /// ```swift
    /// let text = String(dumping: Loadable<Int, Never>(value: 3))
    /// // Loadable<Int, Never>(
    /// //   state: .success(value: 3),
    /// //   …
    /// ```
    ///
    /// Small values stay on one line; larger ones break into indented lines.
    public init(dumping value: Any) {
        self = ValueDump.render(value, indent: 0, ancestors: [])
    }
}

/// The rules behind `String(dumping:)` and the field-level snapshot changes.
package enum ValueDump {
    /// Values whose one-line form is at most this long stay on one line.
    static let lineLimit = 80
    /// Deeper values print as `…`, which keeps pathological graphs finite.
    static let depthLimit = 32

    static func render(_ value: Any, indent: Int, ancestors: [ObjectIdentifier]) -> String {
        let flat = renderOneLine(value, depth: 0, ancestors: ancestors)
        if flat.count <= lineLimit { return flat }
        return renderMultiline(value, indent: indent, ancestors: ancestors)
    }

    // MARK: One line

    package static func renderOneLine(_ value: Any, depth: Int = 0, ancestors: [ObjectIdentifier] = []) -> String {
        if depth > depthLimit { return "…" }
        if let leaf = leafText(value) { return leaf }
        let mirror = Mirror(reflecting: value)
        var ancestors = ancestors
        if mirror.displayStyle == .class {
            let id = ObjectIdentifier(value as AnyObject)
            if ancestors.contains(id) { return "\(typeName(value))(↩︎)" }
            ancestors.append(id)
        }
        let child = { (value: Any) in renderOneLine(value, depth: depth + 1, ancestors: ancestors) }
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { child($0.value) } ?? "nil"
        case .enum:
            return enumText(value, mirror) { child($0) }
        case .collection:
            return "[" + mirror.children.map { child($0.value) }.joined(separator: ", ") + "]"
        case .set:
            return "Set([" + mirror.children.map { child($0.value) }.sorted().joined(separator: ", ") + "])"
        case .dictionary:
            let pairs = keyValuePairs(of: value, mirror).map { "\($0.key): \(child($0.value))" }
            return pairs.isEmpty ? "[:]" : "[" + pairs.joined(separator: ", ") + "]"
        case .tuple:
            return "(" + fields(mirror).map { labelled($0.label, child($0.value)) }.joined(separator: ", ") + ")"
        default:
            return typeName(value) + "(" + fields(mirror).map { labelled($0.label, child($0.value)) }.joined(separator: ", ") + ")"
        }
    }

    // MARK: Several lines

    private static func renderMultiline(_ value: Any, indent: Int, ancestors: [ObjectIdentifier]) -> String {
        let mirror = Mirror(reflecting: value)
        var ancestors = ancestors
        if mirror.displayStyle == .class {
            ancestors.append(ObjectIdentifier(value as AnyObject))
        }
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent)
        let child = { (value: Any) in render(value, indent: indent + 1, ancestors: ancestors) }
        func block(_ open: String, _ lines: [String], _ end: String) -> String {
            lines.isEmpty ? open + end : open + "\n" + lines.map { pad + $0 + ",\n" }.joined() + close + end
        }
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { render($0.value, indent: indent, ancestors: ancestors) } ?? "nil"
        case .enum:
            guard let payload = mirror.children.first else { return renderOneLine(value) }
            let name = "." + (payload.label ?? "")
            let items = fields(Mirror(reflecting: payload.value), payloadOf: payload.value)
            return block(name + "(", items.map { labelled($0.label, child($0.value)) }, ")")
        case .collection:
            return block("[", mirror.children.map { child($0.value) }, "]")
        case .set:
            return block("Set([", mirror.children.map { child($0.value) }.sorted(), "])")
        case .dictionary:
            let pairs = keyValuePairs(of: value, mirror)
            return block("[", pairs.map { "\($0.key): \(child($0.value))" }, "]")
        case .tuple:
            return block("(", fields(mirror).map { labelled($0.label, child($0.value)) }, ")")
        default:
            return block(typeName(value) + "(", fields(mirror).map { labelled($0.label, child($0.value)) }, ")")
        }
    }

    // MARK: Pieces

    /// The text of a value that has no structure worth showing, or `nil`.
    static func leafText(_ value: Any) -> String? {
        // Unwrap first: a boxed `Optional(5)` would otherwise cast to `Numeric`
        // and print as `Optional(5)`.
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { leafText($0.value) } ?? "nil"
        }
        switch value {
        case let string as String: return string.debugDescription
        case let substring as Substring: return String(substring).debugDescription
        case let character as Character: return String(character).debugDescription
        case let id as LoadID: return id.description
        case let duration as Duration: return duration.description
        case let described as any DumpedByDescription: return described.dumpText
        case let error as AnyError: return "AnyError(\(renderOneLine(error.base)))"
        case is any Numeric, is Bool: return String(describing: value)
        default: break
        }
        if mirror.children.isEmpty {
            switch mirror.displayStyle {
            case .enum: return "." + String(describing: value)
            case .struct, .class: return typeName(value) + "()"
            case .collection: return "[]"
            case .dictionary: return "[:]"
            case .set: return "Set([])"
            case .tuple: return "()"
            case .optional: return "nil"
            default: return String(describing: value)
            }
        }
        return nil
    }

    private static func enumText(_ value: Any, _ mirror: Mirror, child: (Any) -> String) -> String {
        guard let payload = mirror.children.first else { return "." + String(describing: value) }
        let items = fields(Mirror(reflecting: payload.value), payloadOf: payload.value)
        return "." + (payload.label ?? "") + "(" + items.map { labelled($0.label, child($0.value)) }.joined(separator: ", ") + ")"
    }

    /// The labelled parts of a struct, class or tuple — or of an enum payload,
    /// which is a tuple when it has several or labelled values.
    static func fields(_ mirror: Mirror, payloadOf payload: Any? = nil) -> [(label: String?, value: Any)] {
        if let payload, mirror.displayStyle != .tuple {
            return [(nil, payload)]
        }
        var result: [(label: String?, value: Any)] = []
        var current: Mirror? = mirror
        var chain: [Mirror] = []
        while let m = current {
            chain.append(m)
            current = m.superclassMirror
        }
        for m in chain.reversed() {
            for child in m.children { result.append((child.label, child.value)) }
        }
        return result
    }

    /// A dictionary's pairs with their keys rendered: sorted by key, so a
    /// `Dictionary` dumps the same every run — or in the mirror's order for a
    /// collection whose order is part of its value, such as `KeyedStates`.
    static func keyValuePairs(of value: Any, _ mirror: Mirror) -> [(key: String, value: Any)] {
        let pairs = dictionaryPairs(mirror).map { (key: renderOneLine($0.key), value: $0.value) }
        guard !(value is any OrderedKeyValuePairs) else { return pairs }
        // Keys that print alike are ordered by their values' text, so the
        // order does not depend on the dictionary's, which changes with its
        // capacity and, across processes, with the hashing seed.
        return pairs.sorted { $0.key != $1.key ? $0.key < $1.key : renderOneLine($0.value) < renderOneLine($1.value) }
    }

    static func dictionaryPairs(_ mirror: Mirror) -> [(key: Any, value: Any)] {
        mirror.children.compactMap { child in
            let pair = Array(Mirror(reflecting: child.value).children)
            guard pair.count == 2 else { return nil }
            return (pair[0].value, pair[1].value)
        }
    }

    /// `label: text`, leaving out the positional labels of tuples (`.0`).
    static func labelled(_ label: String?, _ text: String) -> String {
        guard let label, !label.hasPrefix("."), !label.isEmpty else { return text }
        return "\(label): \(text)"
    }

    static func typeName(_ value: Any) -> String {
        String(describing: type(of: value))
    }
}
