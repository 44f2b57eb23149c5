import Foundation

/// Reads compiled models: a `.mom` is the same `NSKeyedArchiver` archive of an `NSManagedObjectModel` that a store's
/// `Z_MODELCACHE` holds (without the DEFLATE), so `ModelCacheDecoder` reads it; a `.momd` folder holds one `.mom` per
/// version and `VersionInfo.plist` (the current version's name and every version's entity hashes, as the model
/// compiler computed them). `.omo` files (an optimized encoding of the same model) are not read.
enum CompiledModelDecoder {
    /// What `VersionInfo.plist` says.
    struct VersionInfo: Sendable {
        /// `NSManagedObjectModel_CurrentVersionName`.
        var currentVersionName: String?
        /// `NSManagedObjectModel_VersionHashes`: version name → entity name → 32-byte hash.
        var versionHashes: [String: [String: [UInt8]]] = [:]
    }

    /// Decodes one `.mom` file.
    /// - Throws: `TaskInterchangeError.invalidData` naming the file when it is not a readable model archive.
    static func model(at path: String) throws(TaskInterchangeError) -> ObjectModel {
        let data = try ModelSource.read(path)
        do {
            return try ObjectModel(keyedArchive: try KeyedArchive(data: data))
        } catch let error as KeyedArchiveError {
            throw TaskInterchangeError(.invalidData, "\(path): not a compiled model: \(error)")
        } catch let error as ModelCacheError {
            throw TaskInterchangeError(.invalidData, "\(path): not a valid compiled model: \(Self.reason(error))")
        } catch {
            throw TaskInterchangeError(.invalidData, "\(path): \(error)")
        }
    }

    /// Decodes a `.momd`'s `VersionInfo.plist`.
    /// - Throws: `TaskInterchangeError.invalidData` naming the file for a bad property list or a key of the wrong kind.
    static func versionInfo(at path: String) throws(TaskInterchangeError) -> VersionInfo {
        let data = try ModelSource.read(path)
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw TaskInterchangeError(
                .invalidData, "\(path): not a property list: \((error as NSError).localizedDescription)")
        }
        let value: KeyedArchive.Value
        do {
            value = try KeyedArchive.Value(foundation: object, depth: 0, limit: KeyedArchive.defaultDepthLimit)
        } catch {
            throw TaskInterchangeError(.invalidData, "\(path): \(error)")
        }
        guard case .dictionary(let root) = value else {
            throw TaskInterchangeError(.invalidData, "\(path): the property list is not a dictionary")
        }
        var info = VersionInfo()
        if let current = root["NSManagedObjectModel_CurrentVersionName"] {
            guard case .string(let name) = current else {
                throw TaskInterchangeError(
                    .invalidData,
                    "\(path): NSManagedObjectModel_CurrentVersionName is \(current.kindName), not a string")
            }
            info.currentVersionName = name
        }
        if case .dictionary(let versions)? = root["NSManagedObjectModel_VersionHashes"] {
            for (version, hashes) in versions {
                guard case .dictionary(let entities) = hashes else {
                    throw TaskInterchangeError(
                        .invalidData,
                        "\(path): the hashes of version \(version) are \(hashes.kindName), not a dictionary")
                }
                var byEntity: [String: [UInt8]] = [:]
                for (entity, hash) in entities {
                    guard case .data(let bytes) = hash else {
                        throw TaskInterchangeError(
                            .invalidData, "\(path): the hash of \(version).\(entity) is \(hash.kindName), not data")
                    }
                    byEntity[entity] = Array(bytes)
                }
                info.versionHashes[version] = byEntity
            }
        }
        return info
    }

    /// The model decoder's reason without its "model cache" wording, which would mislead about a `.mom`.
    static func reason(_ error: ModelCacheError) -> String {
        switch error {
        case .inflate(let inner): return "\(inner)"
        case .archive(let inner): return "\(inner)"
        case .malformed(let reason): return reason
        case .unsupported(let reason): return "uses something tasks cannot read: \(reason)"
        }
    }
}
