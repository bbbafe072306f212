import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite whose tests wait on effects, gates or a
    /// test clock: it turns a hang into a failure and measures nothing else.
    ///
    /// Ten minutes, because the limit is wall-clock time and CI runs the whole
    /// suite side by side on two cores under the thread sanitizer, where the
    /// model checks hold the threads most of the time. There, tests that take
    /// well under a second alone ran 40–70 s, and one minute failed a cache
    /// test that hung on nothing (56 s on a quiet machine, 85 s on a busy one).
    package static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
