// `Codable` for the kit's actions and what they carry, so a feature whose
// own actions are `Codable` can write recordings (`AsyncStateControls`'
// `jsonLines()`). An edit is written with its type's name when that type is
// `Codable`, and read back only as one of the types the reader is given
// (`EditTypes`); an edit of another type has no JSON form, and encoding it throws.

extension LoadID: Codable {
    /// Decodes the raw number.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(UInt64.self))
    }

    /// Encodes the raw number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension LoadClock.Instant: Codable {
    /// Decodes the offset; throws `DecodingError.dataCorrupted` for one
    /// past `Int64.max` seconds either way.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let offset = try container.decode(Duration.self)
        // A `Duration` decodes any 128-bit count of attoseconds; one this far
        // out made the staleness rule's `freshSince + maxAge` overflow and
        // trap. Within `Int64.max` seconds (292 billion years) of its start,
        // an instant takes any maximum age up to sixteen times that without
        // overflow — ages a screen sets are minutes.
        guard offset >= .seconds(Int64.min), offset <= .seconds(Int64.max) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "an instant \(offset) from its clock's start is past what a clock reads")
        }
        self.init(offset: offset)
    }

    /// Encodes the offset.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(offset)
    }
}

extension PageRequest: Codable {
    private enum CodingKeys: String, CodingKey { case page, list }

    /// Decodes the page and the list's load.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(page: try container.decode(Int.self, forKey: .page), list: try container.decodeIfPresent(LoadID.self, forKey: .list))
    }

    /// Encodes the page and the list's load.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(page, forKey: .page)
        try container.encodeIfPresent(list, forKey: .list)
    }
}

extension LoadRetry: Codable where Failure: Codable {
    private enum CodingKeys: String, CodingKey { case attempt, attempts, failure, wait }

    /// Decodes the four fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            attempt: try container.decode(Int.self, forKey: .attempt), of: try container.decode(Int.self, forKey: .attempts),
            failure: try container.decode(Failure.self, forKey: .failure), wait: try container.decode(Duration.self, forKey: .wait))
    }

    /// Encodes the four fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attempt, forKey: .attempt)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(failure, forKey: .failure)
        try container.encode(wait, forKey: .wait)
    }
}

extension LoadAction: Codable where Value: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey { case `case`, id, value, failure, retry, attempts, request, instant, action }

    private enum Case: String, Codable { case started, finished, failed, cancelled, retrying, progress, planned, queued, more, at, edit }

    /// Decodes an action written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = { try container.decode(LoadID.self, forKey: .id) }
        switch try container.decode(Case.self, forKey: .case) {
        case .started: self = .started(try id())
        case .finished: self = .finished(try id(), try container.decode(Value.self, forKey: .value))
        case .failed: self = .failed(try id(), try container.decode(Failure.self, forKey: .failure))
        case .cancelled: self = .cancelled(try id())
        case .retrying: self = .retrying(try id(), try container.decode(LoadRetry<Failure>.self, forKey: .retry))
        case .progress: self = .progress(try id(), try container.decode(Value.self, forKey: .value))
        case .planned: self = .planned(try id(), attempts: try container.decode(Int.self, forKey: .attempts))
        case .queued: self = .queued(try id())
        case .more:
            self = .more(try container.decode(PageRequest.self, forKey: .request), try container.decode(LoadAction.self, forKey: .action))
        case .at:
            self = .at(
                try container.decode(LoadClock.Instant.self, forKey: .instant), try container.decode(LoadAction.self, forKey: .action))
        case .edit: self = .edit(try container.decode(EditAction<Value, Failure>.self, forKey: .action))
        }
    }

    /// Encodes the case and its payload; throws for an ``edit(_:)`` whose
    /// `Edit` is not `Encodable`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .started(let id):
            try container.encode(Case.started, forKey: .case)
            try container.encode(id, forKey: .id)
        case .finished(let id, let value):
            try container.encode(Case.finished, forKey: .case)
            try container.encode(id, forKey: .id)
            try container.encode(value, forKey: .value)
        case .failed(let id, let failure):
            try container.encode(Case.failed, forKey: .case)
            try container.encode(id, forKey: .id)
            try container.encode(failure, forKey: .failure)
        case .cancelled(let id):
            try container.encode(Case.cancelled, forKey: .case)
            try container.encode(id, forKey: .id)
        case .retrying(let id, let retry):
            try container.encode(Case.retrying, forKey: .case)
            try container.encode(id, forKey: .id)
            try container.encode(retry, forKey: .retry)
        case .progress(let id, let value):
            try container.encode(Case.progress, forKey: .case)
            try container.encode(id, forKey: .id)
            try container.encode(value, forKey: .value)
        case .planned(let id, let attempts):
            try container.encode(Case.planned, forKey: .case)
            try container.encode(id, forKey: .id)
            try container.encode(attempts, forKey: .attempts)
        case .queued(let id):
            try container.encode(Case.queued, forKey: .case)
            try container.encode(id, forKey: .id)
        case .more(let request, let action):
            try container.encode(Case.more, forKey: .case)
            try container.encode(request, forKey: .request)
            try container.encode(action, forKey: .action)
        case .at(let instant, let action):
            try container.encode(Case.at, forKey: .case)
            try container.encode(instant, forKey: .instant)
            try container.encode(action, forKey: .action)
        case .edit(let edit):
            try container.encode(Case.edit, forKey: .case)
            try container.encode(edit, forKey: .action)
        }
    }
}

