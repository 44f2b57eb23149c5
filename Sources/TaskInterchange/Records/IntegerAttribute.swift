/// The values an integer attribute holds, by its `source.model` type name: what the store reader, the validator and
/// a model change's conversions all check an integer against.
enum IntegerAttribute {
    /// The range of `integer16`, `integer32` or `integer64`; nil for any other type.
    static func range(of type: String) -> ClosedRange<Int64>? {
        switch type {
        case "integer16": return Int64(Int16.min)...Int64(Int16.max)
        case "integer32": return Int64(Int32.min)...Int64(Int32.max)
        case "integer64": return Int64.min...Int64.max
        default: return nil
        }
    }
}
