import AsyncState

/// Runs a reducer twice per action, from equal states, and reports when the
/// two runs disagree — a reducer that reads the clock, a random number or
/// shared mutable state. Used by ``TestStore`` when `checksPurity` is on.
struct PurityCheckedReducer<Base: Reducer>: Reducer where Base.State: Equatable {
    let base: Base
    let report: (String) -> Void

    func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
        var firstRun = state
        _ = base.reduce(into: &firstRun, action: action)
        let effect = base.reduce(into: &state, action: action)
        if firstRun != state {
            let diff = fieldChanges(from: firstRun, to: state)
            report(
                "The reducer is not pure: the same state and action \(ValueDump.renderOneLine(action)) gave "
                    + "different states on two runs (first run → second run):\n\(diff)"
            )
        }
        return effect
    }
}
