import Foundation
import Synchronization

public enum StaticSiteError: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case notADirectory(String)

    public var description: String {
        switch self {
        case .missing(let path):
            "site folder \(path) does not exist (render the site first, or give --site DIR)"
        case .notADirectory(let path):
            "site folder \(path) is not a directory (--site names the folder the pages were rendered into)"
        }
    }
}

/// One version of one file of the site, read whole, with its validators and (for text) its
/// gzip body. Immutable: a re-rendered file is a new inode, hence a new entry.
struct SiteFile: Sendable {
    struct Version: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int
        let modifiedNanoseconds: Int
    }
    let version: Version
    let body: [UInt8]
    let gzipBody: [UInt8]?
    /// Strong validator from the content's SHA-256; the gzip representation gets its own.
    let etag: String
    let gzipETag: String
    let modifiedSeconds: Int
}

/// What a request path names inside the site folder.
enum SiteLookup: Equatable {
    /// A regular file inside the site, by its real path.
    case file(String)
    /// A directory asked for without its trailing slash: relative links in its index need one.
    case directoryWithoutSlash
    case notFound
}

/// The rendered site folder: safe path resolution, and a cache of small files keyed by real
/// path and validated by inode, size and mtime on every request (one `fstat`), so a page the
/// renderer replaced (temp file + rename) is served fresh at once.
final class StaticSite: Sendable {
    /// The site folder's real path (symbolic links resolved).
    let root: String
    /// Files up to this size are cached in memory (with gzip); larger ones are sent from disk.
    let maxCachedFileBytes: Int
    let maxCacheBytes: Int
    private struct Cache {
        var files: [String: SiteFile] = [:]
        var bytes = 0
    }
    private let cache = Mutex(Cache())

    init(directory: String, maxCachedFileBytes: Int = 2 << 20, maxCacheBytes: Int = 64 << 20) throws {
        var info = stat()
        guard stat(directory, &info) == 0 else { throw StaticSiteError.missing(directory) }
        guard info.st_mode & S_IFMT == S_IFDIR, let real = realPath(directory) else {
            throw StaticSiteError.notADirectory(directory)
        }
        root = real
        self.maxCachedFileBytes = maxCachedFileBytes
        self.maxCacheBytes = maxCacheBytes
    }

    /// Resolves a decoded request path (`/teams/a.html`, relative to the base path). Refuses
    /// `..`, `.` and hidden components (the renderer's temp files among them), NUL, and
    /// anything whose real path — after symbolic links — is outside the site folder.
    func lookup(_ path: String) -> SiteLookup {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component.hasPrefix(".") || component.contains("\0") || component.contains("\\") { return .notFound }
            components.append(component)
        }
        let candidate = components.isEmpty ? root : root + "/" + components.joined(separator: "/")
        guard let real = realPath(candidate), isInside(real) else { return .notFound }
        var info = stat()
        guard stat(real, &info) == 0 else { return .notFound }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .file(real)
        case S_IFDIR:
            guard path.hasSuffix("/") else { return .directoryWithoutSlash }
            guard let index = realPath(real + "/index.html"), isInside(index),
                  stat(index, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .notFound }
            return .file(index)
        default:
            return .notFound
        }
    }

    private func isInside(_ real: String) -> Bool {
        real == root || real.hasPrefix(root == "/" ? "/" : root + "/")
    }

    enum Opened {
        case cached(SiteFile)
        /// Too large to cache: the open descriptor, its size and validators.
        case large(descriptor: Int32, size: Int, etag: String, modifiedSeconds: Int)
    }

    /// Opens a file found by `lookup`. The validators come from the same descriptor the body
    /// is read from, so an ETag always matches the bytes sent with it.
    func open(_ realPath: String, compressible: Bool) -> Opened? {
        let descriptor = Glibc.open(realPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        let version = SiteFile.Version(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
                                       modifiedNanoseconds: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
        let modifiedSeconds = Int(info.st_mtim.tv_sec)
        if version.size > maxCachedFileBytes {
            // Validator from the inode, size and mtime: hashing a large file per version costs more than it saves.
            let etag = "\"" + String(version.inode, radix: 16) + "-" + String(version.size, radix: 16) + "-"
                + String(version.modifiedNanoseconds, radix: 16) + "\""
            return .large(descriptor: descriptor, size: version.size, etag: etag, modifiedSeconds: modifiedSeconds)
        }
        let hit = cache.withLock { $0.files[realPath] }
        if let hit, hit.version == version {
            close(descriptor)
            return .cached(hit)
        }
        guard let body = readAll(descriptor, size: version.size) else {
            close(descriptor)
            return nil
        }
        close(descriptor)
        let hash = (sha256(body) ?? []).prefix(16).map { String(format: "%02x", $0) }.joined()
        let gzipBody = compressible && body.count >= 256 ? Gzip.compress(body).flatMap { $0.count < body.count ? $0 : nil } : nil
        let file = SiteFile(version: version, body: body, gzipBody: gzipBody, etag: "\"\(hash)\"",
                            gzipETag: "\"\(hash)-gzip\"", modifiedSeconds: modifiedSeconds)
        store(file, at: realPath)
        return .cached(file)
    }

    private func store(_ file: SiteFile, at path: String) {
        let cost = file.body.count + (file.gzipBody?.count ?? 0)
        cache.withLock { cache in
            if let old = cache.files.removeValue(forKey: path) { cache.bytes -= old.body.count + (old.gzipBody?.count ?? 0) }
            // A full cache is emptied: simpler than LRU, and a site's working set is small.
            if cache.bytes + cost > maxCacheBytes {
                cache.files.removeAll()
                cache.bytes = 0
            }
            cache.files[path] = file
            cache.bytes += cost
        }
    }

    private func readAll(_ descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + offset, size - offset, off_t(offset))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }    // the file shrank under us: try again next request
            offset += count
        }
        return bytes
    }
}

func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
