import Foundation
import Testing
@testable import TaskInterchange
@testable import TaskModelTools

/// `ModelLint` on the Ledger test model, which has one of each finding.
@Suite("Model lint")
struct ModelLintTests {
    static func ledger() throws -> ObjectModel {
        let path = SwiftDataGeneratorTests.fixtures.appendingPathComponent("models/Ledger.xcdatamodeld").path
        return try ModelSource(path: path).version(named: nil).model
    }

    static func places(_ findings: [ModelLint.Finding], _ code: String) -> [String] {
        findings.filter { $0.code == code }.map { $0.entity + ($0.property.map { "." + $0 } ?? "") }
    }

    @Test("each checklist item is found at its place")
    func checklist() throws {
        let findings = ModelLint(model: try Self.ledger()).findings
        #expect(Self.places(findings, "ML001") == ["Account.transactions"])
        #expect(Self.places(findings, "ML002") == ["Account.name", "Transaction.amount,memo"])
        #expect(Self.places(findings, "ML005") == ["Account.owner"])
        #expect(Self.places(findings, "ML006") == ["Account.legacy"])
        #expect(Self.places(findings, "ML007") == ["Account.transactionCount"])
        #expect(Self.places(findings, "ML008") == ["Account.bigTransactions"])
        #expect(Self.places(findings, "ML009") == ["Predicate"])
        #expect(Self.places(findings, "ML010") == ["Account.default", "Predicate", "Task", "Transaction"])
        #expect(Self.places(findings, "ML011") == ["Person", "Predicate", "Rule", "Task"])
        // CloudKit-only rules stay quiet without --cloudkit.
        #expect(findings.allSatisfy { !["ML003", "ML004", "ML012"].contains($0.code) })
        #expect(findings.allSatisfy { $0.severity != .error })
    }

    @Test("with CloudKit: required values without defaults, required relationships, and escalated errors")
    func cloudKit() throws {
        let findings = ModelLint(model: try Self.ledger(), cloudKit: true).findings
        // Account.name, Person.name and Rule.name are required without a default; Task's are defaulted.
        #expect(Self.places(findings, "ML004") == ["Account.name", "Person.name", "Rule.name"])
        #expect(Self.places(findings, "ML003") == ["Transaction.account"])
        #expect(Self.places(findings, "ML012") == [])
        #expect(
            findings.filter { $0.code == "ML001" || $0.code == "ML002" || $0.code == "ML005" }.allSatisfy {
                $0.severity == .error
            })
        #expect(
            findings.first { $0.code == "ML001" }?.description
                == "ML001 error Account.transactions: ordered relationship: SwiftData arrays keep no order and CloudKit does not support ordered relationships; add a position attribute and sort by it"
        )
    }

    @Test("a relationship without an inverse is a CloudKit error")
    func noInverse() {
        var entity = ObjectModel.Entity("A", attributes: [])
        entity.relationships = [.init("b", to: "A", inverse: nil, toMany: false)]
        #expect(ModelLint(model: ObjectModel(entities: [entity]), cloudKit: true).findings.map(\.code) == ["ML012"])
        #expect(ModelLint(model: ObjectModel(entities: [entity])).findings.isEmpty)
    }

    @Test(
        "a property named like a PersistentModel member is an error, and the generated class leaves it out with a note")
    func persistentModelMember() {
        var entity = ObjectModel.Entity(
            "Doc", attributes: [.init("hasChanges", .boolean), .init("title", .string, optional: true)])
        entity.relationships = [.init("modelContext", to: "Doc", inverse: nil, toMany: false)]
        let model = ObjectModel(entities: [entity])
        #expect(
            ModelLint(model: model).findings.filter { $0.code == "ML013" }.map(\.property) == [
                "hasChanges", "modelContext",
            ])
        let code = SwiftDataEntityWriter(entity: entity, model: model, schema: "S", source: "x").file()
        #expect(!code.contains("var hasChanges") && !code.contains("var modelContext"))
        #expect(
            code.contains("// NOTE: hasChanges is a member every SwiftData model has")
                && code.contains("var title: String?"))
    }
}
