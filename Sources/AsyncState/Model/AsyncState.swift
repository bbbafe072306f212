/// The lifecycle of one piece of asynchronously loaded data, as a single value.
///
/// `AsyncState` replaces the usual tangle of `isLoading`, `error`, `items` and
/// `isRefreshing` with one enum that cannot express an impossible combination.
///
/// ```swift
/// var state: AsyncState<[String], FeedError> = .notLoaded
/// state.startLoading()          // .loading
/// state.setValue(["a", "b"])    // .success(value: ["a", "b"])
/// state.startLoading()          // .refreshing(value: ["a", "b"])
/// ```
public enum AsyncState<Value: Equatable, Failure: Equatable>: Equatable {
    /// No request has started and no value is available.
    case notLoaded
    /// A request is running and there is no value yet.
    case loading
    /// A request is running while a previous value remains available.
    case refreshing(value: Value)
    /// The latest request finished successfully.
    case success(value: Value)
    /// The latest request failed.
    case error(error: Failure)

    /// The value of `.success` and `.refreshing`; `nil` in every other state.
    @inlinable
    public var value: Value? {
        switch self {
        case .success(let value), .refreshing(let value): value
        case .notLoaded, .loading, .error: nil
        }
    }

    /// The failure of `.error`; `nil` in every other state.
    @inlinable
    public var error: Failure? {
        if case .error(let error) = self { error } else { nil }
    }

    /// Whether a request is running: `true` for `.loading` and `.refreshing`.
    @inlinable
    public var isLoading: Bool {
        switch self {
        case .loading, .refreshing: true
        case .notLoaded, .success, .error: false
        }
    }

    /// Whether the latest request failed: `true` for `.error`.
    @inlinable
    public var isError: Bool {
        if case .error = self { true } else { false }
    }

    /// Marks a request as started, keeping any value on screen.
    ///
    /// `.notLoaded` and `.error` become `.loading`; `.success(value:)` becomes
    /// `.refreshing(value:)`; `.loading` and `.refreshing(value:)` stay as they are.
    @inlinable
    public mutating func startLoading() {
        switch self {
        case .notLoaded, .error: self = .loading
        case .success(let value): self = .refreshing(value: value)
        case .loading, .refreshing: break
        }
    }

    /// Marks the running request as over without a new result.
    ///
    /// `.loading` becomes `.notLoaded`; `.refreshing(value:)` becomes
    /// `.success(value:)`; every other state stays unchanged.
    @inlinable
    public mutating func stopLoading() {
        switch self {
        case .loading: self = .notLoaded
        case .refreshing(let value): self = .success(value: value)
        case .notLoaded, .success, .error: break
        }
    }

    /// Stores a value.
    ///
    /// During `.refreshing` the value is replaced and the refresh indicator
    /// stays, so intermediate results can stream in; every other state becomes
    /// `.success(value:)`.
    @inlinable
    public mutating func setValue(_ newValue: Value) {
        if case .refreshing = self {
            self = .refreshing(value: newValue)
        } else {
            self = .success(value: newValue)
        }
    }
}

extension AsyncState: Sendable where Value: Sendable, Failure: Sendable {}

extension AsyncState: Hashable where Value: Hashable, Failure: Hashable {}

extension AsyncState: CustomStringConvertible {
    /// A short form for logs, test failures and snapshots, such as
    /// `refreshing(value: ["a", "b"])`.
    public var description: String {
        switch self {
        case .notLoaded: "notLoaded"
        case .loading: "loading"
        case .refreshing(let value): "refreshing(value: \(describeValue(value)))"
        case .success(let value): "success(value: \(describeValue(value)))"
        case .error(let error): "error(error: \(describeValue(error)))"
        }
    }
}
