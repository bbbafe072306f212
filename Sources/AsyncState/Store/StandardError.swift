#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a runtime issue to standard error, where it shows in Xcode's console
/// and in a terminal without interleaving with the program's own output.
func reportToStandardError(_ message: String) {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        let line = "[AsyncState] \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    #else
        print("[AsyncState] \(message)")
    #endif
}
