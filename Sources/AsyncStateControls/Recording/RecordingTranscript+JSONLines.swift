import AsyncState
import Foundation

/// Why a recording file could not be read. Each names the line at fault.
public struct RecordingFileError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Problem: Equatable, Sendable {
        /// The first line is not this format's header.
        case notARecording
        /// The file was written by a format version this one does not read.
        case unsupportedVersion(Int)
        /// The file records another feature's actions.
        case otherFeature(String)
        /// A line is not the JSON the format expects there.
        case malformedLine
        /// A step's action no longer decodes as the feature's action.
        case actionDoesNotDecode(String)
        /// Steps are missing or out of order: the file was edited.
        case stepOutOfOrder(expected: Int, found: Int)
        /// The file ends before its last line: it was cut short.
        case truncated
    }

    /// The 1-based line at fault.
    public var line: Int
    /// What is wrong.
    public var problem: Problem

    /// The error of `problem` at `line`, for tests that expect one.
    public init(line: Int, problem: Problem) {
        self.line = line
        self.problem = problem
    }

    /// The line and what is wrong with it, in words.
    public var description: String {
        let what =
            switch problem {
            case .notARecording: "not an AsyncState recording (its first line is not the format's header)"
            case .unsupportedVersion(let version):
                "written in format version \(version); this version of AsyncState reads version \(recordingFormatVersion)"
            case .otherFeature(let name): "a recording of \(name), not of the actions it is read as"
            case .malformedLine: "not the JSON this line of the format holds"
            case .actionDoesNotDecode(let reason): "its action no longer decodes: \(reason)"
            case .stepOutOfOrder(let expected, let found): "step \(found) where step \(expected) belongs — the file was edited"
            case .truncated: "the file ends before its closing line — it was cut short"
            }
        // A decoder's reason may end a sentence of its own.
        return "Recording file, line \(line): \(what)" + (what.hasSuffix(".") ? "" : ".")
    }
}

/// The format version this code writes and reads.
let recordingFormatVersion = 1

/// One line of a recording file: a JSON object whose `kind` says which.
private struct FileLine<Action>: Codable where Action: Codable {
    enum Kind: String, Codable { case header, initial, step, reading, end }
    var kind: Kind
    var format: String?
    var version: Int?
    var action: String?
    var discarded: Int?
    var fields: [[String]]?
    var step: Int?
    var event: Action?
    var dropped: Bool?
    var time: [Int64]?
    var changed: [[String]]?
    var source: String?
    var random: UInt64?
    var note: String?
    var steps: Int?

    init(kind: Kind) { self.kind = kind }
}

/// Just the kind of a line, decoded first, so an action that no longer
/// decodes is told apart from a line that is not JSON.
private struct LineKind: Decodable {
    var kind: String
    var step: Int?
}

