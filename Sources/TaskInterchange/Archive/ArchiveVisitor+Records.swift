/// A record of a kind with a section, handed to a visitor's method for its kind.
protocol SectionRecord: TypedRecord {
    /// Calls the visitor's method for this record's kind.
    func deliver(to visitor: inout some ArchiveVisitor, index: Int) throws
}

extension ProjectRecord: SectionRecord {
    func deliver(to visitor: inout some ArchiveVisitor, index: Int) throws {
        try visitor.visitProject(self, index: index)
    }
}

extension CategoryRecord: SectionRecord {
    func deliver(to visitor: inout some ArchiveVisitor, index: Int) throws {
        try visitor.visitCategory(self, index: index)
    }
}

extension TagRecord: SectionRecord {
    func deliver(to visitor: inout some ArchiveVisitor, index: Int) throws { try visitor.visitTag(self, index: index) }
}

extension TaskRecord: SectionRecord {
    func deliver(to visitor: inout some ArchiveVisitor, index: Int) throws { try visitor.visitTask(self, index: index) }
}
