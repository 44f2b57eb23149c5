/// User info dictionaries (`NSUserInfo`) of entities and properties, as text. The model editor only writes strings;
/// a value of another kind (from a model built in code) is left out rather than guessed at.
extension ModelCacheDecoder {
    func userInfo(_ value: KeyedArchive.Value?, _ context: String) throws(ModelCacheError) -> [String: String] {
        guard let value, try fields(value, "\(context)'s NSUserInfo") != nil else { return [:] }
        var result: [String: String] = [:]
        for (key, entry) in try entries(value, "\(context)'s NSUserInfo") {
            guard let name = try? string(key, "a user info key of \(context)"),
                let text = try? string(entry, "user info \(name) of \(context)")
            else {
                continue
            }
            result[name] = text
        }
        return result
    }
}
