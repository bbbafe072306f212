import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation
import Testing

// The observation samples of README.md, RuntimeGuide.md and the doc comments
// of `Store+Parts.swift`, copied line for line (`SampleCoverageTests` fails
// when they differ), with what each says checked.

enum ObservationGuide {
    struct Message: Equatable, Sendable {
        var text: String
        var isRead = false
    }

    struct Profile: Equatable, Sendable {
        var name: String
    }

    // RuntimeGuide.md
    struct Inbox: Reducer {
        struct State: Equatable {
            var title = "Inbox"
            var profile = Loadable<Profile, AnyError>()
            var messages: KeyedStates<Int, Message> = [7: Message(text: "Hi"), 8: Message(text: "Lunch?")]
        }

        enum Action {
            case rename(String)
            case markRead(Int)
            case profile(LoadAction<Profile, AnyError>)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .rename(let title):
                state.title = title
            case .markRead(let id):
                state.messages.withMutableValue(forKey: id) { $0.isRead = true }
            case .profile(let load):
                return state.profile.reduce(load)
            }
            return .none
        }
    }
}

@Suite("Guide: observation")
@MainActor
struct ObservationGuideTests {
    typealias Inbox = ObservationGuide.Inbox
    typealias Profile = ObservationGuide.Profile

    @Test("README: what a view reads is what it depends on")
    func readme() {
        let store = Store(initialState: Inbox.State(), reducer: Inbox())
        let id = 7
        var reads: [String] = []
        withObservationTracking {
            // In a view's body, each read registers that part alone:
            let title = store.title // told when `title` changes
            let name = store[part: \.profile.value?.name] // a part at any depth
            let message = store[part: \.messages, key: id] // one row of a KeyedStates
            reads = [title, name ?? "-", message?.text ?? "-"]
        } onChange: {
            Issue.record("a message read elsewhere changed nothing this view read")
        }
        store.send(.markRead(8))
        #expect(reads == ["Inbox", "-", "Hi"])
    }

    @Test("RuntimeGuide: a view of one row is told only when that row changes")
    func runtimeGuide() {
        let store = Store(initialState: Inbox.State(), reducer: Inbox())
        let told = LockedValue(0)
        withObservationTracking {
            _ = store[part: \.messages, key: 7]
        } onChange: {
            told.withLock { $0 += 1 }
        }
        // RuntimeGuide.md
        withObservationTracking {
            _ = store[part: \.messages, key: 7]
        } onChange: {
            print("row 7 changed")
        }
        store.send(.markRead(8)) // another row: not told
        store.send(.rename("Mail")) // another part: not told
        store.send(.profile(.finished(LoadID(9), Profile(name: "Lee")))) // dropped: not told
        store.send(.markRead(7)) // prints "row 7 changed", once
        #expect(told.current == 1)
    }

    @Test("doc comments: a part at depth, and one row")
    func docComments() {
        let store = Store(initialState: Inbox.State(), reducer: Inbox())
        store.send(.profile(.started(LoadID(1))))
        store.send(.profile(.finished(LoadID(1), ObservationGuide.Profile(name: "Lee"))))
        let id = 8
        let name = store[part: \.profile.value?.name]
        let row = store[part: \.messages, key: id]
        #expect(name == "Lee")
        #expect(row == ObservationGuide.Message(text: "Lunch?"))
    }
}
