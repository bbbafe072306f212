// `Codable` for the kit's actions and what they carry, so a feature whose
// own actions are `Codable` can write recordings (`AsyncStateControls`'
// `jsonLines()`). An edit has no JSON form — it carries an `Edit`, whose
// type the decoder could not know — so encoding `.edit` throws.

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
    /// Decodes the offset.
    public init(from decoder: any Decoder) throws {
        self.init(offset: try decoder.singleValueContainer().decode(Duration.self))
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
        case .edit:
            throw DecodingError.dataCorruptedError(
                forKey: .case, in: container, debugDescription: "an edit has no JSON form: its Edit type cannot be known")
        }
    }

    /// Encodes the case and its payload; throws for ``edit(_:)``, which
    /// carries an `Edit` with no JSON form.
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
        case .edit:
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "an edit has no JSON form: its Edit type cannot be known"))
        }
    }
}
