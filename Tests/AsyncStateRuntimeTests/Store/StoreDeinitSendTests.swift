import AsyncState
import AsyncStateTestSupport
import Testing

/// A user's object whose deinit sends an action — destroyed by the store,
/// on the main actor, when the action or effect holding it is done.
final class SendsWhenReleased: Sendable {
    let send: @MainActor @Sendable () -> Void

    init(_ send: @escaping @MainActor @Sendable () -> Void) {
        self.send = send
    }

    deinit {
        MainActor.assumeIsolated { send() }
    }
}

/// Notes what happened; some actions carry, or start an effect holding, an
/// object that sends when released.
struct Notebook: Reducer {
    enum Action: Sendable {
        case note(String)
        case carry(SendsWhenReleased)
        case runHolding(SendsWhenReleased)
        /// Two effects: the first holds the object and ends at once, the
        /// second notes "B" from its synchronous part.
        case holdThenNote(SendsWhenReleased)
        /// An effect that sends `.note(text)` from its synchronous part.
        case runNoting(String)
        /// An effect that sends `.runNoting("nested")`, then a note.
        case nestedSend
    }

    func reduce(into state: inout [String], action: Action) -> Effect<Action> {
        switch action {
        case .note(let text):
            state.append(text)
            return .none
        case .carry:
            state.append("carry")
            return .none
        case .runHolding(let object):
            state.append("runHolding")
            return .run { _ in withExtendedLifetime(object) {} }
        case .holdThenNote(let object):
            state.append("holdThenNote")
            return .merge(
                .run { _ in withExtendedLifetime(object) {} },
                .run { send in send(.note("B")) }
            )
        case .runNoting(let text):
            state.append("runNoting(\(text))")
            return .run { send in send(.note(text)) }
        case .nestedSend:
            state.append("nestedSend")
            return .run { send in
                send(.runNoting("nested"))
                send(.note("after nested"))
            }
        }
    }
}

@Suite("Store: a deinit that sends")
@MainActor
struct StoreDeinitSendTests {
    @MainActor
    final class Link {
        weak var store: Store<[String], Notebook.Action>?
    }

    func makeStore(_ start: EffectStart) -> (Store<[String], Notebook.Action>, Link) {
        let store = Store(initialState: [String](), reducer: Notebook())
        store._effectStart = start
        let link = Link()
        link.store = store
        return (store, link)
    }

    /// While the store processes `.note("first")`, sends `carrier(object)`,
    /// where `object` sends `released` when it is destroyed. Sent while the
    /// store is processing, the action is queued, and once it is processed
    /// the store holds the last reference to the object.
    func whileProcessingFirst(
        _ store: Store<[String], Notebook.Action>, _ link: Link,
        send carrier: @escaping @MainActor (SendsWhenReleased) -> Notebook.Action,
        releasing released: Notebook.Action
    ) {
        store.observeTransitions { transition in
            guard case .note("first") = transition.action else { return }
            link.store?.send(carrier(SendsWhenReleased { link.store?.send(released) }))
        }
    }

    @Test(
        "a queued action whose payload sends when released: processed in the same send, after it",
        arguments: EffectStart.allCases)
    func queuedActionReleased(start: EffectStart) {
        let (store, link) = makeStore(start)
        whileProcessingFirst(store, link, send: Notebook.Action.carry, releasing: .note("released"))
        store.send(.note("first"))
        #expect(store.state == ["first", "carry", "released"])
        store.send(.note("next"))
        #expect(store.state == ["first", "carry", "released", "next"])
    }

    @Test(
        "an effect whose closure sends when released: its action is processed before the next send",
        arguments: EffectStart.allCases)
    func launchedEffectReleased(start: EffectStart) async {
        let (store, link) = makeStore(start)
        whileProcessingFirst(store, link, send: Notebook.Action.runHolding, releasing: .note("released"))
        await store.send(.note("first")).finish()
        store.send(.note("next"))
        #expect(store.state == ["first", "runHolding", "released", "next"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(
        "an effect that sends when released: its action comes before the next pending effect's, on both paths",
        arguments: EffectStart.allCases)
    func releasedBeforeNextEffect(start: EffectStart) async {
        let (store, link) = makeStore(start)
        whileProcessingFirst(store, link, send: Notebook.Action.holdThenNote, releasing: .note("released"))
        await store.send(.note("first")).finish()
        // The first effect is destroyed right after its launch, before the
        // second launches: an enqueued first effect has ended by then too.
        #expect(store.state == ["first", "holdThenNote", "released", "B"])
    }

    @Test(
        "an effect started from a deinit during a drain is launched by that drain, once",
        arguments: EffectStart.allCases)
    func deinitStartsEffect(start: EffectStart) async {
        let (store, link) = makeStore(start)
        whileProcessingFirst(store, link, send: Notebook.Action.holdThenNote, releasing: .runNoting("from deinit"))
        let task = store.send(.note("first"))
        let expected = ["first", "holdThenNote", "runNoting(from deinit)", "B", "from deinit"]
        if start == .immediate {
            #expect(store.state == expected)
            #expect(store.runningEffectCount == 0)
        }
        await task.finish()
        await store.runningEffectsTask.finish()
        #expect(store.state == expected)
    }

    @Test("effects scheduled by a send from an effect are launched once, in order", arguments: EffectStart.allCases)
    func nestedSendEffects(start: EffectStart) async {
        let (store, _) = makeStore(start)
        await store.send(.nestedSend).finish()
        await store.runningEffectsTask.finish()
        #expect(store.state == ["nestedSend", "runNoting(nested)", "after nested", "nested"])
    }
}
