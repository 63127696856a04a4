#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole regular file read straight into bytes with `open`/`read`: a warm re-scan reads
/// every file it considers, and Foundation's `contents(atPath:)` costs a `Data` and a copy more.
enum FileBytes {
    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads at most `limit` bytes in all, whatever size `fstat` gave: a file growing while it
    /// is read cannot make the read unbounded.
    static func contents(of path: String, limit: Int = Int.max) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(description: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ReadError(description: "not a regular file") }
        let expected = Int(info.st_size)
        guard expected <= limit else { throw ReadError(description: "\(expected) bytes, over the \(limit)-byte limit") }
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected {
                let got = read(descriptor, buffer.baseAddress! + count, expected - count)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                count += got
            }
        }
        guard bytes.count == expected else {
            // Shrunk while read, or a read error: no partial content.
            throw ReadError(description: "the file changed size while it was read")
        }
        // A file that grew since fstat: read the rest, within the limit.
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            guard bytes.count + got <= limit else { throw ReadError(description: "grew over the \(limit)-byte limit while it was read") }
            bytes += chunk[..<got]
        }
        return bytes
    }
}
