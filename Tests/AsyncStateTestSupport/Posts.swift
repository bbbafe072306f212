import AsyncState

/// A row of a paged feed.
package struct Post: Equatable, Sendable, CustomStringConvertible {
    package var id: Int
    package var isLiked = false

    package init(id: Int, isLiked: Bool = false) {
        self.id = id
        self.isLiked = isLiked
    }

    package var description: String { "\(id)\(isLiked ? "♥" : "")" }
}

/// Sets whether a post is liked: applying it twice is still right.
package struct SetLiked: Edit {
    package var postID: Int
    package var liked: Bool

    package init(postID: Int, liked: Bool) {
        self.postID = postID
        self.liked = liked
    }

    package func apply(to posts: inout Pages<Post, Int>) -> Bool {
        guard let index = posts.firstIndex(where: { $0.id == postID }) else { return false }
        posts[index].isLiked = liked
        return true
    }
}

/// A page of posts `ids`, whose next page is at `next`.
package func page(_ ids: ClosedRange<Int>, next: Int?) -> Pages<Post, Int> {
    Pages(ids.map { Post(id: $0) }, next: next)
}
