import AsyncState
import AsyncStateControls
import AsyncStateTestSupport
import Foundation
import Testing

/// Random sequences of actions over one `Loadable<Pages<Int, Int>, TestError>`
/// that is paged, stamped (fresh), queued, retried and takes optimistic
/// edits — value-lane starts, turns and results, more-lane starts and
/// results, edits started, confirmed, failed, cancelled and retried,
/// progress, plans, invalidations, values set locally, time passing, and stale and duplicate
/// results — checked after every step against ``ComposedReference``, the
/// combination of the reference models, and against what a server that the
/// sequence writes to says must hold:
///
/// - no stale result wins: a result of any lane for a load that is not the
///   one in flight is dropped and changes nothing;
/// - no confirmed edit is lost: after any load settles, every row shown has
///   the version of its newest pending edit, or else of its last confirmed one;
/// - no invalidation is lost: the value stays invalidated until a load
///   started after the invalidation succeeds;
/// - nothing is stuck loading: once every lane has ended, nothing is in
///   flight, queued or pending;
/// - cancellation is never failure, in any lane.
///
/// Seeded with `SplitMix64`: `ASYNCSTATE_SEED` replays a run and
/// `ASYNCSTATE_SEQUENCES` sets how many sequences it plays (20,000 by
/// default). A failure says its seed, the step it failed at, and the
/// shortest sequence of steps found that still fails, shrunk from the
/// failing prefix.
@Suite("Reliability: composed model check of a paged, fresh list that takes edits")
struct ComposedModelTests {
    typealias List = Loadable<Pages<Int, Int>, TestError>

    /// Sets the version of one row: rows are `row * 1000 + version`.
    struct SetVersion: Edit, CustomStringConvertible {
        var row: Int
        var version: Int

        func apply(to list: inout Pages<Int, Int>) -> Bool {
            guard let index = list.firstIndex(where: { $0 / 1_000 == row }) else { return false }
            list[index] = row * 1_000 + version
            return true
        }

        var description: String { "row \(row) → v\(version)" }
    }

    /// One step of a sequence. Loads of every lane share one ID sequence, as
    /// in a store. A load's value is what the server held when it started.
    enum Step: Equatable, CustomStringConvertible {
        case start(UInt64)
        case queue(UInt64)
        case finish(UInt64)
        case fail(UInt64)
        case cancel(UInt64)
        case progress(UInt64)
        case retry(UInt64, attempt: Int)
        case plan(UInt64, attempts: Int)
        case moreStart(UInt64, page: Int, list: UInt64?)
        case moreFinish(UInt64, page: Int, list: UInt64?)
        case moreFail(UInt64, page: Int, list: UInt64?)
        case moreCancel(UInt64, page: Int, list: UInt64?)
        case moreRetry(UInt64, page: Int, list: UInt64?, attempt: Int)
        case morePlan(UInt64, page: Int, list: UInt64?, attempts: Int)
        case editStart(UInt64, row: Int, version: Int)
        case editConfirm(UInt64)
        case editFail(UInt64)
        case editCancel(UInt64)
        case editRetry(UInt64)
        case invalidate
        /// The load in flight finishes with its snapshot's first `pages`
        /// pages: a refetch of every page shown, which may bring more than
        /// the window keeps.
        case finishPages(UInt64, pages: Int)
        /// A value set locally, `setValue`: the server's rows now, in `pages` pages.
        case setValue(pages: Int)
        case tick(Int)

        var description: String {
            func request(_ page: Int, _ list: UInt64?) -> String { "page \(page) of #\(list.map(String.init) ?? "-")" }
            return switch self {
            case .start(let id): "start #\(id)"
            case .queue(let id): "queue #\(id)"
            case .finish(let id): "finish #\(id)"
            case .finishPages(let id, let pages): "finish #\(id) with \(pages) pages"
            case .fail(let id): "fail #\(id)"
            case .cancel(let id): "cancel #\(id)"
            case .progress(let id): "progress #\(id)"
            case .retry(let id, let attempt): "retry #\(id) after attempt \(attempt)"
            case .plan(let id, let attempts): "plan #\(id): \(attempts) attempts"
            case .moreStart(let id, let page, let list): "more start #\(id) for \(request(page, list))"
            case .moreFinish(let id, let page, let list): "more finish #\(id) with \(request(page, list))"
            case .moreFail(let id, let page, let list): "more fail #\(id) (\(request(page, list)))"
            case .moreCancel(let id, let page, let list): "more cancel #\(id) (\(request(page, list)))"
            case .moreRetry(let id, let page, let list, let attempt): "more retry #\(id) (\(request(page, list))) after attempt \(attempt)"
            case .morePlan(let id, let page, let list, let attempts): "more plan #\(id) (\(request(page, list))): \(attempts) attempts"
            case .editStart(let id, let row, let version): "edit #\(id): row \(row) → v\(version)"
            case .editConfirm(let id): "confirm edit #\(id)"
            case .editFail(let id): "fail edit #\(id)"
            case .editCancel(let id): "cancel edit #\(id)"
            case .editRetry(let id): "retry edit #\(id)"
            case .invalidate: "invalidate"
            case .setValue(let pages): "set the server's rows in \(pages) pages"
            case .tick(let ms): "\(ms) ms pass"
            }
        }
    }

