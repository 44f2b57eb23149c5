/// Validation beside an import: the importer's validator sees what its passes see, through the source's checker
/// (`ArchiveSource.stream(kinds:into:checking:)`), so a source that parses on a thread of its own validates there
/// while the import writes.
extension Importer {
    /// Feeds `validator` every record and issue of the import's passes, as a validation of the whole archive would
    /// see them, with what the import settles: the kinds it leaves unloaded (their references are not missing), and
    /// forward references resolved at the end of the last pass only.
    struct Validation: ArchiveVisitor {
        let importer: Importer
        var validator: Validator
        /// The passes before the last leave references to later kinds open.
        var isLastPass = false
        private var kindsSettled = false

        init(importer: Importer, validator: Validator) {
            self.importer = importer
            self.validator = validator
        }

        mutating func visitHeader(_ header: ArchiveHeader) {
            validator.visitHeader(header)
            guard !kindsSettled else { return }
            kindsSettled = true
            // The importer refuses the names that throw here, with the same message.
            if let loaded = try? importer.loadedKinds(by: header) {
                validator.unloaded = Set(StoreMapping.Kind.allCases).subtracting(loaded)
            }
        }

        mutating func visitProject(_ project: ProjectRecord, index: Int) {
            validator.visitProject(project, index: index)
        }

        mutating func visitCategory(_ category: CategoryRecord, index: Int) {
            validator.visitCategory(category, index: index)
        }

        mutating func visitTag(_ tag: TagRecord, index: Int) { validator.visitTag(tag, index: index) }

        mutating func visitTask(_ task: TaskRecord, index: Int) { validator.visitTask(task, index: index) }

        mutating func visitEntity(_ record: EntityRecord, index: Int) { validator.visitEntity(record, index: index) }

        /// The import checks a raw table itself, as it writes it.
        mutating func visitTable(_ table: RawTable, index: Int) {}

        /// An error stops the import, which says so itself; the rest go into the report.
        mutating func visitIssue(_ issue: ValidationIssue) {
            if issue.severity != .error { validator.visitIssue(issue) }
        }

        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {
            if isLastPass { validator.visitEnd(header: header, counts: counts) }
        }
    }
}