extension CodingUserInfoKey {
    /// Where a decoder finds the edit types an ``AnyEdit`` may hold, by name:
    /// set by a recording file's reader from the types it is given.
    public static let asyncStateEditTypes = CodingUserInfoKey(rawValue: "AsyncState.editTypes")!
}

/// The edit types a decoder may meet, by their full names — what
/// `CodingUserInfoKey.asyncStateEditTypes` holds.
///
/// A `private` or local type is named with `(private)` in place of its
/// context, whose address changes with every run of a program. So two such
/// types that agree on their module, the types around them and their name
/// — in two files, or local to two functions — cannot be told apart in a
/// recording: given both, a reader refuses an edit of that name, saying so;
/// given one, it reads the edit as that one. Give each edit type of a
/// feature a name of its own.
public struct EditTypes: Sendable {
    let decoders: [String: @Sendable (any Decoder) throws -> Any]
    /// Names that more than one of the types given have.
    let ambiguousNames: Set<String>

    /// The types of `edits`, each `Decodable`.
    public init(_ edits: [any (Decodable & Sendable).Type]) {
        var decoders: [String: @Sendable (any Decoder) throws -> Any] = [:]
        var types: [String: ObjectIdentifier] = [:]
        var ambiguousNames: Set<String> = []
        for type in edits {
            let name = RecordedTypeName.of(type)
            if let other = types.updateValue(ObjectIdentifier(type), forKey: name), other != ObjectIdentifier(type) {
                ambiguousNames.insert(name)
            }
            decoders[name] = { try type.init(from: $0) }
        }
        self.decoders = decoders
        self.ambiguousNames = ambiguousNames
    }
}

extension AnyEdit: Codable {
    private enum CodingKeys: String, CodingKey { case type, edit }

    /// Encodes the edit with its type's name, when its type is `Encodable`;
    /// throws otherwise.
    public func encode(to encoder: any Encoder) throws {
        guard let encodable = base as? any Encodable else {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "\(type(of: base)) is not Encodable, so this edit has no JSON form"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(RecordedTypeName.of(type(of: base)), forKey: .type)
        try encodable.encode(to: container.superEncoder(forKey: .edit))
    }

    /// Decodes an edit of one of the types the decoder's
    /// `CodingUserInfoKey.asyncStateEditTypes` names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = RecordedTypeName.normalized(try container.decode(String.self, forKey: .type))
        let types = decoder.userInfo[.asyncStateEditTypes] as? EditTypes
        if let types, types.ambiguousNames.contains(name) {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription:
                    "more than one of the edit types the reader was given is named \(name) (private or local types); give one another name"
            )
        }
        guard let decode = types?.decoders[name] else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "the edit type \(name) is not among the edit types the reader was given")
        }
        guard let edit = try decode(try container.superDecoder(forKey: .edit)) as? any Edit<Value> else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "\(name) is not an edit of \(Value.self)")
        }
        self.init(edit)
    }
}