    /// The server the loads read and the edits write: rows 1 to 8, in pages
    /// of three; page `n`'s cursor is `n`.
    static let rowsPerPage = 3
    static let rowCount = 8
    static let maxAge = 50

    // MARK: Playing steps

    /// Plays steps on the list and the reference, and checks each.
    struct World {
        var list: List
        var reference: ComposedReference
        /// Each row's version on the server: the last confirmed edit's.
        var server = [Int](repeating: 0, count: ComposedModelTests.rowCount + 1)
        /// What the server held when each load of the value lane and of the
        /// more lane started.
        var snapshots: [UInt64: [Int]] = [:]
        var moreSnapshots: [UInt64: [Int]] = [:]
        /// The edit each edit ID started with.
        var edits: [UInt64: PlainEdit] = [:]
        var now = 0
        /// The independent record of the invalidation: the newest load that
        /// had started then, if one is outstanding.
        var invalidation: UInt64??
        /// The newest load whose `.started` the list applied.
        var newestStarted: UInt64?

        init(window: Int?) {
            list = List(window: window)
            reference = ComposedReference(window: window)
        }

        /// Page `page` as `snapshot` holds it.
        static func page(_ page: Int, of snapshot: [Int]) -> (pages: Pages<Int, Int>, plain: PlainPages) {
            let first = (page - 1) * ComposedModelTests.rowsPerPage + 1
            let last = min(first + ComposedModelTests.rowsPerPage - 1, ComposedModelTests.rowCount)
            let rows = first <= last ? Array(first...last).map { $0 * 1_000 + snapshot[$0] } : []
            let next = last < ComposedModelTests.rowCount ? page + 1 : nil
            return (Pages(rows, next: next), PlainPages(pages: [rows], next: next))
        }

        /// Pages 1 to `count` as `snapshot` holds them, in one list.
        static func pages(_ count: Int, of snapshot: [Int]) -> (pages: Pages<Int, Int>, plain: PlainPages) {
            var (pages, plain) = page(1, of: snapshot)
            for number in stride(from: 2, through: count, by: 1) {
                let (more, plainMore) = page(number, of: snapshot)
                pages.append(more)
                plain.append(plainMore, window: nil)
            }
            return (pages, plain)
        }

        func snapshot(_ id: UInt64) -> [Int] { snapshots[id] ?? server }
        func moreSnapshot(_ id: UInt64) -> [Int] { moreSnapshots[id] ?? server }

        static func request(_ page: Int, _ list: UInt64?) -> PageRequest { PageRequest(page: page, list: list.map { LoadID($0) }) }

        static func retry(_ attempt: Int) -> LoadRetry<TestError> {
            LoadRetry(attempt: attempt, of: 3, failure: .timedOut, wait: .milliseconds(100 * attempt))
        }

