/// Prints results as aligned lines: name, median ns/op, min–max, ratio to the
/// baseline measured in the same run, and the target when there is one.
enum Report {
    static func header(_ title: String) {
        Swift.print("")
        Swift.print("## \(title)")
    }

    static func print(_ results: [Result]) {
        for result in results {
            Swift.print(line(result))
        }
    }

    static func line(_ result: Result) -> String {
        let name = result.name.padding(toLength: 58)
        if let text = result.text { return "  \(name) \(text)" }
        let numbers =
            "\(format(result.sample.median).leftPadding(toLength: 10)) ns/op  (\(format(result.sample.min))–\(format(result.sample.max)))"
        var line = "  \(name) \(numbers.padding(toLength: 36))"
        if let ratio = result.ratio, let baselineName = result.baselineName {
            // Three decimals below 0.1, so a ratio just over a target such
            // as 0.05× does not print as the target itself.
            line += " \(format(ratio, digits: ratio < 0.1 ? 3 : 2))× \(baselineName)"
            if let target = result.target {
                let bound = format(target, digits: target < 0.1 ? 2 : 1)
                line += ratio <= target ? "  ✓ target ≤\(bound)×" : "  ✗ MISSED target ≤\(bound)×"
            }
        } else {
            line += " baseline"
        }
        return line
    }

    static func format(_ value: Double, digits: Int? = nil) -> String {
        let digits = digits ?? (value >= 100 ? 0 : value >= 10 ? 1 : 2)
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
        if let dot = text.firstIndex(of: "."), digits > 0 {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }

    func leftPadding(toLength length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
