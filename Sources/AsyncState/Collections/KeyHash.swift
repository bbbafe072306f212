/// The hash ``KeyedStates`` places keys by.
///
/// Integer keys — the usual row IDs — are hashed by mixing their bits with a
/// random per-process seed through one full-width multiply, which costs a few
/// instructions where `Hashable`'s SipHash costs about ninety; it spreads
/// sequential, strided and negative IDs evenly, and without the seed nobody
/// can choose keys that collide. Every other key is placed by its own
/// `hashValue`, mixed the same way.
@usableFromInline
enum KeyHash {
    /// 64 well-mixed bits for `key`; a table uses the top ones.
    @inlinable
    static func hash<Key: Hashable>(_ key: Key, seed: UInt64) -> UInt64 {
        // Specialized for a concrete key type, these checks fold away and leave
        // one branch; in generic code each costs a metatype comparison, and
        // only the matching one casts.
        if Key.self == Int.self, let key = key as? Int { return mix(UInt64(UInt(bitPattern: key)), seed: seed) }
        if Key.self == Int64.self, let key = key as? Int64 { return mix(UInt64(bitPattern: key), seed: seed) }
        if Key.self == UInt64.self, let key = key as? UInt64 { return mix(key, seed: seed) }
        if Key.self == UInt.self, let key = key as? UInt { return mix(UInt64(key), seed: seed) }
        if Key.self == Int32.self, let key = key as? Int32 { return mix(UInt64(UInt32(bitPattern: key)), seed: seed) }
        if Key.self == UInt32.self, let key = key as? UInt32 { return mix(UInt64(key), seed: seed) }
        return mix(UInt64(UInt(bitPattern: key.hashValue)), seed: seed)
    }

    /// The high and low halves of `(bits ^ seed) × ⌊2⁶⁴/φ⌋`, folded together,
    /// so every input bit reaches the top bits a table uses. Sequential IDs
    /// land evenly spaced (Fibonacci hashing); measured on awkward key sets
    /// (strided, high bits only, negative) the longest probe is no worse than
    /// a random hash gives — see `KeyedStatesTests`.
    @inlinable
    static func mix(_ bits: UInt64, seed: UInt64) -> UInt64 {
        let product = (bits ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return product.high ^ product.low
    }
}

/// Chosen once per process, so key placement cannot be predicted from outside.
let keyHashSeed = UInt64.random(in: .min ... .max)
