import CZlib

/// Compresses into raw DEFLATE (no zlib or gzip header), the form of `Z_MODELCACHE.Z_CONTENT`.
enum RawDeflate {
    /// The level Core Data compresses its model caches at: with it, re-compressing the inflated cache of every
    /// store Core Data wrote gives back its bytes exactly.
    static let modelCacheLevel: Int32 = 5

    /// Deflates `input` into one complete raw DEFLATE stream.
    /// - Throws: `RawInflateError.zlib` when zlib fails (out of memory; nothing else can fail for valid arguments).
    static func deflate(_ input: [UInt8], level: Int32 = modelCacheLevel) throws(RawInflateError) -> [UInt8] {
        guard input.count <= Int(UInt32.max) else {
            throw .zlib(code: Z_BUF_ERROR, message: "more than 4 GiB of input")
        }
        var stream = z_stream()
        let initCode = tasks_deflate_init_raw(&stream, level)
        guard initCode == Z_OK else { throw .zlib(code: initCode, message: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        // deflateBound is an upper bound for one call with Z_FINISH, so a single call completes the stream.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let code = input.withUnsafeBufferPointer { inputBytes in
            output.withUnsafeMutableBufferPointer { outputBytes in
                // zlib's `next_in` is declared mutable (no ZLIB_CONST) but deflate only reads through it.
                stream.next_in = UnsafeMutablePointer(mutating: inputBytes.baseAddress)
                stream.avail_in = uInt(inputBytes.count)
                stream.next_out = outputBytes.baseAddress
                stream.avail_out = uInt(outputBytes.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard code == Z_STREAM_END else {
            throw .zlib(code: code, message: stream.msg.map { String(cString: $0) } ?? "deflate failed")
        }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
