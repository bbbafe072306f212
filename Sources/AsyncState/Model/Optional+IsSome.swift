extension Optional {
    /// Whether there is a value: `x != nil` without its cost in generic code.
    ///
    /// Where `Wrapped` is `Equatable`, as a loadable's value and failure are,
    /// `x != nil` resolves to `Optional`'s own `==` and copies `x` into a
    /// pair to compare — a retain and a release of every reference the value
    /// holds (four for a page of a `Pages`), which the optimizer does not
    /// always remove. This reads the case in place (BENCHMARKS.md, "Issue
    /// 25, sixth pass").
    @inlinable
    var isSome: Bool {
        if case .some = self { return true }
        return false
    }
}
