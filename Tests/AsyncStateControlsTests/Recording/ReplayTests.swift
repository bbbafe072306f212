import AsyncState
import AsyncStateControls
import Foundation
import Testing

@Suite("Replaying and minimizing recordings")
@MainActor
struct ReplayTests {
    typealias Action = SearchFeature.Action
    typealias State = SearchFeature.State

    let feature = SearchFeature(fetch: { query throws(SearchFailure) in "results for \(query)" })

    /// A recording of two overlapping searches, the first answered last.
    func recording() -> Recording<State, Action> {
        Recording(
            replaying: [
                .search("s"), .results(.started(LoadID(1))), .search("sw"), .results(.started(LoadID(2))),
                .results(.finished(LoadID(2), "sw")), .results(.finished(LoadID(1), "s")),
            ], from: State(), through: feature)
    }

    @Test("what a store with effects recorded replays through its reducer alone")
    func storeRecordingReplays() throws {
        let recorder = Recorder<State, Action>()
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        store.send(.search("s"))
        store.send(.search("sw"))
        let recording = try #require(recorder.recording)
        #expect(recording.actions.first == .search("s"))
        #expect(recording.actions.count > 2)
        let replayed = try RecordingTranscript(recording).replay(from: State(), through: feature)
        #expect(replayed.steps.map(\.state) == recording.steps.map(\.state))
    }

    /// A key whose mirror hides what tells it apart, so every tag prints `Tag()`.
    struct Tag: Hashable, CustomReflectable {
        var id: Int
        var customMirror: Mirror { Mirror(self, children: [:]) }
    }

    @Test("keys that print alike: the fields keep one order whatever the dictionary's, and a file replays without diverging")
    func keysThatPrintAlike() throws {
        var small: [Tag: Int] = [:]
        var large: [Tag: Int] = [:]
        large.reserveCapacity(1_000)
        for id in 0..<8 { small[Tag(id: id)] = id }
        for id in (0..<8).reversed() { large[Tag(id: id)] = id }
        #expect(FieldLeaves(small) == FieldLeaves(large))
        let tag = "[\(String(reflecting: Tag.self))]"
        #expect(FieldLeaves(small).entries.prefix(3).map { "\($0.path): \($0.text)" } == ["\(tag): 0", "\(tag) #2: 1", "\(tag) #3: 2"])

        let bump = Reduce<[Tag: Int], Int> { tags, id in
            tags[Tag(id: id), default: 0] += 10
            return .none
        }
        let recording = Recording(replaying: [3, 5, 3], from: small, through: bump)
        let transcript = try RecordingTranscript<Int>(jsonLines: try recording.jsonLines())
        let replayed = try transcript.replay(from: large, through: bump)
        #expect(replayed.steps.map(\.state) == recording.steps.map(\.state))
    }

    @Test("a replay through the same reducer gives the recorded states")
    func replays() throws {
        let recording = recording()
        let replayed = try RecordingTranscript(recording).replay(from: State(), through: feature)
        #expect(replayed.steps.map(\.state) == recording.steps.map(\.state))
        #expect(replayed.steps.map(\.isDropped) == [false, false, false, false, false, true])
    }