        /// Plays `step`; returns what went wrong, if anything.
        mutating func play(_ step: Step) -> String? {
            let before = list
            var action: LoadAction<Pages<Int, Int>, TestError>?
            var expected = true
            var stale = false
            var settles = false
            var cancels = false
            switch step {
            case .start(let id):
                // A load reads the server when it starts; a duplicate start reads nothing new.
                if snapshots[id] == nil { snapshots[id] = server }
                action = .started(LoadID(id))
                expected = reference.start(id)
            case .queue(let id):
                action = .queued(LoadID(id))
                expected = reference.enqueue(id)
            case .finish(let id), .finishPages(let id, _):
                let count = if case .finishPages(_, let count) = step { count } else { 1 }
                let (pages, plain) = Self.pages(count, of: snapshot(id))
                action = .at(instant(ms: now), .finished(LoadID(id), pages))
                stale = list.inFlightID != LoadID(id)
                settles = true
                expected = reference.finish(id, plain, at: now)
            case .fail(let id):
                action = .failed(LoadID(id), .offline)
                stale = list.inFlightID != LoadID(id)
                settles = true
                expected = reference.fail(id, .offline)
            case .cancel(let id):
                action = .cancelled(LoadID(id))
                stale = list.inFlightID != LoadID(id) && !list.queuedIDs.contains(LoadID(id))
                settles = true
                cancels = true
                expected = reference.cancel(id)
            case .progress(let id):
                // What the load has streamed so far: the first two rows of its
                // first page, or for an even ID its first three pages, past a
                // window of two.
                var (pages, plain) = Self.pages(id.isMultiple(of: 2) ? 3 : 1, of: snapshot(id))
                if !id.isMultiple(of: 2) {
                    pages = Pages(Array(pages.elements.prefix(2)), next: pages.next)
                    plain.pages = [Array(plain.elements.prefix(2))]
                }
                action = .progress(LoadID(id), pages)
                stale = list.inFlightID != LoadID(id)
                expected = reference.progress(id, plain)
            case .retry(let id, let attempt):
                let retry = Self.retry(attempt)
                action = .retrying(LoadID(id), retry)
                stale = list.inFlightID != LoadID(id)
                expected = reference.retry(id, attempt: attempt, of: retry.attempts, failure: retry.failure, wait: retry.wait)
            case .plan(let id, let attempts):
                action = .planned(LoadID(id), attempts: attempts)
                stale = list.inFlightID != LoadID(id)
                expected = reference.plan(id, attempts: attempts)
            case .moreStart(let id, let page, let owner):
                if moreSnapshots[id] == nil { moreSnapshots[id] = server }
                action = .more(Self.request(page, owner), .started(LoadID(id)))
                expected = reference.moreStart(id, page: page, list: owner)
            case .moreFinish(let id, let page, let owner):
                let (pages, plain) = Self.page(page, of: moreSnapshot(id))
                action = .more(Self.request(page, owner), .finished(LoadID(id), pages))
                stale = list.moreID != LoadID(id) || list.loadingMore != Self.request(page, owner)
                settles = true
                expected = reference.moreFinish(id, page: page, list: owner, plain)
            case .moreFail(let id, let page, let owner):
                action = .more(Self.request(page, owner), .failed(LoadID(id), .offline))
                stale = list.moreID != LoadID(id) || list.loadingMore != Self.request(page, owner)
                settles = true
                expected = reference.moreFail(id, page: page, list: owner, .offline)
            case .moreCancel(let id, let page, let owner):
                action = .more(Self.request(page, owner), .cancelled(LoadID(id)))
                stale = list.moreID != LoadID(id) || list.loadingMore != Self.request(page, owner)
                settles = true
                cancels = true
                expected = reference.moreCancel(id, page: page, list: owner)
            case .moreRetry(let id, let page, let owner, let attempt):
                let retry = Self.retry(attempt)
                action = .more(Self.request(page, owner), .retrying(LoadID(id), retry))
                stale = list.moreID != LoadID(id) || list.loadingMore != Self.request(page, owner)
                expected = reference.moreRetry(
                    id, page: page, list: owner, attempt: attempt, of: retry.attempts, failure: retry.failure, wait: retry.wait)
            case .morePlan(let id, let page, let owner, let attempts):
                action = .more(Self.request(page, owner), .planned(LoadID(id), attempts: attempts))
                stale = list.moreID != LoadID(id) || list.loadingMore != Self.request(page, owner)
                expected = reference.morePlan(id, page: page, list: owner, attempts: attempts)
            case .editStart(let id, let row, let version):
                let edit = PlainEdit(row: row, version: version)
                edits[id] = edits[id] ?? edit
                action = .edit(.started(LoadID(id), AnyEdit(SetVersion(row: row, version: version))))
                expected = reference.editStart(id, edit)
            case .editConfirm(let id):
                action = .edit(.confirmed(LoadID(id)))
                stale = !list.isPending(edit: LoadID(id))
                if list.isPending(edit: LoadID(id)), let edit = edits[id] { server[edit.row] = edit.version }
                expected = reference.editConfirm(id)
            case .editFail(let id):
                action = .edit(.failed(LoadID(id), .timedOut))
                stale = !list.isPending(edit: LoadID(id))
                expected = reference.editFail(id, .timedOut)
            case .editCancel(let id):
                action = .edit(.cancelled(LoadID(id)))
                stale = !list.isPending(edit: LoadID(id))
                cancels = true
                expected = reference.editCancel(id)
            case .editRetry(let id):
                action = .edit(.retrying(LoadID(id), Self.retry(1)))
                stale = !list.isPending(edit: LoadID(id))
                expected = reference.editRetry(id)
            case .invalidate:
                // The newest load that had received its `.started`: a queued
                // load starts on its turn, after this.
                invalidation = .some(newestStarted)
                reference.invalidate()
                list.invalidate()
            case .setValue(let count):
                let (pages, plain) = Self.pages(count, of: server)
                reference.setValue(plain)
                list.setValue(pages)
            case .tick(let ms):
                now += ms
            }
            if let action {
                let applied = list.apply(action) == .applied
                if stale, applied { return "a stale result won: \(action) was applied" }
                if stale || !applied, list != before { return "\(action), dropped, changed the list" }
                if applied != expected { return "\(action) applied: \(applied), the reference says \(expected)" }
                if applied, case .started(let id) = action { newestStarted = max(newestStarted ?? 0, id.rawValue) }
                if applied, case .at(_, .finished(let id, _)) = action, let mark = invalidation, mark.map({ id.rawValue > $0 }) ?? true {
                    invalidation = nil
                }
                if applied, cancels {
                    if let error = list.error, before.settledState.error != error { return "cancellation produced a failure: \(list)" }
                    if list.settledState != before.settledState { return "cancelling \(action.id) changed the settled state: \(list)" }
                    if list.moreError != before.moreError { return "cancelling \(action.id) changed the more lane's error" }
                    if list.editError != before.editError { return "cancelling \(action.id) changed the edit error" }
                }
                if applied, settles, let problem = lostEdit() { return "after \(action): \(problem)" }
            }
            if list.isInvalidated != (invalidation != nil) {
                return
                    "invalidation: the list says \(list.isInvalidated), yet \(invalidation == nil ? "a load started since succeeded" : "none started since succeeded")"
            }
            return compare()
        }

