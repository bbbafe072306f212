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
    /// Every value prints in bounded time and space: past a depth of 32 a
    /// value prints as `…`, an object inside itself as `Name(↩︎)`, and an
    /// object met again elsewhere as `Name(↑)`.
    ///
    /// An enum case without a payload prints as `.` and its `description`:
    /// reflection gives no case name otherwise, so two cases of an enum whose
    /// `description` is not its case name may print alike. A struct that
    /// reflects nothing prints its `description` too, if it has one
    /// (Foundation's `UUID` on Linux: `UUID(E621E1F8-…)`) — so such a type's
    /// description should say what tells its values apart, and nothing that
    /// changes from run to run or must not be logged. An address never
    /// prints: a pointer prints as `(an address)`, and a collection whose
    /// reflection shows one (Foundation's `Data`) prints its elements, or
    /// past 64 their count and a digest of them.
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
        var dumper = Dumper(ancestors: ancestors)
        return dumper.render(value, indent: indent, depth: 0)
    }

    package static func renderOneLine(_ value: Any, depth: Int = 0, ancestors: [ObjectIdentifier] = []) -> String {
        var dumper = Dumper(ancestors: ancestors)
        return dumper.oneLine(value, depth: depth)
    }

    /// One dump's walk through a value. What makes every value print in
    /// bounded time and space:
    /// - one depth for the whole walk, one-line and multiline parts alike:
    ///   past ``depthLimit`` a value prints as `…`;
    /// - cycles and shared objects printed once (`ObjectWalk`);
    /// - a one-line attempt stops as soon as it is longer than a line, so a
    ///   deep value is not rendered whole at every level only to be broken
    ///   into lines.
    struct Dumper {
        /// The objects printed so far.
        var objects: ObjectWalk
        /// How many characters a one-line attempt may write; `nil` for none.
        var budget: Int?

        init(ancestors: [ObjectIdentifier]) {
            objects = ObjectWalk(ancestors: ancestors)
        }

        mutating func render(_ value: Any, indent: Int, depth: Int) -> String {
            // A leaf is its text, however long: broken into lines, a long
            // string printed its reflection, `String()`.
            if depth <= depthLimit, !(value is AnyError), let leaf = leafText(value) { return leaf }
            var attempt = self
            attempt.budget = lineLimit
            let flat = attempt.oneLine(value, depth: depth)
            if let left = attempt.budget, left >= 0, flat.count <= lineLimit {
                attempt.budget = budget
                self = attempt
                return flat
            }
            return multiline(value, indent: indent, depth: depth)
        }

        /// Spends `text` from the budget of a one-line attempt.
        mutating func spend(_ text: String) -> String {
            if let left = budget { budget = left - text.count }
            return text
        }

        /// `…`, where the depth limit cuts a value.
        mutating func cut() -> String {
            objects.cut()
            return spend("…")
        }

        /// A dictionary's entries, in `pairs`' order (sorted by key), each
        /// value printed with `print`. The values of keys that print alike —
        /// whose order is the dictionary's, which changes from run to run —
        /// are printed from the same start and sorted by their text.
        mutating func entries(
            _ pairs: [(key: String, value: Any)], _ print: (inout Dumper, Any) -> String
        ) -> [(key: String, text: String)] {
            var result: [(key: String, text: String)] = []
            for run in runsOfEqualKeys(pairs) {
                let key = pairs[run.lowerBound].key
                if run.count == 1 {
                    result.append((key, print(&self, pairs[run.lowerBound].value)))
                } else {
                    result += independently(pairs[run].map(\.value), print).sorted().map { (key, $0) }
                }
            }
            return result
        }

        /// `values`, each printed from the same start, so that which of them
        /// shows a shared object first does not depend on their order — a
        /// set's, or that of dictionary values whose keys print alike.
        mutating func independently(_ values: [Any], _ print: (inout Dumper, Any) -> String) -> [String] {
            let start = self
            var texts: [String] = []
            for value in values {
                var each = start
                each.budget = budget
                texts.append(print(&each, value))
                objects.absorb(each.objects, from: start.objects)
                budget = each.budget
            }
            return texts
        }

        // MARK: One line

        mutating func oneLine(_ value: Any, depth: Int) -> String {
            if let left = budget, left < 0 { return "" }
            if depth > depthLimit { return cut() }
            // Before `leafText`, which prints its base on its own: inside a
            // dump, the base is part of the walk (an error may hold itself).
            if let error = value as? AnyError { return spend("AnyError(") + oneLine(error.base, depth: depth + 1) + ")" }
            if let leaf = leafText(value) { return spend(leaf) }
            let mirror = Mirror(reflecting: value)
            if let again = objects.enter(value, mirror, depth: depth) { return spend(again) }
            defer { objects.leave(mirror, depth: depth) }
            func child(_ value: Any) -> String { oneLine(value, depth: depth + 1) }
            switch mirror.displayStyle {
            case .optional:
                return mirror.children.first.map { child($0.value) } ?? "nil"
            case .enum:
                guard let payload = mirror.children.first else { return spend("." + String(describing: value)) }
                let items = fields(Mirror(reflecting: payload.value), payloadOf: payload.value)
                return spend("." + (payload.label ?? "") + "(")
                    + items.map { labelled($0.label, child($0.value)) }.joined(separator: ", ") + ")"
            case .collection:
                return "[" + mirror.children.map { child($0.value) }.joined(separator: ", ") + "]"
            case .set:
                let elements = independently(mirror.children.map(\.value)) { $0.oneLine($1, depth: depth + 1) }
                return "Set([" + elements.sorted().joined(separator: ", ") + "])"
            case .dictionary:
                let texts = entries(keyValuePairs(of: value, mirror)) { $0.oneLine($1, depth: depth + 1) }
                return texts.isEmpty ? "[:]" : "[" + texts.map { spend("\($0.key): ") + $0.text }.joined(separator: ", ") + "]"
            case .tuple:
                return "(" + fields(mirror).map { labelled($0.label, child($0.value)) }.joined(separator: ", ") + ")"
            default:
                return spend(typeName(value) + "(")
                    + fields(mirror).map { labelled($0.label, child($0.value)) }.joined(separator: ", ") + ")"
            }
        }

        // MARK: Several lines

        mutating func multiline(_ value: Any, indent: Int, depth: Int) -> String {
            let pad = String(repeating: "  ", count: indent + 1)
            let close = String(repeating: "  ", count: indent)
            func block(_ open: String, _ lines: [String], _ end: String) -> String {
                lines.isEmpty ? open + end : open + "\n" + lines.map { pad + $0 + ",\n" }.joined() + close + end
            }
            if let error = value as? AnyError {
                return block("AnyError(", ["base: " + render(error.base, indent: indent + 1, depth: depth + 1)], ")")
            }
            let mirror = Mirror(reflecting: value)
            if let again = objects.enter(value, mirror, depth: depth) { return again }
            defer { objects.leave(mirror, depth: depth) }
            func child(_ value: Any) -> String { render(value, indent: indent + 1, depth: depth + 1) }
            switch mirror.displayStyle {
            case .optional:
                return mirror.children.first.map { render($0.value, indent: indent, depth: depth + 1) } ?? "nil"
            case .enum:
                guard let payload = mirror.children.first else { return oneLine(value, depth: depth) }
                let name = "." + (payload.label ?? "")
                let items = fields(Mirror(reflecting: payload.value), payloadOf: payload.value)
                return block(name + "(", items.map { labelled($0.label, child($0.value)) }, ")")
            case .collection:
                return block("[", mirror.children.map { child($0.value) }, "]")
            case .set:
                let elements = independently(mirror.children.map(\.value)) { $0.render($1, indent: indent + 1, depth: depth + 1) }
                return block("Set([", elements.sorted(), "])")
            case .dictionary:
                let texts = entries(keyValuePairs(of: value, mirror)) { $0.render($1, indent: indent + 1, depth: depth + 1) }
                return block("[", texts.map { "\($0.key): \($0.text)" }, "]")
            case .tuple:
                return block("(", fields(mirror).map { labelled($0.label, child($0.value)) }, ")")
            default:
                return block(typeName(value) + "(", fields(mirror).map { labelled($0.label, child($0.value)) }, ")")
            }
        }
    }

    // MARK: Pieces

    /// The text of a value that has no structure worth showing, or `nil`.
    static func leafText(_ value: Any) -> String? {
        // Unwrap first: a boxed `Optional(5)` would otherwise cast to `Numeric`
        // and print as `Optional(5)`.
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let some = mirror.children.first else { return "nil" }
            let inner = leafText(some.value)
            // `.some(nil)` is not `nil`, however deep: an `Int??` set to
            // `.some(nil)` changed.
            if Mirror(reflecting: some.value).displayStyle == .optional, let inner, inner == "nil" || inner.hasPrefix(".some(") {
                return ".some(\(inner))"
            }
            return inner
        }
        switch value {
        case let string as String: return string.debugDescription
        case let substring as Substring: return String(substring).debugDescription
        case let character as Character: return String(character).debugDescription
        case let id as LoadID: return id.description
        case let duration as Duration: return duration.description
        case let described as any DumpedByDescription: return described.dumpText
        case let error as AnyError: return renderOneLine(error)
        case is any Numeric, is Bool: return String(describing: value)
        default: break
        }
        if isAddress(value) { return "(an address)" }
        if let elements = elementsInsteadOfAddress(value, mirror) { return elements }
        // A subclass may hold all its fields in a superclass: it is empty
        // only if the whole chain is (it printed `NotFound()` whatever its
        // message, and two such errors compared equal).
        if mirror.children.isEmpty, mirror.displayStyle != .class || fields(mirror).isEmpty {
            switch mirror.displayStyle {
            case .enum: return "." + String(describing: value)
            // A value type that reflects nothing but describes itself —
            // Foundation's `UUID` on Linux — is what it describes: printed
            // as `UUID()`, a changed ID looked unchanged to every diff.
            case .struct where value is any CustomStringConvertible: return typeName(value) + "(\(value))"
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

    /// Whether `value` is a raw address, which differs every run: never
    /// printed, so a dump, a diff and a recording file read the same on
    /// every machine.
    static func isAddress(_ value: Any) -> Bool {
        value is any _Pointer || value is OpaquePointer
    }

    /// A sequence whose reflection shows an address — Foundation's `Data`
    /// shows its buffer's, and its bytes only when fewer than 64 — printed
    /// by its elements instead: all of them up to 64, else their count and
    /// a digest of them all, so that a change of content always shows.
    static func elementsInsteadOfAddress(_ value: Any, _ mirror: Mirror) -> String? {
        // The cast last: it is the costly part, and a dump asks every value.
        // A collection, so it can be read again and ends; not a buffer
        // pointer, whose memory may be gone.
        guard mirror.displayStyle == .struct, mirror.children.contains(where: { isAddress($0.value) }),
            !typeName(value).hasPrefix("Unsafe"), let collection = value as? any Collection
        else { return nil }
        return typeName(value) + "(" + elementsText(collection) + ")"
    }

    /// Up to 64 elements, listed; more, counted and digested (FNV-1a, 64
    /// bits: stable across runs and platforms, unlike `Hasher`) — bytes
    /// straight, as a `Data` of a few megabytes took a second when each
    /// byte was described first.
    static func elementsText<C: Collection>(_ collection: C) -> String {
        let count = collection.count
        guard count > 64 else { return "[" + collection.map { String(describing: $0) }.joined(separator: ", ") + "]" }
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if let bytes = collection as? any Collection<UInt8> {
            for byte in bytes { mix(byte) }
        } else {
            for element in collection {
                for byte in String(describing: element).utf8 { mix(byte) }
                mix(0x2C)
            }
        }
        let hex = String(digest, radix: 16)
        return "\(count) elements, digest " + String(repeating: "0", count: 16 - hex.count) + hex
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
