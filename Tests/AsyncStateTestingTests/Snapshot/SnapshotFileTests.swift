import Foundation
import Testing

@testable import AsyncStateTesting

@Suite("Snapshot files")
final class SnapshotFileTests {
    let root: URL
    let testFile: String
    let snapshot: SnapshotFile
    let recorded = "# AsyncState state sequence\ninitial: 0\n\n1. a\n   (value): 0 → 1\n\n2. b\n   (value): 1 → 2\n"

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("asyncstate-\(UUID().uuidString)")
        testFile = root.appendingPathComponent("Tests/FeatureTests.swift").path
        snapshot = SnapshotFile(name: "refresh flow", testFile: testFile)
    }

    /// Each test has its own folder; remove it so runs leave nothing behind.
    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    var path: String { snapshot.url.path }

    func contents() throws -> String { try String(contentsOf: snapshot.url, encoding: .utf8) }

    @Test("lives in __Snapshots__/<test file>/<name>.txt beside the test, with a safe file name")
    func location() {
        #expect(path == root.path + "/Tests/__Snapshots__/FeatureTests/refresh-flow.txt")
    }

    @Test("a file name keeps letters, digits, '-', '_' and '.'; every other character becomes '-'")
    func fileName() {
        #expect(SnapshotFile.fileName(for: "v1.2_final-draft: é/2") == "v1.2_final-draft--é-2.txt")
    }

    // Pinned after mutation testing: the assertion itself could ignore a
    // misspelt mode, which only the environment's own check covered.
    @Test("an assertion that names no mode fails, recording nothing, when ASYNCSTATE_RECORD names no mode")
    func misspeltEnvironmentRecordsNothing() {
        let failure = snapshot.check(recorded, record: nil, environment: { $0 == "ASYNCSTATE_RECORD" ? "true" : nil })
        #expect(failure?.hasPrefix("ASYNCSTATE_RECORD=true names no record mode") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("an assertion that names its mode does not read ASYNCSTATE_RECORD, misspelt or not")
    func namedModeIgnoresTheEnvironment() throws {
        let failure = snapshot.check(recorded, record: .missing, environment: { $0 == "ASYNCSTATE_RECORD" ? "true" : nil })
        #expect(failure?.hasPrefix("Recorded snapshot") == true)
        #expect(try contents() == recorded)
    }

    @Test("two names that make one file name: the second fails and neither compares nor records", arguments: SnapshotRecordMode.allCases)
    func namesThatCollide(mode: SnapshotRecordMode) throws {
        #expect(snapshot.check(recorded, mode: .missing) != nil, "recorded")
        let other = SnapshotFile(name: "refresh:flow", testFile: testFile)
        #expect(other.url == snapshot.url)
        let failure = try #require(other.check("# AsyncState state sequence\ninitial: 9\n", mode: mode))
        #expect(
            failure
                == "Snapshots \"refresh flow\" and \"refresh:flow\" make one file, \(path): a file name keeps letters, digits, '-', '_' and '.', and every other character becomes '-'. Give one of them another name; nothing was compared or recorded."
        )
        #expect(try contents() == recorded, "the first name's snapshot is kept")
        #expect(snapshot.check(recorded, mode: mode == .all ? .missing : mode) == nil, "the first name still compares")
    }

    // From an outside reading: only two names that make one file clashed;
    // one name in two tests compared or recorded over the other's snapshot,
    // whichever test ran first.
    @Test("one name asserted by two tests: the second fails and neither compares nor records; the first may assert it again")
    func oneNameTwoTests() throws {
        let first = SnapshotFile.Asserter(id: "first()", name: "first()")
        let second = SnapshotFile.Asserter(id: "second()", name: "second()")
        #expect(snapshot.check(recorded, mode: .missing, by: first) != nil, "recorded")
        let failure = try #require(snapshot.check("# AsyncState state sequence\ninitial: 9\n", mode: .all, by: second))
        #expect(
            failure
                == "Snapshot \"refresh flow\" is asserted by two tests, first() and second(), which would share its file \(path). Give each test's snapshot a name of its own; nothing was compared or recorded."
        )
        #expect(try contents() == recorded, "the first test's snapshot is kept")
        #expect(snapshot.check(recorded, mode: .missing, by: first) == nil, "the first test still compares")
    }

    @Test("missing + record missing: written (folders created) and the test fails once, saying so")
    func recordMissing() throws {
        let failure = snapshot.check(recorded, mode: .missing)
        #expect(failure == "Recorded snapshot \"refresh flow\" at \(path). It did not exist; check it in and run the test again.")
        #expect(try contents() == recorded)
        #expect(snapshot.check(recorded, mode: .missing) == nil)
    }

    @Test("missing + never (CI): fails and writes nothing")
    func neverRecords() {
        let failure = snapshot.check(recorded, mode: .never)
        #expect(failure?.hasPrefix("No snapshot \"refresh flow\" at \(path). Record mode is 'never'") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a mismatch names the first differing step and shows a line diff")
    func mismatch() throws {
        _ = snapshot.check(recorded, mode: .missing)
        let changed = recorded.replacingOccurrences(of: "1 → 2", with: "1 → 3")
        let failure = try #require(snapshot.check(changed, mode: .missing))
        #expect(failure.hasPrefix("Snapshot \"refresh flow\" does not match \(path), first at step 2 (line 8) (- snapshot, + actual):"))
        #expect(failure.contains("-    (value): 1 → 2\n+    (value): 1 → 3"))
        #expect(try contents() == recorded, "record missing never overwrites")
    }

    @Test("record failed: a mismatch is re-recorded and still fails")
    func recordFailed() throws {
        _ = snapshot.check(recorded, mode: .missing)
        let changed = recorded + "\n3. c\n"
        let failure = try #require(snapshot.check(changed, mode: .failed))
        #expect(failure.hasSuffix("Recorded the new snapshot (record mode 'failed')."))
        #expect(try contents() == changed)
    }

    @Test("record all: rewrites even a match, and fails so it is never mistaken for a pass")
    func recordAll() throws {
        _ = snapshot.check(recorded, mode: .missing)
        let failure = snapshot.check(recorded, mode: .all)
        #expect(failure?.hasPrefix("Re-recorded snapshot") == true)
        #expect(try contents() == recorded)
    }

    @Test("a corrupt file fails with its path, never a crash")
    func corrupt() throws {
        try FileManager.default.createDirectory(at: snapshot.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: snapshot.url)
        #expect(
            snapshot.check(recorded, mode: .missing)
                == "Cannot use snapshot \"refresh flow\" at \(path): it is corrupt: it does not start with \"# AsyncState state sequence\". Delete it and run the test again to record a new one."
        )
    }

    @Test("a file that is not UTF-8 fails with its path")
    func notText() throws {
        try FileManager.default.createDirectory(at: snapshot.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: snapshot.url)
        #expect(snapshot.check(recorded, mode: .missing)?.contains("at \(path): it is not UTF-8 text") == true)
    }

    @Test("an unreadable path fails with its path")
    func unreadable() throws {
        try FileManager.default.createDirectory(at: snapshot.url, withIntermediateDirectories: true)
        #expect(
            snapshot.check(recorded, mode: .missing)?.hasPrefix("Cannot use snapshot \"refresh flow\" at \(path): it cannot be read")
                == true)
    }

    @Test("an empty name is refused")
    func emptyName() {
        #expect(SnapshotFile(name: "", testFile: testFile).check(recorded, mode: .missing) == "A snapshot needs a non-empty name.")
    }

    @Test(
        "the first difference is located by step",
        arguments: [
            ("# h\n\n1. a\n   x\n2. b\n", "# h\n\n1. a\n   y\n2. b\n", ", first at step 1 (line 4)"),
            ("# h\ninitial: 1\n", "# h\ninitial: 2\n", ", first at line 2 (before the first step)"),
            ("# h\n\n1. a\n", "# h\n\n1. a\n\n2. b\n", ", first at step 2 (line 5)"),
        ])
    func firstDifference(expected: String, actual: String, text: String) {
        #expect(SnapshotFile.firstDifference(expected, actual) == text)
    }
}
