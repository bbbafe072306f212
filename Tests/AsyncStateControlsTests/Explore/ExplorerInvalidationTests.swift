import AsyncState
import AsyncStateControls
import Testing

/// A list and the detail of its first row. A new list resets the detail;
/// `detailChanged` invalidates the detail and reloads it, `detailStale`
/// only invalidates it.
struct MasterDetail: Reducer {
    struct State: Equatable {
        var list = Loadable<[Int], SearchFailure>()
        var detail = Loadable<String, SearchFailure>()
    }

    enum Action: Equatable {
        case loadList, loadDetail, detailChanged, detailStale
        case list(LoadAction<[Int], SearchFailure>)
        case detail(LoadAction<String, SearchFailure>)
    }

    let fetchList: @Sendable () async throws(SearchFailure) -> [Int]
    let fetchDetail: @Sendable () async throws(SearchFailure) -> String
    /// Broken on purpose: shows every detail that arrives as the settled
    /// value, generations and invalidation ignored.
    var forgetsInvalidation = false
    /// Broken on purpose: shows the first row of each new list as the
    /// detail, a success, whatever the detail's invalidation says.
    var writesDetailFromList = false

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .loadList:
            let fetchList = fetchList
            return state.list.load(Action.list, LoadRequest { () async throws(SearchFailure) in try await fetchList() })
        case .loadDetail:
            return state.detail.load(Action.detail, detailRequest)
        case .detailChanged:
            state.detail.invalidate()
            return state.detail.load(Action.detail, detailRequest)
        case .detailStale:
            state.detail.invalidate()
            return .none
        case .list(let load):
            let before = state.list.value
            let effect: Effect<Action> = state.list.reduce(load)
            guard state.list.value != before else { return effect }
            let reset: Effect<Action> = .cancel(load: state.detail.reset())
            if writesDetailFromList, let row = state.list.value?.first { state.detail = Loadable(value: "row \(row)") }
            return .merge(effect, reset)
        case .detail(.finished(_, let detail)) where forgetsInvalidation:
            state.detail = Loadable(value: detail)
            return .none
        case .detail(let load):
            return state.detail.reduce(load)
        }
    }

    var detailRequest: LoadRequest<String, SearchFailure> {
        let fetchDetail = fetchDetail
        return LoadRequest { () async throws(SearchFailure) in try await fetchDetail() }
    }
}

/// "No invalidation lost" means nothing shows, as fresh, a value from a load
/// started before the invalidation. A reducer that resets an invalidated
/// loadable as another loadable's load ends shows nothing stale (found by an
/// outside reading: the check failed such a feature, and passed it once its
/// script started the loads in another order); one that writes that load's
/// result into it does.
@Suite("Exploring: no invalidation lost")
@MainActor
struct ExplorerInvalidationTests {
    /// The feature over controlled operations, `broken` as a test asks.
    func feature(_ operations: ControlledOperations, broken: (inout MasterDetail) -> Void = { _ in }) -> MasterDetail {
        let list = operations.operation("list") { _ in Result<[Int], SearchFailure>.success([1, 2]) }
        let detail = operations.operation("detail") { call in Result<String, SearchFailure>.success("v\(call)") }
        var feature = MasterDetail(
            fetchList: { () throws(SearchFailure) in try await list() }, fetchDetail: { () throws(SearchFailure) in try await detail() })
        broken(&feature)
        return feature
    }

    @Test(
        "a reset of an invalidated loadable, in the step another loadable's load ends, loses no invalidation, whatever the order of the loads",
        arguments: [
            [MasterDetail.Action.loadList, .loadDetail, .detailChanged], [.loadDetail, .detailChanged, .loadList],
        ])
    func resetInTheStepOfAnotherLoad(script: [MasterDetail.Action]) async {
        let report = await explore(MasterDetail.State(), script: script) { feature($0) }
        #expect(report.failure == nil, "\(String(describing: report.failure?.message))")
        #expect(report.isComplete)
    }

    @Test("a load started before an invalidation leaves the value invalidated; a reducer that shows it as fresh is caught")
    func lostInvalidationCaught() async throws {
        let kept = await explore(MasterDetail.State(), script: [.loadDetail, .detailStale]) { feature($0) }
        #expect(kept.failure == nil)
        let report = await explore(MasterDetail.State(), script: [.loadDetail, .detailStale]) {
            feature($0) { $0.forgetsInvalidation = true }
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no invalidation lost")
        #expect(failure.message.contains("load #1, which started before, cleared it"), "\(failure.message)")
    }

    @Test("a reducer that writes a load's result into another loadable, invalidated after that load started, as fresh is caught")
    func lostAcrossLoadablesCaught() async throws {
        let report = await explore(MasterDetail.State(), script: [.loadList, .loadDetail, .detailStale]) {
            feature($0) { $0.writesDetailFromList = true }
        }
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no invalidation lost")
        #expect(failure.message.hasPrefix("detail was invalidated while load #2 was the newest started; load #1"), "\(failure.message)")
    }
}
