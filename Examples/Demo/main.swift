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
player.recordPath = arguments.recordPath
switch arguments.command {
case .tour:
    for scenario in Scenario.all {
        await scenario.run(player, arguments.settings)
    }
case .scenario(let name):
    await Scenario.named(name)?.run(player, arguments.settings)
case .replay(let path):
    let text: String
    do {
        text = try Files.read(path)
    } catch {
        Output.error("asyncstate-demo: \(error)")
        exit(1)
    }
    guard let name = Player.scenarioName(in: text), let scenario = Scenario.named(name) else {
        Output.error("asyncstate-demo: \(path) is not a recording of a demo scenario (write one with <scenario> --record FILE)")
        exit(1)
    }
    player.replayText = text
    await scenario.run(player, arguments.settings)
case .explore(let name):
    guard let exploration = Scenario.explorable(name) else { exit(2) }
    let held = await exploration.run(arguments.broken, output)
    // The broken variant is there to be caught: finding its bug is success.
    exit(held != arguments.broken ? 0 : 1)
}
if let failure = player.failure {
    Output.error(failure)
    exit(1)
}
