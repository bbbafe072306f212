import AsyncState
import AsyncStateTesting
import Testing

// Every example of the Statable README, ported to AsyncState's API.
// `@Statable(T.self)` becomes a stored `AsyncValue`; views become functions
// that return which face would show.

struct MetabolicProfile: Equatable, Sendable {
    var birthYear: Int
    func age() -> Int { 2026 - birthYear }
}

struct WorkoutActivity: Equatable, Sendable { var name: String }

/// A stand-in API whose every call waits on a gate the test controls.
@MainActor
final class FakeAPI {
    var profile = Gate<MetabolicProfile>()
    var items = Gate<[String]>()
    var save = Gate<Void>()
    private(set) var profileCalls = 0

    func fetchProfile() async throws -> MetabolicProfile {
        profileCalls += 1
        return try await profile.wait()
    }

    func saveItems(_ items: [String]) async throws {
        try await save.wait()
    }
}

// Quick Start: a simple store.
@MainActor
final class ProfileStore {
    let profile = AsyncValue<MetabolicProfile, AnyError>()
    init() {}

    var currentAge: Int { profile.value?.age() ?? 0 }
}

// Quick Start: a store with operation tracking.
enum WorkoutOperation: String, CaseIterable, Sendable {
    case fetch, recordStrength, recordCardio
}

@MainActor
final class WorkoutStore {
    let workouts = AsyncValue<[WorkoutActivity], AnyError>()
    let operations = OperationTracker<WorkoutOperation, AnyError>()
    init() {}

    var isRecording: Bool {
        operations.isActive(.recordStrength) || operations.isActive(.recordCardio)
    }
}

// Operation Tracking.
enum DataOperation: String, CaseIterable, Sendable {
    case fetch, save, delete
}

@MainActor
final class ItemStore {
    let items = AsyncValue<[String], AnyError>()
    let operations = OperationTracker<DataOperation, AnyError>()
    init() {}
}

/// Rendering: the three faces.
enum Face: Equatable {
    case content([String], banner: AnyError?)
    case failure(AnyError)
    case skeleton
}

@MainActor
func face(of store: ItemStore) -> Face {
    if let value = store.items.value {
        return .content(value, banner: store.items.error) // also during reload, also after a failure
    } else if let error = store.items.error {
        return .failure(error) // only when there is nothing to show
    } else {
        return .skeleton // no answer yet
    }
}

/// The Operation Tracking example's view: the Save button and its state.
@MainActor
func saveButtonIsDisabled(_ store: ItemStore) -> Bool {
    store.operations.isActive(.save)
}

struct Offline: Error, Equatable {}

@Suite("Statable README, ported")
@MainActor
struct StatableReadmeTests {
    @Test("Quick Start: a derived property reads the loaded value")
    func quickStart() async {
        let api = FakeAPI()
        let store = ProfileStore()
        #expect(store.currentAge == 0)
        api.profile.open(with: MetabolicProfile(birthYear: 1990))
        await store.profile.load { try await api.fetchProfile() }
        #expect(store.currentAge == 36)
    }

    @Test("Quick Start: isRecording follows the tracked operations")
    func quickStartOperations() async {
        let store = WorkoutStore()
        let gate = Gate<Void>()
        let recording = Task { await store.operations.run(.recordStrength) { try await gate.wait() } }
        await gate.waitForArrivals()
        #expect(store.isRecording)
        gate.open(with: ())
        await recording.value
        #expect(!store.isRecording)
    }

    @Test("Loading Data: load, then loadIfNeeded does nothing after success")
    func loadingData() async {
        let api = FakeAPI()
        let store = ProfileStore()
        api.profile.open(with: MetabolicProfile(birthYear: 2000))
        await store.profile.load { try await api.fetchProfile() }
        await store.profile.loadIfNeeded { try await api.fetchProfile() }
        #expect(api.profileCalls == 1)
        #expect(store.profile.state == .success(value: MetabolicProfile(birthYear: 2000)))
    }

    @Test("Rendering: skeleton, then content, content during reload, content plus banner after a failure")
    func rendering() async {
        let store = ItemStore()
        #expect(face(of: store) == .skeleton)

        await store.items.load { ["a"] }
        #expect(face(of: store) == .content(["a"], banner: nil))

        let gate = Gate<[String]>()
        let reload = Task { await store.items.load { try await gate.wait() } }
        await gate.waitForArrivals()
        #expect(face(of: store) == .content(["a"], banner: nil))
        #expect(store.items.isLoading)

        gate.fail(with: Offline())
        await reload.value
        #expect(face(of: store) == .content(["a"], banner: AnyError(Offline())))
    }

    @Test("Rendering: the failure face only when there is nothing to show")
    func failureFace() async {
        let store = ItemStore()
        await store.items.load { throw Offline() }
        #expect(face(of: store) == .failure(AnyError(Offline())))
    }

    @Test("Operation Tracking: Save is disabled while saving")
    func operationTracking() async {
        let api = FakeAPI()
        let store = ItemStore()
        await store.items.load { ["x"] }
        let saving = Task { await store.operations.run(.save) { try await api.saveItems(store.items.value ?? []) } }
        await api.save.waitForArrivals()
        #expect(saveButtonIsDisabled(store))
        api.save.open(with: ())
        await saving.value
        #expect(!saveButtonIsDisabled(store))
        #expect(store.operations.error(for: .save) == nil)
    }
}
