import Foundation
import TaskInterchange

extension TaskInterchangeError.Setting {
    /// The flag that sets it on the command line.
    var flag: String {
        switch self {
        case .keepIdentity: return "--keep-identity"
        case .mode: return "--mode"
        case .importKinds, .exportKinds: return "--kinds"
        case .importEntities, .exportEntities: return "--entities"
        case .strict: return "--strict"
        case .match: return "--match"
        case .template: return "--model-from"
        case .backupPath, .migrationBackup: return "--backup"
        case .modifiedProperty: return "--modified-property"
        case .importTarget: return "--store"
        case .project: return "--project"
        case .completion: return "--completed, --open"
        case .since: return "--since"
        case .excludedEntities: return "--exclude-entities"
        case .exportFile: return "-o"
        case .migrationTarget: return "--to"
        case .modelVersion: return "--model-version"
        case .targetModel: return "--model"
        case .export: return "'tasks export'"
        case .validate: return "'tasks validate'"
        }
    }
}

extension TaskInterchangeError {
    /// The message as the command line says it: each setting as its flag (`--mode upsert, skip or replace`), and
    /// library text quoted in it (a validation issue) restated as `CommandLineText` does.
    var commandLineMessage: String {
        mapText(CommandLineText.rewrite).message { setting, values in setting.flag(values) }
    }
}

extension TaskInterchangeError.Setting {
    /// The flag with the values a message gives it: `--mode upsert or merge`; `--open` for the completion `open`.
    func flag(_ values: [String]) -> String {
        if self == .completion, values.count == 1 { return "--" + values[0] }
        return values.isEmpty ? flag : flag + " " + TaskInterchangeError.list(values)
    }
}

/// The library's plain-text messages (warnings, findings, validation issues) as the command line says them: the
/// settings they name as flags, and an SQLite file given as an archive pointed at the commands that read stores.
enum CommandLineText {
    /// What to do with an archive whose only errors are ids the target already holds.
    static let existingIDsAdvice = "--mode upsert, merge or skip imports into a store that holds them"

    static func rewrite(_ text: String) -> String {
        var text = text
        for (library, flags) in phrases where text.contains(library) {
            text = text.replacingOccurrences(of: library, with: flags)
        }
        return text
    }

    /// A setting with values before the setting alone, so `StoreImportOptions.mode .replace` becomes `--mode replace`.
    private static let phrases: [(String, String)] = {
        typealias Setting = TaskInterchangeError.Setting
        var phrases = [
            (GraphDiff.higherLimit, "(--limit N or --json to see them)"),
            (
                ArchiveReader.storeGivenAsArchive,
                "this is a Core Data store (an SQLite database), not an interchange file; "
                    + "did you mean 'tasks inspect' or 'tasks export --store'?"
            ),
            (
                ArchiveReader.mappingGivenAsArchive,
                "it looks like a mapping file, with mappingVersion and kinds, which says how a store's entities map: "
                    + "give it with --mapping, and the archive as the file to read"
            ),
            (ArchiveReader.exportWrites, "an archive is what 'tasks export' writes"),
            (ArchiveReader.incomplete, ArchiveReader.incomplete + " with 'tasks export'"),
        ]
        // Each mode alone too: a plan names the one it ran with.
        let modes = ImportMode.allCases.map { (Setting.mode, [$0.rawValue]) }
        for (setting, values) in [(Setting.mode, ["upsert", "skip", "replace"])] + modes {
            phrases.append(
                (
                    TaskInterchangeError.libraryName(of: setting, values: values),
                    setting.flag(values)
                ))
        }
        // A selection's completion as its description says it (`ExportSelection.completion open`): one flag.
        for completion in ["completed", "open"] {
            phrases.append((Setting.completion.name + " " + completion, Setting.completion.flag([completion])))
        }
        for setting in Setting.allCases where setting.name.contains(".") {
            phrases.append((setting.name, setting.flag))
        }
        return phrases
    }()
}
