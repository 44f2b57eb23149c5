/// Something bytes can be appended to one at a time: a `[UInt8]`, or a `JSONWriter`'s buffer. Lets formatters such as
/// `LosslessDate` write straight into a writer without an intermediate array.
protocol ByteAppender {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
}

extension Array: ByteAppender where Element == UInt8 {}
