import Foundation

/// Writes a planned change to disk whole: the new bytes go to a temporary file beside the old
/// one, with its permissions, and are renamed over it, so a reader (or a crash) never sees half
/// a file.
public enum FixWriter {
    /// Replaces `path` (symbolic links followed) with `bytes`, unless the file no longer holds
    /// `original`: then it is left alone and the refusal says so.
    public static func replace(_ path: String, with bytes: [UInt8], expecting original: [UInt8]) -> FixRefusal? {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let current = FileManager.default.contents(atPath: target) else { return .io("cannot read \(path) again to replace it") }
        guard [UInt8](current) == original else { return .stale }
        var info = stat()
        guard stat(target, &info) == 0 else { return .io("cannot read the permissions of \(path)") }
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let temporary = directory + "/." + name + ".a11y-audit-\(getpid())-\(UUID().uuidString.prefix(8)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, info.st_mode & 0o7777)
        guard descriptor >= 0 else { return .io("cannot write beside \(path) (\(String(cString: strerror(errno)))); is its folder writable?") }
        // The creation mode passes through the umask; the file keeps the mode it had.
        var ok = fchmod(descriptor, info.st_mode & 0o7777) == 0
        var written = 0
        ok = ok && bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 { if errno == EINTR { continue }; return false }
                written += result
            }
            return fsync(descriptor) == 0
        }
        let closed = close(descriptor) == 0
        guard ok, closed, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return .io("cannot replace \(path) (\(reason)); it was left as it was")
        }
        return nil
    }
}
