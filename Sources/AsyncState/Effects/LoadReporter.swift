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
/// from the store's (`map(_:)`): one object and one closure per load. One
/// closure delivers both kinds of action — with the load's ID, the one that
/// ends it — so that a mapped reporter allocates one context, not two.
///
/// Through it the load's task also tells the store that it began
/// (`began()`).
@usableFromInline
@MainActor
final class LoadReporter<Action> {
    /// Delivers one of the load's actions: with the load's ID, the action
    /// that ends it, which is processed and forgets the load — never ignored,
    /// so a cancelled load still ends, with `.cancelled(id)`; without, one it
    /// sends on the way, which `send(_:)` has checked.
    @usableFromInline let _deliver: @MainActor (LoadID?, consuming Action) -> Void
    /// The store's record of the effect it is launching.
    @usableFromInline let _launch: EffectLaunch

    @inlinable
    init(launch: EffectLaunch, deliver: @escaping @MainActor (LoadID?, consuming Action) -> Void) {
        self._launch = launch
        self._deliver = deliver
    }

    /// Called by every load's task before anything else (see
    /// `EffectLaunch.effectBegan()`).
    @inlinable
    func began() {
        _launch.effectBegan()
    }

    /// Sends an action the load reports before it ends (a retry, progress);
    /// ignored once the load's task is cancelled.
    @inlinable
    func send(_ action: consuming Action) {
        guard !Task.isCancelled else { return }
        _deliver(nil, action)
    }

    /// Ends load `id` with `action`. Every load's task calls this exactly
    /// once, as the last thing its body does.
    @inlinable
    func end(_ id: LoadID, with action: consuming Action) {
        _deliver(id, action)
    }

    /// The reporter for the same load seen through `transform`: a scoped
    /// feature's load reports in the parent's actions.
    @inlinable
    func map<Child>(_ transform: MainActorFunction<Child, Action>) -> LoadReporter<Child> {
        LoadReporter<Child>(launch: _launch) { [self] (id, action: consuming Child) in _deliver(id, transform(action)) }
    }
}
