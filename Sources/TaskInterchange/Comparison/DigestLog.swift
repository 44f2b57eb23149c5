/// The fingerprints (`RecordDigest`) of the records one side of a verification delivered, gathered as they stream
/// past (a migration's export, on its reading thread, as its import takes it), so the verification can read only the
/// other side: each of its records is looked up here by kind and id and compared by fingerprint. Used from one thread
/// at a time: the reading thread until its read has ended, then the verification.
///
/// Under a model change (`readThrough`), generic records are fingerprinted as the target's version holds them, so the
/// other side, a store of that version, is compared with what the import was to write.
final class DigestLog {
    /// The header the records came with.
    private(set) var header: ArchiveHeader?
    private var entries: [Entry] = []
    private var entityNumbers: [String: Int32] = [:]
    private var sorted = true
    /// Set when one record arrived twice with different fingerprints: the log cannot stand for that side.
    private(set) var conflicting = false
    private var buffer: [UInt8] = []
    /// The kinds whose records were all delivered (a read ran to its end).
    private var covered: Set<RecordKind> = []
    /// The model change generic records are fingerprinted through, and what it dropped and filled on the way.
    private(set) var change: ModelChange?
    private(set) var tally = VersionMapping.Tally()
    /// Target entity → its unordered to-many relationships, whose ids a store reads in id order: the change keeps
    /// the order an ordered one had in the file.
    private var unordered: [String: [String]] = [:]
    /// The reads that fed the log since it was last emptied: the tally counts one read's records only when it is 1.
    private(set) var reads = 0

    /// True when every record of the side went through the log.
    var isComplete: Bool { covered.isSuperset(of: RecordKind.sections) }

    /// Notes that a read delivered every record of `kinds`.
    func cover(_ kinds: Set<RecordKind>) { covered.formUnion(kinds) }

    /// One record: where it sorts (its kind, its entity's number, its id) and its fingerprint.
    struct Entry {
        let kind: UInt8
        let entity: Int32
        let id: GraphKey
        let digest: RecordDigest

        func precedes(_ other: Entry) -> Bool {
            if kind != other.kind { return kind < other.kind }
            if entity != other.entity { return entity < other.entity }
            return id < other.id
        }

        func sameRecord(as other: Entry) -> Bool {
            kind == other.kind && entity == other.entity && id == other.id
        }
    }

    /// How many distinct records the log holds.
    var count: Int {
        settle()
        return entries.count
    }

    /// Notes the start of a read, with the header its records come with.
    func beginRead(_ header: ArchiveHeader) {
        if self.header == nil { self.header = header }
        reads += 1
    }

    /// Empties the log: the records read from now on are fingerprinted through `change` (records read before were
    /// taken as the archive holds them).
    func readThrough(_ change: ModelChange) {
        (entries, entityNumbers, sorted, covered, tally, reads) = ([], [:], true, [], VersionMapping.Tally(), 0)
        conflicting = false
        self.change = change
        unordered = change.mapping.targetDeclarations.mapValues { declaration in
            declaration.relationships.filter { $0.value.toMany && !$0.value.ordered }.keys.sorted()
        }
    }

    /// Takes `item`'s fingerprint (under a model change, of the record the target's version holds; none when the
    /// change drops it).
    func add(_ item: GraphItem) {
        var item = item
        if let change, case .entity(let record) = item {
            do {
                guard var mapped = try change.apply(record, tally: &tally) else { return }
                for name in unordered[mapped.entity] ?? [] {
                    if case .array(var ids)? = mapped.values[name] {
                        ids.sort()
                        mapped.values[name] = .array(ids)
                    }
                }
                item = .entity(mapped)
            } catch {
                // The import fails on this record itself; the log stands for nothing.
                conflicting = true
                return
            }
        }
        let entry = Entry(
            kind: Self.kindNumber(item), entity: entityNumber(item, adding: true) ?? -1, id: GraphKey(item.id),
            digest: RecordDigest(item, buffer: &buffer))
        if let last = entries.last, !last.precedes(entry) { sorted = false }
        entries.append(entry)
    }

    /// The fingerprint taken of the record of `item`'s kind and id, nil when none was.
    func digest(of item: GraphItem) -> RecordDigest? {
        settle()
        guard let entity = entityNumber(item, adding: false) else { return nil }
        let probe = Entry(kind: Self.kindNumber(item), entity: entity, id: GraphKey(item.id), digest: RecordDigest.none)
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].precedes(probe) { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].sameRecord(as: probe) else { return nil }
        return entries[low].digest
    }

    /// Sorts the entries once (records read again, after a pass that stopped early, arrive twice) and drops the
    /// repeats, noting a repeat that differs.
    private func settle() {
        guard !sorted else { return }
        entries.sort { $0.precedes($1) }
        var kept: [Entry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            if let last = kept.last, last.sameRecord(as: entry) {
                if last.digest != entry.digest { conflicting = true }
                continue
            }
            kept.append(entry)
        }
        entries = kept
        sorted = true
    }

    private func entityNumber(_ item: GraphItem, adding: Bool) -> Int32? {
        guard case .entity(let record) = item else { return -1 }
        if let number = entityNumbers[record.entity] { return number }
        guard adding else { return nil }
        let number = Int32(entityNumbers.count)
        entityNumbers[record.entity] = number
        return number
    }

    private static func kindNumber(_ item: GraphItem) -> UInt8 {
        switch item {
        case .header: return 0
        case .project: return 1
        case .category: return 2
        case .tag: return 3
        case .task: return 4
        case .entity: return 5
        }
    }
}
