import AsyncState
import Testing
import XCTest

/// Where a test-tool assertion was written, so failures point at the test's
/// line rather than inside the library.
struct TestLocation: Sendable {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt
    /// Whether a Swift Testing test was running where the assertion was
    /// written: a failure found later, off the test's task (a test store
    /// released on another task), goes to Swift Testing still.
    let isInSwiftTesting: Bool

    init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
        self.isInSwiftTesting = Test.current != nil
    }

    /// The path of the test file, as a `String`.
    var path: String { "\(filePath)" }
}

/// Reports a failure to the framework running the current test: Swift Testing
/// when a Swift Testing test is running, XCTest otherwise.
func reportFailure(_ message: String, at location: TestLocation) {
    // Off the test's task, Swift Testing knows no current test, and XCTest
    // — which no test of its own runs — would drop the failure. Recorded
    // there all the same, it fails the run, though no test is named.
    if Test.current != nil || location.isInSwiftTesting {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: location.fileID,
                filePath: location.path,
                line: Int(location.line),
                column: Int(location.column)
            )
        )
    } else {
        XCTFail(message, file: location.filePath, line: location.line)
    }
}

/// The field changes from `old` to `new`, indented, one per line — the diff
/// logs and snapshots print too — or a note when the two differ only in what
/// their `==` sees.
func fieldChanges(from old: Any, to new: Any) -> String {
    let lines = FieldDiff.lines(from: old, to: new)
    guard !lines.isEmpty else { return "  (no field prints differently: the values differ only in what their == compares)" }
    return lines.map { "  " + $0 }.joined(separator: "\n")
}
