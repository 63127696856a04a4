import AuditModel
import CLibArchive
import Foundation

/// Caps that keep a hostile archive from exhausting memory, disk or time. Archives are never
/// extracted to disk; only the files the checks need are held in memory.
public struct ArchiveLimits: Sendable, Equatable {
    /// Entries of any kind (files, folders, links).
    public var maxEntries: Int
    /// Uncompressed bytes of every entry together, read or skipped.
    public var maxTotalBytes: Int
    /// Uncompressed bytes per compressed byte, over the whole archive so far…
    public var maxCompressionRatio: Int
    /// …checked once this much has been uncompressed (small archives of zeros are harmless).
    public var ratioFloorBytes: Int
    /// A kept file larger than this becomes a skipped file with the reason.
    public var maxFileBytes: Int

    public init(maxEntries: Int = 200_000, maxTotalBytes: Int = 4 << 30, maxCompressionRatio: Int = 200,
                ratioFloorBytes: Int = 64 << 20, maxFileBytes: Int = ScanInput.archiveEntryCap) {
        self.maxEntries = maxEntries
        self.maxTotalBytes = maxTotalBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioFloorBytes = ratioFloorBytes
        self.maxFileBytes = maxFileBytes
    }
}

/// Why an archive was refused as a whole.
public enum ArchiveRejection: Sendable, Equatable, CustomStringConvertible {
    case pathTraversal(entry: String)
    case absolutePath(entry: String)
    case linkOutOfTree(entry: String, target: String)
    case tooManyEntries(limit: Int)
    case tooLarge(limit: Int)
    case compressionRatio(limit: Int)

    public var description: String {
        switch self {
        case .pathTraversal(let entry): "entry \"\(entry)\" has a \"..\" component (path traversal)"
        case .absolutePath(let entry): "entry \"\(entry)\" has an absolute path"
        case .linkOutOfTree(let entry, let target): "link \"\(entry)\" points outside the archive, to \"\(target)\""
        case .tooManyEntries(let limit): "more than \(limit) entries (a possible archive bomb)"
        case .tooLarge(let limit): "more than \(limit) bytes uncompressed (a possible archive bomb)"
        case .compressionRatio(let limit): "expands more than \(limit) times its compressed size (a possible archive bomb)"
        }
    }
}