        /// Every row shown has its newest pending edit's version, or else
        /// the server's: no confirmed edit is lost.
        func lostEdit() -> String? {
            guard let shown = list.value else { return nil }
            for element in shown {
                let row = element / 1_000
                let expected = reference.pending.last { $0.edit.row == row }?.edit.version ?? server[row]
                if element % 1_000 != expected {
                    return "row \(row) shows v\(element % 1_000), yet its edits say v\(expected): a confirmed edit was lost"
                }
            }
            return nil
        }

        static func plain(_ pages: Pages<Int, Int>?) -> PlainPagesView? {
            pages.map { PlainPagesView(elements: $0.elements, pageCount: $0.pageCount, next: $0.next, nextPage: $0.nextPage) }
        }

        static func plain(_ pages: PlainPages?) -> PlainPagesView? {
            pages.map { PlainPagesView(elements: $0.elements, pageCount: $0.pages.count, next: $0.next, nextPage: $0.nextPage) }
        }

        static func plain(_ activity: LoadActivity<TestError>?) -> PlainActivity? {
            guard let activity else { return nil }
            let reason: PlainActivity.Reason =
                switch activity.reason {
                case .firstLoad: .firstLoad
                case .refresh: .refresh
                case .retryAfterFailure: .retryAfterFailure
                case .nextPage: .nextPage
                }
            return PlainActivity(
                reason: reason, attempt: activity.attempt, attempts: activity.attempts, wait: activity.wait,
                lastFailure: activity.lastFailure)
        }

        static func plain(_ state: AsyncState<Pages<Int, Int>, TestError>) -> PlainState {
            switch state {
            case .notLoaded: .notLoaded
            case .loading: .loading
            case .refreshing(let value): .refreshing(value.elements)
            case .success(let value): .success(value.elements)
            case .error(let failure): .error(failure)
            }
        }

