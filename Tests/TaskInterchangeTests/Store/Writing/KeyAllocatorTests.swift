import Testing
@testable import TaskInterchange

@Suite("Key allocator")
struct KeyAllocatorTests {
    @Test("a table starts above what the store had and counts up; Z_MAX gets the last key of each table")
    func startAndTake() throws {
        var keys = KeyAllocator()
        #expect(try keys.take(in: "ZTASK") == nil)
        #expect(!keys.hasStarted("ZTASK"))
        #expect(try keys.start("ZTASK", after: 41) == 42)
        #expect(try keys.take(in: "ZTASK") == 43)
        #expect(try keys.start("ZTAG", after: 0) == 1)
        #expect(keys.hasStarted("ZTASK") && keys.hasStarted("ZTAG"))
        let last = keys.finish()
        #expect(last.map(\.table) == ["ZTAG", "ZTASK"] && last.map(\.last) == [1, 43])
        #expect(keys.finish().isEmpty && !keys.hasStarted("ZTASK"))
    }

    @Test("kept keys push the next key above them, in any order")
    func kept() throws {
        var keys = KeyAllocator()
        try keys.useKept(7, in: "ZTASK")
        try keys.useKept(3, in: "ZTASK")
        #expect(try keys.take(in: "ZTASK") == 8)
        #expect(keys.finish().map(\.last) == [8])
    }

    @Test("a key taken to learn where new keys begin is given back")
    func giveBack() throws {
        var keys = KeyAllocator()
        let next = try keys.start("ZTASK", after: 9)
        keys.giveBack(next, in: "ZTASK")
        #expect(keys.peek("ZTASK") == 10)
        #expect(try keys.take(in: "ZTASK") == 10)
        keys.giveBack(nil, in: "ZTAG")
        #expect(!keys.hasStarted("ZTAG"))
    }

    @Test("SQLite's largest key leaves none to hand out")
    func exhausted() throws {
        var keys = KeyAllocator()
        #expect(throws: TaskInterchangeError.self) { try keys.start("ZTASK", after: .max) }
        #expect(throws: TaskInterchangeError.self) { try keys.useKept(.max, in: "ZTASK") }
        #expect(try keys.start("ZTAG", after: .max - 2) == .max - 1)
        #expect(throws: TaskInterchangeError.self) { try keys.take(in: "ZTAG") }
    }
}
