import AuditModel
import CLibArchive
import Foundation

public enum ScanError: Error, CustomStringConvertible {
    case notFound(String)
    case unreadable(path: String, reason: String)
    case archive(path: String, reason: String)
    /// The archive's data ends early or does not decompress; `entry` is the entry being read
    /// (or the last one read, when the next header is what broke).
    case corruptArchive(path: String, entry: String?, reason: String)
    /// An archive refused as unsafe to take in: nothing of it is scanned.
    case unsafeArchive(path: String, reason: ArchiveRejection)
    case config(AuditConfigError)
    /// Files given to scan (`scan A.swift B.swift`, `--paths-from`) that do not exist.
    case missingFiles([String])
    /// A folder in a list of files: a folder is scanned alone.
    case folderAmongFiles(String)
    /// An archive in a list of files: an archive is scanned alone.
    case archiveAmongFiles(String)
    /// Files given whose repositories are not one inside the other.
    case filesInSeveralRepositories(first: String, second: String)
    case noFiles

    public var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file or directory"
        case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
        case .archive(let path, let reason): "\(path): not a readable archive (\(reason))"
        case .corruptArchive(let path, let entry?, let reason):
            "\(path): archive is truncated or corrupt at entry \(entry) (\(reason))"
        case .corruptArchive(let path, nil, let reason):
            "\(path): archive is truncated or corrupt before its first entry (\(reason))"
        case .unsafeArchive(let path, let reason): "\(path): archive refused, \(reason)"
        case .config(let error): error.description
        case .missingFiles(let paths):
            "no such file\(paths.count == 1 ? "" : "s"): \(paths.prefix(20).map { InputExcerpt.of($0, limit: 200) }.joined(separator: ", "))"
                + (paths.count > 20 ? " and \(paths.count - 20) more" : "")
                + " (a deleted file in a `git diff` list? `git diff --name-only --diff-filter=d` leaves them out)"
        case .folderAmongFiles(let path): "\(path) is a folder: scan a folder alone (`a11y-audit scan \(path)`), or list files"
        case .archiveAmongFiles(let path): "\(path) is an archive: scan an archive alone (`a11y-audit scan \(path)`), or list files"
        case .filesInSeveralRepositories(let first, let second):
            "\(first) and \(second) are in different repositories; scan each repository's files separately"
        case .noFiles: "no files to scan"
        }
    }
}

/// One file of the repository snapshot: its path relative to the root and a way to read it.
/// Directory files are read when checked, so not every file is held in memory at once.
public struct InputFile: Sendable {
    public let path: String
    public let size: Int
    /// The file's `stat` when a directory was listed; nil for an archive's entries.
    public let stamp: FileStamp?
    let load: @Sendable () throws -> [UInt8]

    public init(path: String, size: Int, stamp: FileStamp? = nil, load: @escaping @Sendable () throws -> [UInt8]) {
        self.path = path
        self.size = size
        self.stamp = stamp
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
    /// Files of an archive over their size limit: streamed past, never held, and reported by
    /// the scan with their sizes (a directory's files are all listed in `files`, with sizes,
    /// and read only when checked).
    public var oversized: [OversizedFile] = []
    /// Read from an archive rather than a directory on disk.
    public var isArchive = false

    public init(files: [InputFile], notes: [ScanNote] = []) {
        self.files = files
        self.notes = notes
    }

    /// Which files the scanner needs to see at all: Swift sources, Objective-C sources (which
    /// construct Swift classes by name), and the project files that decide platforms,
    /// localisation, colours, configuration (build settings from `.xcconfig` files too) and
    /// code ownership.
    static func isRelevant(_ path: String) -> Bool {
        // Called for every file of a checkout, most of them images and data: decided on the
        // name's extension bytes, without splitting the path.
        let bytes = path.utf8
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        let name = bytes[nameStart...]
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return name.elementsEqual("CODEOWNERS".utf8) }
        let suffix = name[name.index(after: dot)...]
        switch suffix.count {
        case 1: return suffix.first == UInt8(ascii: "m") || suffix.first == UInt8(ascii: "h")
        case 2: return suffix.elementsEqual("mm".utf8)
        case 3: return suffix.elementsEqual("xib".utf8) || name.elementsEqual("project.yml".utf8)
        case 4: return name.elementsEqual("project.yaml".utf8) || suffix.elementsEqual("json".utf8)
            && (name.elementsEqual(AuditConfig.fileName.utf8) || (name.elementsEqual("Contents.json".utf8) && ASCII.contains(path, ".xcassets/")))
        case 5: return suffix.elementsEqual("swift".utf8) || (suffix.elementsEqual("plist".utf8) && ASCII.hasSuffix(path, "Info.plist"))
        case 7: return suffix.elementsEqual("strings".utf8) || (suffix.elementsEqual("pbxproj".utf8) && ASCII.hasSuffix(path, ".xcodeproj/project.pbxproj"))
        case 8: return suffix.elementsEqual("xcconfig".utf8)
        case 9: return suffix.elementsEqual("xcstrings".utf8)
        case 10: return suffix.elementsEqual("storyboard".utf8)
        default: return false
        }
    }