        /// The list against the reference, field by field.
        func compare() -> String? {
            let r = reference
            var differences: [String] = []
            func check<T: Equatable>(_ name: String, _ actual: T, _ expected: T) {
                if actual != expected { differences.append("\(name): \(actual), the reference says \(expected)") }
            }
            check("state", Self.plain(list.state), r.state)
            check("value", Self.plain(list.value), Self.plain(r.shown))
            check("confirmedValue", Self.plain(list.confirmedValue), Self.plain(r.confirmed))
            check("partialValue", Self.plain(list.partialValue), Self.plain(r.partial))
            check("error", list.error, r.error)
            check("inFlightID", list.inFlightID?.rawValue, r.inFlight)
            check("newestID", list.newestID?.rawValue, r.newest)
            check("queuedIDs", list.queuedIDs.map(\.rawValue), r.queue)
            check("activity", Self.plain(list.activity), r.activity)
            check("settledAt", list.settledAt, r.settledAt.map { instant(ms: $0) })
            check("isInvalidated", list.isInvalidated, r.isInvalidated)
            check("invalidatedBefore", list.invalidatedBefore.map { $0?.rawValue }, r.mark)
            check(
                "isStale", list.isStale(maxAge: .milliseconds(ComposedModelTests.maxAge), at: instant(ms: now)),
                r.isStale(maxAge: ComposedModelTests.maxAge, now: now))
            check("isDueForPollTick", list.isDueForPollTick, r.isDueForPollTick)
            check("moreID", list.moreID?.rawValue, r.more?.id)
            check("loadingMore", list.loadingMore, r.more.map { Self.request($0.page, $0.list) })
            check("newestMoreID", list.newestMoreID?.rawValue, r.moreNewest)
            check("moreActivity", Self.plain(list.moreActivity), r.moreActivity)
            check("moreError", list.moreError, r.moreError)
            check("nextRequest", list.nextRequest, r.nextRequest.map { Self.request($0.page, $0.list) })
            check("hasMore", list.hasMore, r.confirmed?.next != nil)
            check("pendingEdits", list.pendingEdits.keys.map(\.rawValue), r.pending.map(\.id))
            check("conflicts", list.conflicts.map(\.rawValue), r.conflicts)
            check("editError", list.editError, r.editError)
            check("newestEditID", list.newestEditID?.rawValue, r.editNewest)
            let reapplied = list.reappliedEdits.map { edit in (edit.base as? SetVersion).map { PlainEdit(row: $0.row, version: $0.version) }
            }
            check("reappliedEdits", reapplied, r.unreflected.map { Optional($0) })
            if list.isLoading != (list.inFlightID != nil) || (list.activity != nil) != list.isLoading {
                differences.append("loading flags disagree with the load in flight")
            }
            if (list.moreActivity != nil) != list.isLoadingMore { differences.append("the more lane's activity disagrees with its load") }
            if list.isLoading && list.isLoadingMore { differences.append("a load more runs while the list loads") }
            return differences.isEmpty ? nil : differences.joined(separator: "; ") + "\n  list: \(list)"
        }

        /// Every lane has ended: nothing may be in flight, queued or pending.
        func stuck() -> String? {
            guard !list.isLoading, !list.isLoadingMore, list.queuedIDs.isEmpty, list.pendingEdits.isEmpty, list.activity == nil,
                list.moreActivity == nil
            else { return "every lane has ended, yet something is stuck: \(list)" }
            switch list.state {
            case .loading, .refreshing: return "every lane has ended, yet the state is \(list.state)"
            default: return nil
            }
        }
    }

    /// A page list as the check compares it.
    struct PlainPagesView: Equatable, CustomStringConvertible {
        var elements: [Int]
        var pageCount: Int
        var next: Int?
        var nextPage: Int
        var description: String { "\(elements) in \(pageCount) pages, next \(next.map(String.init) ?? "none")" }
    }

    // MARK: Making sequences

    /// Makes a random sequence, step by step, from what the reference says
    /// is in flight — so most steps are meaningful and some are stale — then
    /// ends every lane.
    struct Generator {
        var random: SplitMix64
        var world: World
        var steps: [Step] = []
        var nextID: UInt64 = 1
        var nextVersion = 1
        var issued: [UInt64] = []
        var mores: [(id: UInt64, page: Int, list: UInt64?)] = []

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            let window: Int? = Bool.random(using: &random) ? nil : 2
            world = World(window: window)
        }

        mutating func newID() -> UInt64 {
            defer { nextID += 1 }
            issued.append(nextID)
            return nextID
        }

