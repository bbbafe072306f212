import Testing

@testable import asyncstate_demo

@Suite("Demo arguments")
struct ArgumentsTests {
    @Test(
        "valid command lines",
        arguments: [
            ([], Arguments()),
            (["tour"], Arguments()),
            (
                ["search", "--seed", "7", "--latency", "0", "--failure-rate", "0.5", "--json", "--pace", "0"],
                Arguments(command: .scenario("search"), seed: 7, latencyMilliseconds: 0, failureRate: 0.5, json: true, pace: 0)
            ),
            (["search", "--interactive", "--no-color"], Arguments(command: .scenario("search"), interactive: true, color: false)),
            (["social", "--renders"], Arguments(command: .scenario("social"), renders: true)),
            (["feed", "--help"], Arguments(command: .scenario("feed"), help: true)),
            (["-h"], Arguments(help: true)),
            (["feed", "--record", "feed.jsonl"], Arguments(command: .scenario("feed"), recordPath: "feed.jsonl")),
            (["replay", "feed.jsonl"], Arguments(command: .replay(path: "feed.jsonl"))),
            (["explore", "profile", "--broken"], Arguments(command: .explore("profile"), broken: true)),
            (["explore", "pages"], Arguments(command: .explore("pages"))),
        ] as [([String], Arguments)])
    func valid(arguments: [String], expected: Arguments) throws {
        #expect(try Arguments.parse(arguments) == expected)
    }

    @Test(
        "invalid command lines say why",
        arguments: [
            (["--bogus"], "unknown option --bogus"),
            (
                ["nowhere"],
                #"unknown scenario "nowhere"; try one of: tour, profile, feed, search, save, cancel, retry, stream, pages, optimistic, cache, social"#
            ),
            (["feed", "save"], #"unexpected argument "save""#),
            (["--record", "x.jsonl"], "--record works with one scenario: asyncstate-demo <scenario> --record FILE"),
            (["feed", "--record"], "--record needs a value"),
            (["replay"], "replay needs a value"),
            (
                ["explore", "lunch"],
                #"explore takes one of: profile, feed, search, save, cancel, retry, stream, pages, optimistic, cache, social, not "lunch""#
            ),
            (["feed", "--broken"], "--broken works with explore only: asyncstate-demo explore profile --broken"),
            (["explore", "feed", "--broken"], "feed has no broken variant; --broken explores one of: profile"),
            (["explore", "profile", "--json"], "--json does not apply to explore, which answers every request in every order"),
            (["explore", "profile", "--seed", "3"], "--seed does not apply to explore, which answers every request in every order"),
            (["replay", "feed.jsonl", "--seed", "9"], "--seed does not apply to replay, which plays the answers the file recorded"),
            (
                ["replay", "feed.jsonl", "--failure-rate", "0.5"],
                "--failure-rate does not apply to replay, which plays the answers the file recorded"
            ),
            (["profile", "--renders"], "--renders counts the views of the social scenario only: asyncstate-demo social --renders"),
            (["--renders"], "--renders counts the views of the social scenario only: asyncstate-demo social --renders"),
            (["--seed"], "--seed needs a value"),
            (["--seed", "--json"], "--seed needs a value"),
            (["--seed", "-1"], #"--seed takes a whole number from 0 to 18446744073709551615, not "-1""#),
            (["--latency", "5001"], #"--latency takes milliseconds from 0 to 5000, not "5001""#),
            (["--latency", "fast"], #"--latency takes milliseconds from 0 to 5000, not "fast""#),
            (["--failure-rate", "1.5"], #"--failure-rate takes a fraction from 0 to 1, not "1.5""#),
            (["--failure-rate", "nan"], #"--failure-rate takes a fraction from 0 to 1, not "nan""#),
            (["--pace", "-1"], #"--pace takes a factor from 0 (instant) to 10, not "-1""#),
            (["--interactive"], "--interactive works with the search scenario only"),
            (["search", "--interactive", "--json"], "--interactive prints a live view; it cannot be combined with --json"),
        ])
    func invalid(arguments: [String], message: String) {
        #expect(throws: Arguments.Problem(description: message)) { try Arguments.parse(arguments) }
    }
}
