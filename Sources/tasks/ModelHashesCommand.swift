import Foundation
import TaskInterchange
import TaskModelTools

/// `tasks model hashes`: every version's entity version hashes, checksum and digest.
struct ModelHashesCommand: Command {
    static let modelVersion = SharedOptions.modelVersion("Only this version.")
    static let json = SharedOptions.json("Print a JSON object for scripts instead of text.")

    static let description = CommandDescription(
        name: "model hashes",
        abstract: "Print each model version's entity version hashes (NSStoreModelVersionHashes), checksum and digest.",
        discussion: "Hashes are base64, as a store's \(CoreDataNames.metadataTable) keeps them.",
        positionals: [ModelCommand.modelArgument],
        options: [modelVersion, json])

    var model: String
    var modelVersion: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let model = arguments.positionals.first else { throw UsageError("Missing expected argument '<model>'") }
        self.model = model
        modelVersion = try arguments.optional(Self.modelVersion)
        json = arguments.flag(Self.json)
    }

    func run() throws -> Int32 {
        let source = try ModelSource(path: model)
        let versions = try modelVersion.map { [try source.version(named: $0)] } ?? source.versions
        let report = ModelHashReport(source: source, versions: versions)
        try Console.output(json ? Console.json(report) : Self.text(report))
        return ExitCode.ok
    }

    static func text(_ report: ModelHashReport) -> String {
        var lines = [
            "Model: \(report.model) (\(report.kind), \(report.allVersions.count) "
                + "version\(report.allVersions.count == 1 ? "" : "s")\(report.current.map { ", current \($0)" } ?? ""))"
        ]
        for version in report.versions {
            lines += [
                "",
                "\(version.name)\(version.current ? " (current)" : ""): version identifiers "
                    + "\(ModelIdentifyCommand.list(version.versionIdentifiers))",
            ]
            let width = max(8, version.entities.keys.map(\.count).max() ?? 0)
            func row(_ name: String, _ value: String) -> String {
                "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
            }
            let byteOrder = version.entities.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            for (entity, hash) in byteOrder { lines.append(row(entity, hash)) }
            lines.append(row("checksum", version.checksum))
            lines.append(row("digest", version.digest))
            if let compiled = version.compiledHashesAgree {
                lines.append("  VersionInfo.plist hashes: \(compiled ? "equal" : "DIFFER")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
