#if canImport(Synchronization)
    import Synchronization
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stamps for the key sets of ``KeyedStates``: every value whose set of keys
/// changes takes a stamp no other change anywhere has taken, so two values
/// with one stamp hold the same keys.
///
/// `forEach` reads its children's stamp before and after the parent's
/// reducer runs: an equal stamp proves that no child was removed, in a load
/// and a compare, without copying the keys. A stamp per collection would
/// not prove it: a collection assigned over another could have counted to
/// the same number along a different history.
@usableFromInline
enum KeySetStamp {
    /// A stamp never handed out before.
    @usableFromInline
    static func next() -> UInt64 {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return AtomicKeySetStamps.shared.counter.add(1, ordering: .relaxed).newValue
            }
        #endif
        return LockedKeySetStamps.shared.next()
    }
}

#if canImport(Synchronization)
    /// The counter where the OS has atomics, in a class of its own: a stored
    /// property cannot be available on some OSes only.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class AtomicKeySetStamps: Sendable {
        static let shared = AtomicKeySetStamps()
        let counter = Atomic<UInt64>(0)
    }
#endif

/// The counter under a pthread mutex, for OSes without `Atomic`.
final class LockedKeySetStamps: @unchecked Sendable {
    // Unchecked: `count` is read and written only between `lock` and
    // `unlock` of `mutex`, which is allocated once and never moved.
    static let shared = LockedKeySetStamps()
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var count: UInt64 = 0

    private init() {
        mutex = UnsafeMutablePointer.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func next() -> UInt64 {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        count &+= 1
        return count
    }
}
