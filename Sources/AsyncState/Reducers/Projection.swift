/// A writable key path into a parent's state, resolved once to a field offset
/// when it names an inline stored property, so composed reducers reach a
/// child's state without the key-path runtime on every action.
///
/// `MemoryLayout.offset(of:)` (SE-0210) returns an offset only for stored
/// properties whose storage lies inline in `Root` — never for computed
/// properties or properties of a class — and addressing the field through
/// that offset is the use SE-0210 describes. Anything else goes through the
/// key path as usual.
@usableFromInline
struct Projection<Root, Value> {
    @usableFromInline let _keyPath: WritableKeyPath<Root, Value>
    @usableFromInline let _offset: Int?

    @inlinable
    init(_ keyPath: WritableKeyPath<Root, Value>) {
        self._keyPath = keyPath
        self._offset = MemoryLayout<Root>.offset(of: keyPath)
    }

    /// The key path, for naming the child it leads to.
    @inlinable
    var keyPath: AnyKeyPath { _keyPath }

    /// Runs `body` with the projected value of `root`, read — not written:
    /// through a key path, a `modify` sets the property, which runs its
    /// observers (`didSet`) and would make a read look like a change.
    @inlinable
    func read<Result>(_ root: inout Root, _ body: (Value) -> Result) -> Result {
        guard let _offset else { return body(root[keyPath: _keyPath]) }
        return withUnsafeMutablePointer(to: &root) { pointer in
            body(UnsafeMutableRawPointer(pointer).advanced(by: _offset).assumingMemoryBound(to: Value.self).pointee)
        }
    }

    /// Runs `body` with in-place access to the projected value of `root`.
    @inlinable
    func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
        guard let _offset else { return body(&root[keyPath: _keyPath]) }
        return withUnsafeMutablePointer(to: &root) { pointer in
            let field = UnsafeMutableRawPointer(pointer).advanced(by: _offset).assumingMemoryBound(to: Value.self)
            return body(&field.pointee)
        }
    }
}
