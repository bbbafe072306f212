import Foundation

/// Reading and writing the demo's recording files.
enum Files {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func read(_ path: String) throws(Problem) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(description: "\(path) is not UTF-8 text")
        }
        return text
    }
}
