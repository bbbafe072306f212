import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

/// Random sequences of load actions — starts, results, failures, cancels,
/// progress and invalidations for any of a few IDs — through a recording
/// store with a random capacity, checked step by step: the recording keeps
/// the newest steps and the state before them; it replays, in memory and from
/// its JSON lines, to the same states; a minimized recording is valid, still
/// fails and is 1-minimal; and the kit's loadable never breaks a promise the
/// explorer checks (while a reducer that ignores the generation does).
@Suite("Reliability: recording model check")
@MainActor
struct RecordingModelTests {
    /// `TestError` as a recording file can hold it.
    enum Failure: Error, Equatable, Codable { case boom }
    typealias Value = Loadable<Int, Failure>
    typealias Action = LoadAction<Int, Failure>

    enum Step: Codable, Equatable {
        case load(Action)
        case invalidate
    }

    /// The kit's loadable, taking each action as it comes.
    static let kit = Reduce<Value, Step> { state, step in
        switch step {
        case .load(let action): return state.reduce(action)
        case .invalidate:
            state.invalidate()
            return .none
        }
    }

    /// A loadable written without the generation gate: every result shows.
    static let ungated = Reduce<Value, Step> { state, step in
        switch step {
        case .load(.finished(_, let value)):
            state = Value(value: value)
            return .none
        case .load(let action): return state.reduce(action)
        case .invalidate:
            state.invalidate()
            return .none
        }
    }

    static func randomSteps(_ random: inout SplitMix64) -> [Step] {
        // Most sequences are short; one in four runs past several of the
        // recorder's checkpoints (every 64 steps) and round its ring.
        let count = random.next() % 4 == 0 ? Int(random.next() % 300) + 1 : Int(random.next() % 30) + 1
        var steps: [Step] = []
        for _ in 0..<count {
            let id = LoadID(random.next() % 4 + 1)
            let value = Int(random.next() % 5)
            let step: Step
            switch random.next() % 7 {
            case 0, 1: step = .load(.started(id))
            case 2: step = .load(.finished(id, value))
            case 3: step = .load(.failed(id, .boom))
            case 4: step = .load(.cancelled(id))
            case 5: step = .load(.progress(id, value))
            default: step = .invalidate
            }
            steps.append(step)
        }
        return steps
    }

    @Test("recordings keep the newest steps, replay in memory and from JSON lines, and minimize to valid failing sequences")
    func model() async {
        var brokenCaught = 0
        await RandomizedRun(defaultCount: 1_000, maximum: 200).playSequences { seed in
            var random = SplitMix64(seed: seed)
            let steps = Self.randomSteps(&random)
            let capacity = Int(random.next() % 100) + 1
            let recorder = Recorder<Value, Step>(capacity: capacity)
            let store = Store(initialState: Value(), reducer: Self.kit)
            store.record(into: recorder)
            var states: [Value] = [Value()]
            var model = Value()
            for step in steps {
                store.send(step)
                _ = Self.kit.reduce(into: &model, action: step)
                states.append(model)
            }
            guard let recording = recorder.recording else { return "nothing recorded" }
            let kept = min(steps.count, capacity)
            guard recording.steps.count == kept, recording.discardedStepCount == steps.count - kept,
                recording.actions == Array(steps.suffix(kept)), recording.initialState == states[steps.count - kept],
                recording.steps.map(\.state) == Array(states.suffix(kept))
            else { return "the buffer kept the wrong steps for \(steps) at capacity \(capacity)" }
            do {
                let replayed = try RecordingTranscript(recording).replay(from: recording.initialState, through: Self.kit)
                guard replayed.steps.map(\.state) == recording.steps.map(\.state) else { return "the replay's states differ" }
                let text = try recording.jsonLines()
                let decoded = try RecordingTranscript<Step>(jsonLines: text)
                guard try decoded.jsonLines() == text, decoded.actions == recording.actions else { return "the file does not read back" }
                _ = try decoded.replay(from: recording.initialState, through: Self.kit)
            } catch {
                return "replaying \(steps): \(error)"
            }
            if let broken = firstBroken(
                in: Recording(replaying: steps, from: Value(), through: Self.kit), invariants: [], checkingEnd: false)
            {
                return "the kit broke \"\(broken.invariant)\" on \(steps): \(broken.message)"
            }
            let ungated = Recording(replaying: steps, from: Value(), through: Self.ungated)
            guard let broken = firstBroken(in: ungated, invariants: [], checkingEnd: false) else { return nil }
            brokenCaught += 1
            let fails = { (candidate: Recording<Value, Step>) in
                firstBroken(in: candidate, invariants: [], checkingEnd: false)?.invariant == broken.invariant
            }
            let minimized = ungated.minimized(through: Self.ungated, whileFailing: fails)
            guard fails(minimized), minimized.steps.count <= ungated.steps.count else { return "the minimized recording passes" }
            // Valid: each load keeps all its actions, in their order.
            func actions(of id: LoadID, in list: [Step]) -> [Step] {
                list.filter { if case .load(let action) = $0 { action.id == id } else { false } }
            }
            for case .load(let action) in minimized.actions
            where actions(of: action.id, in: minimized.actions) != actions(of: action.id, in: steps) {
                return "the minimized recording keeps only part of load \(action.id): \(minimized.actions)"
            }
            // 1-minimal: without any one load (or other action), it passes.
            var units: [[Int]] = []
            var unitOfLoad: [LoadID: Int] = [:]
            for (index, step) in minimized.actions.enumerated() {
                if case .load(let action) = step, let unit = unitOfLoad[action.id] {
                    units[unit].append(index)
                } else {
                    if case .load(let action) = step { unitOfLoad[action.id] = units.count }
                    units.append([index])
                }
            }
            for unit in units {
                let rest = minimized.actions.indices.filter { !unit.contains($0) }.map { minimized.actions[$0] }
                if fails(Recording(replaying: rest, from: Value(), through: Self.ungated)) {
                    return "the minimized recording \(minimized.actions) still fails without \(unit.map { minimized.actions[$0] })"
                }
            }
            return nil
        }
        #expect(brokenCaught > 0, "no sequence made the ungated loadable apply a stale result")
    }

