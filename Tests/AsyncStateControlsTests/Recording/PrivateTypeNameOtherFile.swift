import AsyncState

/// A second `private` edit type named `Liked`, in a file of its own, for
/// `PrivateTypeNameTests.ambiguousEdit`.
private struct Liked: Edit, Codable {
    func apply(to rows: inout [Int]) -> Bool { false }
}

/// This file's `Liked`, for a test in another file.
let otherFilesLiked: any (Decodable & Sendable).Type = Liked.self