        mutating func oldID() -> UInt64 {
            issued.randomElement(using: &random) ?? UInt64.random(in: 0...3, using: &random)
        }

        /// The next step, or `nil` to play nothing this time.
        mutating func next() -> [Step] {
            let r = world.reference
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<9: return [.start(newID())]
            case 9..<13: return [.queue(newID())]
            case 13..<16: return r.queue.first.map { [.start($0)] } ?? []
            case 16..<18: return r.queue.randomElement(using: &random).map { [.cancel($0)] } ?? []
            case 18..<21: return [.invalidate, .start(newID())] // a reducer's invalidation: reload at once
            case 21..<23: return [.invalidate] // a host's, of a value nobody uses
            case 23..<30: return r.inFlight.map { [.finish($0)] } ?? []
            case 30..<32: return r.inFlight.map { [.finishPages($0, pages: Int.random(in: 2...3, using: &random))] } ?? []
            case 32..<35: return r.inFlight.map { [.fail($0)] } ?? []
            case 35..<37: return r.inFlight.map { [.cancel($0)] } ?? []
            case 37..<41: return r.inFlight.map { [.progress($0)] } ?? []
            case 41..<43: return r.inFlight.map { [.retry($0, attempt: Int.random(in: 1...2, using: &random))] } ?? []
            case 43..<45: return r.inFlight.map { [.plan($0, attempts: 3)] } ?? []
            case 45..<50: // a stale or duplicate result of the value lane
                let id = oldID()
                return [[.finish(id), .fail(id), .cancel(id), .progress(id), .start(id)].randomElement(using: &random)!]
            case 50..<58:
                guard let request = r.nextRequest else { return [] }
                let more = (newID(), request.page, request.list)
                mores.append(more)
                return [.moreStart(more.0, page: more.1, list: more.2)]
            case 58..<60: // a load more for the wrong page or a replaced list
                let page = (r.confirmed?.nextPage ?? 2) + (Bool.random(using: &random) ? 1 : 0)
                let owner = Bool.random(using: &random) ? r.newest : r.newest.map { $0 > 1 ? $0 - 1 : $0 }
                return [.moreStart(newID(), page: page, list: owner)]
            case 60..<66: return r.more.map { [.moreFinish($0.id, page: $0.page, list: $0.list)] } ?? []
            case 66..<68: return r.more.map { [.moreFail($0.id, page: $0.page, list: $0.list)] } ?? []
            case 68..<69: return r.more.map { [.moreCancel($0.id, page: $0.page, list: $0.list)] } ?? []
            case 69..<70: return r.more.map { [.moreRetry($0.id, page: $0.page, list: $0.list, attempt: 1)] } ?? []
            case 70..<71: return r.more.map { [.morePlan($0.id, page: $0.page, list: $0.list, attempts: 2)] } ?? []
            case 71..<74: // a stale or duplicate result of the more lane
                guard let more = mores.randomElement(using: &random) else { return [] }
                return [
                    [
                        .moreFinish(more.id, page: more.page, list: more.list), .moreFail(more.id, page: more.page, list: more.list),
                        .moreCancel(more.id, page: more.page, list: more.list), .moreStart(more.id, page: more.page, list: more.list),
                    ].randomElement(using: &random)!
                ]
            case 74..<82:
                defer { nextVersion += 1 }
                return [.editStart(newID(), row: Int.random(in: 1...ComposedModelTests.rowCount, using: &random), version: nextVersion)]
            case 82..<88: return r.pending.randomElement(using: &random).map { [.editConfirm($0.id)] } ?? []
            case 88..<90: return r.pending.randomElement(using: &random).map { [.editFail($0.id)] } ?? []
            case 90..<92: return r.pending.randomElement(using: &random).map { [.editCancel($0.id)] } ?? []
            case 92..<93: return r.pending.randomElement(using: &random).map { [.editRetry($0.id)] } ?? []
            case 93..<95: // a stale or duplicate result of an edit
                let id = oldID()
                return [[.editConfirm(id), .editFail(id), .editCancel(id)].randomElement(using: &random)!]
            case 95..<97: return [.setValue(pages: Int.random(in: 1...3, using: &random))]
            default: return [.tick(Int.random(in: 1...40, using: &random))]
            }
        }

        /// The steps that end every lane: the load more, the load in flight,
        /// the queue in turn, the pending edits.
        mutating func drain() -> Step? {
            let r = world.reference
            if let more = r.more {
                return [
                    .moreFinish(more.id, page: more.page, list: more.list), .moreFail(more.id, page: more.page, list: more.list),
                    .moreCancel(more.id, page: more.page, list: more.list),
                ].randomElement(using: &random)!
            }
            if let id = r.inFlight { return [.finish(id), .finish(id), .fail(id), .cancel(id)].randomElement(using: &random)! }
            if let id = r.queue.first { return Bool.random(using: &random) ? .start(id) : .cancel(id) }
            if let edit = r.pending.first {
                return [.editConfirm(edit.id), .editFail(edit.id), .editCancel(edit.id)].randomElement(using: &random)!
            }
            return nil
        }
    }

    /// Plays one sequence of `seed`; returns its steps and what went wrong.
    static func play(seed: UInt64, steps count: inout Int) -> (steps: [Step], window: Int?, problem: String)? {
        var generator = Generator(seed: seed)
        let window = generator.world.reference.window
        let length = Int.random(in: 1...40, using: &generator.random)
        for _ in 0..<length {
            for step in generator.next() {
                generator.steps.append(step)
                count += 1
                if let problem = generator.world.play(step) { return (generator.steps, window, problem) }
            }
        }
        for _ in 0..<64 {
            guard let step = generator.drain() else { break }
            generator.steps.append(step)
            count += 1
            if let problem = generator.world.play(step) { return (generator.steps, window, problem) }
        }
        if let problem = generator.world.stuck() { return (generator.steps, window, problem) }
        return nil
    }

    /// Replays `steps` on a fresh world; returns what went wrong, if anything.
    static func replay(_ steps: [Step], window: Int?) -> String? {
        var world = World(window: window)
        for step in steps {
            if let problem = world.play(step) { return problem }
        }
        return nil
    }

    /// The shortest sequence found that still fails: steps are dropped one at
    /// a time, latest first, while the rest still fails.
    static func shrink(_ steps: [Step], window: Int?) -> (steps: [Step], problem: String) {
        var steps = steps
        var problem = replay(steps, window: window) ?? "no failure on replay"
        var changed = true
        while changed {
            changed = false
            for index in steps.indices.reversed() where index < steps.count {
                var candidate = steps
                candidate.remove(at: index)
                if let found = replay(candidate, window: window) {
                    steps = candidate
                    problem = found
                    changed = true
                }
            }
        }
        return (steps, problem)
    }

    @Test("20,000 random sequences keep every promise of every layer together (ASYNCSTATE_SEED, ASYNCSTATE_SEQUENCES)")
    func randomSequences() async {
        let run = RandomizedRun(defaultCount: 20_000, sanitizedMaximum: 1_000)
        var steps = 0
        let passed = await run.playSequences { seed in
            guard let failure = Self.play(seed: seed, steps: &steps) else { return nil }
            let shrunk = Self.shrink(failure.steps, window: failure.window)
            return """
                seed \(seed), window \(failure.window.map(String.init) ?? "none"): failed at step \(failure.steps.count): \(failure.problem)
                the shortest failing sequence found (\(shrunk.steps.count) of \(failure.steps.count) steps): \(shrunk.problem)
                \(shrunk.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
                """
        }
        guard passed else { return }
        print("composed model check: \(run.count) sequences, \(steps) steps, seed \(run.seed)")
        #expect(run.count == 0 || steps > run.count)
    }

    @Test("the check catches what it is meant to: a sequence that loses a confirmed edit fails")
    func catchesALostEdit() {
        // The reference is right; a list that forgets the edit confirmed
        // during its load is not — the check says so.
        var world = World(window: nil)
        for step: Step in [.start(1), .finish(1), .start(2), .editStart(3, row: 1, version: 1), .editConfirm(3)] {
            #expect(world.play(step) == nil)
        }
        world.list = {
            var forgetful = List()
            _ = forgetful.apply(.started(LoadID(1)))
            _ = forgetful.apply(.at(instant(ms: 0), .finished(LoadID(1), World.page(1, of: world.server.map { _ in 0 }).pages)))
            _ = forgetful.apply(.started(LoadID(2)))
            return forgetful
        }()
        let problem = world.play(.finish(2))
        #expect(problem?.contains("a confirmed edit was lost") == true, "\(String(describing: problem))")
    }
}
