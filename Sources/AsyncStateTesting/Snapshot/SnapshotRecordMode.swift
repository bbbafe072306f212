#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// When a snapshot assertion writes the snapshot file — the conventions of
/// swift-snapshot-testing.
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Write snapshots that do not exist yet; compare the rest. The default on
    /// a developer's machine.
    case missing
    /// Write every snapshot, replacing what is there (the test fails, so a
    /// re-record is never mistaken for a pass).
    case all
    /// Write snapshots that are missing or do not match.
    case failed
    /// Never write; a missing snapshot is a failure. The default when the `CI`
    /// environment variable is set, so CI can never create a snapshot.
    case never

    /// The name of the environment variable that sets the mode for a whole run.
    public static let environmentVariable = "ASYNCSTATE_RECORD"

    /// The mode to use when an assertion names none: ``environmentVariable`` if
    /// set to a mode's name, else ``never`` under CI (`CI` set, and not
    /// `false`, `no` or `0`), else ``missing``. An assertion that names no
    /// mode fails when ``environmentVariable`` names none of them.
    public static var current: SnapshotRecordMode {
        resolve(environment: { key in getenv(key).map { String(cString: $0) } })
    }

    /// The same decision as ``current``, reading variables from `environment`.
    static func resolve(environment: (String) -> String?) -> SnapshotRecordMode {
        if let value = environment(environmentVariable),
            let mode = SnapshotRecordMode(rawValue: value.lowercased())
        {
            return mode
        }
        if let ci = environment("CI"), !ci.isEmpty, !["false", "no", "0"].contains(ci.lowercased()) {
            return .never
        }
        return .missing
    }

    /// Why ``environmentVariable``, as `environment` reads it, sets no mode
    /// though it is set; `nil` when it is unset or names a mode.
    static func environmentProblem(environment: (String) -> String?) -> String? {
        guard let value = environment(environmentVariable), SnapshotRecordMode(rawValue: value.lowercased()) == nil else {
            return nil
        }
        let names = Self.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(environmentVariable)=\(value) names no record mode (\(names)); nothing was compared or recorded."
    }
}
