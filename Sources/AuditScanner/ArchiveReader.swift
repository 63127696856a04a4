import AuditModel
import CLibArchive
import Foundation
import SwiftChecks

/// Caps that keep a hostile archive from exhausting memory, disk or time. Archives are never
/// extracted to disk; only the files the checks need are held in memory.
public struct ArchiveLimits: Sendable, Equatable {
    /// Entries of any kind (files, folders, links).
    public var maxEntries: Int
    /// Uncompressed bytes of every entry together, read or skipped: the per-job cap on work.
    public var maxTotalBytes: Int
    /// Uncompressed bytes of the files kept for checking, together: the per-job cap on memory.
    public var maxKeptBytes: Int
    /// Uncompressed bytes per compressed byte, over the whole archive so far…
    public var maxCompressionRatio: Int
    /// …checked once this much has been uncompressed (small archives of zeros are harmless).
    public var ratioFloorBytes: Int
    /// No file larger than this is held, whatever a configuration says.
    public var maxFileBytes: Int
    /// The `maxFileBytes` the scan will apply, when the caller knows it (a `--config` file).
    /// nil: the archive's own `.a11y-audit.json` says, or the default; the reader learns it
    /// while streaming, so that files over it are skipped rather than held.
    public var configuredMaxFileBytes: Int?
    /// Limits of the project files (Package.swift, project.pbxproj, …), applied while streaming.
    public var projectFiles: ProjectFileLimits

    public init(maxEntries: Int = 200_000, maxTotalBytes: Int = 4 << 30, maxKeptBytes: Int = 1 << 30,
                maxCompressionRatio: Int = 200, ratioFloorBytes: Int = 64 << 20, maxFileBytes: Int = ScanInput.archiveEntryCap,
                configuredMaxFileBytes: Int? = nil, projectFiles: ProjectFileLimits = ProjectFileLimits()) {
        self.maxEntries = maxEntries
        self.maxTotalBytes = maxTotalBytes
        self.maxKeptBytes = maxKeptBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioFloorBytes = ratioFloorBytes
        self.maxFileBytes = maxFileBytes
        self.configuredMaxFileBytes = configuredMaxFileBytes
        self.projectFiles = projectFiles
    }
}

/// Why an archive was refused as a whole.
public enum ArchiveRejection: Sendable, Equatable, CustomStringConvertible {
    case pathTraversal(entry: String)
    case absolutePath(entry: String)
    case linkOutOfTree(entry: String, target: String)
    case tooManyEntries(limit: Int)
    case tooLarge(limit: Int)
    /// The files to check hold more than `maxKeptBytes` together.
    case tooMuchToCheck(limit: Int)
    case compressionRatio(limit: Int)

    public var description: String {
        switch self {
        case .pathTraversal(let entry): "entry \"\(InputExcerpt.of(entry))\" has a \"..\" component (path traversal)"
        case .absolutePath(let entry): "entry \"\(InputExcerpt.of(entry))\" has an absolute path"
        case .linkOutOfTree(let entry, let target):
            "link \"\(InputExcerpt.of(entry))\" points outside the archive, to \"\(InputExcerpt.of(target))\""
        case .tooManyEntries(let limit): "more than \(limit) entries (a possible archive bomb)"
        case .tooLarge(let limit): "more than \(limit) bytes uncompressed in all, the per-job cap (a possible archive bomb)"
        case .tooMuchToCheck(let limit):
            "the files to check hold more than \(limit) bytes uncompressed together, the per-job cap on what is held in memory; "
                + "scan a checkout instead, or leave generated and vendored files out of the archive"
        case .compressionRatio(let limit): "expands more than \(limit) times its compressed size (a possible archive bomb)"
        }
    }
}

/// A file of the snapshot that was not kept because it is over its size limit: it is reported
/// with its size, never held in memory.
public struct OversizedFile: Sendable, Equatable {
    public var path: String
    public var size: Int
    /// The limit it is over, as applied while reading.
    public var limit: Int

    public init(path: String, size: Int, limit: Int) {
        self.path = path
        self.size = size
        self.limit = limit
    }

