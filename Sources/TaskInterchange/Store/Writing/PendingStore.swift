import Foundation

/// A new store that is complete in its temporary file but not yet at its path, with its external files staged: a
/// migration verifies it where it is and only then places it, so no process can open a store that turns out not to
/// hold what the legacy store held. Dropped unplaced, it leaves nothing behind.
final class PendingStore {
    /// Where the import hands the store over (see ``StoreImportOptions/pendingStore``). Filled and read on the
    /// thread that runs the import, one after the other.
    final class Slot: @unchecked Sendable {
        var store: PendingStore?
        init() {}
    }

    /// The path the store appears at when placed.
    let path: String
    private let temporary: TemporaryFile
    private let external: ExternalDataWriter?
    private var placed = false

    init(_ temporary: TemporaryFile, external: ExternalDataWriter?, path: String) {
        self.temporary = temporary
        self.external = external
        self.path = path
    }

    deinit {
        // Unplaced, the temporary file removes itself and the writer its staged files; placed, what it placed stays.
        if placed { external?.keep() } else { external?.discard() }
    }

    /// The store's file until it is placed; nobody else has it open, so it can be read where it is.
    var temporaryPath: String { temporary.path }

    /// The store's external files as they will be once placed.
    var externalData: ExternalData { external?.stagedData ?? ExternalData(store: path) }

    /// Flushes the store to disk and moves it to `path`, which must still be free. External files go under their
    /// names first: a store is never placed without the files it points to.
    /// - Throws: `.cannotCreate` when something appeared at `path` meanwhile; nothing is placed then.
    func place() throws(TaskInterchangeError) {
        try temporary.synchronize(naming: path)
        do {
            try external?.place()
            try temporary.place(at: path, replacing: false)
        } catch {
            external?.discard()
            throw error
        }
        placed = true
    }

    /// Removes a placed store again, with its sidecars and external files (a migration stopped after placing it).
    func withdraw() {
        guard placed else { return }
        DatabaseFiles.remove(path)
        external?.discard()
    }
}
