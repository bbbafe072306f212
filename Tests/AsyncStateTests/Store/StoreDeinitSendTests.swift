import AsyncState
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

    @Test(
        "a queued action whose payload sends when released: processed in the same send, after it",
        arguments: EffectStart.allCases)
    func queuedActionReleased(start: EffectStart) {
        let (store, link) = makeStore(start)
        // Sent while the store is processing, `.carry` is queued, and the
        // queue holds the last reference to its object.
        store.observeTransitions { transition in
            guard case .note("first") = transition.action else { return }
            link.store?.send(.carry(SendsWhenReleased { link.store?.send(.note("released")) }))
        }
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
        // Sent while the store is processing, so that once the queued action
        // is gone, the effect's closure holds the last reference.
        store.observeTransitions { transition in
            guard case .note("first") = transition.action else { return }
            link.store?.send(.runHolding(SendsWhenReleased { link.store?.send(.note("released")) }))
        }
        await store.send(.note("first")).finish()
        store.send(.note("next"))
        #expect(store.state == ["first", "runHolding", "released", "next"])
        #expect(store.runningEffectCount == 0)
    }
}