extension EditAction: Codable where Failure: Codable {
    private enum CodingKeys: String, CodingKey { case `case`, id, edit, failure, retry }
    private enum Case: String, Codable { case started, confirmed, failed, cancelled, retrying }

    /// Decodes an edit action written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(LoadID.self, forKey: .id)
        switch try container.decode(Case.self, forKey: .case) {
        case .started: self = .started(id, try container.decode(AnyEdit<Value>.self, forKey: .edit))
        case .confirmed: self = .confirmed(id)
        case .failed: self = .failed(id, try container.decode(Failure.self, forKey: .failure))
        case .cancelled: self = .cancelled(id)
        case .retrying: self = .retrying(id, try container.decode(LoadRetry<Failure>.self, forKey: .retry))
        }
    }

    /// Encodes the case and its payload.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        switch self {
        case .started(_, let edit):
            try container.encode(Case.started, forKey: .case)
            try container.encode(edit, forKey: .edit)
        case .confirmed: try container.encode(Case.confirmed, forKey: .case)
        case .failed(_, let failure):
            try container.encode(Case.failed, forKey: .case)
            try container.encode(failure, forKey: .failure)
        case .cancelled: try container.encode(Case.cancelled, forKey: .case)
        case .retrying(_, let retry):
            try container.encode(Case.retrying, forKey: .case)
            try container.encode(retry, forKey: .retry)
        }
    }
}

extension CacheAction: Codable where Key: Codable, Value: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey { case `case`, key, at, action, token }
    private enum Case: String, Codable { case subscribe, unsubscribe, prefetch, entry, invalidate, refetchStale, refetch, collect }

    /// Decodes a cache action written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let key = { try container.decode(Key.self, forKey: .key) }
        let instant = { try container.decode(LoadClock.Instant.self, forKey: .at) }
        switch try container.decode(Case.self, forKey: .case) {
        case .subscribe: self = .subscribe(try key(), at: try instant())
        case .unsubscribe: self = .unsubscribe(try key())
        case .prefetch: self = .prefetch(try key(), at: try instant())
        case .entry: self = .entry(try key(), try container.decode(LoadAction<Value, Failure>.self, forKey: .action))
        case .invalidate: self = .invalidate(try key())
        case .refetchStale: self = .refetchStale(at: try instant())
        case .refetch: self = .refetch(try key())
        case .collect: self = .collect(try key(), token: try container.decode(UInt64.self, forKey: .token))
        }
    }

    /// Encodes the case and its payload; throws for ``invalidateAll(where:)``,
    /// whose predicate is a closure.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .subscribe(let key, let instant):
            try container.encode(Case.subscribe, forKey: .case)
            try container.encode(key, forKey: .key)
            try container.encode(instant, forKey: .at)
        case .prefetch(let key, let instant):
            try container.encode(Case.prefetch, forKey: .case)
            try container.encode(key, forKey: .key)
            try container.encode(instant, forKey: .at)
        case .unsubscribe(let key):
            try container.encode(Case.unsubscribe, forKey: .case)
            try container.encode(key, forKey: .key)
        case .entry(let key, let action):
            try container.encode(Case.entry, forKey: .case)
            try container.encode(key, forKey: .key)
            try container.encode(action, forKey: .action)
        case .invalidate(let key):
            try container.encode(Case.invalidate, forKey: .case)
            try container.encode(key, forKey: .key)
        case .invalidateAll:
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "invalidateAll(where:) holds a closure, which has no JSON form"))
        case .refetchStale(let instant):
            try container.encode(Case.refetchStale, forKey: .case)
            try container.encode(instant, forKey: .at)
        case .refetch(let key):
            try container.encode(Case.refetch, forKey: .case)
            try container.encode(key, forKey: .key)
        case .collect(let key, let token):
            try container.encode(Case.collect, forKey: .case)
            try container.encode(key, forKey: .key)
            try container.encode(token, forKey: .token)
        }
    }
}
