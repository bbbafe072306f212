/// A line diff of two texts, as `-`/`+`/` ` lines, for failure messages.
enum LineDiff {
    enum Line: Equatable {
        case same(String), removed(String), added(String)

        var text: String {
            switch self {
            case .same(let line): "  \(line)"
            case .removed(let line): "- \(line)"
            case .added(let line): "+ \(line)"
            }
        }
    }

    /// The lines of `old` and `new`, aligned by their longest common subsequence.
    static func lines(from old: [String], to new: [String]) -> [Line] {
        let n = old.count, m = new.count
        var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [Line] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                result.append(.same(old[i])); i += 1; j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                result.append(.removed(old[i])); i += 1
            } else {
                result.append(.added(new[j])); j += 1
            }
        }
        return result
    }

    /// The diff as text, with `context` unchanged lines kept around each change.
    static func render(from old: String, to new: String, context: Int = 3) -> String {
        let diff = lines(
            from: old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            to: new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let changed = diff.indices.filter { if case .same = diff[$0] { false } else { true } }
        var keep = Set<Int>()
        for index in changed {
            for near in max(0, index - context)...min(diff.count - 1, index + context) { keep.insert(near) }
        }
        var out: [String] = []
        var previous = -1
        for index in keep.sorted() {
            if previous >= 0, index > previous + 1 { out.append("  …") }
            out.append(diff[index].text)
            previous = index
        }
        return out.joined(separator: "\n")
    }
}
