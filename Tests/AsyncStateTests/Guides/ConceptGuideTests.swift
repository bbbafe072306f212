import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Testing

// The code of the concept guides in Sources/AsyncState/Documentation.docc —
// ValueModelGuide.md, RuntimeGuide.md, CompositionGuide.md,
// OverlapPoliciesGuide.md and TestingGuide.md — copied verbatim so the guides
// are known to compile and to do what they say. Change both together.
// Types a guide leaves unstated (its error enums) are written here.

enum ConceptGuides {
    enum FeedError: Error, Equatable { case offline }

    // RuntimeGuide.md
    struct Counter: Reducer {
        struct State: Equatable { var count = 0 }
        enum Action { case increment }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            state.count += 1
            return .none
        }
    }

    // CompositionGuide.md
    enum AvatarError: Error, Equatable { case notFound }

    struct Avatars: Reducer {
        struct State: Equatable {
            var rows: KeyedStates<Int, Loadable<String, AvatarError>> = [:]
        }

        enum Action: Equatable {
            case appeared(Int)
            case avatar(Int, LoadAction<String, AvatarError>)
        }

        let fetch: @MainActor @Sendable (Int) async throws(AvatarError) -> String

        /// The feature with a loader per row composed in.
        var composed: some Reducer<State, Action> {
            forEach(
                \.rows, action: Action.avatar,
                extract: { if case .avatar(let id, let load) = $0 { (id, load) } else { nil } }
            ) {
                LoadReducer()
            }
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .appeared(let id):
                if state.rows[id] == nil { state.rows[id] = Loadable() }
                let fetch = fetch
                return state.rows.withMutableValue(forKey: id) { row in
                    row.load({ .avatar(id, $0) }, LoadRequest { () async throws(AvatarError) in try await fetch(id) })
                } ?? .none
            case .avatar:
                return .none // the keyed LoadReducer has applied it
            }
        }
    }

    // OverlapPoliciesGuide.md
    enum SaveError: Error, Equatable { case rejected }

    struct Editor: Reducer {
        struct State: Equatable {
            var draft = ""
            var save = Loadable<Int, SaveError>()
        }

        enum Action: Equatable {
            case saveTapped
            case save(LoadAction<Int, SaveError>)
        }

        let upload: @MainActor @Sendable (String) async throws(SaveError) -> Int

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .saveTapped:
                // A double tap while saving starts nothing.
                let upload = upload, draft = state.draft
                return state.save.load(
                    Action.save, LoadRequest { () async throws(SaveError) in try await upload(draft) }, overlap: .firstWins)
            case .save(let load):
                return state.save.reduce(load)
            }
        }
    }

    // TestingGuide.md
    enum ProfileError: Error, Equatable { case offline }
}

extension ConceptGuides {
    @Suite("Concept guides")
    @MainActor
    struct Tests {
        @Test func valueModel() {
            var feed = Loadable<[String], FeedError>()
            _ = feed.apply(.started(LoadID(1))) // .loading
            _ = feed.apply(.finished(LoadID(1), ["a"])) // .success(value: ["a"])
            _ = feed.apply(.started(LoadID(2))) // .refreshing(value: ["a"])
            _ = feed.apply(.started(LoadID(3))) // #2 is superseded
            let late = feed.apply(.finished(LoadID(2), ["b"])) // .dropped: #3 is in flight
            _ = feed.apply(.cancelled(LoadID(3))) // back to .success(value: ["a"])

            #expect(late == .dropped)
            #expect(feed.state == .success(value: ["a"]))
            #expect(feed.inFlightID == nil)
        }

        @Test func runtimeTransitions() {

            let store = Store(initialState: Counter.State(), reducer: Counter())
            var log: [String] = []
            store.observeTransitions { transition in
                log.append("\(transition.action) → \(transition.state.count)\(transition.isDropped ? " (dropped)" : "")")
            }
            store.send(.increment)
            store.send(.increment)
            // log: ["increment → 1", "increment → 2"]

            #expect(log == ["increment → 1", "increment → 2"])
        }

        @Test func compositionLoadsEachRowOnItsOwn() async {
            let gates = [1: Gate<String>(), 2: Gate<String>()]
            let feature = Avatars(fetch: { id async throws(AvatarError) in
                do { return try await gates[id]!.wait() } catch { throw .notFound }
            })
            let store = Store(initialState: Avatars.State(), reducer: feature.composed)
            let first = store.send(.appeared(1))
            let second = store.send(.appeared(2))
            #expect(store.rows.keys == [1, 2])
            #expect(store.rows[1]?.inFlightID == LoadID(1))
            #expect(store.rows[2]?.inFlightID == LoadID(2))

            gates[2]!.open(with: "two")
            await second.finish()
            gates[1]!.open(with: "one")
            await first.finish()
            #expect(store.rows[1]?.value == "one")
            #expect(store.rows[2]?.value == "two")
        }

        @Test func overlapFirstWinsIgnoresADoubleTap() async {
            let gate = Gate<Int>()
            let uploads = LockedValue(0)
            let editor = Editor(upload: { _ async throws(SaveError) in
                uploads.withLock { $0 += 1 }
                do { return try await gate.wait() } catch { throw .rejected }
            })
            let store = Store(initialState: Editor.State(), reducer: editor)
            let save = store.send(.saveTapped)
            let doubleTap = store.send(.saveTapped)
            #expect(doubleTap.isEmpty)

            gate.open(with: 7)
            await save.finish()
            #expect(store.save.value == 7)
            #expect(uploads.current == 1)
        }

        @Test func testingThePureLayer() {

            var profile = Loadable<String, ProfileError>()
            #expect(profile.apply(.started(LoadID(1))) == .applied)
            #expect(profile.apply(.started(LoadID(2))) == .applied)
            #expect(profile.apply(.finished(LoadID(1), "old")) == .dropped)
            #expect(profile.apply(.finished(LoadID(2), "new")) == .applied)
            #expect(profile.state == .success(value: "new"))
        }
    }
}
