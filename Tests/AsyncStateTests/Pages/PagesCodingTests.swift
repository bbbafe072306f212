import AsyncState
import Foundation
import Testing

/// `Pages` in a recording file: written and read back as it was, and refused
/// when its parts disagree — a file may say anything, and a list whose page
/// ends run past its elements trapped at its next "load more".
@Suite("Pages: encoded, decoded, and refused when its parts disagree")
struct PagesCodingTests {
    static func decode(_ json: String) throws -> Pages<Int, Int> {
        try JSONDecoder().decode(Pages<Int, Int>.self, from: Data(json.utf8))
    }

    @Test("a list reads back as it was written, the last page's missing cursor included")
    func roundTrip() throws {
        for pages in [Pages([1, 2], next: 2), Pages([3], next: nil), Pages<Int, Int>()] {
            let data = try JSONEncoder().encode(pages)
            #expect(try JSONDecoder().decode(Pages<Int, Int>.self, from: data) == pages)
        }
    }

    @Test("empty pages, and a window that let the first pages go, read as written")
    func unusualButValid() throws {
        let pages = try Self.decode(#"{"_elements":[],"_pageEnds":[0,0],"_firstPage":3,"next":4}"#)
        #expect(pages.isEmpty && pages.pageCount == 2 && pages.nextPage == 5 && pages.next == 4)
    }

    @Test("page numbers up to half of Int.max read, so the list can grow by as many pages again")
    func highestFirstPage() throws {
        var pages = try Self.decode(#"{"_elements":[1],"_pageEnds":[1],"_firstPage":4611686018427387902,"next":2}"#)
        #expect(pages.nextPage == Int.max / 2)
        pages.append(Pages([2], next: 3))
        #expect(pages.nextPage == Int.max / 2 + 1)
    }

    @Test(
        "parts that disagree are a decoding error, not a list that traps later",
        arguments: [
            #"{"_elements":[1,2],"_pageEnds":[50],"_firstPage":1}"#,
            #"{"_elements":[1,2],"_pageEnds":[1],"_firstPage":1}"#,
            #"{"_elements":[1,2],"_pageEnds":[2,1,2],"_firstPage":1}"#,
            #"{"_elements":[1,2],"_pageEnds":[-1,2],"_firstPage":1}"#,
            #"{"_elements":[1],"_pageEnds":[],"_firstPage":1}"#,
            #"{"_elements":[1],"_pageEnds":[1],"_firstPage":0}"#,
            #"{"_elements":[1],"_pageEnds":[1],"_firstPage":9223372036854775807}"#,
            // From an outside reading: a list whose next page fits, but not the
            // one after (it trapped at the "load more" after the next).
            #"{"_elements":[1],"_pageEnds":[1],"_firstPage":9223372036854775806}"#,
            #"{"_elements":[1],"_pageEnds":[1],"_firstPage":4611686018427387903}"#,
        ])
    func refused(json: String) {
        #expect(throws: DecodingError.self) { try Self.decode(json) }
    }
}