    struct ListingError: Error, CustomStringConvertible { let description: String }

    /// A directory's entries by name, with `readdir`'s type (`DT_UNKNOWN` where the file system
    /// does not say, and the caller stats the entry).
    static func entries(of directory: String) throws -> [(name: String, type: UInt8)] {
        guard let stream = opendir(directory) else { throw ListingError(description: String(cString: strerror(errno))) }
        defer { closedir(stream) }
        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            entries.append((name, entry.pointee.d_type))
        }
        return entries.sorted { $0.name < $1.name }
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
            let entries: [(name: String, type: UInt8)]
            do { entries = try Self.entries(of: directory) } catch {
                input.notes.append(ScanNote(kind: .skipped, file: relative.isEmpty ? "." : relative,
                                            message: "directory cannot be listed: \(error)"))
                continue
            }
            for (name, type) in entries {
                if name == ".git" || name == ".build" { continue }
                let full = directory + "/" + name
                let path = relative.isEmpty ? name : relative + "/" + name
                // The entry's type from the directory itself: most of a checkout (images, sounds,
                // other languages' sources) is never stat'ed, which was a tenth of a warm re-scan.
                if type == UInt8(DT_DIR) {
                    visited.insert(full)
                    pending.append((full, path))
                    continue
                }
                if type == UInt8(DT_REG), !isRelevant(path) { continue }
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                var kind = info.st_mode & S_IFMT
                var target = full
                if kind == S_IFLNK {
                    let resolved = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
                    var targetInfo = stat()
                    guard stat(full, &targetInfo) == 0 else {
                        if ScanInput.isRelevant(path) || !name.utf8.contains(UInt8(ascii: ".")) {
                            input.notes.append(ScanNote(kind: .skipped, file: path,
                                                        message: "symbolic link is broken or loops (\(String(cString: strerror(errno))))"))
                        }
                        continue
                    }
                    guard resolved == realRoot || resolved.hasPrefix(realRoot + "/") else {
                        input.notes.append(ScanNote(kind: .skipped, file: path,
                                                    message: "symbolic link points outside the scanned root, to \(InputExcerpt.of(resolved, limit: 200))"))
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
                    input.files.append(InputFile(path: path, size: size, stamp: FileStamp(info)) {
                        do { return try FileBytes.contents(of: readPath) } catch {
                            throw ScanError.unreadable(path: path, reason: "read failed: \(error)")
                        }
                    })
                }
            }
        }
        input.files.sort { $0.path < $1.path }
        return input
    }

    /// Where `directory` (absolute) lies inside the repository holding it: the path from the
    /// nearest folder above or at it that has a `.git` (a folder, or a worktree's file), `""`
    /// when it is that folder or no folder above has one. CI systems name files from there.
    public static func repositoryPath(of directory: String) -> String {
        var components = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        var inside: [String] = []
        while components.count > 1 {
            let candidate = NSString.path(withComponents: components + [".git"])
            if FileManager.default.fileExists(atPath: candidate) { return inside.reversed().joined(separator: "/") }
            inside.append(components.removeLast())
        }
        return ""
    }

    /// No entry larger than this is held in memory, whatever a configuration says.
    public static let archiveEntryCap = 64 << 20

    /// Reads a tar archive (plain, gzip, bzip2, xz, zstd) or a zip straight from the file,
    /// without extracting to disk. A single top-level folder shared by every entry (as in
    /// GitHub's tarballs) is stripped, so paths match a checkout's. `maxFileBytes` is a ceiling:
    /// the files held are those within the `maxFileBytes` the scan will apply (the archive's own
    /// `.a11y-audit.json`, or `limits.configuredMaxFileBytes`, or the default) and within the
    /// project-file limits; larger ones are skipped while streaming and listed in `oversized`.
    public static func archive(_ path: String, maxFileBytes: Int, limits: ArchiveLimits = ArchiveLimits()) throws -> ScanInput {
        guard FileManager.default.fileExists(atPath: path) else { throw ScanError.notFound(path) }
        var limits = limits
        limits.maxFileBytes = maxFileBytes
        return try ArchiveReader.read(name: path, limits: limits) { reader in
            archive_read_open_filename(reader, path, 1 << 16)
        }
    }

    /// Reads an archive held in memory (a worker's download), with the same rules as a file.
    /// `name` (the URL or file name) is what errors call the archive.
    public static func archive(bytes: [UInt8], name: String, limits: ArchiveLimits = ArchiveLimits()) throws -> ScanInput {
        try bytes.withUnsafeBytes { buffer in
            // libarchive only reads the buffer, and only during this call.
            try ArchiveReader.read(name: name, limits: limits) { reader in
                archive_read_open_memory(reader, UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
            }
        }
    }

    /// `./a//b/c` → `a/b/c`; nil for a path that is absolute or has a `..` component, which a
    /// repository snapshot never needs and an attacker uses to climb out of the work area.
    static func normalize(_ path: String) -> String? {
        if path.hasPrefix("/") { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == ".." { return nil }
            if part == "." || part.isEmpty { continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}