    /// Switches one of three flags on: an edit that says what the value becomes.
    struct SwitchOn: Edit, CustomStringConvertible {
        var flag: Int

        func apply(to flags: inout [Bool]) -> Bool {
            flags[flag] = true
            return true
        }

        var description: String { "on(\(flag))" }
    }

    typealias Flags = Loadable<[Bool], Failure>
    typealias FlagsAction = LoadAction<[Bool], Failure>

    /// A loadable that shows a finished load's value as it came, dropping
    /// every edit with it.
    static let dropsEdits = Reduce<Flags, FlagsAction> { state, action in
        if case .finished(let id, let value) = action, state.inFlightID == id {
            state = Flags(value: value)
            return .none
        }
        return state.reduce(action)
    }

    @Test("loads and optimistic edits in any order: the kit loses no confirmed edit, and a reducer that drops them is caught")
    func confirmedEdits() async {
        var brokenCaught = 0
        await RandomizedRun(defaultCount: 1_000, maximum: 1_000).playSequences { seed in
            var random = SplitMix64(seed: seed)
            var actions: [FlagsAction] = []
            for _ in 0..<(Int(random.next() % 40) + 1) {
                // Loads #1–#3, edits #4–#6: a store never gives a load and an edit one ID.
                let load = LoadID(random.next() % 3 + 1)
                let edit = LoadID(random.next() % 3 + 4)
                let flags = (0..<3).map { _ in random.next() % 2 == 0 }
                switch random.next() % 9 {
                case 0, 1: actions.append(.started(load))
                case 2: actions.append(.finished(load, flags))
                case 3: actions.append(.progress(load, flags))
                case 4: actions.append(.failed(load, .boom))
                case 5: actions.append(.cancelled(load))
                case 6: actions.append(.edit(.started(edit, AnyEdit(SwitchOn(flag: Int(random.next() % 3))))))
                case 7: actions.append(.edit(.confirmed(edit)))
                default: actions.append(random.next() % 2 == 0 ? .edit(.failed(edit, .boom)) : .edit(.cancelled(edit)))
                }
            }
            let kit = Reduce<Flags, FlagsAction> { state, action in state.reduce(action) }
            if let broken = firstBroken(
                in: Recording(replaying: actions, from: Flags(), through: kit), invariants: [], checkingEnd: false)
            {
                return "the kit broke \"\(broken.invariant)\" on \(actions): \(broken.message)"
            }
            let dropping = Recording(replaying: actions, from: Flags(), through: Self.dropsEdits)
            if firstBroken(in: dropping, invariants: [], checkingEnd: false)?.invariant == "no confirmed edit lost" {
                brokenCaught += 1
            }
            return nil
        }
        #expect(brokenCaught > 0, "no sequence made the reducer that drops edits lose a confirmed one")
    }
}
