import AuditModel
import AuditScanner
import Foundation

/// What checking one fetched snapshot yields, whether the checks ran in the worker or in an
/// isolated child: the report, the few files the worker itself reads afterwards (CODEOWNERS,
/// the repository config), and, for pull requests, every file's content digest.
struct SnapshotResult: Sendable {
    var report: ScanReport
    var sideFiles: [String: Data]
    var digests: [String: String]?

    /// The side files as a scan input, for `TeamAttribution` and the stored config.
    var sideInput: ScanInput {
        ScanInput(files: sideFiles.sorted { $0.key < $1.key }.map { InputFile(path: $0.key, bytes: Array($0.value)) })
    }
}

/// The checks of one snapshot: read the archive, scan it with the shared cache, collect what
/// the worker needs after. The same code runs in process and in `a11y-audit scan-child`.
enum SnapshotAudit {
    static func run(archive: String, root: String, jobs: Int, cache: MemoryCacheStorage?, wantDigests: Bool,
                    progress: (@Sendable (ScanProgress) -> Void)? = nil) throws -> SnapshotResult {
        let input = try ScanInput.archive(archive, maxFileBytes: ScanInput.archiveEntryCap)
        var options = ScanOptions(jobs: jobs)
        options.cacheStorage = cache
        options.progress = progress
        let report = try Scanner(options: options).scan(input, root: root)
        var sideFiles: [String: Data] = [:]
        for file in input.files where isSideFile(file.path) { sideFiles[file.path] = Data(try file.bytes()) }
        var digests: [String: String]?
        if wantDigests {
            var all: [String: String] = [:]
            for file in input.files { all[file.path] = Digest.sha256Hex(try file.bytes()) }
            digests = all
        }
        return SnapshotResult(report: report, sideFiles: sideFiles, digests: digests)
    }

    static func isSideFile(_ path: String) -> Bool {
        path == AuditConfig.fileName || path.split(separator: "/").last == "CODEOWNERS"
    }
}

/// A file handed between the worker and its child, written to a temporary name and renamed, so
/// a reader never sees half of it. Not synced to disk: it lives for one job, and a crash of the
/// machine loses the job anyway. (Foundation's `Data.write` syncs; three syncs per job cost
/// more than the checks of a small repository on a busy disk.)
enum HandOverFile {
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write the hand-over file \(path): \(reason)" }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: temporary, reason: String(cString: strerror(errno))) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw WriteError(path: temporary, reason: reason)
            }
            offset += written
        }
        guard close(descriptor) == 0 else { throw WriteError(path: temporary, reason: String(cString: strerror(errno))) }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }
}

/// A cache handed between the worker and its child: records of (key, entry), each a 32-bit
/// big-endian length and its bytes. The worker's cache goes to the child as a `HandOverFile`;
/// what the child stored comes back with its result on the pipe.
enum CacheFile {
    enum ReadError: Error, CustomStringConvertible {
        case truncated(source: String, offset: Int)
        case unreadable(path: String)
        var description: String {
            switch self {
            case .truncated(let source, let offset): "\(source): cache hand-over is truncated at byte \(offset)"
            case .unreadable(let path): "\(path): cache hand-over file cannot be read"
            }
        }
    }

    static func encode(_ entries: [String: [UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.count + 8 })
        func append(_ part: some Collection<UInt8>) {
            let count = UInt32(part.count)
            bytes += [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
            bytes += part
        }
        for (key, entry) in entries {
            append(Array(key.utf8))
            append(entry)
        }
        return bytes
    }

    /// `source` names where the bytes came from, for the error.
    static func decode(_ bytes: ArraySlice<UInt8>, source: String) throws -> [String: [UInt8]] {
        var entries: [String: [UInt8]] = [:]
        var offset = bytes.startIndex
        func next() throws -> ArraySlice<UInt8> {
            guard offset + 4 <= bytes.endIndex else { throw ReadError.truncated(source: source, offset: offset - bytes.startIndex) }
            let count = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            offset += 4
            guard offset + count <= bytes.endIndex else { throw ReadError.truncated(source: source, offset: offset - bytes.startIndex) }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        while offset < bytes.endIndex {
            let key = String(decoding: try next(), as: UTF8.self)
            entries[key] = Array(try next())
        }
        return entries
    }

    static func write(_ entries: [String: [UInt8]], to path: String) throws {
        try HandOverFile.write(encode(entries), to: path)
    }

    static func read(_ path: String) throws -> [String: [UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError.unreadable(path: path) }
        return try decode([UInt8](data)[...], source: path)
    }
}
