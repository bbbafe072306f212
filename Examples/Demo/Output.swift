#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Where the demo writes: standard output (with colour only on a terminal,
/// and only when `NO_COLOR` is unset) and standard error.
struct Output {
    var useColor: Bool
    /// Where lines go: standard output unless a test captures them.
    var write: @MainActor (String) -> Void = { text in
        print(text)
        fflush(nil)
    }

    enum Style: String {
        case dim = "2", bold = "1", red = "31", green = "32", yellow = "33", magenta = "35"
    }

    static func standard(allowColor: Bool) -> Output {
        Output(useColor: allowColor && isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil)
    }

    func styled(_ text: String, _ style: Style) -> String {
        useColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    @MainActor
    func line(_ text: String = "") {
        write(text)
    }

    static func error(_ text: String) {
        let message = text + "\n"
        _ = message.withCString { systemWrite(STDERR_FILENO, $0, strlen($0)) }
    }
}
