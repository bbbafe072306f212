import AsyncState
import AsyncStateTestSupport
import Testing

/// Values a real app's state may hold, which a dump, a diff and a
/// recording's leaves must print in bounded time and space — never a crash
/// or a hang (an outside reading: a deep list crashed the dump, an error that
/// held itself through `AnyError` recursed for ever, and a graph that shares
/// nodes took exponential time).
@Suite("Dumps and diffs of pathological values", .timeLimit(.minutes(1)))
@MainActor
struct PathologicalDumpTests {
    indirect enum List: Equatable {
        case end
        case node(Int, List)

        static func of(length: Int) -> List {
            (0..<length).reduce(List.end) { .node($1, $0) }
        }
    }

    /// An error that holds the error it wraps, which may be itself.
    final class Context: Error, @unchecked Sendable { // Unchecked: a test's own value, read on one task.
        var cause: AnyError?
    }

    /// A node whose three links may point anywhere: at one child, or back.
    final class Node: Equatable {
        var a: Node?
        var b: Node?
        var c: Node?
        static func == (lhs: Node, rhs: Node) -> Bool { lhs === rhs }
    }

    final class Box<Contents> {
        var me: Box?
        var tag = 1
    }

    /// A chain of `count` nodes, each linking to the next through all three
    /// links: printed along every path, 3^count.
    static func chain(_ count: Int) -> Node {
        let nodes = (0..<count).map { _ in Node() }
        for (node, next) in zip(nodes, nodes.dropFirst()) { (node.a, node.b, node.c) = (next, next, next) }
        return nodes[0]
    }

    @Test("a value deeper than the limit prints as … past it, in one pass", arguments: [1_000, 10_000])
    func deep(length: Int) {
        let text = String(dumping: List.of(length: length))
        #expect(text.contains("…"))
        #expect(text.count < 5_000, "bounded by the depth limit, not the value: \(text.count) characters")
    }

    @Test("an error that holds itself through AnyError prints its cycle")
    func errorHoldingItself() {
        let context = Context()
        context.cause = AnyError(context)
        #expect(String(dumping: AnyError(context)) == "AnyError(Context(cause: AnyError(Context(↩︎))))")
        #expect(String(dumping: LoadAction<Int, AnyError>.failed(LoadID(1), AnyError(context))).contains("Context(↩︎)"))
    }

    @Test("an object that holds itself prints its cycle, however long its type's name")
    func longNamedCycle() {
        let box = Box<[String: [Loadable<Pages<String, Int>, [String: [AnyError]]>]]>()
        box.me = box
        let text = String(dumping: box)
        #expect(text.contains("(↩︎)"))
        #expect(text.hasSuffix("tag: 1,\n)"))
    }

    @Test("a graph that shares nodes prints each once, then as (↑)")
    func sharedNodes() {
        let text = String(dumping: Self.chain(40))
        #expect(text.contains("Node(↑)"))
        #expect(text.count < 10_000, "\(text.count) characters")
        let pair = Node()
        let child = Node()
        (pair.a, pair.b) = (child, child)
        #expect(String(dumping: pair) == "Node(a: Node(a: nil, b: nil, c: nil), b: Node(↑), c: nil)")
    }

    @Test("a diff of states that share a graph, or hold a ring, ends at once")
    func diffOfSharedGraphs() {
        struct State: Equatable {
            var count = 0
            var graph: Node
        }
        let ring = (Node(), Node())
        (ring.0.a, ring.0.b, ring.0.c) = (ring.1, ring.1, ring.1)
        (ring.1.a, ring.1.b, ring.1.c) = (ring.0, ring.0, ring.0)
        #expect(FieldDiff.lines(from: State(graph: ring.0), to: State(count: 1, graph: ring.0)) == ["count: 0 → 1"])
        #expect(FieldDiff.lines(from: State(graph: Self.chain(40)), to: State(graph: Self.chain(40))).isEmpty)
        #expect(FieldLeaves(State(graph: Self.chain(40))).entries.count < 200)
        var logged: [String] = []
        let store = Store(
            initialState: State(graph: ring.0),
            reducer: Reduce<State, Int> { state, _ in
                state.count += 1
                return .none
            })
        store.logTransitions { logged.append($0) }
        store.send(1)
        #expect(logged.joined().contains("count: 0 → 1"))
    }

