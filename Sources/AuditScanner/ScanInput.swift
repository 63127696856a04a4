import AuditModel
import CLibArchive
import Foundation

public enum ScanError: Error, CustomStringConvertible {
    case notFound(String)
    case unreadable(path: String, reason: String)
    case archive(path: String, reason: String)
    case config(AuditConfigError)

    public var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file or directory"
        case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
        case .archive(let path, let reason): "\(path): not a readable archive (\(reason))"
        case .config(let error): error.description
        }
    }
}

/// One file of the repository snapshot: its path relative to the root and a way to read it.
/// Directory files are read when checked, so not every file is held in memory at once.
public struct InputFile: Sendable {
    public let path: String
    public let size: Int
    let load: @Sendable () throws -> [UInt8]

    public init(path: String, size: Int, load: @escaping @Sendable () throws -> [UInt8]) {
        self.path = path
        self.size = size
        self.load = load
    }

    public init(path: String, bytes: [UInt8]) {
        self.init(path: path, size: bytes.count) { bytes }
    }

    public func bytes() throws -> [UInt8] { try load() }
}

/// The files of one snapshot, plus files that could not be taken in (with why).
public struct ScanInput: Sendable {
    public var files: [InputFile]
    public var notes: [ScanNote]
    /// Read from an archive rather than a directory on disk.
    public var isArchive = false

    public init(files: [InputFile], notes: [ScanNote] = []) {
        self.files = files
        self.notes = notes
    }

