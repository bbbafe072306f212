import AsyncState
import AsyncStateControls
import Testing

/// An edit type as an app often writes one: private to its file.
private struct Liked: Edit, Codable, Equatable {
    var row: Int
    func apply(to rows: inout [Int]) -> Bool {
        guard rows.indices.contains(row) else { return false }
        rows[row] = 1
        return true
    }
}

private enum Offline: Error, Equatable, Codable {
    case offline
}

/// A feature whose action type is private to its file.
private enum Tap: Codable, Equatable {
    case tap
}

/// Swift names a `private` or local type's context by an address that
/// changes with every run of a program; a recording names it `(private)`, so
/// that a recording made in an app reads in a test (an outside reading: it
/// read only in the process that wrote it).
@Suite("Recording files: private types")
struct PrivateTypeNameTests {
    fileprivate typealias Action = LoadAction<[Int], Offline>
    fileprivate static var reducer: LoadReducer<[Int], Offline> { LoadReducer() }

    static func text() throws -> String {
        let recording = Recording(
            replaying: [Action.edit(.started(LoadID(1), AnyEdit(Liked(row: 0)))), .edit(.confirmed(LoadID(1)))],
            from: Loadable(value: [0, 0]), through: reducer)
        return try recording.jsonLines()
    }

    /// `text` as another run, or a version that kept the address, wrote it.
    static func withAddress(_ text: String) -> String {
        text.replacingOccurrences(of: "(private)", with: "(unknown context at $55a40d1890ac)")
    }

    @Test("an edit of a private type is written without the address, and reads back in another run")
    func privateEdit() throws {
        let text = try Self.text()
        #expect(text.contains("AsyncStateControlsTests.(private).Liked"))
        #expect(!text.contains("unknown context"))
        for written in [text, Self.withAddress(text)] {
            let transcript = try RecordingTranscript<Action>(jsonLines: written, editTypes: [Liked.self])
            let replayed = try transcript.replay(from: Loadable(value: [0, 0]), through: Self.reducer)
            #expect(replayed.steps.last?.state.value == [1, 0])
        }
    }

    @Test("a feature whose action type is private reads back in another run")
    func privateAction() throws {
        let reducer = Reduce<Int, Tap> { count, _ in
            count += 1
            return .none
        }
        let text = try Recording(replaying: [.tap, .tap], from: 0, through: reducer).jsonLines()
        #expect(text.contains(#""action":"AsyncStateControlsTests.(private).Tap""#))
        for written in [text, Self.withAddress(text)] {
            let transcript = try RecordingTranscript<Tap>(jsonLines: written)
            #expect(try transcript.replay(from: 0, through: reducer).steps.last?.state == 2)
        }
    }

    @Test("two private edit types of one name, in different files, are refused by name, not confused")
    func ambiguousEdit() throws {
        let text = try Self.text()
        #expect {
            _ = try RecordingTranscript<Action>(jsonLines: text, editTypes: [Liked.self, otherFilesLiked])
        } throws: { error in
            "\(error)".contains(
                "more than one of the edit types the reader was given is named AsyncStateControlsTests.(private).Liked (private or local types)"
            )
        }
        // The same type given twice is not two types.
        _ = try RecordingTranscript<Action>(jsonLines: text, editTypes: [Liked.self, Liked.self])
    }
}
