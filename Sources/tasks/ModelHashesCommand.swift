import Foundation
import TaskInterchange

/// `tasks model hashes`: every version's entity version hashes, checksum and digest.
enum ModelHashesCommand {
    static let description = CommandDescription(
        name: "model hashes",
        abstract: "Print each model version's entity version hashes (NSStoreModelVersionHashes), checksum and digest.",
        discussion: "Hashes are base64, as a store's Z_METADATA keeps them.",
        positionals: [.init(name: "model", help: "An .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom.")],
        options: [
            .init(name: "--model-version", valueName: "name", help: "Only this version."),
            .init(name: "--json", help: "Print a JSON object for scripts instead of text."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: description)
        guard let path = parsed.positionals.first else { throw UsageError("Missing expected argument '<model>'", command: description) }
        let source = try ModelSource(path: path)
        let versions = try parsed.value("--model-version").map { [try source.version(named: $0)] } ?? source.versions
        let report = ModelHashReport(source: source, versions: versions)
        Console.output(parsed.flag("--json") ? Console.json(report) : text(report))
        return ExitCode.ok
    }

    static func text(_ report: ModelHashReport) -> String {
        var lines = ["Model: \(report.model) (\(report.kind), \(report.allVersions.count) version\(report.allVersions.count == 1 ? "" : "s")\(report.current.map { ", current \($0)" } ?? ""))"]
        for version in report.versions {
            lines += ["", "\(version.name)\(version.current ? " (current)" : ""): version identifiers \(ModelIdentifyCommand.list(version.versionIdentifiers))"]
            let width = max(8, version.entities.keys.map(\.count).max() ?? 0)
            for (entity, hash) in version.entities.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
                lines.append("  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + hash)
            }
            lines.append("  " + "checksum".padding(toLength: width, withPad: " ", startingAt: 0) + "  " + version.checksum)
            lines.append("  " + "digest".padding(toLength: width, withPad: " ", startingAt: 0) + "  " + version.digest)
            if let compiled = version.compiledHashesAgree {
                lines.append("  VersionInfo.plist hashes: \(compiled ? "equal" : "DIFFER")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
