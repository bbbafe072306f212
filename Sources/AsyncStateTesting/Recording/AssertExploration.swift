import AsyncState
import AsyncStateControls

/// Explores every ordering of `script` and the answers of the feature's
/// operations (see `AsyncStateControls`' `explore`), and fails the test when
/// an ordering breaks a promise — the kit's or one of `invariants` — showing
/// the ordering and its minimized recording, or when the search stops at
/// `maximumOrderings` before the end.
///
/// ```swift
/// @Test @MainActor func everyOrdering() async {
///     await assertExploration(Search.State(), script: [.typed("s"), .typed("sw")]) { operations in
///         Search(fetch: operations.operation("fetch") { query, call in .success(["\(query) \(call)"]) })
///     }
/// }
/// ```
///
/// - Returns: the report: how many orderings ran, and the failure if any.
@MainActor
@discardableResult
public func assertExploration<R: Reducer>(
    _ initialState: R.State,
    script: [R.Action],
    invariants: [Invariant<R.State>] = [],
    maximumOrderings: Int = 10_000,
    maximumSteps: Int = 1_000,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    feature makeReducer: (ControlledOperations) -> R
) async -> ExplorationReport<R.State, R.Action> {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let report = await explore(
        initialState, script: script, invariants: invariants, maximumOrderings: maximumOrderings, maximumSteps: maximumSteps,
        feature: makeReducer)
    if let failure = report.failure {
        reportFailure(
            """
            Ordering \(report.orderingCount) broke "\(failure.invariant)": \(failure.message).
            Ordering: \(failure.ordering.joined(separator: " → "))
            Minimized recording (\(failure.minimized.steps.count) of \(failure.recording.steps.count) steps; it replays):
            \(failure.minimized.stepLines.joined(separator: "\n"))
            """, at: location)
    } else if !report.isComplete {
        reportFailure(
            "The exploration stopped at its bound of \(maximumOrderings) orderings before trying them all: "
                + "shorten the script or raise maximumOrderings.", at: location)
    }
    return report
}