extension RecordingTranscript where Action: Codable {
    /// The transcript as JSON lines: a header (format, version, the action
    /// type), the initial state's fields, one line per step (its action
    /// encoded with `Codable`, whether it was dropped, its time, the fields
    /// it changed — or all of them when it added or removed one), one per
    /// reading, and a closing line with the step count.
    /// The TestingGuide documents every field.
    ///
    /// A transcript no recorder makes — built by hand with a negative
    /// `discardedStepCount`, or a reading of a step it does not hold — throws
    /// `EncodingError.invalidValue`, saying which: its file could not be read.
    public func jsonLines() throws -> String {
        try checkWritable()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSON has no infinity or NaN: without these, one such `Double` in
        // an action made the whole recording fail to write.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFiniteNames.positiveInfinity, negativeInfinity: nonFiniteNames.negativeInfinity, nan: nonFiniteNames.nan)
        func encode(_ line: FileLine<Action>) throws -> String {
            String(decoding: try encoder.encode(line), as: UTF8.self)
        }
        var header = FileLine<Action>(kind: .header)
        header.format = recordingFormatName
        header.version = recordingFormatVersion
        header.action = RecordedTypeName.of(Action.self)
        header.discarded = discardedStepCount
        var initial = FileLine<Action>(kind: .initial)
        initial.fields = initialFields.entries.map { [$0.path, $0.text] }
        var lines = [try encode(header), try encode(initial)]
        var previous = initialFields
        var readings = self.readings[...]
        func flushReadings(through stepCount: Int) throws {
            while let reading = readings.first, reading.step - discardedStepCount <= stepCount {
                readings.removeFirst()
                var line = FileLine<Action>(kind: .reading)
                line.step = reading.step
                line.source = reading.source
                switch reading.value {
                case .time(let time): line.time = [time.components.seconds, time.components.attoseconds]
                case .random(let value): line.random = value
                case .note(let text, let time):
                    line.note = text
                    line.time = time.map { [$0.components.seconds, $0.components.attoseconds] }
                }
                lines.append(try encode(line))
            }
        }
        try flushReadings(through: 0)
        for (index, step) in steps.enumerated() {
            var line = FileLine<Action>(kind: .step)
            line.step = index + 1
            line.event = step.action
            line.dropped = step.isDropped
            line.time = step.time.map { [$0.components.seconds, $0.components.attoseconds] }
            // A step that changed only texts lists those fields; one that
            // added or removed fields lists them all.
            if let changed = step.fields.changedEntries(from: previous) {
                line.changed = changed.map { [$0.path, $0.text] }
            } else {
                line.fields = step.fields.entries.map { [$0.path, $0.text] }
            }
            lines.append(try encode(line))
            previous = step.fields
            try flushReadings(through: index + 1)
        }
        var end = FileLine<Action>(kind: .end)
        end.steps = steps.count
        lines.append(try encode(end))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a transcript written by ``jsonLines()``.
    ///
    /// - Throws: ``RecordingFileError`` naming the first line at fault: not a
    ///   recording, another version or feature, a line that is not the
    ///   format's JSON, an action that no longer decodes, steps missing or
    ///   out of order, or a file cut short.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - editTypes: the `Edit` types the feature's edits may have, so edit
    ///     actions decode (`LoadAction.edit`); each must be `Codable`.
    public init(jsonLines text: String, editTypes: [any (Decodable & Sendable).Type] = []) throws(RecordingFileError) {
        let decoder = JSONDecoder()
        decoder.userInfo[.asyncStateEditTypes] = EditTypes(editTypes)
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFiniteNames.positiveInfinity, negativeInfinity: nonFiniteNames.negativeInfinity, nan: nonFiniteNames.nan)
        // LF or CRLF: a file checked out with CRLF endings reads the same.
        // Only those: U+0085, U+2028 and U+2029 are newlines to `Character`,
        // and a JSON string may hold them unescaped.
        let isLineEnd = { (character: Character) in character == "\n" || character == "\r\n" }
        // Blank lines are skipped, but an error names the file's own line:
        // each kept line's number is kept beside it.
        var lines: [Substring] = []
        var lineNumbers: [Int] = []
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: isLineEnd).enumerated()
        where !line.isEmpty {
            lines.append(line)
            lineNumbers.append(offset + 1)
        }
        let endsWithNewline = text.last.map(isLineEnd) ?? false
        /// The file's line number of kept line `index`; past the last kept
        /// line, the lines after it.
        func lineNumber(_ index: Int) -> Int {
            index < lineNumbers.count ? lineNumbers[index] : (lineNumbers.last ?? 0) + 1 + index - lineNumbers.count
        }
        func fail(_ index: Int, _ problem: RecordingFileError.Problem) -> RecordingFileError {
            RecordingFileError(line: lineNumber(index), problem: problem)
        }
        func decode(_ index: Int) throws(RecordingFileError) -> FileLine<Action> {
            let data = Data(lines[index].utf8)
            guard let kind = try? decoder.decode(LineKind.self, from: data), FileLine<Action>.Kind(rawValue: kind.kind) != nil else {
                if index == 0 { throw fail(0, .notARecording) }
                // A last line that is not JSON, with no line ending after it,
                // is a file cut short in the middle of writing it.
                throw fail(index, index == lines.count - 1 && !endsWithNewline ? .truncated : .malformedLine)
            }
            do {
                return try decoder.decode(FileLine<Action>.self, from: data)
            } catch {
                if kind.kind == "step" { throw fail(index, .actionDoesNotDecode(describe(error))) }
                throw fail(index, .malformedLine)
            }
        }
        guard !lines.isEmpty else { throw fail(0, .notARecording) }
        let header = try decode(0)
        guard header.kind == .header, header.format == recordingFormatName else { throw fail(0, .notARecording) }
        guard header.version == recordingFormatVersion else { throw fail(0, .unsupportedVersion(header.version ?? 0)) }
        guard header.action.map(RecordedTypeName.normalized) == RecordedTypeName.of(Action.self) else {
            throw fail(0, .otherFeature(header.action ?? "an unnamed feature"))
        }
        // Bounded so that no step number after the discarded ones overflows
        // (a file may say anything; a recorder never let go of that many).
        guard let discarded = header.discarded, discarded >= 0, discarded <= Int.max - lines.count else {
            throw fail(0, .malformedLine)
        }
        guard lines.count >= 2 else { throw fail(1, .truncated) }
        let initial = try decode(1)
        guard initial.kind == .initial, let fields = initial.fields, fields.allSatisfy({ $0.count == 2 }) else {
            throw fail(1, .malformedLine)
        }
        var current = FieldLeaves(entries: fields.map { FieldLeaves.Entry(path: $0[0], text: $0[1]) })
        var steps: [Step] = []
        var readings: [RecordedReading] = []
        var ended = false
        for index in 2..<lines.count {
            guard !ended else { throw fail(index, .malformedLine) }
            let line = try decode(index)
            switch line.kind {
            case .step:
                guard let number = line.step, let event = line.event, let dropped = line.dropped,
                    let listed = line.changed ?? line.fields, listed.allSatisfy({ $0.count == 2 })
                else { throw fail(index, .malformedLine) }
                guard number == steps.count + 1 else { throw fail(index, .stepOutOfOrder(expected: steps.count + 1, found: number)) }
                let entries = listed.map { FieldLeaves.Entry(path: $0[0], text: $0[1]) }
                if line.changed != nil {
                    guard let next = current.replacing(entries) else { throw fail(index, .malformedLine) }
                    current = next
                } else {
                    current = FieldLeaves(entries: entries)
                }
                let time = try duration(line.time, line: lineNumber(index))
                steps.append(Step(action: event, isDropped: dropped, time: time, fields: current))
            case .reading:
                // A reading comes after the steps it follows, as written.
                guard let step = line.step, let source = line.source, step >= discarded, step <= discarded + steps.count else {
                    throw fail(index, .malformedLine)
                }
                if let random = line.random {
                    readings.append(RecordedReading(step: step, source: source, value: .random(random)))
                } else if let note = line.note {
                    readings.append(
                        RecordedReading(
                            step: step, source: source, value: .note(note, time: try duration(line.time, line: lineNumber(index)))))
                } else if let time = try duration(line.time, line: lineNumber(index)) {
                    readings.append(RecordedReading(step: step, source: source, value: .time(time)))
                } else {
                    throw fail(index, .malformedLine)
                }
            case .end:
                guard line.steps == steps.count else {
                    throw fail(index, .stepOutOfOrder(expected: line.steps ?? 0, found: steps.count))
                }
                ended = true
            case .header, .initial:
                throw fail(index, .malformedLine)
            }
        }
        guard ended else { throw fail(lines.count, .truncated) }
        self.init(
            initialFields: FieldLeaves(entries: fields.map { FieldLeaves.Entry(path: $0[0], text: $0[1]) }),
            steps: steps, readings: readings, discardedStepCount: discarded)
    }
}

