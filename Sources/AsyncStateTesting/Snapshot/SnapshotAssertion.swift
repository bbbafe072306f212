import AsyncState
import AsyncStateControls
import Foundation
import Testing

/// Runs `body` while recording every transition of `store`, then compares the
/// recording with the snapshot `name` stored beside the test file, in
/// `__Snapshots__/<TestFile>/<name>.txt`.
///
/// ```swift
/// @Test @MainActor func refreshKeepsContent() async {
///     let store = Store(initialState: Feed.State(), reducer: Feed(api: .fixed))
///     await assertStateSequence(of: store, named: "refresh") {
///         await store.send(.refresh).finish()
///     }
/// }
/// ```
///
/// See ``SnapshotRecordMode`` for when the file is written.
///
/// - Parameters:
///   - store: the store whose transitions are recorded, from its current state on.
///   - name: the snapshot's name, unique within the test file; it names the
///     file, each character other than a letter, a digit, `-`, `_` or `.`
///     becoming `-`. Two names that make one file name fail, and so does
///     one name asserted by two Swift Testing tests.
///   - record: when to write the file; `nil` uses ``SnapshotRecordMode/current``.
///   - fileID: the test file, for failures; the caller's by default.
///   - filePath: the test file's path, beside which `__Snapshots__` lives.
///   - line: the line failures point at.
///   - column: the column failures point at.
///   - body: the steps to record, such as sends and the awaiting of their effects.
@MainActor
public func assertStateSequence<State, Action>(
    of store: Store<State, Action>,
    named name: String,
    record: SnapshotRecordMode? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () async throws -> Void
) async rethrows {
    let recording = StateSequence(of: store)
    try await body()
    assertSnapshot(of: recording, named: name, record: record, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Compares `recording` with the snapshot `name` stored beside the test file.
///
/// On a mismatch the failure names the first step that differs and shows a
/// line diff. A missing snapshot is written (unless the mode is
/// ``SnapshotRecordMode/never``) and the test fails once, saying so. An
/// unreadable or corrupt file fails with its path.
///
/// - Parameters:
///   - recording: the recorded run to compare.
///   - name: the snapshot's name, unique within the test file; it names the
///     file, each character other than a letter, a digit, `-`, `_` or `.`
///     becoming `-`. Two names that make one file name fail, and so does
///     one name asserted by two Swift Testing tests.
///   - record: when to write the file; `nil` uses ``SnapshotRecordMode/current``.
///   - fileID: the test file, for failures; the caller's by default.
///   - filePath: the test file's path, beside which `__Snapshots__` lives.
///   - line: the line failures point at.
///   - column: the column failures point at.
@MainActor
public func assertSnapshot<State, Action>(
    of recording: StateSequence<State, Action>,
    named name: String,
    record: SnapshotRecordMode? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let snapshot = SnapshotFile(name: name, testFile: location.path)
    let environment = { (key: String) in getenv(key).map { String(cString: $0) } }
    if let failure = snapshot.check(recording.text, record: record, environment: environment) {
        reportFailure(failure, at: location)
    }
}

/// One snapshot file and the decision of what to do with it.
struct SnapshotFile {
    let name: String
    let url: URL

    init(name: String, testFile: String) {
        self.name = name
        let testURL = URL(fileURLWithPath: testFile)
        let folder = testURL.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__")
            .appendingPathComponent(testURL.deletingPathExtension().lastPathComponent)
        url = folder.appendingPathComponent(Self.fileName(for: name))
    }

    /// What claimed each snapshot file in this run, by path: its name and
    /// the Swift Testing test that asserted it. Two names can make one file
    /// name (`a/b` and `a:b` both make `a-b.txt`), and two tests of a file
    /// can give one name: the second would compare against, or record over,
    /// the first's snapshot — which one depends on the order tests run in.
    private static let claims = LockedValue<[String: Claim]>([:])

    struct Claim {
        let name: String
        let test: Asserter?
    }

    /// A test that asserts a snapshot: its identity, and its name for messages.
    struct Asserter {
        let id: String
        let name: String

        /// The Swift Testing test running now, if one is.
        static var current: Asserter? { Test.current.map { Asserter(id: "\($0.id)", name: $0.name) } }
    }

    /// Claims this snapshot's file for its name and the current test;
    /// returns why it cannot, if another name or another test claimed it
    /// first in this run. A test that asserts one name twice (a repetition,
    /// or a step of its own) claims it again.
    func claimFile(by test: Asserter?) -> String? {
        Self.claims.withLock { claims in
            if let other = claims[url.path] {
                if other.name != name {
                    return
                        "Snapshots \"\(other.name)\" and \"\(name)\" make one file, \(url.path): a file name keeps letters, digits, '-', '_' and '.', and every other character becomes '-'. Give one of them another name; nothing was compared or recorded."
                }
                if let first = other.test, let test, first.id != test.id {
                    return
                        "Snapshot \"\(name)\" is asserted by two tests, \(first.name) and \(test.name), which would share its file \(url.path). Give each test's snapshot a name of its own; nothing was compared or recorded."
                }
                return nil
            }
            claims[url.path] = Claim(name: name, test: test)
            return nil
        }
    }

    /// `name` with every character that is unsafe in a file name replaced by `-`.
    static func fileName(for name: String) -> String {
        let safe = name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" }
        return String(safe) + ".txt"
    }

    /// What an assertion that names `record` fails with, reading the record
    /// mode from `environment` when it names none — a value of
    /// ``SnapshotRecordMode/environmentVariable`` that names no mode fails
    /// before anything is compared or written; `nil` when it passes.
    func check(_ actual: String, record: SnapshotRecordMode?, environment: (String) -> String?) -> String? {
        if let record { return check(actual, mode: record) }
        if let problem = SnapshotRecordMode.environmentProblem(environment: environment) { return problem }
        return check(actual, mode: SnapshotRecordMode.resolve(environment: environment))
    }

    /// Compares or records `actual`; returns the failure message, if any.
    func check(_ actual: String, mode: SnapshotRecordMode, by test: Asserter? = .current) -> String? {
        guard !name.isEmpty else { return "A snapshot needs a non-empty name." }
        let path = url.path
        if let clash = claimFile(by: test) { return clash }
        guard FileManager.default.fileExists(atPath: path) else {
            if mode == .never {
                return
                    "No snapshot \"\(name)\" at \(path). Record mode is 'never' (from the call, \(SnapshotRecordMode.environmentVariable), or CI being set), so nothing is recorded: run the test locally to record it, and commit the file."
            }
            return write(actual) ?? "Recorded snapshot \"\(name)\" at \(path). It did not exist; check it in and run the test again."
        }
        if mode == .all {
            return write(actual) ?? "Re-recorded snapshot \"\(name)\" at \(path) (record mode 'all'). Switch recording off to compare."
        }
        let expected: String
        switch read() {
        case .success(let text): expected = text
        case .failure(let problem):
            return "Cannot use snapshot \"\(name)\" at \(path): \(problem). Delete it and run the test again to record a new one."
        }
        if expected == actual { return nil }
        var message = "Snapshot \"\(name)\" does not match \(path)\(Self.firstDifference(expected, actual)) (- snapshot, + actual):\n"
        message += LineDiff.render(from: expected, to: actual)
        if mode == .failed {
            message += write(actual).map { "\n\($0)" } ?? "\nRecorded the new snapshot (record mode 'failed')."
        }
        return message
    }

    private enum ReadProblem: Error, CustomStringConvertible {
        case unreadable(String), notText, notSnapshot

        var description: String {
            switch self {
            case .unreadable(let reason): "it cannot be read (\(reason))"
            case .notText: "it is not UTF-8 text"
            case .notSnapshot: "it is corrupt: it does not start with \"\(snapshotHeader)\""
            }
        }
    }

    private func read() -> Result<String, ReadProblem> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(.unreadable(error.localizedDescription))
        }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(.notText) }
        guard text.hasPrefix(snapshotHeader) else { return .failure(.notSnapshot) }
        return .success(text)
    }

    /// Writes `text`, creating missing folders; returns a failure message if it cannot.
    private func write(_ text: String) -> String? {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return nil
        } catch {
            return "Cannot write snapshot \"\(name)\" to \(url.path): \(error.localizedDescription)"
        }
    }

    /// `, first at step N (line L)`: where the texts part, named by the step
    /// that holds the first differing line.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        guard
            let index = zip(old, new).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
                ?? (old.count != new.count ? min(old.count, new.count) : nil)
        else { return "" }
        let lines = index < new.count ? new : old
        let step = lines[...min(index, lines.count - 1)].reversed().lazy
            .compactMap { line -> Substring? in
                let number = line.prefix { $0.isNumber }
                return !number.isEmpty && line.dropFirst(number.count).hasPrefix(". ") ? number : nil
            }
            .first
        return step.map { ", first at step \($0) (line \(index + 1))" } ?? ", first at line \(index + 1) (before the first step)"
    }
}
