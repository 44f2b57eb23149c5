import Foundation
import Testing

@testable import TaskInterchange
@testable import TaskModelTools

/// `ModelDiagram` read back: the Mermaid and DOT texts parsed again give every entity with its attributes and types,
/// every relationship pair once with its cardinality on both ends, every inheritance edge and every join table of the
/// model; with a version before, exactly the changes the model change makes are marked.
@Suite("Model diagrams")
struct ModelDiagramTests {
    /// What a diagram says, whichever format it came in.
    struct Drawn: Equatable {
        /// Entity → its member lines (`Type name [mark]`).
        var boxes: [String: [String]] = [:]
        /// Entity → its annotations (`abstract`, a mark).
        var marks: [String: [String]] = [:]
        /// `From "n" -> "m" To : label`, one per drawn relationship.
        var edges: Set<String> = []
        /// `Parent <- Child`.
        var inheritance: Set<String> = []
    }

    static func parseMermaid(_ text: String) throws -> Drawn {
        var drawn = Drawn()
        var open: String?
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "classDiagram")
        for line in lines.dropFirst() {
            if let box = open {
                if line == "}" {
                    open = nil
                } else if line.hasPrefix("<<") {
                    drawn.marks[box] = line.dropFirst(2).dropLast(2).components(separatedBy: ", ")
                } else {
                    drawn.boxes[box, default: []].append(line)
                }
            } else if line.hasPrefix("class "), line.hasSuffix(" {") {
                open = String(line.dropFirst(6).dropLast(2))
                drawn.boxes[open!] = []
            } else if line.contains(" <|-- ") {
                let parts = line.components(separatedBy: " <|-- ")
                drawn.inheritance.insert("\(parts[0]) <- \(parts[1])")
            } else if let match = line.wholeMatch(of: /(\w+) "([^"]+)" (--|-->) "([^"]+)" (\w+) : (.+)/) {
                drawn.edges.insert("\(match.1) \"\(match.2)\" -> \"\(match.4)\" \(match.5) : \(match.6)")
            } else if line.hasPrefix("style ") || line == "direction LR" {
                continue
            } else {
                Issue.record("unexpected Mermaid line: \(line)")
            }
        }
        return drawn
    }

    static func parseDOT(_ text: String) throws -> Drawn {
        var drawn = Drawn()
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if let node = line.wholeMatch(of: /"(\w+)" \[label="\{(.*)\}"(, style=filled, fillcolor="#\w+")?\];/) {
                let fields = String(node.2).components(separatedBy: "|")
                var title = fields[0].components(separatedBy: "\\n")
                #expect(title.removeFirst() == String(node.1))
                drawn.marks[String(node.1)] = title.map { String($0.dropFirst().dropLast()) }
                drawn.boxes[String(node.1)] = fields[1].components(separatedBy: "\\l").dropLast().map {
                    $0.replacingOccurrences(of: "\\", with: "")
                }
            } else if let edge = line.wholeMatch(
                of: /"(\w+)" -> "(\w+)" \[label="(.+)", taillabel="([^"]+)", headlabel="([^"]+)", arrowhead=\w+\];/)
            {
                drawn.edges.insert("\(edge.1) \"\(edge.4)\" -> \"\(edge.5)\" \(edge.2) : \(edge.3)")
            } else if let inherit = line.wholeMatch(of: /"(\w+)" -> "(\w+)" \[arrowhead=empty, style=dashed\];/) {
                drawn.inheritance.insert("\(inherit.2) <- \(inherit.1)")
            } else if !(line.hasPrefix("digraph") || line == "}" || line.hasPrefix("rankdir") || line.hasPrefix("node ")
                || line.hasPrefix("edge "))
            {
                Issue.record("unexpected DOT line: \(line)")
            }
        }
        return drawn
    }

    /// An edge's ends and the relationship names of its label (`name` or `name / inverse`).
    static func split(_ edge: String) -> ((from: String, fromCount: String, toCount: String, to: String), String)? {
        guard let match = edge.wholeMatch(of: /(\w+) "([^"]+)" -> "([^"]+)" (\w+) : (.+)/) else { return nil }
        let names = String(match.5).components(separatedBy: " [")[0]
        return ((String(match.1), String(match.2), String(match.3), String(match.4)), names)
    }

    /// Checks a drawing against the model it was made from.
    static func check(_ drawn: Drawn, against model: ObjectModel, name: String) {
        #expect(Set(drawn.boxes.keys) == Set(model.entities.map(\.name)), "\(name)")
        var named: [String] = []
        for entity in model.entities {
            let members = Set(drawn.boxes[entity.name] ?? [])
            for attribute in entity.attributes where !attribute.isTransient {
                let line =
                    "\(ModelDiagram.typeName(attribute.type))\(attribute.isOptional ? "?" : "") \(attribute.name)"
                #expect(members.contains(line), "\(name): \(entity.name) lacks \(line)")
            }
            #expect(members.count == entity.attributes.filter { !$0.isTransient }.count, "\(name): \(entity.name)")
            #expect(drawn.marks[entity.name, default: []] == (entity.isAbstract ? ["abstract"] : []))
            if let parent = entity.superentity {
                #expect(drawn.inheritance.contains("\(parent) <- \(entity.name)"), "\(name): \(entity.name)")
            }
            for relationship in entity.relationships where !relationship.isTransient {
                named.append("\(entity.name).\(relationship.name)")
                let to = ModelDiagram.cardinality(relationship)
                let matching = drawn.edges.filter { edge in
                    // `From "n" -> "m" To : name / inverse [notes]`
                    guard let (ends, label) = Self.split(edge) else { return false }
                    let names = label.components(separatedBy: " / ")
                    return
                        (ends.from == entity.name && ends.to == relationship.destination
                        && names[0] == relationship.name
                        && ends.toCount == to)
                        || (ends.to == entity.name && ends.from == relationship.destination && names.count == 2
                            && names[1] == relationship.name && ends.fromCount == to)
                }
                #expect(matching.count == 1, "\(name): \(entity.name).\(relationship.name): \(matching)")
            }
        }
        #expect(drawn.inheritance.count == model.entities.filter { $0.superentity != nil }.count, "\(name)")
        // Each pair once, each relationship without an inverse once.
        let pairs = model.entities.flatMap { entity in
            entity.relationships.filter { !$0.isTransient }.map { relationship -> String in
                let ends =
                    ["\(entity.name).\(relationship.name)"]
                    + (relationship.inverse.map { ["\(relationship.destination).\($0)"] } ?? [])
                return ends.sorted().joined(separator: "|")
            }
        }
        #expect(drawn.edges.count == Set(pairs).count, "\(name)")
        // Every join table a new store would have is named on its edge.
        for table in Set(model.joinTableNames.values) {
            #expect(drawn.edges.contains { $0.contains("[join table \(table)]") }, "\(name): \(table)")
        }
    }

    static var journal: ModelSource {
        get throws {
            try ModelSource(
                path: Fixtures.repository.appendingPathComponent("samples/Journal.xcdatamodeld").path)
        }
    }

    @Test("the sample model's every version, in both formats, reads back as the model")
    func journal() throws {
        for version in try Self.journal.versions {
            let diagram = try ModelDiagram(model: version.model)
            Self.check(try Self.parseMermaid(diagram.text(.mermaid)), against: version.model, name: version.name)
            Self.check(try Self.parseDOT(diagram.text(.dot)), against: version.model, name: version.name)
        }
    }

    @Test(
        "every shared real store's cached model reads back: deep inheritance, reflexive and many-to-many pairs",
        .enabled(
            if: Fixtures.storesAvailable,
            "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
        ))
    func realStores() throws {
        var drawn = 0
        for (name, model) in try Fixtures.realStoreModels() {
            guard let model else { continue }
            let diagram = try ModelDiagram(model: model)
            let mermaid = try Self.parseMermaid(diagram.text(.mermaid))
            Self.check(mermaid, against: model, name: name)
            let dot = try Self.parseDOT(diagram.text(.dot))
            #expect(dot.boxes == mermaid.boxes, "\(name): members")
            #expect(dot.marks.filter { !$0.value.isEmpty } == mermaid.marks.filter { !$0.value.isEmpty }, "\(name)")
            #expect(dot.edges == mermaid.edges, "\(name): \(dot.edges.symmetricDifference(mermaid.edges))")
            #expect(dot.inheritance == mermaid.inheritance, "\(name)")
            drawn += 1
        }
        #expect(drawn >= 10)
    }

    @Test("a model change marks exactly what it adds, removes, renames and converts, in both formats")
    func change() throws {
        let source = try Self.journal
        let diagram = try ModelDiagram(
            model: try source.version(named: "Journal 3").model, previous: try source.version(named: "Journal 1").model)
        for drawn in [try Self.parseMermaid(diagram.text(.mermaid)), try Self.parseDOT(diagram.text(.dot))] {
            let marked = drawn.boxes.flatMap { box in box.value.filter { $0.hasSuffix("]") }.map { "\(box.key): \($0)" }
            }
            #expect(
                Set(marked) == [
                    "Attachment: Binary? data [added]", "Attachment: String fileName [added]",
                    "Entry: String body [renamed from text]", "Entry: Boolean isFavorite [added]",
                    "Entry: String? location [added]", "Entry: Integer32? mood [converted from Integer16]",
                    "Label: String color [removed]",
                ], "\(marked)")
            #expect(drawn.marks.filter { !$0.value.isEmpty } == ["Attachment": ["added"]])
            #expect(
                drawn.edges.filter { $0.hasSuffix("[added]") } == [
                    "Attachment \"*\" -> \"0..1\" Entry : entry / attachments [added]"
                ])
        }
        // Without the version before, nothing is marked.
        let plain = try Self.parseMermaid(
            try ModelDiagram(model: try source.version(named: "Journal 3").model).text(.mermaid))
        #expect(
            !plain.boxes.values.joined().contains { $0.hasSuffix("]") } && plain.marks.allSatisfy { $0.value.isEmpty })
    }

    @Test("a change across several versions follows each step's renames: text → body → content is one rename")
    func chain() throws {
        let source = try Self.journal
        let order = ModelVersionOrder(
            inferring: source.versions.map { ModelVersionOrder.Version(name: $0.name, model: $0.model) })
        let last = try source.version(named: "Journal 4").model
        let first = try source.version(named: "Journal 1").model
        let chained = try Self.parseMermaid(try ModelDiagram(model: last, previous: first, order: order).text(.mermaid))
        #expect(chained.boxes["Entry"]?.contains("String content [renamed from text]") == true, "\(chained.boxes)")
        #expect(chained.boxes["Entry"]?.contains { $0.contains("[removed]") } == false, "\(chained.boxes)")
        // Directly, the two names have nothing in common: a removal and an addition.
        let direct = try Self.parseMermaid(try ModelDiagram(model: last, previous: first).text(.mermaid))
        #expect(direct.boxes["Entry"]?.contains("String content [added]") == true, "\(direct.boxes)")
    }

    @Test("DOT names and labels escape what would end a string or a record field")
    func escaping() {
        #expect(ModelDiagram.record("a|b{c}<d>\"e\\") == "a\\|b\\{c\\}\\<d\\>\\\"e\\\\")
        #expect(ModelDiagram.quoted(ModelDiagram.escaped("say \"hi\"")) == "\"say \\\"hi\\\"\"")
    }

    @Test("cardinality from optionality and counts")
    func cardinality() {
        var relationship = ObjectModel.Relationship("r", to: "D", inverse: nil, toMany: false)
        #expect(ModelDiagram.cardinality(relationship) == "0..1")
        relationship.isOptional = false
        #expect(ModelDiagram.cardinality(relationship) == "1")
        relationship = ObjectModel.Relationship("r", to: "D", inverse: nil, toMany: true)
        #expect(ModelDiagram.cardinality(relationship) == "*")
        relationship.isOptional = false
        relationship.minCount = 2
        relationship.maxCount = 5
        #expect(ModelDiagram.cardinality(relationship) == "2..5")
    }
}
