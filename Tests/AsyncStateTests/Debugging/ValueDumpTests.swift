import AsyncState
import AsyncStateTestSupport
import AsyncStateTesting
import Testing

@Suite("String(dumping:)")
struct ValueDumpTests {
    struct Point: Equatable { var x: Int; var y: Int }
    struct Line { var from: Point; var to: Point; var label: String? }
    enum Shape { case dot, circle(radius: Int), segment(Point, Point), labelled(String, size: Int) }
    final class Node { var name = "root"; var next: Node? }
    struct Wide { var numbers = Array(0..<30) }

    @Test(
        "values print deterministically",
        arguments: [
            (Point(x: 1, y: 2) as any Sendable, "Point(x: 1, y: 2)"),
            (
                Line(from: .init(x: 0, y: 0), to: .init(x: 1, y: 1), label: nil),
                "Line(from: Point(x: 0, y: 0), to: Point(x: 1, y: 1), label: nil)"
            ),
            (
                Line(from: .init(x: 0, y: 0), to: .init(x: 1, y: 1), label: "a"),
                #"Line(from: Point(x: 0, y: 0), to: Point(x: 1, y: 1), label: "a")"#
            ),
            (Shape.dot, ".dot"),
            (Shape.circle(radius: 3), ".circle(radius: 3)"),
            (Shape.segment(.init(x: 0, y: 1), .init(x: 2, y: 3)), ".segment(Point(x: 0, y: 1), Point(x: 2, y: 3))"),
            (Shape.labelled("s", size: 2), #".labelled("s", size: 2)"#),
            ([1, 2, 3], "[1, 2, 3]"),
            ([Int](), "[]"),
            (["b": 2, "a": 1, "c": 3], #"["a": 1, "b": 2, "c": 3]"#),
            ([String: Int](), "[:]"),
            (KeyedStates([("b", 2), ("a", 1)]), #"["b": 2, "a": 1]"#),
            (KeyedStates<Int, Int>(), "[:]"),
            (Set([3, 1, 2]), "Set([1, 2, 3])"),
            (Optional<Int>.none as any Sendable, "nil"),
            (Optional(5) as any Sendable, "5"),
            ("quote \"me\"", #""quote \"me\"""#),
            (LoadID(7), "#7"),
            (true, "true"),
            (2.5, "2.5"),
            ((1, label: "x"), #"(1, label: "x")"#),
            (AsyncState<Int, Never>.success(value: 3), ".success(value: 3)"),
            (AnyError(TestFailure.boom), "AnyError(.boom)"),
        ])
    func oneLine(value: any Sendable, text: String) {
        #expect(String(dumping: value) == text)
    }

    @Test("large values break into indented lines")
    func multiline() {
        let line = Line(from: .init(x: 100_000, y: 200_000), to: .init(x: 300_000, y: 400_000), label: "a long enough label")
        #expect(
            String(dumping: line) == """
                Line(
                  from: Point(x: 100000, y: 200000),
                  to: Point(x: 300000, y: 400000),
                  label: "a long enough label",
                )
                """)
    }

    @Test("classes print without addresses and cycles terminate")
    func classesAndCycles() {
        let node = Node()
        node.next = node
        let text = String(dumping: node)
        #expect(text == #"Node(name: "root", next: Node(↩︎))"#)
        #expect(!text.contains("0x"))
    }

    class Failure {
        let message: String
        init(_ message: String) { self.message = message }
    }
    final class NotFound: Failure {}

    // From a second reading: a subclass that adds no field printed as
    // `NotFound()`, so two of them with different messages dumped alike.
    @Test("a subclass whose fields are all its superclass's prints them")
    func subclassFields() {
        #expect(String(dumping: NotFound("user 7")) == #"NotFound(message: "user 7")"#)
        #expect(String(dumping: NotFound("a")) != String(dumping: NotFound("b")))
    }

    // The mirror of a plain loadable is the same as before issue 25: the
    // fields of a layer (freshness, the queue, edits, pages) appear only
    // once that layer is used (see the next tests).
    @Test("a plain loadable prints every field of a plain load")
    func loadable() {
        var resource = Loadable<Int, TestFailure>()
        _ = resource.apply(.started(LoadID(1)))
        #expect(
            String(dumping: resource) == """
                Loadable<Int, TestFailure>(
                  state: .loading,
                  value: nil,
                  settledState: .notLoaded,
                  inFlightID: #1,
                  newestID: #1,
                  activity: LoadActivity(firstLoad, attempt 1),
                  partialValue: nil,
                )
                """)
    }

    @Test("a stamped loadable also prints when its value settled, and whether it was invalidated")
    func stampedLoadable() {
        var resource = Loadable<Int, TestFailure>()
        _ = resource.apply(.started(LoadID(1)))
        _ = resource.apply(.at(LoadClock.Instant(offset: .seconds(3)), .finished(LoadID(1), 4)))
        resource.invalidate()
        #expect(
            String(dumping: resource) == """
                Loadable<Int, TestFailure>(
                  state: .success(value: 4),
                  value: 4,
                  settledState: .success(value: 4),
                  inFlightID: nil,
                  newestID: #1,
                  activity: nil,
                  partialValue: nil,
                  settledAt: Instant(offset: 3.0 seconds),
                  isInvalidated: true,
                  invalidatedBefore: #1,
                )
                """)
    }

    @Test("a loadable with loads waiting in its queue also prints them")
    func queuedLoadable() {
        var resource = Loadable<Int, TestFailure>()
        _ = resource.apply(.started(LoadID(1)))
        _ = resource.apply(.planned(LoadID(1), attempts: 2))
        _ = resource.apply(.queued(LoadID(2)))
        #expect(
            String(dumping: resource) == """
                Loadable<Int, TestFailure>(
                  state: .loading,
                  value: nil,
                  settledState: .notLoaded,
                  inFlightID: #1,
                  newestID: #2,
                  activity: LoadActivity(firstLoad, attempt 1 of 2),
                  partialValue: nil,
                  queuedIDs: [#2],
                )
                """)
    }

    @Test("a loadable whose queue emptied prints, and compares, as one that never queued")
    func emptiedQueue() {
        var queued = Loadable<Int, TestFailure>()
        _ = queued.apply(.started(LoadID(1)))
        _ = queued.apply(.queued(LoadID(2)))
        _ = queued.apply(.cancelled(LoadID(2)))
        let neverQueued = Loadable<Int, TestFailure>(expecting: .loading, inFlightID: LoadID(1), newestID: LoadID(2))
        #expect(queued == neverQueued)
        #expect(String(dumping: queued) == String(dumping: neverQueued))
        #expect(!String(dumping: queued).contains("queuedIDs"))
    }

    struct Note { var text: String }
    class Base { var id = 1 }
    final class Derived: Base { var name = "d" }

    @Test("a value whose one-line form is 80 characters stays on one line; at 81 it breaks into lines")
    func lineLimit() {
        let fits = String(repeating: "a", count: 66)
        #expect(String(dumping: Note(text: fits)) == "Note(text: \"\(fits)\")")
        #expect(String(dumping: Note(text: fits)).count == 80)
        let over = String(repeating: "a", count: 67)
        #expect(String(dumping: Note(text: over)) == "Note(\n  text: \"\(over)\",\n)")
    }

    @Test("a value 32 levels deep prints; past a depth of 32 it prints as …")
    func depthLimit() {
        func nested(_ depth: Int) -> Any {
            var value: Any = 1
            for _ in 0..<depth { value = [value] }
            return value
        }
        #expect(String(dumping: nested(32)) == String(repeating: "[", count: 32) + "1" + String(repeating: "]", count: 32))
        #expect(String(dumping: nested(33)) == String(repeating: "[", count: 33) + "…" + String(repeating: "]", count: 33))
    }

    @Test("a Character is quoted, as a string is")
    func character() {
        #expect(String(dumping: Character("a")) == #""a""#)
    }

    @Test("a subclass prints its superclass's fields first, in declaration order")
    func superclassFieldsFirst() {
        #expect(String(dumping: Derived()) == #"Derived(id: 1, name: "d")"#)
    }
}

enum TestFailure: Error, Equatable { case boom }

@Suite("Field changes")
struct FieldChangeTests {
    struct State { var title: String; var tags: [String]; var scores: [String: Int]; var profile: Loadable<Int, TestFailure> }
    struct Pair { var x: Int; var y: Int }
    struct Screen { var pair: Pair?; var list: [Int]; var tail: Int }

