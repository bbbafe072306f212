import AsyncState
import AsyncStateControls

/// Replays `recording` through `reducer` from its initial state and fails the
/// test at the first step whose state or drop differs from the recorded one,
/// naming the fields that differ — the field diff a `TestStore` shows.
///
/// ```swift
/// @Test @MainActor func replaysTheBugReport() throws {
///     let transcript = try RecordingTranscript<Search.Action>(jsonLines: bugReport)
///     assertReplay(transcript, from: Search.State(), reducer: Search(fetch: { _ in [] }))
/// }
/// ```
///
/// - Returns: the replayed recording, or `nil` when it diverged.
@MainActor
@discardableResult
public func assertReplay<R: Reducer>(
    _ recording: Recording<R.State, R.Action>,
    reducer: R,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Recording<R.State, R.Action>? {
    assertReplay(
        RecordingTranscript(recording), from: recording.initialState, reducer: reducer, fileID: fileID, filePath: filePath, line: line,
        column: column)
}

/// Replays a recording's transcript — one read from a file with
/// `RecordingTranscript(jsonLines:)` — through `reducer` from
/// `initialState`, and fails the test where it diverges.
///
/// - Returns: the replayed recording, or `nil` when it diverged.
@MainActor
@discardableResult
public func assertReplay<R: Reducer>(
    _ transcript: RecordingTranscript<R.Action>,
    from initialState: R.State,
    reducer: R,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Recording<R.State, R.Action>? {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    do {
        return try transcript.replay(from: initialState, through: reducer)
    } catch {
        reportFailure(error.description, at: location)
        return nil
    }
}
