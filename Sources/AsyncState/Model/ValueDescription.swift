/// How the model's descriptions print a payload: strings quoted (so an empty
/// string stays visible), everything else as `String(describing:)`, which
/// prints an enum case without its module and type (`offline`).
func describeValue(_ value: Any) -> String {
    switch value {
    case let string as String: string.debugDescription
    case let substring as Substring: String(substring).debugDescription
    case let character as Character: String(character).debugDescription
    default: String(describing: value)
    }
}
