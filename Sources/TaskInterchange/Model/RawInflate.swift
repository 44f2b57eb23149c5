import CZlib
import Foundation

/// Inflates raw DEFLATE data (no zlib or gzip header), the form of `Z_MODELCACHE.Z_CONTENT`.
enum RawInflate {
    /// The default cap on inflated size. Real model caches inflate to tens of kilobytes; the cap only stops a
    /// corrupt or hostile blob from exhausting memory (DEFLATE can expand about 1000×).
    static let defaultLimit = 256 * 1024 * 1024

    /// Inflates `input`, which must be exactly one raw DEFLATE stream.
    /// - Parameter limit: the largest inflated size accepted, in bytes.
    /// - Throws: `RawInflateError` — `.truncated`, `.corrupt`, `.tooLarge`, `.trailingData` or `.zlib`.
    static func inflate(_ input: Data, limit: Int = defaultLimit) throws(RawInflateError) -> Data {
        guard !input.isEmpty else { throw .truncated }
        // zlib counts input in 32-bit units; larger blobs are not model caches.
        guard input.count <= Int(UInt32.max) else {
            throw .zlib(code: Z_BUF_ERROR, message: "more than 4 GiB of compressed input")
        }
        var stream = z_stream()
        let initCode = tasks_inflate_init_raw(&stream)
        guard initCode == Z_OK else {
            throw .zlib(code: initCode, message: message(of: stream) ?? "inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }

        var output = Data()
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let result: Result<Int, RawInflateError> = input.withUnsafeBytes { (inputBytes: UnsafeRawBufferPointer) in
            // zlib's `next_in` is declared mutable (no ZLIB_CONST) but inflate only reads through it.
            stream.next_in = UnsafeMutablePointer(mutating: inputBytes.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(inputBytes.count)
            return chunk.withUnsafeMutableBufferPointer { (chunkBytes: inout UnsafeMutableBufferPointer<UInt8>) in
                while true {
                    stream.next_out = chunkBytes.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    let availableBefore = stream.avail_in
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    let produced = chunkSize - Int(stream.avail_out)
                    if produced > 0 {
                        guard output.count + produced <= limit else { return .failure(.tooLarge(limit: limit)) }
                        output.append(chunkBytes.baseAddress!, count: produced)
                    }
                    switch code {
                    case Z_STREAM_END:
                        return .success(Int(stream.avail_in))
                    case Z_OK:
                        // Progress is guaranteed by zlib when it returns Z_OK; the check keeps a broken zlib from
                        // spinning.
                        if produced == 0 && stream.avail_in == availableBefore { return .failure(.truncated) }
                    case Z_BUF_ERROR:
                        // No progress possible: all input consumed without reaching the end of the stream.
                        if stream.avail_in == 0 { return .failure(.truncated) }
                        if produced == 0 { return .failure(.corrupt("no progress")) }
                    case Z_DATA_ERROR, Z_NEED_DICT:
                        return .failure(.corrupt(message(of: stream) ?? "invalid data"))
                    default:
                        return .failure(.zlib(code: code, message: message(of: stream) ?? "inflate failed"))
                    }
                }
            }
        }
        switch result {
        case .success(let trailing):
            guard trailing == 0 else { throw .trailingData(count: trailing) }
            return output
        case .failure(let error):
            throw error
        }
    }

    private static func message(of stream: z_stream) -> String? {
        stream.msg.map { String(cString: $0) }
    }
}
