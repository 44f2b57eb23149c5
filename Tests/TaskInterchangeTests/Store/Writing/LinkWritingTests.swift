import Testing
@testable import TaskInterchange

@Suite("Link writing")
struct LinkWritingTests {
    @Test("links written from the other side of a pair are numbered 0, 1, 2, … per object")
    func inverseIndexes() {
        var links = LinkWriting()
        #expect(links.nextInverseIndex(of: "Folder.notes.1") == 0)
        #expect(links.nextInverseIndex(of: "Folder.notes.1") == 1)
        #expect(links.nextInverseIndex(of: "Folder.notes.2") == 0)
        #expect(links.nextInverseIndex(of: "Folder.notes.1") == 2)
        #expect(StoredPositions.fresh(at: links.nextInverseIndex(of: "Folder.notes.2")) == StoredPositions.fresh(at: 1))
    }

}
