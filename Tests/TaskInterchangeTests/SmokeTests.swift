import Testing
@testable import TaskInterchange

@Test func quoteDoublesQuotes() {
    #expect(Database.quote("a\"b") == "\"a\"\"b\"")
}
