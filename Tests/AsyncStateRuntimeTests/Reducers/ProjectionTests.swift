import AsyncStateTestSupport
import Testing

@testable import AsyncState

/// `Projection` reaches a child's state through a field offset when the key
/// path names inline storage, and through the key path otherwise; both paths
/// must read and write the same value.
@Suite("Projection")
struct ProjectionTests {
    struct Inner: Equatable { var a = 1; var b = "b" }
    struct Outer: Equatable {
        var flag = false
        var inner = Inner()
        var rows: [Int: Int] = [1: 1]
        var tail: UInt8 = 7

        /// Computed: no storage of its own.
        var doubled: Int {
            get { inner.a * 2 }
            set { inner.a = newValue / 2 }
        }
    }

    @Test("stored properties resolve to an offset; computed ones fall back to the key path")
    func resolves() {
        #expect(Projection(\Outer.inner)._offset != nil)
        #expect(Projection(\Outer.inner.b)._offset != nil)
        #expect(Projection(\Outer.rows)._offset != nil)
        #expect(Projection(\Outer.doubled)._offset == nil)
    }

    @Test("writing through an offset changes exactly that field", arguments: [false, true])
    func writes(computed: Bool) {
        var outer = Outer()
        if computed {
            Projection(\Outer.doubled).modify(&outer) { $0 = 10 }
            #expect(outer == Outer(inner: Inner(a: 5)))
        } else {
            Projection(\Outer.inner.b).modify(&outer) { $0 += "!" }
            Projection(\Outer.rows).modify(&outer) { $0[2] = 2 }
            Projection(\Outer.tail).modify(&outer) { $0 &+= 1 }
            #expect(outer == Outer(inner: Inner(b: "b!"), rows: [1: 1, 2: 2], tail: 8))
        }
    }

    @Test("a Scope through a computed property works")
    @MainActor
    func scopeThroughComputed() {
        enum Action: Sendable { case set(Int) }
        let reducer = Scope(
            state: \Outer.doubled, action: Action.set,
            extract: {
                if case .set(let value) = $0 { value } else { nil }
            }
        ) {
            Reduce<Int, Int> { state, value in
                state = value; return .none
            }
        }
        let store = Store(initialState: Outer(), reducer: reducer)
        store.send(.set(8))
        #expect(store.state.inner.a == 4)
    }
}
