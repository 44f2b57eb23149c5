/// The version of an app's model that wrote a store, for reading the store with its real names and types when it
/// keeps no model cache (or a damaged one).
extension ModelSource {
    /// The model of version `name`, or, without a name, of the version whose hashes the store's metadata records.
    /// - Throws: `.invalidData` when no version matches the store (naming the closest) or `name` is not a version.
    package func model(forStore store: String, version name: String?) throws(TaskInterchangeError) -> ObjectModel {
        if let name { return try version(named: name).model }
        let identification = try ModelIdentification(storePath: store, source: self)
        guard let found = identification.version,
            let version = versions.first(where: { $0.name == found })
        else {
            let closest = identification.closest.map { "; the closest is \($0)" } ?? ""
            throw TaskInterchangeError(
                .invalidData,
                "\(store): no version of \(path) has the model version hashes this store records\(closest); "
                    + "name the version that wrote it")
        }
        return version.model
    }
}