    @Test("a reducer that behaves differently diverges at the first step that differs, naming the fields")
    func divergesWithFields() {
        var broken = feature
        broken.appliesStaleResults = true
        #expect(throws: ReplayDivergence.self) { try RecordingTranscript(recording()).replay(from: State(), through: broken) }
        do {
            _ = try RecordingTranscript(recording()).replay(from: State(), through: broken)
        } catch {
            #expect(error.step == 5)
            #expect(
                error.description == """
                    The replay diverged at step 5, .results(.finished(#2, "sw")): the state differs from the recorded one (recorded → replayed):
                      results.newestID: #2 → nil
                    """)
        }
    }

    @Test("a step dropped on one side only is a divergence")
    func dropDiverges() {
        var broken = feature
        broken.appliesStaleResults = true
        var recording = recording()
        recording.steps.removeLast(2)
        recording.steps.append(
            Recording.Step(action: .results(.finished(LoadID(1), "s")), isDropped: true, state: recording.steps.last!.state))
        do {
            _ = try RecordingTranscript(recording).replay(from: State(), through: broken)
            Issue.record("expected a divergence")
        } catch {
            #expect(error.reason == .dropped(whenRecorded: true))
            #expect(error.description.hasSuffix("it was dropped as stale when recorded, but applied on replay."))
        }
    }

    @Test("a replay from another state than the recording's fails at step 0")
    func otherStart() {
        var start = State()
        start.query = "x"
        do {
            _ = try RecordingTranscript(recording()).replay(from: start, through: feature)
            Issue.record("expected a divergence")
        } catch {
            #expect(error.step == 0)
            #expect(
                error.description == "The replay begins from a state other than the recording's (recorded → given):\n  query: \"\" → \"x\"")
        }
    }

    @Test("minimizing keeps a smallest valid sequence that still fails")
    func minimizes() {
        let recording = recording()
        // Fails when the results show "sw": needs the search that started
        // load #2 with its start and result, not the other search.
        let minimized = recording.minimized(through: feature) { $0.steps.last?.state.results.value == "sw" }
        #expect(minimized.actions == [.results(.started(LoadID(2))), .results(.finished(LoadID(2), "sw"))])
        #expect(minimized.steps.map(\.isDropped) == [false, false])
    }

    @Test("a property that holds on the recording leaves it as replayed")
    func nothingToMinimize() {
        let recording = recording()
        let minimized = recording.minimized(through: feature) { _ in false }
        #expect(minimized.actions == recording.actions)
    }

    @Test("minimizing stops at its bound of replays, returning the smallest failing recording found so far")
    func minimizingBound() {
        let recording = recording()
        var calls = 0
        let minimized = recording.minimized(through: feature, maximumReplays: 0) { _ in
            calls += 1
            return true
        }
        #expect(calls == 1, "only the recording itself, replayed")
        #expect(minimized.actions == recording.actions)
    }

    @Test("a replay from the first state of a recording that let steps go says that it let them go")
    func replayAfterStepsLetGo() throws {
        let recorder = Recorder<State, Action>(capacity: 1)
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        store.send(.results(.finished(LoadID(1), "a")))
        let recording = try #require(recorder.recording)
        do {
            _ = try RecordingTranscript(recording).replay(from: State(), through: feature)
            Issue.record("expected a divergence")
        } catch {
            #expect(error.step == 0)
            #expect(
                error.description.hasSuffix(
                    " The recording let go of its first 1 steps: replay from the state it kept, or record with a larger capacity."))
        }
    }
}

@Suite("Recording files: JSON lines")
@MainActor
struct RecordingFileTests {
    typealias Action = SearchFeature.Action
    typealias State = SearchFeature.State

    let feature = SearchFeature(fetch: { query throws(SearchFailure) in "results for \(query)" })

    func text() throws -> String {
        let recorder = Recorder<State, Action>(clock: LoadClock(TestClock()))
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        for action: Action in [
            .search("s"), .results(.started(LoadID(5))), .results(.failed(LoadID(4), SearchFailure(reason: "late"))),
            .results(.finished(LoadID(5), "s")),
        ] {
            store.send(action)
        }
        return try recorder.recording!.jsonLines()
    }

    @Test("a file reads back as the transcript it was written from, and replays")
    func roundTrip() throws {
        let text = try text()
        let transcript = try RecordingTranscript<Action>(jsonLines: text)
        #expect(try transcript.jsonLines() == text)
        #expect(transcript.actions.count == 6)
        #expect(transcript.steps.map(\.isDropped) == [false, false, false, false, true, false])
        #expect(transcript.steps.map(\.time) == Array(repeating: .zero, count: 6))
        let replayed = try transcript.replay(from: State(), through: feature)
        #expect(replayed.steps.last?.state.results.value == "s")
    }

    @Test("the format: a header, the first state's fields, a line per step with the fields it changed, a closing line")
    func format() throws {
        let lines = try text().split(separator: "\n").map(String.init)
        #expect(lines.count == 9)
        #expect(lines[0].contains(#""format":"asyncstate-recording""#) && lines[0].contains(#""version":1"#))
        #expect(lines[0].contains(#""action":"AsyncStateControlsTests.SearchFeature.Action""#))
        #expect(lines[1].hasPrefix(#"{"fields":[["query","\"\""]"#))
        #expect(lines[2].contains(#""changed":[["query","\"s\""]]"#))
        #expect(lines[8] == #"{"kind":"end","steps":6}"#)
    }

