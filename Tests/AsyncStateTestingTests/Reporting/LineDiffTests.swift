import Testing

@testable import AsyncStateTesting

@Suite("Line diff")
struct LineDiffTests {
    @Test("lines removed before lines added, unchanged lines kept as context")
    func diff() {
        #expect(LineDiff.render(from: "a\nb\nc", to: "a\nB\nc") == "  a\n- b\n+ B\n  c")
    }

    @Test("distant context is elided")
    func elided() {
        let old = (1...20).map(String.init).joined(separator: "\n")
        let new = old.replacingOccurrences(of: "\n10\n", with: "\nten\n")
        let rendered = LineDiff.render(from: old, to: new, context: 1)
        #expect(rendered == "  9\n- 10\n+ ten\n  11")
    }
}
