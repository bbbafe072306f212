import AsyncStateTestSupport
import Foundation
import Testing

/// Every Swift code sample the package shows — in README.md, in the DocC
/// catalogs and in doc comments — must appear, line for line, in a compiled
/// test file in a `Guides` folder, outside comments. So a sample that no
/// longer compiles fails the build, and a sample changed on one side only
/// fails here.
///
/// A sample matches when its lines, without their common indentation, are
/// consecutive lines of a test file, each with the same indentation relative
/// to the first; runs of spaces inside a line count as one, so a sample may
/// align its comments where `swift format` does not. Doc-comment samples lose
/// their `///`. A package manifest fragment, which no test can compile, is
/// exempt: the fixture packages CI builds check the same declarations; and
/// so are a sample's `import` lines, which a test file has at its top.
@Suite("Every code sample is compiled by a test")
struct SampleCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// One sample: where it is shown, and its lines.
    struct Sample: CustomStringConvertible {
        var place: String
        var lines: [String]
        var description: String { place }
    }

    /// The files of the package under `folder` whose names end with `suffix`.
    static func files(under folder: String, ending suffix: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(suffix) }.sorted { $0.path < $1.path }
    }

    /// `line` with its indentation kept, trailing spaces dropped and runs of
    /// spaces inside it made one.
    static func canonical(_ line: some StringProtocol) -> String {
        let indent = line.prefix { $0 == " " }
        let words = line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: true)
        return String(indent) + words.joined(separator: " ")
    }

    /// `lines` without their common indentation, each canonical.
    static func normalized(_ lines: [Substring]) -> [String] {
        let trimmed = lines.map { canonical($0) }
        let indent = trimmed.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return trimmed.map { String($0.dropFirst(min(indent, $0.count))) }
    }

    /// Whether `sample` is a fragment of a package manifest.
    static func isManifest(_ sample: Sample) -> Bool {
        sample.lines.contains { $0.contains(".package(") || $0.contains(".product(") }
    }

    /// The ```swift blocks of markdown `text`.
    static func blocks(in text: String, place: String) -> [Sample] {
        var samples: [Sample] = []
        var current: [Substring]?
        var start = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let stripped = line.drop { $0 == " " }
            if current == nil, stripped.hasPrefix("```swift") {
                current = []
                start = number + 1
            } else if current != nil, stripped.hasPrefix("```") {
                samples.append(Sample(place: "\(place):\(start)", lines: normalized(current!)))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return samples
    }

    /// The samples of the README and the catalogs.
    static var documentSamples: [Sample] {
        var samples = blocks(in: try! String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8), place: "README.md")
        for file in files(under: "Sources", ending: ".md") {
            let place = String(file.path.dropFirst(root.path.count + 1))
            samples += blocks(in: try! String(contentsOf: file, encoding: .utf8), place: place)
        }
        return samples
    }

    /// The samples of the doc comments in the sources.
    static var docCommentSamples: [Sample] {
        var samples: [Sample] = []
        for file in files(under: "Sources", ending: ".swift") {
            let text = try! String(contentsOf: file, encoding: .utf8)
            // Each doc-comment line without its `///` (and one space), the rest blank.
            let comments = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
                let code = line.drop { $0 == " " }
                guard code.hasPrefix("///") else { return "" }
                let body = code.dropFirst(3)
                return body.hasPrefix(" ") ? body.dropFirst() : body
            }
            let place = String(file.path.dropFirst(root.path.count + 1))
            samples += blocks(in: comments.joined(separator: "\n"), place: place)
        }
        return samples
    }

    /// Every line of the compiled guide tests that is not a comment, each
    /// test file as its lines.
    static let guideLines: [[String]] = (files(under: "Tests", ending: ".swift")).filter { $0.path.contains("/Guides/") }.map {
        (try! String(contentsOf: $0, encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).map { canonical($0) }
    }

    /// Whether `sample` appears in a guide test, outside comments. Its
    /// `import` lines are left out: a test file imports at its top.
    static func isCompiled(_ sample: Sample) -> Bool {
        if isManifest(sample) { return true }
        let code = sample.lines.filter { !$0.hasPrefix("import ") }
        let lines = Array(code.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed())
        guard let first = lines.first else { return true }
        for file in guideLines {
            for index in file.indices where file[index].hasSuffix(first) {
                let indent = file[index].count - first.count
                guard file[index].prefix(indent).allSatisfy({ $0 == " " }) else { continue }
                // A commented-out copy does not count, unless the sample starts with a comment.
                if !first.hasPrefix("//"), file[index].drop(while: { $0 == " " }).hasPrefix("//") { continue }
                let pad = String(repeating: " ", count: indent)
                let matches = lines.indices.allSatisfy { offset in
                    index + offset < file.count && file[index + offset] == (lines[offset].isEmpty ? "" : pad + lines[offset])
                }
                if matches { return true }
            }
        }
        return false
    }

    @Test("README.md and the DocC catalogs show only compiled code")
    func documents() {
        let missing = Self.documentSamples.filter { !Self.isCompiled($0) }
        #expect(missing.isEmpty, "samples with no compiled copy in a Guides test: \(missing)")
    }

    @Test("doc comments show only compiled code")
    func docComments() {
        let missing = Self.docCommentSamples.filter { !Self.isCompiled($0) }
        #expect(missing.isEmpty, "samples with no compiled copy in a Guides test: \(missing)")
    }

    @Test("the check finds samples, and fails for one no test compiles")
    func theCheckCanFail() {
        #expect(Self.documentSamples.count > 20)
        #expect(Self.docCommentSamples.count > 20)
        #expect(!Self.isCompiled(Sample(place: "made up", lines: ["let neverWritten = 42 // in no test"])))
    }
}
