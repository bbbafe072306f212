import Foundation

/// Reading and writing the demo's recording files.
enum Files {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ text: String, to path: String) throws(Problem) {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Problem(description: reason(error))
        }
    }

    /// Why a write failed, in the system's words ("Is a directory"): the
    /// error Foundation throws prints as a dump of its user info.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let cause = error.userInfo[NSUnderlyingErrorKey] as? any Error {
            let cause = cause as NSError
            if cause.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(cause.code))) }
        }
        return error.localizedDescription
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