/// One pass over an archive with libarchive: every entry's name and links are vetted, every
/// byte (kept or skipped) is counted against the caps, and the relevant files are kept.
enum ArchiveReader {
    static func read(name: String, limits: ArchiveLimits, open: (OpaquePointer) -> Int32) throws -> ScanInput {
        guard let reader = archive_read_new() else { throw ScanError.archive(path: name, reason: "libarchive: out of memory") }
        defer { archive_read_free(reader) }
        archive_read_support_filter_all(reader)
        // Only real archive formats: libarchive's catch-all would read any text file as mtree.
        archive_read_support_format_tar(reader)
        archive_read_support_format_gnutar(reader)
        archive_read_support_format_zip(reader)
        guard open(reader) == ARCHIVE_OK else { throw ScanError.archive(path: name, reason: errorString(reader)) }

        var kept: [(path: String, bytes: [UInt8])] = []
        var keptByPath: [String: Int] = [:]
        var notes: [ScanNote] = []
        var tops: Set<Substring> = []
        var everyEntryInAFolder = true
        var entryCount = 0
        var uncompressed = 0
        var lastEntry: String?
        let fileLimit = min(limits.maxFileBytes, ScanInput.archiveEntryCap)

        /// Counts bytes against the total and ratio caps; compressed bytes are what libarchive
        /// has consumed of the raw input so far.
        func account(_ count: Int) throws {
            uncompressed += count
            if uncompressed > limits.maxTotalBytes {
                throw ScanError.unsafeArchive(path: name, reason: .tooLarge(limit: limits.maxTotalBytes))
            }
            if uncompressed > limits.ratioFloorBytes {
                let compressed = max(1, Int(archive_filter_bytes(reader, -1)))
                if uncompressed / compressed > limits.maxCompressionRatio {
                    throw ScanError.unsafeArchive(path: name, reason: .compressionRatio(limit: limits.maxCompressionRatio))
                }
            }
        }

        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ScanError.corruptArchive(path: name, entry: lastEntry.map { "after \($0)" }, reason: errorString(reader))
            }
            entryCount += 1
            guard entryCount <= limits.maxEntries else {
                throw ScanError.unsafeArchive(path: name, reason: .tooManyEntries(limit: limits.maxEntries))
            }
            let rawName = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            lastEntry = rawName
            let path = try vetted(rawName, archive: name)
            if let slash = path.firstIndex(of: "/") {
                tops.insert(path[..<slash])
            } else if !path.isEmpty {
                tops.insert(Substring(path))
                if archive_entry_filetype(entry) != S_IFDIR { everyEntryInAFolder = false }
            }
            if let target = archive_entry_hardlink(entry).map({ String(cString: $0) }) {
                // A hard link names another entry of the archive, from the archive's root.
                guard let targetPath = ScanInput.normalize(target) else {
                    throw ScanError.unsafeArchive(path: name, reason: .linkOutOfTree(entry: rawName, target: target))
                }
                if ScanInput.isRelevant(path), let index = keptByPath[targetPath] {
                    keptByPath[path] = kept.count
                    kept.append((path, kept[index].bytes))
                }
                try skipData(reader, entry: rawName, archive: name, account: account)
                continue
            }
            if archive_entry_filetype(entry) == S_IFLNK {
                let target = archive_entry_symlink(entry).map { String(cString: $0) } ?? ""
                guard resolvesInside(link: path, target: target) else {
                    throw ScanError.unsafeArchive(path: name, reason: .linkOutOfTree(entry: rawName, target: target))
                }
                if ScanInput.isRelevant(path) {
                    notes.append(ScanNote(kind: .skipped, file: path, message: "symbolic link inside the archive (to \(target)), not followed"))
                }
                continue
            }
            let declared = archive_entry_size_is_set(entry) != 0 ? Int(archive_entry_size(entry)) : 0
            if declared > limits.maxTotalBytes - uncompressed {
                throw ScanError.unsafeArchive(path: name, reason: .tooLarge(limit: limits.maxTotalBytes))
            }
            guard archive_entry_filetype(entry) == S_IFREG, !path.isEmpty, ScanInput.isRelevant(path) else {
                try skipData(reader, entry: rawName, archive: name, account: account)
                continue
            }
            if declared > fileLimit {
                notes.append(ScanNote(kind: .skipped, file: path,
                                      message: "file is \(declared) bytes, over the \(fileLimit)-byte limit (maxFileBytes)"))
                try skipData(reader, entry: rawName, archive: name, account: account)
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(declared)
            var overLimit = false
            try readData(reader, entry: rawName, archive: name, account: account) { offset, block in
                guard !overLimit else { return }
                if offset + block.count > fileLimit {
                    overLimit = true
                    bytes = []
                    return
                }
                // Sparse entries leave holes between blocks; holes read as zeros.
                if offset > bytes.count { bytes.append(contentsOf: repeatElement(0, count: offset - bytes.count)) }
                bytes.append(contentsOf: block)
            }
            if overLimit {
                notes.append(ScanNote(kind: .skipped, file: path, message: "file is over the \(fileLimit)-byte limit (maxFileBytes)"))
                continue
            }
            if declared > bytes.count {
                throw ScanError.corruptArchive(path: name, entry: rawName, reason: "entry ends after \(bytes.count) of its \(declared) bytes")
            }
            keptByPath[path] = kept.count
            kept.append((path, bytes))
        }
        guard entryCount > 0 else { throw ScanError.archive(path: name, reason: "it holds no entries") }
        let strip = tops.count == 1 && everyEntryInAFolder
        func relative(_ path: String) -> String { strip ? String(path.drop { $0 != "/" }.dropFirst()) : path }
        let files = kept.map { InputFile(path: relative($0.path), bytes: $0.bytes) }.sorted { $0.path < $1.path }
        let strippedNotes = notes.map { note -> ScanNote in
            var note = note
            note.file = relative(note.file)
            return note
        }
        var input = ScanInput(files: files, notes: strippedNotes)
        input.isArchive = true
        return input
    }

    /// The entry's path made relative and clean, or the reason it is refused.
    private static func vetted(_ rawName: String, archive: String) throws -> String {
        if rawName.hasPrefix("/") { throw ScanError.unsafeArchive(path: archive, reason: .absolutePath(entry: rawName)) }
        guard let path = ScanInput.normalize(rawName) else {
            throw ScanError.unsafeArchive(path: archive, reason: .pathTraversal(entry: rawName))
        }
        return path
    }

    /// Whether a symbolic link at `link` (relative to the archive's root) pointing to `target`
    /// stays inside the archive.
    static func resolvesInside(link: String, target: String) -> Bool {
        if target.hasPrefix("/") || target.isEmpty { return false }
        var parts = link.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard !parts.isEmpty else { return false }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return true
    }

    /// Reads an entry's data block by block (libarchive's own buffers, no copy), counting every
    /// byte, so that even skipped entries cannot expand without limit.
    private static func readData(_ reader: OpaquePointer, entry: String, archive: String, account: (Int) throws -> Void,
                                 _ consume: (Int, UnsafeRawBufferPointer) -> Void) throws {
        var block: UnsafeRawPointer?
        var size = 0
        var offset: la_int64_t = 0
        while true {
            let status = archive_read_data_block(reader, &block, &size, &offset)
            if status == ARCHIVE_EOF { return }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
                throw ScanError.corruptArchive(path: archive, entry: entry, reason: errorString(reader))
            }
            try account(size)
            consume(Int(offset), UnsafeRawBufferPointer(start: block, count: block == nil ? 0 : size))
        }
    }

    private static func skipData(_ reader: OpaquePointer, entry: String, archive: String, account: (Int) throws -> Void) throws {
        try readData(reader, entry: entry, archive: archive, account: account) { _, _ in }
    }

    static func errorString(_ reader: OpaquePointer) -> String {
        archive_error_string(reader).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}