extension Recording where Action: Codable {
    /// The recording as JSON lines (see ``RecordingTranscript/jsonLines()``):
    /// its actions encoded with `Codable`, its states as the fields they print.
    public func jsonLines() throws -> String {
        try RecordingTranscript(self).jsonLines()
    }
}

private let recordingFormatName = "asyncstate-recording"

private func duration(_ parts: [Int64]?, line: Int) throws(RecordingFileError) -> Duration? {
    guard let parts else { return nil }
    guard parts.count == 2 else { throw RecordingFileError(line: line, problem: .malformedLine) }
    return Duration(secondsComponent: parts[0], attosecondsComponent: parts[1])
}

/// A decoding error in one line, without Foundation's long context dump.
private func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}

/// How a recording file writes the floating-point values JSON has no
/// number for: as these strings, where the number would be.
private let nonFiniteNames = (positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")

extension RecordingTranscript {
    /// Throws unless the file of this transcript reads back, as the reader
    /// checks it: no steps let go below zero, nor so many that later step
    /// numbers overflow, and each reading of a step from the first one let go
    /// up to the last one held.
    fileprivate func checkWritable() throws {
        func refuse(_ value: Any, _ reason: String) -> EncodingError {
            EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: reason))
        }
        guard discardedStepCount >= 0 else {
            throw refuse(discardedStepCount, "A recording cannot have let go of \(discardedStepCount) steps: the count is below zero.")
        }
        // The reader's bound, so that no step number after the discarded
        // ones overflows: the file's lines are the header, the initial state,
        // a line per step and per reading, and the end.
        guard discardedStepCount <= Int.max - (steps.count + readings.count + 3) else {
            throw refuse(
                discardedStepCount, "A recording cannot have let go of \(discardedStepCount) steps: step numbers after them would overflow."
            )
        }
        // Both are at least zero, so the difference cannot overflow.
        for reading in readings where reading.step < discardedStepCount || reading.step - discardedStepCount > steps.count {
            throw refuse(
                reading,
                "A reading of step \(reading.step) is outside the steps the recording holds: \(discardedStepCount) through \(discardedStepCount) + \(steps.count)."
            )
        }
    }
}
