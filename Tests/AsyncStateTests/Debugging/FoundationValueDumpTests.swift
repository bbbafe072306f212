import AsyncState
import Foundation
import Testing

/// Foundation's values as a dump, a diff and a recording see them, from an
/// outside reading: a `UUID` printed as `UUID()` whatever its value, and a
/// `Data` printed as its count and its buffer's address.
@Suite("Dumping Foundation's values")
struct FoundationValueDumpTests {
    struct Row: Equatable {
        var id: UUID
        var blob = Data()
    }

    static let first = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let second = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    @Test("a UUID prints its value, so a changed ID shows")
    func uuid() {
        #expect(String(dumping: Self.first) == "UUID(E621E1F8-C36C-495A-93FC-0C247A3E6E5F)")
        #expect(String(dumping: Row(id: Self.first)) != String(dumping: Row(id: Self.second)))
    }

    @Test("Data prints its bytes, never an address, and two copies print alike")
    func smallData() {
        let data = Data([1, 2, 3])
        let text = String(dumping: Row(id: Self.first, blob: data))
        #expect(text.contains("Data([1, 2, 3])"), "\(text)")
        #expect(!text.contains("0x") && !text.contains("pointer"), "\(text)")
        #expect(String(dumping: data) == String(dumping: Data(Array(data))))
    }

    @Test("long Data prints its count and a digest of its bytes: a change of content shows")
    func longData() {
        let bytes = [UInt8](repeating: 7, count: 100)
        var changed = bytes
        changed[50] = 8
        #expect(String(dumping: Data(bytes)) == String(dumping: Data(bytes)))
        #expect(String(dumping: Data(bytes)) != String(dumping: Data(changed)))
        #expect(String(dumping: Data(bytes)).hasPrefix("Data(100 elements, digest "))
    }

    @Test("a megabyte of Data is digested byte by byte, and a changed byte shows")
    func megabyte() {
        var data = Data(count: 1_000_000)
        let before = String(dumping: data)
        data[999_999] = 1
        #expect(before.hasPrefix("Data(1000000 elements, digest "))
        #expect(String(dumping: data) != before)
    }

    @Test("Data of 64 bytes prints them all; a digest is only past 64")
    func sixtyFourBytes() {
        let bytes = (0..<64).map(UInt8.init)
        #expect(String(dumping: Data(bytes)) == "Data([" + bytes.map(String.init).joined(separator: ", ") + "])")
        #expect(String(dumping: Data(bytes + [64])).hasPrefix("Data(65 elements, digest "))
    }
}