    @Test("an optional holding nil is not nil: it prints, and diffs, as .some(nil)")
    func someNil() {
        struct State: Equatable { var pick: Int?? = nil }
        #expect(String(dumping: State(pick: .some(nil))) == "State(pick: .some(nil))")
        #expect(FieldDiff.lines(from: State(), to: State(pick: .some(nil))) == ["pick: nil → .some(nil)"])
    }

    @Test("dictionary keys that print alike are told apart by their place among their repeats")
    func keysThatPrintAlike() {
        final class Tag: Hashable, CustomStringConvertible {
            let name = "x"
            var description: String { name }
            static func == (lhs: Tag, rhs: Tag) -> Bool { lhs === rhs }
            func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        let (first, second, third) = (Tag(), Tag(), Tag())
        let old = ["counts": [first: 1, second: 2]]
        let new = ["counts": [first: 1, second: 2, third: 3]]
        #expect(FieldDiff.lines(from: old, to: new) == [#"["counts"][Tag(name: "x")] #3: + 3"#])
    }

    /// From a second reading of the walk above.
    @Test("values under keys that print alike print the same whatever the dictionary's order")
    func tiedKeysAnyOrder() {
        final class Leaf { var x = 1 }
        struct Key: Hashable {
            let id: Int
            var description: String { "Key" }
        }
        struct Table { var shared: Leaf; var table: [ObjectIdentifier: Leaf] }
        let shared = Leaf()
        let other = Leaf()
        var texts: Set<String> = []
        var leaves: Set<[String]> = []
        for capacity in [0, 4, 64, 1_000] {
            var table: [ObjectIdentifier: Leaf] = [:]
            table.reserveCapacity(capacity)
            table[ObjectIdentifier(shared)] = shared
            table[ObjectIdentifier(other)] = other
            let value = Table(shared: Leaf(), table: table)
            texts.insert(String(dumping: value))
            leaves.insert(FieldLeaves(value).entries.map { "\($0.path)=\($0.text)" })
        }
        #expect(texts.count == 1, "\(texts)")
        #expect(leaves.count == 1)
    }

    /// A chain of 40 cells, each the child of the one before.
    final class Cell {
        var value: Int
        var child: Cell?
        init(_ value: Int) { self.value = value }
    }

    /// The chain from its first cell, and one of its cells again near the top.
    struct Deep {
        var cells: [Cell]
        var mid: Cell
    }

    // The second case from mutation testing: cells[15] is 32 levels down
    // the chain, where its child is cut; a walk that did not go into it
    // again where `mid` meets it passed the first case.
    @Test(
        "an object the depth limit cut, or cut inside, is walked again where it is met higher up, so what was cut shows",
        arguments: [(mid: 31, changed: 31), (mid: 15, changed: 16)])
    func cutThenMetHigher(mid: Int, changed: Int) {
        let cells = (0..<40).map(Cell.init)
        for (cell, next) in zip(cells, cells.dropFirst()) { cell.child = next }
        let text = String(dumping: Deep(cells: [cells[0]], mid: cells[mid]))
        cells[changed].value = 999
        #expect(String(dumping: Deep(cells: [cells[0]], mid: cells[mid])) != text, "cells[\(changed)]'s value shows under mid")
    }

    @Test("a long AnyError breaks into lines, its base as a field; a short one stays on one line")
    func longAnyError() {
        struct LongError: Error { var message = String(repeating: "m", count: 55) }
        #expect(
            String(dumping: AnyError(LongError())) == """
                AnyError(
                  base: LongError(message: "\(String(repeating: "m", count: 55))"),
                )
                """)
        #expect(String(dumping: AnyError(TestFailure.boom)) == "AnyError(.boom)")
    }

    @Test("a string longer than a line prints whole, alone and as a field")
    func longString() {
        struct Note { var text = String(repeating: "x", count: 100); var count = 1 }
        #expect(String(dumping: String(repeating: "x", count: 100)) == "\"" + String(repeating: "x", count: 100) + "\"")
        #expect(String(dumping: Note()).contains("text: \"" + String(repeating: "x", count: 100) + "\""))
    }

    @Test("an optional holding an optional that holds nil prints each level", arguments: [0, 1, 2])
    func nestedSomeNil(level: Int) {
        let values: [Int???] = [.some(nil), .some(.some(nil)), nil]
        #expect(String(dumping: values[level] as Any) == [".some(nil)", ".some(.some(nil))", "nil"][level])
    }
}
