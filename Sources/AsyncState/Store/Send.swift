/// Sends actions from a running effect back into its store.
///
/// ```swift
/// return .run { send in
///     for await event in events { send(.received(event)) }
/// }
/// ```
///
/// After the effect is cancelled, or once the store is gone, sends are ignored.
@MainActor
public struct Send<Action>: Sendable {
    private let deliver: @MainActor @Sendable (Action) -> Void

    /// Creates a sender that hands each action to `deliver`.
    public init(_ deliver: @escaping @MainActor @Sendable (Action) -> Void) {
        self.deliver = deliver
    }

    /// Sends `action`, unless the current task has been cancelled.
    public func callAsFunction(_ action: Action) {
        guard !Task.isCancelled else { return }
        deliver(action)
    }
}
