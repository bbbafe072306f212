/// How the store starts an effect's task.
@usableFromInline
package enum EffectStart: Sendable, CaseIterable {
    /// `Task.immediate` (SE-0472): the effect runs on the main actor inside the
    /// `send` that started it, until its first suspension. An operation that
    /// answers without suspending settles before `send` returns.
    case immediate
    /// `Task {}`: the effect is enqueued on the main actor and runs after the
    /// `send` that started it has returned.
    case enqueued

    /// `immediate` where the platform has `Task.immediate`, else `enqueued`.
    package static var preferred: EffectStart {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) { .immediate } else { .enqueued }
    }
}
