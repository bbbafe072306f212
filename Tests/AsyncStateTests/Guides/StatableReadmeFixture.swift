import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Observation

// Every code block of the Statable README (Quick Start, Loading Data,
// Rendering, Operation Tracking), kept as written. The one change: each
// `@Statable(T.self …)` line is replaced by the conformance to
// `AsyncValueStore` and one stored `AsyncValue` (plus the `OperationTracker`
// the macro's `operations:` argument declared). SwiftUI is not available on
// Linux, so the views are plain functions and the Rendering block builds a
// list of faces instead of views.

struct MetabolicProfile: Equatable, Sendable {
    var birthYear: Int
    func age() -> Int { 2026 - birthYear }
}

struct WorkoutActivity: Equatable, Sendable { var name: String }

struct Item: Identifiable, Equatable, Sendable { let id: Int }

/// A stand-in API whose every call waits on a gate the test controls.
@MainActor
final class FakeAPI {
    var profile = Gate<MetabolicProfile>()
    var save = Gate<Void>()
    private(set) var profileCalls = 0
    private(set) var saved: [[Item]] = []

    func fetchProfile() async throws -> MetabolicProfile {
        profileCalls += 1
        return try await profile.wait()
    }

    func saveItems(_ items: [Item]) async throws {
        saved.append(items)
        try await save.wait()
    }
}

// MARK: Quick Start

// Simple Store definition
@MainActor @Observable
final class ProfileStore: AsyncValueStore { // was: @Statable(MetabolicProfile.self)
    let asyncValue = AsyncValue<MetabolicProfile, AnyError>()
    public init() {}

    var currentAge: Int { value?.age() ?? 0 }
}

// Store with operation tracking
enum WorkoutOperation: String, CaseIterable, Sendable {
    case fetch, recordStrength, recordCardio
}

@MainActor @Observable
final class WorkoutStore: AsyncValueStore { // was: @Statable([WorkoutActivity].self, operations: WorkoutOperation.self)
    let asyncValue = AsyncValue<[WorkoutActivity], AnyError>()
    let operations = OperationTracker<WorkoutOperation, AnyError>()
    public init() {}

    var isRecording: Bool {
        operations.isActive(.recordStrength) || operations.isActive(.recordCardio)
    }
}

// MARK: Loading Data

@MainActor
func basicLoad(_ store: ProfileStore, api: FakeAPI) async {
    // Basic load
    await store.load {
        try await api.fetchProfile()
    }
}

@MainActor
func loadIfNeededExample(_ store: ProfileStore, api: FakeAPI) async {
    // Load only if the last load has not succeeded
    await store.loadIfNeeded {
        try await api.fetchProfile()
    }
}

// MARK: Rendering

/// What a view would put on screen, one line per view.
protocol Face { var line: String { get } }

struct Content: Face {
    let value: [Item]
    init(_ value: [Item]) { self.value = value }
    var line: String { "content \(value.map(\.id))" }
}

// A Statable user's views take `any Error`, as Statable's `error` was one.
// `AnyError` is an `Error`, so `store.error` goes in as it is.

struct Banner: Face {
    let error: any Error
    init(_ error: any Error) { self.error = error }
    var line: String { "banner \(error)" }
}

struct FailureFace: Face {
    let error: any Error
    init(_ error: any Error) { self.error = error }
    var line: String { "failure \(error)" }
}

/// A Statable user's helper that formats any error for a banner.
func banner(_ error: any Error) -> String {
    "banner \(error)"
}

struct Skeleton: Face {
    var line: String { "skeleton" }
}

/// SwiftUI's `@ViewBuilder`, reduced to what the Rendering block uses.
@resultBuilder
enum FaceBuilder {
    static func buildExpression(_ face: some Face) -> [String] { [face.line] }
    static func buildBlock(_ parts: [String]...) -> [String] { parts.flatMap { $0 } }
    static func buildOptional(_ part: [String]?) -> [String] { part ?? [] }
    static func buildEither(first: [String]) -> [String] { first }
    static func buildEither(second: [String]) -> [String] { second }
}

@MainActor
@FaceBuilder
func render(_ store: ItemStore) -> [String] {
    if let value = store.value {
        Content(value) // also during reload, also after a failure
        if let error = store.error { Banner(error) } // failure does not take the screen away
    } else if let error = store.error {
        FailureFace(error) // only when there is nothing to show
    } else {
        Skeleton() // no answer yet
    }
}

// MARK: Operation Tracking

enum DataOperation: String, CaseIterable, Sendable {
    case fetch, save, delete
}

@MainActor @Observable
final class ItemStore: AsyncValueStore { // was: @Statable([Item].self, operations: DataOperation.self)
    let asyncValue = AsyncValue<[Item], AnyError>()
    let operations = OperationTracker<DataOperation, AnyError>()
    public init() {}
}

struct ItemRow: Equatable { let item: Item }

/// `struct ItemListView: View`, as plain functions: `store` is what
/// `@Environment(ItemStore.self)` provides, and `api` the README's global.
@MainActor
struct ItemListView {
    let store: ItemStore
    let api: FakeAPI

    /// `List { ForEach(store.value ?? []) { item in ItemRow(item: item) } }`
    var rows: [ItemRow] {
        (store.value ?? []).map { item in
            ItemRow(item: item)
        }
    }

    /// The toolbar's Save button: its action.
    @discardableResult
    func tapSave() -> Task<Void, Never> {
        Task {
            await store.operations.run(.save) {
                try await api.saveItems(store.value ?? [])
            }
        }
    }

    /// The toolbar's Save button: `.disabled(store.operations.isActive(.save))`.
    var isSaveDisabled: Bool {
        store.operations.isActive(.save)
    }
}
