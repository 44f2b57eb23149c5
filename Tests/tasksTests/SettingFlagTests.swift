import Testing
@testable import TaskInterchange
@testable import tasks

/// The library names its settings; the command line says each as the flag that sets it.
@Suite("Library settings as flags")
struct SettingFlagTests {
    @Test("every setting has a flag or a command, and a message says it with its values")
    func everySetting() {
        for setting in TaskInterchangeError.Setting.allCases {
            let flag = setting.flag([])
            #expect(flag.hasPrefix("-") || flag.hasPrefix("'tasks "), "\(setting)")
            let said = TaskInterchangeError(.usage, "\(setting: setting): wrong").commandLineMessage
            #expect(said == flag + ": wrong" && !said.contains(setting.name), "\(setting)")
        }
        let error = TaskInterchangeError(
            .usage,
            "\(setting: .completion, "open") needs a completion property; use \(setting: .mode, "upsert", "skip", "replace")"
        )
        #expect(error.commandLineMessage == "--open needs a completion property; use --mode upsert, skip or replace")
        #expect(error.message.hasPrefix("ExportSelection.completion .open needs"))
    }

    @Test("plain library text (warnings, findings, issues, and issues inside errors) is restated with flags")
    func plainText() {
        let issue =
            "x already exists in the target store (use "
            + TaskInterchangeError.libraryName(of: .mode, values: ["upsert", "skip", "replace"]) + ")"
        #expect(
            CommandLineText.rewrite(issue)
                == "x already exists in the target store (use --mode upsert, skip or replace)")
        #expect(CommandLineText.rewrite("StoreImportOptions.match name: 2 records") == "--match name: 2 records")
        let wrapped = TaskInterchangeError(.invalidData, "a.json: $: " + ArchiveReader.storeGivenAsArchive)
        #expect(wrapped.commandLineMessage.hasSuffix("did you mean 'tasks inspect' or 'tasks export --store'?"))
    }
}
