/// A value whose state dumps (in `AsyncStateTesting`) print one line of its
/// own instead of its fields — for small records whose fields are mostly
/// `nil` and would otherwise fill a snapshot with noise.
package protocol DumpedByDescription {
    /// The one line, e.g. `LoadActivity(refresh, attempt 2 of 3 after 1.0 seconds)`.
    var dumpText: String { get }
}

extension LoadActivity: DumpedByDescription {
    package var dumpText: String { "LoadActivity(\(description))" }
}

extension LoadRetry: DumpedByDescription {
    package var dumpText: String { "LoadRetry(\(description))" }
}
