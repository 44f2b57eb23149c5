import Foundation
import Testing
@testable import TaskInterchange

/// `.mom` files (keyed archives, read by the model-cache decoder) and `.momd` folders.
@Suite("Compiled models (.mom, .momd)")
struct CompiledModelTests {
    /// A one-entity archive with user info on the entity and on its attribute.
    static func archive() throws -> Data {
        let builder = ModelArchiveBuilder()
        let item = builder.reserve()
        let info = builder.dictionary([("shown", builder.add("yes"))])
        let title = builder.attribute(
            "title", type: 700, extra: ["NSUserInfo": builder.dictionary([("max", builder.add("40"))])])
        builder.entity(item, name: "Item", properties: [("title", title)], extra: ["NSUserInfo": info])
        return try builder.modelArchive(entities: [item], format: .binary)
    }

    @Test(
        "a .mom reads like a model cache, user info included; a .momd takes its current version from VersionInfo.plist")
    func momd() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("App.momd")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.archive().write(to: URL(fileURLWithPath: folder + "/App 2.mom"))
        try Self.archive().write(to: URL(fileURLWithPath: folder + "/App.mom"))
        let model = try ModelSource(path: folder + "/App.mom").versions[0].model
        #expect(model.entities.map(\.name) == ["Item"])
        #expect(model.entities[0].userInfo == ["shown": "yes"])
        #expect(model.entities[0].attributes[0].userInfo == ["max": "40"])
        #expect(model.versionIdentifiers == ["1.0", "2.0"])
        let info: [String: Any] = [
            "NSManagedObjectModel_CurrentVersionName": "App 2",
            "NSManagedObjectModel_VersionHashes": ["App 2": ["Item": Data(model.versionHashes["Item"]!)]],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: folder + "/VersionInfo.plist"))
        let source = try ModelSource(path: folder)
        #expect(
            source.kind == .momd && source.versions.map(\.name) == ["App", "App 2"]
                && source.currentVersionName == "App 2")
        #expect(source.compiledVersionHashes["App"] == nil)
        #expect(source.compiledVersionHashes["App 2"] == source.versions[1].model.versionHashes)
        // A VersionInfo.plist of the wrong shape names itself.
        try PropertyListSerialization.data(
            fromPropertyList: ["NSManagedObjectModel_CurrentVersionName": 3], format: .xml, options: 0
        )
        .write(to: URL(fileURLWithPath: folder + "/VersionInfo.plist"))
        do {
            _ = try ModelSource(path: folder)
            Issue.record("read a bad VersionInfo.plist")
        } catch {
            #expect(
                error.message == folder
                    + "/VersionInfo.plist: NSManagedObjectModel_CurrentVersionName is an integer, not a string")
        }
    }
}