    @Test(
        "bad files are refused with the line at fault",
        arguments: [
            ("", 1, RecordingFileError.Problem.notARecording),
            ("hello\n", 1, .notARecording),
            (#"{"kind":"header","format":"other"}"#, 1, .notARecording),
        ])
    func refused(text: String, line: Int, problem: RecordingFileError.Problem) {
        #expect(throws: RecordingFileError(line: line, problem: problem)) { try RecordingTranscript<Action>(jsonLines: text) }
    }

    @Test("a file from another version, feature or edit, or cut short, is refused with the line at fault")
    func edited() throws {
        let lines = try text().split(separator: "\n").map(String.init)
        func read(_ lines: [String]) -> RecordingFileError? {
            do {
                _ = try RecordingTranscript<Action>(jsonLines: lines.joined(separator: "\n"))
                return nil
            } catch {
                return error
            }
        }
        var version = lines
        version[0] = version[0].replacingOccurrences(of: #""version":1"#, with: #""version":9"#)
        #expect(read(version) == RecordingFileError(line: 1, problem: .unsupportedVersion(9)))
        var other = lines
        other[0] = other[0].replacingOccurrences(of: "SearchFeature.Action", with: "Profile.Action")
        #expect(read(other) == RecordingFileError(line: 1, problem: .otherFeature("AsyncStateControlsTests.Profile.Action")))
        #expect(read(Array(lines.dropLast())) == RecordingFileError(line: 9, problem: .truncated))
        var skipped = lines
        skipped.remove(at: 3)
        #expect(read(skipped) == RecordingFileError(line: 4, problem: .stepOutOfOrder(expected: 2, found: 3)))
        var undecodable = lines
        undecodable[2] = undecodable[2].replacingOccurrences(of: #""search""#, with: #""searched""#)
        guard case .actionDoesNotDecode = read(undecodable)?.problem else {
            Issue.record("expected an action that does not decode, got \(String(describing: read(undecodable)))")
            return
        }
        #expect(read(undecodable)?.line == 3)
        var garbled = lines
        garbled[4] = "{not json"
        #expect(read(garbled) == RecordingFileError(line: 5, problem: .malformedLine))
        var discarded = lines
        discarded[0] = discarded[0].replacingOccurrences(of: #""discarded":0"#, with: #""discarded":9223372036854775807"#)
        #expect(discarded != lines)
        #expect(read(discarded) == RecordingFileError(line: 1, problem: .malformedLine), "a count past which step numbers overflow")
        #expect(
            RecordingFileError(line: 7, problem: .truncated).description
                == "Recording file, line 7: the file ends before its closing line — it was cut short.")
    }

    @Test("a file cut in the middle of a line is truncated; one with CRLF endings reads as written")
    func lineEndings() throws {
        let text = try text()
        #expect(throws: RecordingFileError(line: 9, problem: .truncated)) {
            try RecordingTranscript<Action>(jsonLines: String(text.dropLast(8)))
        }
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try RecordingTranscript<Action>(jsonLines: crlf).jsonLines() == text)
    }

    @Test("blank lines are skipped, and an error names the file's own line", arguments: [0, 1, 3])
    func blankLines(at index: Int) throws {
        let written = try text().split(separator: "\n").map(String.init)
        var lines = written
        lines[4] = "{not json"
        lines.insert(contentsOf: ["", ""], at: index)
        #expect(throws: RecordingFileError(line: 7, problem: .malformedLine), "the fifth line written, after two blank ones") {
            try RecordingTranscript<Action>(jsonLines: lines.joined(separator: "\n"))
        }
        lines[6] = written[4]
        #expect(try RecordingTranscript<Action>(jsonLines: lines.joined(separator: "\n")).jsonLines() == text())
    }

    @Test("a decoder's reason that ends a sentence is not given a second period")
    func reasonEndingInAPeriod() {
        let error = RecordingFileError(line: 3, problem: .actionDoesNotDecode("typed: expected one."))
        #expect(error.description == "Recording file, line 3: its action no longer decodes: typed: expected one.")
    }

