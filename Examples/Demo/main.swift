#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// asyncstate-demo: see `Arguments.usage`, or run `asyncstate-demo --help`.

let arguments: Arguments
do {
    arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Output.error("asyncstate-demo: \(error)\n\n\(Arguments.usage)")
    exit(2)
}

let output = Output.standard(allowColor: arguments.color && !arguments.json)

if arguments.help {
    if case .scenario(let name) = arguments.command, let scenario = Scenario.named(name) {
        output.line(Arguments.help(for: scenario))
    } else {
        output.line(Arguments.usage)
    }
    exit(0)
}

if arguments.interactive {
    await InteractiveSearch.run(settings: arguments.settings, output: output)
    exit(0)
}

let player = Player(
    renderer: Renderer(format: arguments.json ? .json : .text, output: output), pace: arguments.playingPace,
    countsRenders: arguments.renders)
switch arguments.command {
case .tour:
    for scenario in Scenario.all {
        await scenario.run(player, arguments.settings)
    }
case .scenario(let name):
    await Scenario.named(name)?.run(player, arguments.settings)
}
