/// What the explorer and the minimizer read from a feature's actions and
/// states without knowing their types: the loads an action is about, and the
/// loadables a state holds, found with `Mirror`.
package enum LoadInspection {
    /// What one load action says.
    package struct Event: Equatable, Sendable {
        package enum Kind: Equatable, Sendable {
            case started, queued, planned, retrying, progress, finished, failed, cancelled
            /// An optimistic edit's request succeeded.
            case confirmed
        }

        package var id: LoadID
        package var kind: Kind

        /// Whether it reports how a load (or one of its attempts) went.
        package var isResult: Bool {
            switch kind {
            case .progress, .finished, .confirmed, .failed, .cancelled, .retrying: true
            case .started, .queued, .planned: false
            }
        }
    }

    /// What one loadable in a state says.
    package struct Loadable {
        /// Every load it has running or waiting: its value lane's, its
        /// "load more", its edits' and its queue's.
        package var liveIDs: [LoadID]
        /// `.some(id)` while invalidated, `id` the newest load started then.
        package var invalidatedBefore: LoadID??
        /// Whether it shows a value settled by a success: what a lost
        /// invalidation would pass off as fresh.
        package var showsSucceededValue: Bool
        /// The newest load and the newest edit it ever started: IDs are
        /// unique in a store, so two loadables with the same ones (and one
        /// of them set) are one loadable at two moments.
        package var newestLoadID: LoadID?
        package var newestEditID: LoadID?
        /// Whether its path names a place rather than the loadable — an
        /// array position, or a dictionary key printed like another (`[k] #2`)
        /// — so the loadable at the same path a step later may be another.
        package var isAtPosition = false
        /// The loadable itself, for the checks that compare it with itself a step earlier.
        package var base: any InspectableLoadable

        /// This loadable as it was in `before` (the loadables of the state a
        /// step earlier): the one at the same path, unless the path is a
        /// position and the one there now is another.
        package func earlier(in before: [(path: String, loadable: Loadable)], at path: String) -> Loadable? {
            guard let earlier = before.first(where: { $0.path == path })?.loadable else { return nil }
            guard isAtPosition || earlier.isAtPosition else { return earlier }
            let sameLoads = newestLoadID == earlier.newestLoadID && newestEditID == earlier.newestEditID
            return sameLoads && (newestLoadID != nil || newestEditID != nil) ? earlier : nil
        }
    }

    /// The load action inside `action` — the first one a walk of its
    /// payloads finds — or `nil`.
    package static func event(of action: Any) -> Event? {
        find(in: action, depth: 0) { ($0 as? any InspectableLoadAction)?.inspectedEvent }
    }

    /// The ID of the load `action` is about, or `nil`.
    package static func loadID(of action: Any) -> LoadID? {
        event(of: action)?.id
    }

    /// Whether `action` fails a load (or an edit) with a cancellation: a
    /// `CancellationError` as its failure, or held by it — an ``AnyError``'s
    /// base, a case of the feature's own error that wraps what it caught.
    /// Found by type, not by name: a domain error whose case is named
    /// `bookingCancellationError` is a failure like any other.
    package static func failsWithCancellation(_ action: Any) -> Bool {
        guard let failure = find(in: action, depth: 0, { ($0 as? any InspectableLoadAction)?.inspectedFailure }) else { return false }
        return find(in: failure, depth: 0) { $0 is CancellationError ? true : nil } ?? false
    }

    /// Every loadable in `state`, by path (as diffs name it; an element of
    /// `Identifiable` type by its ID: `rows[id: 7]`).
    package static func loadables(in state: Any) -> [(path: String, loadable: Loadable)] {
        var found: [(String, Loadable)] = []
        collect(state, path: "", depth: 0, isAtPosition: false, into: &found)
        // A path printed twice (keys that print alike) names a place; its
        // repeats are numbered, as a recording file numbers them.
        let counts = Dictionary(found.map { ($0.0, 1) }, uniquingKeysWith: +)
        var seen: [String: Int] = [:]
        for index in found.indices where counts[found[index].0, default: 0] > 1 {
            let path = found[index].0
            let count = seen[path, default: 0] + 1
            seen[path] = count
            found[index].1.isAtPosition = true
            if count > 1 { found[index].0 = path + " #\(count)" }
        }
        return found
    }

    private static func find<T>(in value: Any, depth: Int, _ match: (Any) -> T?) -> T? {
        if let found = match(value) { return found }
        guard depth < 8 else { return nil }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .enum, let payload = mirror.children.first {
            if let found = match(payload.value) { return found }
            for child in Mirror(reflecting: payload.value).children {
                if let found = find(in: child.value, depth: depth + 1, match) { return found }
            }
            return nil
        }
        for child in mirror.children {
            if let found = find(in: child.value, depth: depth + 1, match) { return found }
        }
        return nil
    }

    private static func collect(_ value: Any, path: String, depth: Int, isAtPosition: Bool, into found: inout [(String, Loadable)]) {
        if let loadable = value as? any InspectableLoadable {
            var inspected = loadable.inspected
            inspected.isAtPosition = isAtPosition
            found.append((path, inspected))
            return
        }
        guard depth < ValueDump.depthLimit, ValueDump.leafText(value) == nil else { return }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let some = mirror.children.first {
                collect(some.value, path: path, depth: depth + 1, isAtPosition: isAtPosition, into: &found)
            }
        case .collection:
            for (index, child) in mirror.children.enumerated() {
                if let element = child.value as? any Identifiable {
                    collect(
                        child.value, path: path + "[id: \(idText(element))]", depth: depth + 1, isAtPosition: isAtPosition,
                        into: &found)
                } else {
                    collect(child.value, path: path + "[\(index)]", depth: depth + 1, isAtPosition: true, into: &found)
                }
            }
        case .dictionary:
            for pair in ValueDump.keyValuePairs(of: value, mirror) {
                collect(pair.value, path: path + "[\(pair.key)]", depth: depth + 1, isAtPosition: isAtPosition, into: &found)
            }
        case .struct, .class, .tuple:
            for field in ValueDump.fields(mirror) {
                let label = field.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "?"
                collect(
                    field.value, path: path.isEmpty ? label : path + "." + label, depth: depth + 1, isAtPosition: isAtPosition,
                    into: &found)
            }
        case .enum:
            // A screen in one of its cases (`.list(Loadable)`) holds its
            // loadables in the case's payload, at `path.list`.
            guard let payload = mirror.children.first else { return }
            let casePath = payload.label.map { path.isEmpty ? $0 : path + "." + $0 } ?? path
            collect(payload.value, path: casePath, depth: depth + 1, isAtPosition: isAtPosition, into: &found)
        default:
            break
        }
    }
}

