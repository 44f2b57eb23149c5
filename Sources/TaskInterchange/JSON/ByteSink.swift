/// A destination for the bytes a `JSONWriter` produces.
///
/// Writers hand over their buffer in large chunks (about 256 KiB), so a sink may do a system call per `write`.
package protocol ByteSink {
    /// Takes all of `bytes`; returns only when every byte was accepted.
    ///
    /// - Throws: ``ByteSinkError`` (or an error of the conforming type) when the bytes cannot be delivered.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}
