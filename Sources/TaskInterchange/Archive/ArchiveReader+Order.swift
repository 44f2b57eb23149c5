extension ArchiveReader {
    /// Whether `bytes` is a document that lists its projects, categories and tags before its tasks, generic records
    /// and tables, as every export is written: one read then hands an importer the records that are referenced before
    /// those that reference them. Only the members ahead of the first of those sections are read (the small ones
    /// skipped); anything else — NDJSON, another order, a version 1 document without categories, input that cannot be
    /// read that far — is false, and an importer reads it in two passes.
    static func listsReferencedSectionsFirst(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = JSONScanner(bytes)
        do {
            try scanner.beginDocument()
            guard try scanner.peekKind() == .object else { return false }
            try scanner.beginObject()
            var seen: UInt8 = 0
            while try scanner.nextMember() {
                let key = try scanner.readKey()
                if key.equals("projects") {
                    seen |= 1
                } else if key.equals("categories") {
                    seen |= 2
                } else if key.equals("tags") {
                    seen |= 4
                } else if key.equals("tasks") || key.equals("entities") || key.equals("tables") {
                    return seen == 7
                } else if key.equals("type") {
                    // An NDJSON line, read record by record in any order.
                    return false
                }
                try scanner.skipValue()
            }
        } catch {
            // Input that cannot be read this far is read, and reported, by the passes.
        }
        return false
    }
}