    @Test("the issue's example: fields in the state's order, each change in one place")
    func inStateOrder() {
        let before = Screen(pair: nil, list: [], tail: 0)
        let after = Screen(pair: Pair(x: 1, y: 2), list: [7, 8], tail: 1)
        #expect(
            FieldDiff.lines(from: before, to: after) == [
                "pair: nil → Pair(x: 1, y: 2)",
                "list: [] → [7, 8]",
                "tail: 0 → 1",
            ])
        #expect(
            FieldDiff.lines(from: after, to: before) == [
                "pair: Pair(x: 1, y: 2) → nil",
                "list: [7, 8] → []",
                "tail: 1 → 0",
            ])
    }

    @Test("only the fields that changed are listed, by path")
    func changes() {
        var profile = Loadable<Int, TestFailure>()
        let before = State(title: "a", tags: ["x"], scores: ["k": 1], profile: profile)
        _ = profile.apply(.started(LoadID(1)))
        let after = State(title: "b", tags: ["x", "y"], scores: ["k": 2], profile: profile)
        #expect(
            FieldDiff.lines(from: before, to: after) == [
                #"title: "a" → "b""#,
                #"tags[1]: + "y""#,
                "scores[\"k\"]: 1 → 2",
                "profile.state: .notLoaded → .loading",
                "profile.inFlightID: nil → #1",
                "profile.newestID: nil → #1",
                "profile.activity: nil → LoadActivity(firstLoad, attempt 1)",
            ])
    }

    @Test("a layer coming into use lists its fields as added, where they stand")
    func layerFieldsAdded() {
        var profile = Loadable<Int, TestFailure>()
        let before = State(title: "a", tags: [], scores: [:], profile: profile)
        _ = profile.apply(.started(LoadID(1)))
        _ = profile.apply(.at(LoadClock.Instant(offset: .seconds(3)), .finished(LoadID(1), 4)))
        let after = State(title: "a", tags: [], scores: [:], profile: profile)
        #expect(
            FieldDiff.lines(from: before, to: after) == [
                "profile.state: .notLoaded → .success(value: 4)",
                "profile.value: nil → 4",
                "profile.settledState: .notLoaded → .success(value: 4)",
                "profile.newestID: nil → #1",
                "profile.settledAt: + Instant(offset: 3.0 seconds)",
                "profile.isInvalidated: + false",
            ])
        var invalidated = profile
        invalidated.invalidate()
        let later = State(title: "a", tags: [], scores: [:], profile: invalidated)
        #expect(
            FieldDiff.lines(from: after, to: later) == ["profile.isInvalidated: false → true", "profile.invalidatedBefore: + #1"])
    }

    @Test("a plan changes only the activity")
    func planChangesActivity() {
        var profile = Loadable<Int, TestFailure>()
        _ = profile.apply(.started(LoadID(1)))
        let before = State(title: "a", tags: [], scores: [:], profile: profile)
        _ = profile.apply(.planned(LoadID(1), attempts: 3))
        let after = State(title: "a", tags: [], scores: [:], profile: profile)
        #expect(
            FieldDiff.lines(from: before, to: after) == [
                "profile.activity: LoadActivity(firstLoad, attempt 1) → LoadActivity(firstLoad, attempt 1 of 3)"
            ])
    }

    @Test(
        "elements present on one side only are listed at their index, as + or -",
        arguments: [
            ([1, 2, 3], [1, 2], ["[2]: - 3"]),
            ([1, 2], [1, 2, 3], ["[2]: + 3"]),
            ([1, 2], [1, 5, 3], ["[1]: 2 → 5", "[2]: + 3"]),
            ([1, 2], [], ["(value): [1, 2] → []"]),
        ])
    func elements(before: [Int], after: [Int], expected: [String]) {
        #expect(FieldDiff.lines(from: before, to: after) == expected)
    }

    @Test("the same change prints the same way, whatever came before it")
    func sameChangeSameText() {
        let appended = FieldDiff.lines(from: Screen(pair: nil, list: [7], tail: 0), to: Screen(pair: nil, list: [7, 8], tail: 0))
        let appendedLater = FieldDiff.lines(
            from: Screen(pair: Pair(x: 1, y: 1), list: [7], tail: 3), to: Screen(pair: Pair(x: 1, y: 1), list: [7, 8], tail: 3))
        #expect(appended == ["list[1]: + 8"])
        #expect(appendedLater == appended)
    }

    @Test("a long change puts its old side directly above its new side")
    func longChange() {
        let long = String(repeating: "x", count: 130)
        #expect(
            FieldDiff.lines(from: Screen(pair: nil, list: [], tail: 0), to: Screen(pair: nil, list: [long.count, long.count], tail: 0))
                == ["list: [] → [130, 130]"])
        struct Named { var name: String }
        #expect(FieldDiff.lines(from: Named(name: "a"), to: Named(name: long)) == ["name:", #"  - "a""#, "  + \(long.debugDescription)"])
    }

    @Test("reordering keyed states is a change of their keys; a changed row is listed by key")
    func keyedStates() {
        let before: KeyedStates<Int, Int> = [1: 10, 2: 20]
        #expect(FieldDiff.lines(from: before, to: [2: 20, 1: 10] as KeyedStates) == ["keys: [1, 2] → [2, 1]"])
        #expect(FieldDiff.lines(from: before, to: [1: 10, 2: 21] as KeyedStates) == ["[2]: 20 → 21"])
        #expect(FieldDiff.lines(from: before, to: [1: 10, 3: 30, 2: 20] as KeyedStates) == ["[3]: + 30"])
        #expect(FieldDiff.lines(from: [1: 10, 3: 30, 2: 20] as KeyedStates, to: before) == ["[3]: - 30"])
    }

    @Test("an unchanged value has no changes")
    func unchanged() {
        #expect(FieldDiff.lines(from: ["a": [1]], to: ["a": [1]]).isEmpty)
    }

    @Test("a change within one enum case whose line is 120 characters stays whole on one line")
    func enumChangeAtTheLineLimit() {
        enum Status { case note(String) }
        struct Holder { var status: Status }
        let old = String(repeating: "x", count: 45)
        let new = String(repeating: "y", count: 46)
        let lines = FieldDiff.lines(from: Holder(status: .note(old)), to: Holder(status: .note(new)))
        #expect(lines == ["status: .note(\"\(old)\") → .note(\"\(new)\")"])
        #expect(lines[0].count == 120)
    }

    @Test("a key present only before is listed where it stood, not gathered at the end")
    func removedKeyInPlace() {
        #expect(FieldDiff.lines(from: ["a": 1, "b": 2, "c": 3], to: ["a": 1, "c": 4]) == [#"["b"]: - 2"#, #"["c"]: 3 → 4"#])
    }
}
