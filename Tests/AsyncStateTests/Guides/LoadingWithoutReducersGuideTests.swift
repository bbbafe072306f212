import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Observation
import Testing

// The code of the "Loading without reducers" article
// (Sources/AsyncState/Documentation.docc/LoadingWithoutReducers.md), copied
// verbatim so the article is known to compile and run. Change both together.
// `Item`, `ItemOperation` and `api` are the article's unstated dependencies;
// its free function `face(of:)` is a method of `Screen` here.

enum LoadingWithoutReducersGuide {
    struct Item: Equatable, Sendable {
        let name: String
    }

    enum ItemOperation: Hashable, Sendable { case save }

    struct ItemAPI: Sendable {
        let savedItems = LockedValue<[[Item]]>([])

        func items() async throws -> [Item] { [Item(name: "a")] }
        func save(_ items: [Item]) async throws { savedItems.withLock { $0.append(items) } }
    }

    static let api = ItemAPI()

    @MainActor @Observable
    final class ItemStore {
        let items = AsyncValue<[Item], AnyError>()
        let operations = OperationTracker<ItemOperation, AnyError>()

        func appear() async {
            await items.loadIfNeeded { try await api.items() }
        }

        func save() async {
            await operations.run(.save) { try await api.save(self.items.value ?? []) }
        }
    }

    /// Where the guide's free function lives here, beside the faces.
    struct Screen {
        enum Face: Equatable {
            case content([Item], banner: AnyError?) // also while reloading, also after a failure
            case failure(AnyError) // only when there is nothing to show
            case skeleton
        }

        @MainActor func face(of items: AsyncValue<[Item], AnyError>) -> Face {
            if let value = items.value { return .content(value, banner: items.error) }
            if let error = items.error { return .failure(error) }
            return .skeleton
        }
    }

    struct Offline: Error, Equatable {}

    @Suite("Loading without reducers guide")
    @MainActor
    struct Tests {
        @Test func theStoreLoadsAndSaves() async {
            let store = ItemStore()
            await store.appear()
            await store.save()

            #expect(store.items.value == [Item(name: "a")])
            #expect(api.savedItems.current.last == [Item(name: "a")])
        }

        @Test func threeFaces() async {
            let items = AsyncValue<[Item], AnyError>()
            #expect(Screen().face(of: items) == Screen.Face.skeleton)

            await items.load { throw Offline() }
            #expect(Screen().face(of: items) == Screen.Face.failure(AnyError(Offline())))

            await items.load { [Item(name: "a")] }
            #expect(Screen().face(of: items) == Screen.Face.content([Item(name: "a")], banner: nil))

            await items.load { throw Offline() }
            #expect(Screen().face(of: items) == Screen.Face.content([Item(name: "a")], banner: AnyError(Offline())))
        }
    }
}
