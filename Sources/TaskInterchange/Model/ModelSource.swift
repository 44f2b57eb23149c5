import Foundation

/// A Core Data model as the developer has it: an `.xcdatamodeld` folder (one `.xcdatamodel` per version and
/// `.xccurrentversion`), a single `.xcdatamodel`, or compiled: a `.momd` folder (one `.mom` per version and
/// `VersionInfo.plist`) or a single `.mom`. Every version is read into the same `ObjectModel` the model cache gives.
package struct ModelSource: Sendable {
    /// The kind of file or folder read.
    package enum Kind: String, Sendable, Codable {
        case xcdatamodeld, xcdatamodel, momd, mom
        /// A store's model cache (`Z_MODELCACHE`).
        case store
    }

    /// One version of the model.
    package struct Version: Sendable {
        /// The version's name: its file name without `.xcdatamodel` or `.mom`.
        package var name: String
        /// The model.
        package var model: ObjectModel
        /// The file it was read from.
        package var path: String
    }

    /// The path given.
    package var path: String
    /// What it is.
    package var kind: Kind
    /// Every version, in name order with numbers compared by value ("Model", "Model 2", "Model 10").
    package var versions: [Version]
    /// The current version's name (`.xccurrentversion` or `VersionInfo.plist`; the only version of a single model).
    package var currentVersionName: String?
    /// For a `.momd`: version name → entity name → the hash the model compiler wrote in `VersionInfo.plist`.
    package var compiledVersionHashes: [String: [String: [UInt8]]] = [:]

    /// The largest model file read (real `contents` files and `.mom`s are kilobytes).
    static let maximumFileSize = 64 << 20

    /// Reads a model.
    /// - Throws: `TaskInterchangeError` — `.noInput` when the path does not exist or holds no version, `.invalidData`
    ///   (naming the file, and line and column for XML) when a file is not a model, `.io` when a file cannot be read.
    package init(path: String) throws(TaskInterchangeError) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.path = trimmed
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            throw TaskInterchangeError(
                .noInput,
                "\(trimmed): no such model (expected an .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom)"
                    + Suggestion.nearPath(to: trimmed))
        }
        let url = URL(fileURLWithPath: trimmed)
        switch url.pathExtension {
        case "xcdatamodeld":
            kind = .xcdatamodeld
            var found: [Version] = []
            for file in try Self.list(trimmed) where file.hasSuffix(".xcdatamodel") {
                let versionPath = trimmed + "/" + file
                found.append(
                    Version(
                        name: String(file.dropLast(".xcdatamodel".count)), model: try Self.readXCDataModel(versionPath),
                        path: versionPath))
            }
            versions = found
            currentVersionName = try Self.currentVersion(trimmed + "/.xccurrentversion")
        case "xcdatamodel":
            kind = .xcdatamodel
            let name = url.deletingPathExtension().lastPathComponent
            versions = [Version(name: name, model: try Self.readXCDataModel(trimmed), path: trimmed)]
            currentVersionName = name
        case "momd":
            kind = .momd
            var found: [Version] = []
            for file in try Self.list(trimmed) where file.hasSuffix(".mom") {
                let versionPath = trimmed + "/" + file
                found.append(
                    Version(
                        name: String(file.dropLast(".mom".count)),
                        model: try CompiledModelDecoder.model(at: versionPath), path: versionPath))
            }
            versions = found
            let infoPath = trimmed + "/VersionInfo.plist"
            if manager.fileExists(atPath: infoPath) {
                let info = try CompiledModelDecoder.versionInfo(at: infoPath)
                currentVersionName = info.currentVersionName
                compiledVersionHashes = info.versionHashes
            }
        case "mom":
            kind = .mom
            let name = url.deletingPathExtension().lastPathComponent
            versions = [Version(name: name, model: try CompiledModelDecoder.model(at: trimmed), path: trimmed)]
            currentVersionName = name
        default:
            throw TaskInterchangeError(
                .invalidData,
                "\(trimmed): not a model (expected an .xcdatamodeld or .momd folder, an .xcdatamodel or a .mom)")
        }
        guard !versions.isEmpty else {
            throw TaskInterchangeError(
                .noInput,
                "\(trimmed): holds no model version (\(kind == .momd ? "no .mom file" : "no .xcdatamodel folder"))")
        }
        versions.sort { $0.name.compare($1.name, options: [.numeric]) == .orderedAscending }
        if let current = currentVersionName, !versions.contains(where: { $0.name == current }) {
            throw TaskInterchangeError(
                .invalidData,
                """
                \(trimmed): the current version \(current) is not among its versions \
                (\(versions.map(\.name).joined(separator: ", ")))
                """
            )
        }
    }

    /// A source from versions already read (hand-built models in tests).
    init(path: String, kind: Kind, versions: [Version], currentVersionName: String?) {
        self.path = path
        self.kind = kind
        self.versions = versions
        self.currentVersionName = currentVersionName
    }

    /// The version called `name` (with or without its `.xcdatamodel`/`.mom` extension), or the current one for nil.
    /// - Throws: `TaskInterchangeError.usage` naming the versions there are when there is no such version;
    ///   `.invalidData` when `name` is nil and the model names no current version among several.
    package func version(named name: String?) throws(TaskInterchangeError) -> Version {
        guard let name else {
            if let current = currentVersionName, let version = versions.first(where: { $0.name == current }) {
                return version
            }
            guard versions.count == 1 else {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(path): names no current version; choose one with \(setting: .modelVersion) "
                        + "(\(versions.map(\.name).joined(separator: ", ")))"
                )
            }
            return versions[0]
        }
        var wanted = name
        for suffix in [".xcdatamodel", ".mom"] where wanted.hasSuffix(suffix) { wanted.removeLast(suffix.count) }
        guard let version = versions.first(where: { $0.name == wanted }) else {
            // The name was asked for (`--model-version`): a usage error, like any option value that names nothing.
            // The list says what there is; only a name in other case is pointed at (App 3 is no typo of App 2).
            let names = versions.map(\.name)
            let sameLetters = names.first { $0.lowercased() == wanted.lowercased() }
            throw TaskInterchangeError(
                .usage,
                "\(path): has no version \(name) (it has \(names.joined(separator: ", ")))"
                    + (sameLetters.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return version
    }

    /// True when `path` names something `init(path:)` reads (by its extension), as opposed to a store.
    package static func isModelPath(_ path: String) -> Bool {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return ["xcdatamodeld", "xcdatamodel", "momd", "mom"].contains(URL(fileURLWithPath: trimmed).pathExtension)
    }

    // MARK: Files

    static func readXCDataModel(_ folder: String) throws(TaskInterchangeError) -> ObjectModel {
        let contents = folder + "/contents"
        // Very old models kept a binary `elements` file only; Xcode has written `contents` XML since Xcode 4.
        guard FileManager.default.fileExists(atPath: contents) else {
            throw TaskInterchangeError(
                .noInput,
                """
                \(folder): has no contents file (models saved before \
                Xcode 4 must be opened and saved in a newer Xcode)
                """
            )
        }
        return try XCDataModelParser(path: contents).parse(try read(contents))
    }

    static func currentVersion(_ path: String) throws(TaskInterchangeError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try read(path)
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw TaskInterchangeError(
                .invalidData, "\(path): not a property list: \((error as NSError).localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw TaskInterchangeError(.invalidData, "\(path): the property list is not a dictionary")
        }
        guard let value = dictionary["_XCCurrentVersionName"] else { return nil }
        guard let name = value as? String else {
            throw TaskInterchangeError(.invalidData, "\(path): _XCCurrentVersionName is not a string")
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    static func list(_ folder: String) throws(TaskInterchangeError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw TaskInterchangeError(
                .io, "\(folder): cannot list the folder: \((error as NSError).localizedDescription)")
        }
    }

    static func read(_ path: String) throws(TaskInterchangeError) -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? NSNumber, size.intValue > maximumFileSize {
            throw TaskInterchangeError(.invalidData, "\(path): \(size.intValue) bytes is too large for a model file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TaskInterchangeError(.io, "\(path): cannot read: \((error as NSError).localizedDescription)")
        }
    }
}
