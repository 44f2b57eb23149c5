import Foundation

/// The generic `entities` section (after the tasks, before the counts) and its declarations in `source.model`.
extension ArchiveWriter {
    /// Writes a record of an entity no kind reads. Records come grouped by entity, entity names in ascending order
    /// (in a document they form `"entities": {"Car": [...], "Person": [...]}`); each NDJSON line names its entity.
    /// Version 1 has no place for them: they are counted in `droppedFields["entities"]`.
    ///
    /// - Throws: `ArchiveWritingError.outOfOrder` (before `begin(header:)`, after `finish()`, or an entity whose name
    ///   sorts before the previous one's), or the sink's error.
    public mutating func write(entity record: EntityRecord) throws {
        if tableGroup != nil {
            throw ArchiveWritingError.outOfOrder("entity \(record.entity) cannot follow the tables section")
        }
        if entityGroup == nil {
            try enterSection(.task)
        } else if stage == .finished {
            throw ArchiveWritingError.outOfOrder("no records can be written after finish()")
        }
        guard options.formatVersion == 2 else {
            droppedFields["entities", default: 0] += 1
            return
        }
        if entityGroup == nil && options.layout != .ndjson {
            if sectionIsOpen { close() }
            sectionIsOpen = false
            key("entities")
            openObject(breaksLines: true)
        }
        if entityGroup != record.entity {
            if let current = entityGroup {
                guard current < record.entity else {
                    throw ArchiveWritingError.outOfOrder(
                        "entity \(record.entity) cannot follow \(current): "
                            + "the entities section is written one entity at a time, "
                            + "names in ascending order"
                    )
                }
                if options.layout != .ndjson { close() }
            }
            if options.layout != .ndjson {
                key(dynamic: record.entity)
                openArray(breaksLines: true)
            }
            entityGroup = record.entity
        }
        counts.entities += 1
        beginRecord(type: "\"entity\"")
        if options.layout == .ndjson {
            key("entity")
            output.appendString(record.entity)
        }
        key("id")
        appendUUID(record.id)
        if let sourceKey = record.key {
            key("key")
            output.appendInteger(Int(sourceKey))
        }
        key("values")
        try writeValues(record.values)
        if !record.positions.isEmpty {
            key("positions")
            openObject(breaksLines: false)
            for name in record.positions.keys.sorted() {
                key(dynamic: name)
                openArray(breaksLines: false)
                for position in record.positions[name]! {
                    element()
                    output.appendInteger(Int(position))
                }
                close()
            }
            close()
        }
        if !record.external.isEmpty {
            key("external")
            openObject(breaksLines: false)
            for name in record.external.keys.sorted() {
                key(dynamic: name)
                output.appendString(record.external[name]!)
            }
            close()
        }
        if !record.dangling.isEmpty {
            key("dangling")
            openObject(breaksLines: false)
            for name in record.dangling.keys.sorted() {
                let dangling = record.dangling[name]!
                key(dynamic: name)
                openObject(breaksLines: false)
                key("key")
                output.appendInteger(Int(dangling.key))
                if let entity = dangling.entity {
                    key("entity")
                    output.appendString(entity)
                }
                close()
            }
            close()
        }
        close()
        if options.layout == .ndjson { output.appendByte(UInt8(ascii: "\n")) }
        try output.flushIfNeeded()
    }

    /// Closes the generic section before the counts, when one was opened.
    mutating func closeEntities() {
        guard entityGroup != nil, options.layout != .ndjson else { return }
        close()
        close()
    }

    /// `source.model`: entity → `{superentity?, abstract?, attributes, externalStorage?, relationships}`, names sorted.
    mutating func writeModel(_ model: [String: EntityDeclaration]) {
        key("model")
        openObject(breaksLines: false)
        for (entity, declaration) in model.sorted(by: { $0.key < $1.key }) {
            key(dynamic: entity)
            openObject(breaksLines: false)
            if let superentity = declaration.superentity {
                key("superentity")
                output.appendString(superentity)
            }
            if declaration.isAbstract {
                key("abstract")
                output.appendBool(true)
            }
            key("attributes")
            openObject(breaksLines: false)
            for (name, type) in declaration.attributes.sorted(by: { $0.key < $1.key }) {
                key(dynamic: name)
                output.appendString(type)
            }
            close()
            if !declaration.externalStorage.isEmpty {
                key("externalStorage")
                openArray(breaksLines: false)
                for name in declaration.externalStorage.sorted() {
                    element()
                    output.appendString(name)
                }
                close()
            }
            key("relationships")
            openObject(breaksLines: false)
            for (name, relationship) in declaration.relationships.sorted(by: { $0.key < $1.key }) {
                key(dynamic: name)
                writeDeclaration(
                    destination: relationship.destination, toMany: relationship.toMany, ordered: relationship.ordered,
                    inverse: relationship.inverse)
            }
            close()
            close()
        }
        close()
    }
}