    /// The file as an input whose size says why it is skipped; reading it fails with the reason,
    /// should a larger limit ever ask for it.
    var placeholder: InputFile {
        let (path, size, limit) = (path, size, limit)
        return InputFile(path: path, size: size) {
            throw ScanError.unreadable(path: path, reason: "it is \(size) bytes, over the \(limit)-byte limit applied while reading the archive, so it was not kept")
        }
    }
}

/// One pass over an archive with libarchive: every entry's name and links are vetted, every
/// byte (kept or skipped) is counted against the caps, and the relevant files within their
/// limits are kept; the rest are recorded with their sizes as they stream past.
enum ArchiveReader {
    static func read(name: String, limits: ArchiveLimits, open: (OpaquePointer) -> Int32) throws -> ScanInput {
        let pass = try readOnce(name: name, limits: limits, open: open)
        guard let learned = pass.rereadWith else { return pass.input }
        // A configuration after the entries it lets in: read again knowing the limit (both
        // sources, a file and a buffer, can be opened again).
        var known = limits
        known.configuredMaxFileBytes = learned
        return try readOnce(name: name, limits: known, open: open).input
    }

    private static func readOnce(name: String, limits: ArchiveLimits, open: (OpaquePointer) -> Int32) throws
        -> (input: ScanInput, rereadWith: Int?) {
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
        var oversized: [OversizedFile] = []
        var oversizedByPath: [String: Int] = [:]
        var notes: [ScanNote] = []
        var tops: Set<Substring> = []
        var everyEntryInAFolder = true
        var entryCount = 0
        var uncompressed = 0
        var keptBytes = 0
        var lastEntry: String?
        let ceiling = min(limits.maxFileBytes, ScanInput.archiveEntryCap)
        let defaultMaxFileBytes = AuditConfig().maxFileBytes
        /// `maxFileBytes` of each `.a11y-audit.json` at the root or one folder down: which one
        /// is the root's is known only at the end (whether a single top folder is stripped).
        var configs: [String: Int] = [:]
        /// What a file is held up to while streaming: the configured limit if known, else the
        /// largest any configuration seen so far allows (settled at the end).
        func provisionalMaxFileBytes() -> Int {
            if let configured = limits.configuredMaxFileBytes { return min(configured, ceiling) }
            return min(ceiling, max(defaultMaxFileBytes, configs.values.max() ?? defaultMaxFileBytes))
        }

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
        func keep(_ count: Int) throws {
            keptBytes += count
            if keptBytes > limits.maxKeptBytes {
                throw ScanError.unsafeArchive(path: name, reason: .tooMuchToCheck(limit: limits.maxKeptBytes))
            }
        }
        func recordOversized(_ path: String, size: Int, limit: Int) {
            oversizedByPath[path] = oversized.count
            oversized.append(OversizedFile(path: path, size: size, limit: limit))
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
                    // Shared storage, but checked once more: it counts as work held for the job.
                    try keep(kept[index].bytes.count)
                    keptByPath[path] = kept.count
                    kept.append((path, kept[index].bytes))
                } else if ScanInput.isRelevant(path), let index = oversizedByPath[targetPath] {
                    recordOversized(path, size: oversized[index].size, limit: oversized[index].limit)
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
                    notes.append(ScanNote(kind: .skipped, file: path,
                                          message: "symbolic link inside the archive (to \(InputExcerpt.of(target))), not followed"))
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
            let fileLimit = limits.projectFiles.holdLimit(for: path, maxFileBytes: provisionalMaxFileBytes())
            if declared > fileLimit {
                // Streamed past, never buffered: its size is all the scan needs to say why.
                recordOversized(path, size: declared, limit: fileLimit)
                try skipData(reader, entry: rawName, archive: name, account: account)
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(declared)
            // An entry whose header gives no size (a zip's data descriptor) is measured as it
            // streams, and dropped the moment it passes the limit.
            var size = 0
            try readData(reader, entry: rawName, archive: name, account: account) { offset, block in
                size = max(size, offset + block.count)
                guard size <= fileLimit else {
                    if !bytes.isEmpty { try keep(-bytes.count) }
                    bytes = []
                    return
                }
                // Sparse entries leave holes between blocks; holes read as zeros.
                let before = bytes.count
                if offset > bytes.count { bytes.append(contentsOf: repeatElement(0, count: offset - bytes.count)) }
                bytes.append(contentsOf: block)
                try keep(bytes.count - before)
            }
            if size > fileLimit {
                recordOversized(path, size: size, limit: fileLimit)
                continue
            }
            if declared > bytes.count {
                throw ScanError.corruptArchive(path: name, entry: rawName, reason: "entry ends after \(bytes.count) of its \(declared) bytes")
            }
            keptByPath[path] = kept.count
            kept.append((path, bytes))
            if limits.configuredMaxFileBytes == nil, path.split(separator: "/").count <= 2, ProjectFileKind.of(path) == .config {
                configs[path] = (try? AuditConfig(data: Data(bytes), file: path, knownRules: Set(RuleCatalog.allRuleIDs)))?.maxFileBytes
                    ?? defaultMaxFileBytes
            }
        }
        guard entryCount > 0 else { throw ScanError.archive(path: name, reason: "it holds no entries") }
        let strip = tops.count == 1 && everyEntryInAFolder
        let configPath = strip ? tops.first.map { "\($0)/\(AuditConfig.fileName)" } ?? AuditConfig.fileName : AuditConfig.fileName
        if let index = oversizedByPath[configPath] {
            // Scanning with the defaults instead would silently ignore the repository's settings.
            let file = oversized[index]
            throw ScanError.unreadable(path: "\(name): \(AuditConfig.fileName)",
                                       reason: "it is \(file.size) bytes, over the \(file.limit)-byte limit for configuration files; nothing was scanned")
        }
        if limits.configuredMaxFileBytes == nil {
            // Now the configuration that applies is known: settle what was held by a guess.
            let settled = min(ceiling, configs[configPath] ?? defaultMaxFileBytes)
            func limit(_ path: String) -> Int { limits.projectFiles.holdLimit(for: path, maxFileBytes: settled) }
            if oversized.contains(where: { $0.size <= limit($0.path) }) { return (ScanInput(files: []), settled) }
            for (path, bytes) in kept where bytes.count > limit(path) {
                recordOversized(path, size: bytes.count, limit: limit(path))
            }
            kept.removeAll { $0.bytes.count > limit($0.path) }
            for index in oversized.indices { oversized[index].limit = limit(oversized[index].path) }
        }
        func relative(_ path: String) -> String { strip ? String(path.drop { $0 != "/" }.dropFirst()) : path }
        let files = kept.map { InputFile(path: relative($0.path), bytes: $0.bytes) }.sorted { $0.path < $1.path }
        let strippedNotes = notes.map { note -> ScanNote in
            var note = note
            note.file = relative(note.file)
            return note
        }
        var input = ScanInput(files: files, notes: strippedNotes)
        input.oversized = oversized.map { OversizedFile(path: relative($0.path), size: $0.size, limit: $0.limit) }
            .sorted { $0.path < $1.path }
        input.isArchive = true
        return (input, nil)
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
    /// byte, so that even skipped entries cannot expand without limit. Skipping reads the blocks
    /// too rather than calling archive_read_data_skip: it costs the same decompression, holds
    /// no more memory, and what was skipped still counts against the caps.
    private static func readData(_ reader: OpaquePointer, entry: String, archive: String, account: (Int) throws -> Void,
                                 _ consume: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
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
            try consume(Int(offset), UnsafeRawBufferPointer(start: block, count: block == nil ? 0 : size))
        }
    }

    private static func skipData(_ reader: OpaquePointer, entry: String, archive: String, account: (Int) throws -> Void) throws {
        try readData(reader, entry: entry, archive: archive, account: account) { _, _ in }
    }

    static func errorString(_ reader: OpaquePointer) -> String {
        archive_error_string(reader).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}