private func idText(_ element: some Identifiable) -> String {
    ValueDump.renderOneLine(element.id)
}

/// A load action, readable by ``LoadInspection`` whatever its types.
package protocol InspectableLoadAction {
    var inspectedEvent: LoadInspection.Event { get }
    /// The failure a `.failed` action carries, of its lane or an edit's.
    var inspectedFailure: Any? { get }
}

/// A loadable, readable by ``LoadInspection`` whatever its types.
package protocol InspectableLoadable {
    var inspected: LoadInspection.Loadable { get }

    /// A confirmed edit that this loadable's confirmed or partial value
    /// lacks, though `before` — the same loadable a step earlier — owed it:
    /// one confirmed by `event`, or confirmed while a load that read the
    /// server before it runs. `nil` when nothing confirmed is lost.
    func lostConfirmedEdit(before: any InspectableLoadable, event: LoadInspection.Event) -> String?
}

extension LoadAction: InspectableLoadAction {
    package var inspectedFailure: Any? {
        switch self {
        case .failed(_, let failure): failure
        case .edit(.failed(_, let failure)): failure
        case .more(_, let action), .at(_, let action): action.inspectedFailure
        default: nil
        }
    }

    package var inspectedEvent: LoadInspection.Event {
        switch self {
        case .started(let id): .init(id: id, kind: .started)
        case .queued(let id): .init(id: id, kind: .queued)
        case .planned(let id, _): .init(id: id, kind: .planned)
        case .retrying(let id, _): .init(id: id, kind: .retrying)
        case .progress(let id, _): .init(id: id, kind: .progress)
        case .finished(let id, _): .init(id: id, kind: .finished)
        case .failed(let id, _): .init(id: id, kind: .failed)
        case .cancelled(let id): .init(id: id, kind: .cancelled)
        case .more(_, let action), .at(_, let action): action.inspectedEvent
        case .edit(let edit):
            switch edit {
            case .started(let id, _): .init(id: id, kind: .started)
            case .confirmed(let id): .init(id: id, kind: .confirmed)
            case .failed(let id, _): .init(id: id, kind: .failed)
            case .cancelled(let id): .init(id: id, kind: .cancelled)
            case .retrying(let id, _): .init(id: id, kind: .retrying)
            }
        }
    }
}

extension Loadable: InspectableLoadable {
    package var inspected: LoadInspection.Loadable {
        var live: [LoadID] = []
        if let id = _inFlightID { live.append(id) }
        if let layers = _layers?._contents {
            if let more = layers._more._inFlight { live.append(more.id) }
            live += layers._edits._pendingIDs
            live += layers._queued
        }
        let showsSucceededValue: Bool = if case .success = _settled, _value != nil { true } else { false }
        return LoadInspection.Loadable(
            liveIDs: live, invalidatedBefore: invalidatedBefore, showsSucceededValue: showsSucceededValue, newestLoadID: _newestID,
            newestEditID: _layers?._contents._edits._newestID, base: self)
    }

    package func lostConfirmedEdit(before: any InspectableLoadable, event: LoadInspection.Event) -> String? {
        guard let before = before as? Self, let edits = before._layers?._contents._edits else { return nil }
        var owed = edits._unreflected
        if event.kind == .confirmed, let index = edits._pendingIDs.firstIndex(of: event.id) {
            owed.append(edits._pendingEdits[index])
        }
        guard !owed.isEmpty else { return nil }
        // Edits say what the value becomes, so one already applied changes
        // nothing when applied again; in order, so a later edit of the same
        // row has the last word, as it had when confirmed.
        for (name, value) in [("value", _value), ("partial value", _partial)] {
            guard let value else { continue }
            var again = value
            for edit in owed { _ = edit.apply(to: &again) }
            if again != value {
                let names = owed.map(\.description).joined(separator: ", ")
                return "confirmed \(owed.count == 1 ? "edit" : "edits") \(names) missing from its \(name)"
            }
        }
        return nil
    }
}
