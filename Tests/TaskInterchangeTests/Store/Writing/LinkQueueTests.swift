import Testing
@testable import TaskInterchange

@Suite("Link queue")
struct LinkQueueTests {
    @Test("links come back in the join table's key order, tag then task, and the queue empties")
    func order() {
        var queue = LinkQueue()
        #expect(queue.isEmpty)
        queue.add(task: 5, tags: [2, 1])
        queue.add(task: 3, tags: [2])
        queue.add(task: 4, tags: [])
        #expect(queue.count == 3)
        var links: [[Int64]] = []
        queue.drain { links.append([$0, $1]) }
        #expect(links == [[5, 1], [3, 2], [5, 2]])
        #expect(queue.isEmpty)
        queue.drain { _, _ in Issue.record("an empty queue hands nothing on") }
    }

    @Test("a failure drops what is queued; removeAll forgets it")
    func failure() {
        struct Stop: Error {}
        var queue = LinkQueue()
        queue.add(task: 1, tags: [1, 2, 3])
        #expect(throws: Stop.self) { try queue.drain { _, tag in if tag == 2 { throw Stop() } } }
        #expect(queue.isEmpty && queue.count == 0)
        queue.add(task: 1, tags: [1])
        queue.removeAll()
        #expect(queue.isEmpty)
    }
}