    @Test("an action that carries an edit has no JSON form: writing it throws")
    func editsThrow() {
        struct Nothing: Edit {
            func apply(to value: inout String) -> Bool { false }
        }
        let recording = Recording<Int, LoadAction<String, SearchFailure>>(
            initialState: 0, steps: [.init(action: .edit(.started(LoadID(1), AnyEdit(Nothing()))), isDropped: false, state: 0)])
        #expect(throws: EncodingError.self) { try recording.jsonLines() }
    }

    /// Picks a row by ID; a broken one stores another ID.
    struct Picker: Reducer {
        struct State: Equatable {
            var selected = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        }

        enum Action: Equatable, Codable {
            case select(UUID)
        }

        var isBroken = false

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .select(let id): state.selected = isBroken ? UUID(uuidString: "00000000-0000-0000-0000-000000000009")! : id
            }
            return .none
        }
    }

    // From an outside reading: a UUID printed as `UUID()` whatever its
    // value, so its step recorded no change and a replay that stored
    // another ID passed.
    @Test("a replay that stores another UUID diverges")
    func uuidDivergence() throws {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let recording = Recording(replaying: [.select(id)], from: Picker.State(), through: Picker())
        let transcript = try RecordingTranscript<Picker.Action>(jsonLines: try recording.jsonLines())
        #expect(throws: ReplayDivergence.self) {
            _ = try transcript.replay(from: Picker.State(), through: Picker(isBroken: true))
        }
        #expect(try transcript.replay(from: Picker.State(), through: Picker()).steps.map(\.state) == recording.steps.map(\.state))
    }

    /// Keeps the last reading of a gauge.
    struct Gauge: Reducer {
        enum Action: Equatable, Codable {
            case read(Double)
        }

        func reduce(into state: inout Double, action: Action) -> Effect<Action> {
            switch action {
            case .read(let value): state = value
            }
            return .none
        }
    }

    // From an outside reading: JSON has no number for them, so one such
    // reading made the whole recording fail to write.
    @Test("infinite and NaN readings are written and read back")
    func nonFiniteDoubles() throws {
        let readings: [Double] = [.infinity, -.infinity, .nan, 1.5]
        let recording = Recording(replaying: readings.map(Gauge.Action.read), from: 0, through: Gauge())
        let transcript = try RecordingTranscript<Gauge.Action>(jsonLines: try recording.jsonLines())
        let read = transcript.actions.map { action in
            switch action {
            case .read(let value): value
            }
        }
        #expect(read.count == 4)
        #expect(read[0] == .infinity && read[1] == -.infinity && read[2].isNaN && read[3] == 1.5)
    }

    // From an outside reading: a step of Int.max, or a count of Int.min,
    // overflowed as the file was written, and a negative count wrote a file
    // its own reader refused without saying why.
    @Test(
        "a recording no recorder makes — steps let go below zero, a reading of a step it does not hold — throws when written, saying which",
        arguments: [
            (-5, 0, "A recording cannot have let go of -5 steps: the count is below zero."),
            (Int.min, 0, "A recording cannot have let go of \(Int.min) steps: the count is below zero."),
            (0, Int.max, "A reading of step \(Int.max) is outside the steps the recording holds: 0 through 0 + 2."),
            (3, 2, "A reading of step 2 is outside the steps the recording holds: 3 through 3 + 2."),
            (3, 6, "A reading of step 6 is outside the steps the recording holds: 3 through 3 + 2."),
            (Int.max - 5, Int.max - 5, "A recording cannot have let go of \(Int.max - 5) steps: step numbers after them would overflow."),
        ])
    func unwritableRecording(discarded: Int, readingStep: Int, reason: String) throws {
        var recording = Recording(replaying: [Gauge.Action.read(1), .read(2)], from: 0, through: Gauge())
        recording.discardedStepCount = discarded
        recording.readings = [RecordedReading(step: readingStep, source: "note", value: .note("n", time: nil))]
        #expect {
            try recording.jsonLines()
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.debugDescription == reason
        }
    }

    @Test("readings of the first step held and of the last are written and read back")
    func readingsAtTheEnds() throws {
        var recording = Recording(replaying: [Gauge.Action.read(1), .read(2)], from: 0, through: Gauge())
        recording.discardedStepCount = 3
        recording.readings = [3, 5].map { RecordedReading(step: $0, source: "note", value: .note("n", time: nil)) }
        #expect(try RecordingTranscript<Gauge.Action>(jsonLines: try recording.jsonLines()).readings == recording.readings)
    }
}

