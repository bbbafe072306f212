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

    @Test("changes far apart are separate hunks, with … for the lines elided between them")
    func separateHunks() {
        let old = (1...20).map(String.init).joined(separator: "\n")
        let new = old.replacingOccurrences(of: "\n5\n", with: "\nfive\n").replacingOccurrences(of: "\n15\n", with: "\nfifteen\n")
        #expect(LineDiff.render(from: old, to: new, context: 1) == "  4\n- 5\n+ five\n  6\n  …\n  14\n- 15\n+ fifteen\n  16")
    }

    @Test("long texts: lines shared at the start and end are kept, and what is left is aligned by the fewest edits")
    func longTexts() {
        let count = 5_000
        let old = ["head"] + (0..<count).map { "row \($0)" } + ["tail"]
        var new = ["head"] + (1...count).map { "row \($0)" } + ["tail"]
        new[2_500] = "changed"
        let diff = LineDiff.lines(from: old, to: new)
        #expect(diff.first == .same("head") && diff.last == .same("tail"))
        let edits = diff.filter { if case .same = $0 { false } else { true } }
        #expect(edits == [.removed("row 0"), .removed("row 2500"), .added("changed"), .added("row 5000")])
        #expect(diff.filter { $0 != .removed("row 0") && $0 != .removed("row 2500") }.count == count + 2)
    }

    @Test("texts too different to align within the limit: what is between their shared ends is removed, then added")
    func tooDifferent() {
        let old = ["head"] + (0..<3_000).map { "old \($0)" } + ["tail"]
        let new = ["head"] + (0..<3_000).map { "new \($0)" } + ["tail"]
        let diff = LineDiff.lines(from: old, to: new)
        #expect(
            diff == [.same("head")] + (0..<3_000).map { .removed("old \($0)") } + (0..<3_000).map { .added("new \($0)") } + [.same("tail")])
    }
}