    /// Which files the scanner needs to see at all: Swift sources and the project files that
    /// decide platforms, localisation and configuration.
    static func isRelevant(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".swift") || name.hasSuffix(".strings") || name.hasSuffix(".xcstrings")
            || path.hasSuffix(".xcodeproj/project.pbxproj") || name == AuditConfig.fileName
            || (name == "Contents.json" && path.contains(".xcassets/"))
            || name.hasSuffix(".storyboard") || name.hasSuffix(".xib") || name.hasSuffix("Info.plist")
    }

    /// Walks a checkout on disk. Symlinked directories are followed once (a loop is reported,
    /// not followed); symlinks leaving the root are reported and skipped.
    public static func directory(_ root: String, maxFileBytes: Int) throws -> ScanInput {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root, isDirectory: &isDirectory) else { throw ScanError.notFound(root) }
        guard isDirectory.boolValue else { throw ScanError.unreadable(path: root, reason: "not a directory") }
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        var input = ScanInput(files: [])
        var visited: Set<String> = [realRoot]
        var pending: [(real: String, relative: String)] = [(realRoot, "")]
        while let (directory, relative) = pending.popLast() {
            let names: [String]
            do { names = try fileManager.contentsOfDirectory(atPath: directory) } catch {
                input.notes.append(ScanNote(kind: .skipped, file: relative.isEmpty ? "." : relative,
                                            message: "directory cannot be listed: \(error.localizedDescription)"))
                continue
            }
            for name in names.sorted() {
                if name == ".git" || name == ".build" { continue }
                let full = directory + "/" + name
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                var kind = info.st_mode & S_IFMT
                var target = full
                if kind == S_IFLNK {
                    let resolved = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
                    var targetInfo = stat()
                    guard stat(full, &targetInfo) == 0 else {
                        if ScanInput.isRelevant(path) || !name.contains(".") {
                            input.notes.append(ScanNote(kind: .skipped, file: path,
                                                        message: "symbolic link is broken or loops (\(String(cString: strerror(errno))))"))
                        }
                        continue
                    }
                    guard resolved == realRoot || resolved.hasPrefix(realRoot + "/") else {
                        input.notes.append(ScanNote(kind: .skipped, file: path,
                                                    message: "symbolic link points outside the scanned root, to \(resolved)"))
                        continue
                    }
                    kind = targetInfo.st_mode & S_IFMT
                    info = targetInfo
                    target = resolved
                }
                if kind == S_IFDIR {
                    if visited.contains(target) {
                        input.notes.append(ScanNote(kind: .skipped, file: path,
                                                    message: "symbolic link loop: this directory was already scanned"))
                        continue
                    }
                    visited.insert(target)
                    pending.append((target, path))
                } else if kind == S_IFREG, isRelevant(path) {
                    let size = Int(info.st_size)
                    let readPath = target
                    input.files.append(InputFile(path: path, size: size) {
                        guard let data = FileManager.default.contents(atPath: readPath) else {
                            throw ScanError.unreadable(path: path, reason: "read failed")
                        }
                        return [UInt8](data)
                    })
                }
            }
        }
        input.files.sort { $0.path < $1.path }
        return input
    }

    /// Entries larger than this are not read into memory at all; the configured
    /// `maxFileBytes` (smaller by default) is applied by the scanner.
    public static let archiveEntryCap = 64 << 20

    /// Reads a tar archive (plain, gzip, bzip2, xz, zstd) or a zip straight from the file,
    /// without extracting to disk. A single top-level folder shared by every entry (as in
    /// GitHub's tarballs) is stripped, so paths match a checkout's.
    public static func archive(_ path: String, maxFileBytes: Int) throws -> ScanInput {
        guard FileManager.default.fileExists(atPath: path) else { throw ScanError.notFound(path) }
        guard let reader = archive_read_new() else { throw ScanError.archive(path: path, reason: "libarchive: out of memory") }
        defer { archive_read_free(reader) }
        archive_read_support_filter_all(reader)
        // Only real archive formats: libarchive's catch-all would read any text file as mtree.
        archive_read_support_format_tar(reader)
        archive_read_support_format_gnutar(reader)
        archive_read_support_format_zip(reader)
        guard archive_read_open_filename(reader, path, 1 << 16) == ARCHIVE_OK else {
            throw ScanError.archive(path: path, reason: Self.errorString(reader))
        }
        var entries: [(path: String, bytes: [UInt8])] = []
        var notes: [ScanNote] = []
        var tops: Set<Substring> = []
        var everyEntryInAFolder = true
        var entryCount = 0
        var entry: OpaquePointer?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let status = archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ScanError.archive(path: path, reason: Self.errorString(reader))
            }
            entryCount += 1
            guard let rawName = archive_entry_pathname(entry) else { continue }
            let name = Self.normalize(String(cString: rawName))
            // Every entry, relevant or not, decides whether there is one top folder to strip.
            if let slash = name.firstIndex(of: "/") {
                tops.insert(name[..<slash])
            } else if !name.isEmpty {
                tops.insert(Substring(name))
                if archive_entry_filetype(entry) != S_IFDIR { everyEntryInAFolder = false }
            }
            guard archive_entry_filetype(entry) == S_IFREG, !name.isEmpty, isRelevant(name) else { continue }
            let declared = archive_entry_size_is_set(entry) != 0 ? Int(archive_entry_size(entry)) : 0
            let limit = min(maxFileBytes, archiveEntryCap)
            if declared > limit {
                notes.append(ScanNote(kind: .skipped, file: name,
                                      message: "file is \(declared) bytes, over the \(limit)-byte limit (maxFileBytes)"))
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(declared)
            while true {
                let read = buffer.withUnsafeMutableBytes { raw in archive_read_data(reader, raw.baseAddress, raw.count) }
                if read < 0 { throw ScanError.archive(path: path, reason: "\(name): \(Self.errorString(reader))") }
                if read == 0 { break }
                bytes.append(contentsOf: buffer[0..<read])
                if bytes.count > limit { break }
            }
            if bytes.count > limit {
                notes.append(ScanNote(kind: .skipped, file: name, message: "file is over the \(limit)-byte limit (maxFileBytes)"))
                continue
            }
            if declared > 0, bytes.count < declared {
                throw ScanError.archive(path: path, reason: "\(name): entry is truncated (\(bytes.count) of \(declared) bytes)")
            }
            entries.append((name, bytes))
        }
        guard entryCount > 0 else { throw ScanError.archive(path: path, reason: "it holds no entries") }
        let strip = tops.count == 1 && everyEntryInAFolder
        func relative(_ path: String) -> String { strip ? String(path.drop { $0 != "/" }.dropFirst()) : path }
        let files = entries.map { InputFile(path: relative($0.path), bytes: $0.bytes) }.sorted { $0.path < $1.path }
        let strippedNotes = notes.map { note -> ScanNote in
            var note = note
            note.file = relative(note.file)
            return note
        }
        var input = ScanInput(files: files, notes: strippedNotes)
        input.isArchive = true
        return input
    }

    /// `./a//b/../c` → `a/c`; an entry that climbs out of the archive is dropped (empty).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                if parts.isEmpty { return "" }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    private static func errorString(_ reader: OpaquePointer) -> String {
        archive_error_string(reader).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}
