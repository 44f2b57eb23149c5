import Foundation
import TaskInterchange

/// Each version's entity version hashes as a store's `Z_METADATA` keeps them (base64), with the checksum and digest:
/// what `tasks model hashes` prints.
package struct ModelHashReport: Sendable, Encodable {
    /// One version.
    package struct Version: Sendable, Encodable {
        /// The version's name.
        package var name: String
        /// True for the model's current version.
        package var current: Bool
        /// `NSStoreModelVersionIdentifiers`.
        package var versionIdentifiers: [String]
        /// Entity name → base64 of its 32-byte hash.
        package var entities: [String: String]
        /// `NSStoreModelVersionChecksumKey`.
        package var checksum: String
        /// `NSStoreModelVersionHashesDigest`.
        package var digest: String
        /// For a `.momd`: whether the hashes equal those the model compiler wrote in `VersionInfo.plist` (nil when it
        /// has none for this version).
        package var compiledHashesAgree: Bool?
    }

    /// The model, as named.
    package var model: String
    /// What kind of model it is.
    package var kind: String
    /// The current version's name.
    package var current: String?
    /// Every version of the model, reported or not.
    package var allVersions: [String]
    /// The versions reported.
    package var versions: [Version]

    /// The report for `versions` of `source` (all of them by default).
    package init(source: ModelSource, versions: [ModelSource.Version]? = nil) {
        model = source.path
        kind = source.kind.rawValue
        current = source.currentVersionName
        allVersions = source.versions.map(\.name)
        self.versions = (versions ?? source.versions).map { version in
            let hashes = version.model.versionHashes
            return Version(
                name: version.name, current: version.name == source.currentVersionName,
                versionIdentifiers: version.model.versionIdentifiers,
                entities: hashes.mapValues { Data($0).base64EncodedString() },
                checksum: version.model.versionChecksum, digest: version.model.versionHashesDigest,
                compiledHashesAgree: source.compiledVersionHashes[version.name].map { $0 == hashes })
        }
    }
}
