import Foundation
import Testing

/// Runs the built `asyncstate-demo` executable as a user would.
@Suite("Demo executable")
struct EndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable, built beside this test bundle because the test target depends on it.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("asyncstate-demo")
    }

    func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("the executable was built")
    func built() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path), "\(Self.executable.path)")
    }

    @Test("the tour plays every scenario and exits 0")
    func tour() throws {
        let result = try run(["--pace", "0"])
        #expect(result.status == 0)
        for name in ["profile", "feed", "search", "save", "cancel", "retry", "stream"] {
            #expect(result.stdout.contains("▶ \(name)  "), "missing scenario \(name)")
        }
        #expect(result.stdout.contains("dropped: not the load in flight"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
        #expect(result.stderr.isEmpty)
    }

    @Test("--json prints one JSON object per line")
    func json() throws {
        let result = try run(["--json", "--pace", "0"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 20)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys) == ["scenario", "time_ms", "action", "state", "dropped"])
        }
        #expect(lines.contains { $0.contains(#""dropped":true"#) })
    }

    @Test("a fixed seed gives the same output twice", arguments: ["search", "retry", "stream"])
    func reproducible(scenario: String) throws {
        let first = try run([scenario, "--seed", "9", "--pace", "0"])
        let second = try run([scenario, "--seed", "9", "--pace", "0"])
        #expect(first.stdout == second.stdout)
        #expect(first.status == 0)
    }

    @Test("retry and stream print their retries and parts as JSON lines", arguments: [("retry", "retrying(#1"), ("stream", "progress(#1")])
    func lifecycleJSON(scenario: String, action: String) throws {
        let result = try run([scenario, "--json", "--pace", "0"])
        #expect(result.status == 0)
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.allSatisfy { $0["scenario"] as? String == scenario })
        #expect(objects.contains { ($0["action"] as? String)?.contains(action) == true })
        #expect(objects.contains { $0["dropped"] as? Bool == true })
    }

    @Test(
        "bad arguments print a message and the usage on stderr and exit 2",
        arguments: [
            ["--bogus"], ["--latency", "-5"], ["--failure-rate", "2"], ["nowhere"], ["--seed"],
        ])
    func badArguments(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("asyncstate-demo: "))
        #expect(result.stderr.contains("Usage: asyncstate-demo [scenario] [options]"))
    }

    @Test("each scenario has its own help")
    func scenarioHelp() throws {
        let result = try run(["save", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: asyncstate-demo save [options]"))
    }

    @Test("interactive search reads queries from stdin and exits when it ends")
    func interactive() throws {
        let result = try run(["search", "--interactive", "--latency", "1"], input: "sw\nswift\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"queryChanged("swift")"#))
        #expect(result.stdout.contains(#"2 hits for "swift""#))
    }
}
