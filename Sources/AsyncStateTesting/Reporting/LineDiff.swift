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

    /// The most cells the longest-common-subsequence table may take: a
    /// million, 8 MB. The table grows with the product of the two texts'
    /// lengths — two snapshots of 10,000 lines took 800 MB.
    static let tableLimit = 1_000_000

    /// The lines of `old` and `new`, aligned by their longest common
    /// subsequence. The lines the two share at their start and end are kept
    /// as they are first. What is left between, if its table would pass
    /// ``tableLimit``, is aligned by the fewest edits (Myers' algorithm),
    /// whose memory grows with the number of edits instead; past the same
    /// limit there too, its old lines are all removed and its new lines all
    /// added — a coarser diff, still a true one.
    static func lines(from old: [String], to new: [String]) -> [Line] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let oldMiddle = old[prefix..<(old.count - suffix)]
        let newMiddle = new[prefix..<(new.count - suffix)]
        let (cells, overflow) = oldMiddle.count.multipliedReportingOverflow(by: newMiddle.count)
        let middle =
            !overflow && cells <= tableLimit
            ? aligned(Array(oldMiddle), Array(newMiddle))
            : fewestEdits(Array(oldMiddle), Array(newMiddle)) ?? oldMiddle.map(Line.removed) + newMiddle.map(Line.added)
        return old[..<prefix].map(Line.same) + middle + old[(old.count - suffix)...].map(Line.same)
    }

    /// `old` and `new` aligned by their longest common subsequence, in one
    /// flat table of `(n + 1) × (m + 1)` lengths.
    private static func aligned(_ old: [String], _ new: [String]) -> [Line] {
        let n = old.count, m = new.count
        let width = m + 1
        var lengths = [Int](repeating: 0, count: (n + 1) * width)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * width + j] =
                    old[i] == new[j]
                    ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var result: [Line] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                result.append(.same(old[i])); i += 1; j += 1
            } else if i < n, j == m || lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                result.append(.removed(old[i])); i += 1
            } else {
                result.append(.added(new[j])); j += 1
            }
        }
        return result
    }

    /// `old` and `new` aligned by the fewest lines removed and added
    /// (E. W. Myers, "An O(ND) difference algorithm and its variations",
    /// 1986), or `nil` if its trace — one row of furthest reaches per edit —
    /// would pass ``tableLimit``.
    private static func fewestEdits(_ old: [String], _ new: [String]) -> [Line]? {
        let n = old.count, m = new.count
        let offset = n + m + 1
        var reach = [Int](repeating: 0, count: 2 * offset + 1)
        var trace: [[Int]] = []
        var edits: Int?
        search: for d in 0...(n + m) {
            guard (trace.count + 1) * reach.count <= tableLimit else { return nil }
            trace.append(reach)
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    k == -d || (k != d && reach[offset + k - 1] < reach[offset + k + 1]) ? reach[offset + k + 1] : reach[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                reach[offset + k] = x
                if x >= n, y >= m {
                    edits = d
                    break search
                }
            }
        }
        guard let edits else { return nil }
        var result: [Line] = []
        var x = n, y = m
        for d in stride(from: edits, through: 0, by: -1) {
            let previous = trace[d]
            let k = x - y
            let fromK = k == -d || (k != d && previous[offset + k - 1] < previous[offset + k + 1]) ? k + 1 : k - 1
            let fromX = d == 0 ? 0 : previous[offset + fromK]
            let fromY = d == 0 ? 0 : fromX - fromK
            while x > fromX, y > fromY {
                result.append(.same(old[x - 1]))
                x -= 1
                y -= 1
            }
            guard d > 0 else { break }
            if x == fromX {
                result.append(.added(new[y - 1]))
                y -= 1
            } else {
                result.append(.removed(old[x - 1]))
                x -= 1
            }
        }
        return result.reversed()
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
