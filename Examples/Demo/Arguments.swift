/// The demo's command line, parsed by hand: a scenario name and options.
struct Arguments: Equatable {
    enum Command: Equatable {
        case tour
        case scenario(String)
        /// Play back a recording file (`--record`), printing its timeline again.
        case replay(path: String)
        /// Explore every ordering of a scenario's feature.
        case explore(String)
    }

    var command: Command = .tour
    var seed: UInt64 = 42
    var latencyMilliseconds = 300
    var failureRate = 0.0
    var json = false
    /// Real seconds per simulated second; `nil`: ``defaultPace``.
    var pace: Double?
    var interactive = false
    /// Count, after each action, the views of the screen that would re-render.
    var renders = false
    var color = true
    var help = false
    /// Where to write the scenario's recording (JSON lines).
    var recordPath: String?
    /// Explore the deliberately broken variant of the feature.
    var broken = false

    /// Why a command line was refused; printed with the usage, exit status 2.
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static let latencyRange = 0...5_000
    static let paceRange = 0.0...10.0

    /// How fast a run plays without `--pace`: a scenario in real time, the
    /// tour of every scenario at a third of it, so it takes about 10 seconds.
    var playingPace: Double {
        pace ?? (command == .tour ? 0.3 : 1)
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(Problem) -> Arguments {
        var result = Arguments()
        var remaining = arguments[...]
        /// The options that set the simulated world or the output of a
        /// played scenario, as given: `explore` takes none of them.
        var playingOptions: [String] = []
        func value(for option: String) throws(Problem) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw Problem(description: "\(option) needs a value")
            }
            return value
        }
        /// The value of `option` as a number in `range`; `meaning` says what it takes.
        func number<Number: LosslessStringConvertible & Comparable>(
            for option: String, in range: ClosedRange<Number>, _ meaning: String
        ) throws(Problem) -> Number {
            let text = try value(for: option)
            guard let number = Number(text), range.contains(number) else {
                throw Problem(description: "\(option) takes \(meaning), not \(text.debugDescription)")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            if ["--seed", "--latency", "--failure-rate", "--pace", "--json", "--renders"].contains(argument) {
                playingOptions.append(argument)
            }
            switch argument {
            case "-h", "--help":
                result.help = true
            case "--seed":
                result.seed = try number(for: argument, in: 0...UInt64.max, "a whole number from 0 to \(UInt64.max)")
            case "--latency":
                result.latencyMilliseconds = try number(
                    for: argument, in: latencyRange, "milliseconds from \(latencyRange.lowerBound) to \(latencyRange.upperBound)"
                )
            case "--failure-rate":
                result.failureRate = try number(for: argument, in: 0...1, "a fraction from 0 to 1")
            case "--pace":
                result.pace = try number(for: argument, in: paceRange, "a factor from 0 (instant) to 10")
            case "--json":
                result.json = true
            case "--interactive":
                result.interactive = true
            case "--renders":
                result.renders = true
            case "--no-color":
                result.color = false
            case "--record":
                result.recordPath = try value(for: argument)
            case "--broken":
                result.broken = true
            case let option where option.hasPrefix("-"):
                throw Problem(description: "unknown option \(option)")
            case "replay" where result.command == .tour:
                result.command = .replay(path: try value(for: "replay"))
            case "explore" where result.command == .tour:
                let name = try value(for: "explore")
                guard Scenario.explorable(name) != nil else {
                    throw Problem(
                        description:
                            "explore takes one of: \(Scenario.explorations.map(\.name).joined(separator: ", ")), not \(name.debugDescription)"
                    )
                }
                result.command = .explore(name)
            case let name:
                guard result.command == .tour, !name.isEmpty else {
                    throw Problem(description: "unexpected argument \(name.debugDescription)")
                }
                guard name == "tour" || Scenario.named(name) != nil else {
                    throw Problem(
                        description:
                            "unknown scenario \(name.debugDescription); try one of: tour, \(Scenario.all.map(\.name).joined(separator: ", "))"
                    )
                }
                result.command = name == "tour" ? .tour : .scenario(name)
            }
        }
        if result.interactive, result.command != .scenario("search") {
            throw Problem(description: "--interactive works with the search scenario only")
        }
        if result.recordPath != nil {
            guard case .scenario = result.command else {
                throw Problem(description: "--record works with one scenario: asyncstate-demo <scenario> --record FILE")
            }
            guard !result.interactive else { throw Problem(description: "--record cannot be combined with --interactive") }
        }
        if result.broken, !(result.command.isExplore) {
            throw Problem(description: "--broken works with explore only: asyncstate-demo explore profile --broken")
        }
        if case .explore(let name) = result.command {
            if result.broken, Scenario.explorable(name)?.hasBrokenVariant != true {
                let broken = Scenario.explorations.filter(\.hasBrokenVariant).map(\.name).joined(separator: ", ")
                throw Problem(description: "\(name) has no broken variant; --broken explores one of: \(broken)")
            }
            if let option = playingOptions.first {
                throw Problem(description: "\(option) does not apply to explore, which answers every request in every order")
            }
        }
        if case .replay = result.command,
            let option = playingOptions.first(where: { ["--seed", "--latency", "--failure-rate"].contains($0) })
        {
            throw Problem(description: "\(option) does not apply to replay, which plays the answers the file recorded")
        }
        if result.renders, result.command != .scenario("social") {
            throw Problem(description: "--renders counts the views of the social scenario only: asyncstate-demo social --renders")
        }
        if result.interactive, result.json {
            throw Problem(description: "--interactive prints a live view; it cannot be combined with --json")
        }
        return result
    }

    /// The settings of the simulated world.
    var settings: Settings {
        Settings(seed: seed, latency: .milliseconds(latencyMilliseconds), failureRate: failureRate)
    }

    static let usage = """
        Usage: asyncstate-demo [scenario] [options]
               asyncstate-demo <scenario> --record FILE
               asyncstate-demo replay FILE
               asyncstate-demo explore <scenario> [--broken]

        Plays scenarios of AsyncState, printing a timeline of every action, the
        state after it, and each stale result that was dropped. With no scenario,
        plays a short tour of all of them.

        Scenarios:
          tour       all scenarios, one after another (the default)
        \(Scenario.all.map { "  " + $0.name.padding(9) + "  " + $0.summary }.joined(separator: "\n"))

        Options:
          --seed N            seed for simulated latency and failures (default 42)
          --latency MS        typical request latency, 0-5000 ms (default 300)
          --failure-rate R    share of requests that fail, 0-1 (default 0)
          --pace X            real seconds per simulated second, 0-10; 0 is instant (default 1; 0.3 for the tour)
          --json              print the state sequence as JSON lines
          --interactive       search only: each line typed on stdin is a new query
          --renders           social only: after each action, how many of the screen's views re-render
          --record FILE       write what the store processed to FILE (JSON lines); replay FILE plays it back
          --broken            explore only: explore a deliberately broken variant (stale results applied)
          --no-color          never colour the output (NO_COLOR is honoured too)
          -h, --help          show help; after a scenario, that scenario's help
        """

    static func help(for scenario: Scenario) -> String {
        """
        Usage: asyncstate-demo \(scenario.name) [options]

        \(scenario.summary)

        \(scenario.details)

        Options: --seed N, --latency MS, --failure-rate R, --pace X, --json, --no-color, --record FILE\(scenario.name == "search" ? ", --interactive" : "")\(scenario.name == "social" ? ", --renders" : "")
        (see asyncstate-demo --help)
        """
    }
}

extension Arguments.Command {
    var isExplore: Bool {
        if case .explore = self { true } else { false }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
