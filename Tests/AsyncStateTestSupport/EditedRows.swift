import AsyncState

/// Rows by ID, each holding a number: the value the edit tests change.
package typealias RowValues = [Int: Int]

/// Sets row `row` to `value`; does not apply when the row is gone.
package struct SetRow: Edit, Hashable, Sendable, CustomStringConvertible {
    package var row: Int
    package var value: Int

    package init(_ row: Int, to value: Int) {
        self.row = row
        self.value = value
    }

    package func apply(to rows: inout RowValues) -> Bool {
        guard rows[row] != nil else { return false }
        rows[row] = value
        return true
    }

    package var description: String { "set(\(row): \(value))" }
}

/// Rows that take optimistic edits: a `Loadable` whose edit layer is used.
package typealias EditedRows = Loadable<RowValues, TestError>

extension Loadable where Value == RowValues, Failure == TestError {
    /// Starts edit `id` with `edit`.
    package mutating func start(_ id: UInt64, _ edit: SetRow) -> LoadDisposition {
        apply(.edit(.started(LoadID(id), AnyEdit(edit))))
    }
}
