import AsyncState

/// How the demo shows one feature: a short text for its state and actions,
/// and which actions are about loads, for the lane diagram.
struct Presenter<State, Action>: Sendable {
    var state: @Sendable (State) -> String
    var action: @Sendable (Action) -> String = { String(describing: $0) }
    var load: @Sendable (Action) -> LoadEvent?
    /// The views of the screen, each by what it reads from the store — for
    /// counting which re-render after an action (`--renders`).
    var views: @MainActor @Sendable (Store<State, Action>) -> [ScreenView] = { _ in [] }
}

/// One view of a screen: its name and what its body reads.
struct ScreenView {
    var name: String
    var read: @MainActor () -> Void
}

/// One load action, stripped of its value: enough to draw a lane.
struct LoadEvent {
    enum Kind: Equatable {
        case started, finished, failed, cancelled
        /// An attempt failed; the next one follows after `wait`.
        case retrying(wait: Duration)
        /// A partial value arrived.
        case progress
    }

    var id: LoadID
    var kind: Kind
    /// What the load is for, when a feature has several (`save`, `delete`).
    var label: String?

    init(kind: Kind, id: LoadID, label: String?) {
        self.id = id
        self.kind = kind
        self.label = label
    }

    /// The event of `action` in its lane — the value lane, a "load more" or
    /// an edit — or `nil` for an action no lane shows (a retry plan).
    init?<Value, Failure>(_ action: LoadAction<Value, Failure>, label: String? = nil) {
        let kind: Kind
        switch action {
        case .started, .queued: kind = .started
        case .finished: kind = .finished
        case .failed: kind = .failed
        case .cancelled: kind = .cancelled
        case .retrying(_, let retry): kind = .retrying(wait: retry.wait)
        case .progress: kind = .progress
        case .planned: return nil
        case .at(_, let action):
            self.init(action, label: label)
            return
        case .more(let request, let action):
            self.init(action, label: [label, "page \(request.page)"].compactMap { $0 }.joined(separator: " "))
            return
        case .edit(let edit):
            switch edit {
            case .started(_, let change): self.init(kind: .started, id: edit.id, label: change.description)
            case .confirmed: self.init(kind: .finished, id: edit.id, label: label)
            case .failed: self.init(kind: .failed, id: edit.id, label: label)
            case .cancelled: self.init(kind: .cancelled, id: edit.id, label: label)
            case .retrying(_, let retry): self.init(kind: .retrying(wait: retry.wait), id: edit.id, label: label)
            }
            return
        }
        self.init(kind: kind, id: action.id, label: label)
    }
}
