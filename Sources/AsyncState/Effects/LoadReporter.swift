/// Where a load's work reports: the actions it sends on the way (retries,
/// progress) and the one action that ends it.
///
/// The work reports its end itself rather than returning the action to the
/// task that runs it. A returned action is an indirect result: every async
/// frame it passes through keeps a buffer for it, and with the action, the
/// `LoadAction` it embeds, and the frame of a helper that built it, an
/// in-flight load's frames overflowed its task's first allocator slab (984
/// bytes) and cost a second, 1,016-byte one. Ended where the operation's
/// value arrives, nothing above that frame holds a result.
///
/// A store makes one and shares it among its loads, so a load's frames hold
/// a single reference to it. A scoped feature's load gets its own, mapped
/// from the store's (`map(_:)`): one object and two closures per load.
///
/// Through it the load's task also tells the store that it began
/// (`began()`).
@usableFromInline
@MainActor
final class LoadReporter<Action> {
    /// Sends the actions a load reports before it ends; ignored once the
    /// load's task is cancelled.
    @usableFromInline let _send: Send<Action>
    /// Processes the action that ends load `id` and forgets the load. Never
    /// ignored: a cancelled load still ends, with `.cancelled(id)`.
    @usableFromInline let _end: @MainActor (LoadID, Action) -> Void
    /// The store's record of the effect it is launching.
    @usableFromInline let _launch: EffectLaunch

    @inlinable
    init(send: Send<Action>, launch: EffectLaunch, end: @escaping @MainActor (LoadID, Action) -> Void) {
        self._send = send
        self._launch = launch
        self._end = end
    }

    /// Called by every load's task before anything else (see
    /// `EffectLaunch.effectBegan()`).
    @inlinable
    func began() {
        _launch.effectBegan()
    }

    /// Ends load `id` with `action`. Every load's task calls this exactly
    /// once, as the last thing its body does.
    @inlinable
    func end(_ id: LoadID, with action: Action) {
        _end(id, action)
    }

    /// The reporter for the same load seen through `transform`: a scoped
    /// feature's load reports in the parent's actions.
    @inlinable
    func map<Child>(_ transform: MainActorFunction<Child, Action>) -> LoadReporter<Child> {
        LoadReporter<Child>(
            send: Send { [self] in _send(transform($0)) }, launch: _launch, end: { [self] in _end($0, transform($1)) })
    }
}