/// Files edited past anything a recorder writes: each is refused, naming the line at fault.
@Suite("Recording files: edited files refused")
@MainActor
struct EditedRecordingFileTests {
    typealias Action = SearchFeature.Action
    typealias State = SearchFeature.State

    let feature = SearchFeature(fetch: { query throws(SearchFailure) in "results for \(query)" })

    /// A file of two steps and a note after the first: header, initial, step, reading, step, end.
    func lines() throws -> [String] {
        let recorder = Recorder<State, Action>(clock: LoadClock(TestClock()))
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        recorder.note("offline")
        store.send(.results(.finished(LoadID(1), "a")))
        return try recorder.recording!.jsonLines().split(separator: "\n").map(String.init)
    }

    func read(_ lines: [String]) -> RecordingFileError? {
        do {
            _ = try RecordingTranscript<Action>(jsonLines: lines.joined(separator: "\n") + "\n")
            return nil
        } catch {
            return error
        }
    }

    @Test("a reading is written right after the step it follows, and one after the last step reads back")
    func readingAfterLastStep() throws {
        let recorder = Recorder<State, Action>()
        let store = Store(initialState: State(), reducer: feature)
        store.record(into: recorder)
        store.send(.results(.started(LoadID(1))))
        recorder.note("after the last step")
        let recording = try #require(recorder.recording)
        let lines = try recording.jsonLines().split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[3] == #"{"kind":"reading","note":"after the last step","source":"note","step":1}"#)
        #expect(try RecordingTranscript<Action>(jsonLines: lines.joined(separator: "\n")).readings == recording.readings)
    }

    @Test("the file as written reads back")
    func asWritten() throws {
        let lines = try lines()
        #expect(lines.count == 6)
        #expect(lines[3].contains(#""kind":"reading""#))
        #expect(read(lines) == nil)
    }

    @Test("a negative count of steps let go is refused")
    func negativeDiscarded() throws {
        var lines = try lines()
        lines[0] = lines[0].replacingOccurrences(of: #""discarded":0"#, with: #""discarded":-1"#)
        #expect(read(lines) == RecordingFileError(line: 1, problem: .malformedLine))
    }

    @Test("a closing line whose count is not the steps read: a step is missing")
    func stepMissingAtTheEnd() throws {
        var lines = try lines()
        lines.remove(at: 4)
        #expect(read(lines) == RecordingFileError(line: 5, problem: .stepOutOfOrder(expected: 2, found: 1)))
    }

    @Test("a line after the closing line is refused")
    func lineAfterTheEnd() throws {
        let lines = try lines()
        #expect(read(lines + [lines[3]]) == RecordingFileError(line: 7, problem: .malformedLine))
    }

    @Test("a reading of a step not yet read is refused")
    func readingAhead() throws {
        var lines = try lines()
        lines[3] = lines[3].replacingOccurrences(of: #""step":1"#, with: #""step":2"#)
        #expect(read(lines) == RecordingFileError(line: 4, problem: .malformedLine))
    }

    @Test("a reading of a step the recorder had let go is refused")
    func readingOfStepLetGo() throws {
        var lines = try lines()
        lines[0] = lines[0].replacingOccurrences(of: #""discarded":0"#, with: #""discarded":1"#)
        lines[3] = lines[3].replacingOccurrences(of: #""step":1"#, with: #""step":0"#)
        #expect(read(lines) == RecordingFileError(line: 4, problem: .malformedLine))
    }

    @Test("a time that is not [seconds, attoseconds] is refused")
    func timeOfThreeParts() throws {
        var lines = try lines()
        lines[2] = lines[2].replacingOccurrences(of: #""time":[0,0]"#, with: #""time":[0,0,0]"#)
        #expect(read(lines) == RecordingFileError(line: 3, problem: .malformedLine))
    }

    @Test("a changed field the state does not have is refused")
    func changedUnknownField() throws {
        var lines = try lines()
        #expect(lines[2].contains(#""changed":[["results."#))
        lines[2] = lines[2].replacingOccurrences(of: #""changed":[["results."#, with: #""changed":[["nosuch."#)
        #expect(read(lines) == RecordingFileError(line: 3, problem: .malformedLine))
    }
}
