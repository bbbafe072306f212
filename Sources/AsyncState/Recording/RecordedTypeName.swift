/// The name a recording gives a type — an edit's, or a feature's action's.
///
/// It is the type's full name, `String(reflecting:)`, with the context Swift
/// prints for a `private`, `fileprivate` or local type,
/// `(unknown context at $55a40d1890ac)`, written as `(private)`. That
/// context is an address, which changes with every run of a program: a name
/// that kept it matched only in the process that wrote the recording, so a
/// recording made in an app could not be read in a test.
package enum RecordedTypeName {
    /// `type`'s name as a recording writes it.
    package static func of(_ type: Any.Type) -> String {
        normalized(String(reflecting: type))
    }

    /// `name` with each private context written as `(private)`: the name a
    /// recording writes, whether `name` was written by this version or by
    /// one that kept the address.
    package static func normalized(_ name: String) -> String {
        let context = "(unknown context at $"
        var rest = name[...]
        guard rest.firstRange(of: context) != nil else { return name }
        var result = ""
        while let range = rest.firstRange(of: context) {
            result += rest[..<range.lowerBound]
            result += "(private)"
            rest = rest[range.upperBound...]
            // The address ends at the first `)`; a name cut short there has
            // nothing after it.
            rest = rest.firstIndex(of: ")").map { rest[rest.index(after: $0)...] } ?? ""
        }
        return result + rest
    }
}
