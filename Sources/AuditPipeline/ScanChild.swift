import AuditScanner
import CProcess
import Foundation

/// `a11y-audit scan-child`: the isolated side. Reads an archive the worker fetched, checks it,
/// and hands back the result; progress goes out one line per event.
///
/// `--serve` (what the worker runs): one child per worker slot takes request after request, one
/// JSON line each on standard input, and answers each on standard output with a line
/// `=done ID OUTCOME-BYTES CACHE-BYTES` followed by the outcome (JSON) and the cache entries it
/// stored (a `CacheFile` record list): no result file to create, rename, read and remove per job.
/// Progress lines go to descriptor 3, a pipe of their own that the worker reads only now and
/// then (and when a job fails, to name the file): a line per file must not wake the worker
/// while the checks want every core. Without `--serve`: one snapshot from the command line, then exit (for
/// reproducing a crash by hand). Either way, end of file on standard input means the worker is
/// gone: the child exits at once, even in the middle of a job.
public enum ScanChild {
    public static let usage = """
        a11y-audit scan-child --serve [--work-dir DIR] [--progress-fd N]   (requests on standard input)
        """

    public static func main(_ arguments: [String]) -> Int32 {
        guard arguments.first == "--serve" else {
            complain("scan-child only serves the worker's requests\n\(usage)")
            return 2
        }
        return serve(Array(arguments.dropFirst()))
    }

    /// Request after request until the worker closes standard input.
    static func serve(_ arguments: [String]) -> Int32 {
        var workDirectory: String?
        var progressDescriptor: Int32 = 1
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--work-dir" where index + 1 < arguments.count: workDirectory = arguments[index + 1]
            // Spaces the process title is written over; see ProcessTitle.
            case "--title-room" where index + 1 < arguments.count: break
            case "--progress-fd" where index + 1 < arguments.count:
                guard let descriptor = Int32(arguments[index + 1]), fcntl(descriptor, F_GETFD) >= 0 else {
                    complain("--progress-fd \(arguments[index + 1]) is not an open descriptor")
                    return 2
                }
                progressDescriptor = descriptor
            default:
                complain("unexpected argument \(arguments[index])\n\(usage)")
                return 2
            }
            index += 2
        }
        let idleTitle = ["a11y-audit", "scan-child", "--serve"] + (workDirectory.map { ["--work-dir", $0] } ?? [])
        let title = ProcessTitle()
        title.set(idleTitle)
        let quiet = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard quiet >= 0 else {
            complain("cannot open /dev/null: \(String(cString: strerror(errno)))")
            return 1
        }
        // The worker's end closing shows as a hang-up, which the lifeline sees even while this
        // thread is deep in a job; requests are read here, so a request wakes only this thread.
        watchLifeline(exitingWith: IsolatedScan.orphanStatus)
        var inbox = RequestLines()
        while true {
            guard let line = inbox.next() else { _exit(IsolatedScan.orphanStatus) }
            guard let request = ChildRequest(line: line) else {
                // The worker sees the exit without a result and starts a fresh child.
                complain("cannot read the request \(String(line.prefix(200)))")
                return 2
            }
            // What a busy child is checking shows in `ps`, as when each job had its own child
            // with --root in its arguments (the fault tests find their victims by it).
            title.set(idleTitle + ["--root", request.root])
            if let path = request.errorOutput {
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                if descriptor >= 0 {
                    dup2(descriptor, 2)
                    close(descriptor)
                }
            }
            let (outcome, stored) = check(request, progress: progressDescriptor)
            let answer = encodeAnswer(outcome, stored: stored, id: request.id)
            dup2(quiet, 2)
            guard writeAll(answer) else { return 1 }
            title.set(idleTitle)
            // Freed memory goes back to the system between jobs, so the idle resident set the
            // worker reads before the next job is what this child really keeps.
            _ = a11y_malloc_trim()
        }
    }

    /// One snapshot's checks and the cache entries they stored; every error becomes the
    /// outcome's failure.
    static func check(_ request: ChildRequest, progress descriptor: Int32) -> (ChildOutcome, stored: [String: [UInt8]]) {
        var outcome = ChildOutcome()
        outcome.childPID = getpid()
        var stored: [String: [UInt8]] = [:]
        do {
            report("#reading the archive", to: descriptor)
            let cache = try request.usesCache ? MemoryCacheStorage(entries: request.cacheIn.map { try CacheFile.read($0) } ?? [:]) : nil
            report("#checking the repository", to: descriptor)
            let result = try SnapshotAudit.run(archive: request.archive, root: request.root, jobs: request.jobs, cache: cache,
                                               wantDigests: request.digests) { event in
                switch event {
                case .started(let path): report("+" + IsolatedScan.escape(path), to: descriptor)
                case .finished(let path): report("-" + IsolatedScan.escape(path), to: descriptor)
                case .parsedSwift: break
                }
            }
            report("#writing the results", to: descriptor)
            stored = cache?.newEntries ?? [:]
            outcome.result = result
            outcome.usedCacheKeys = cache.map { Array($0.usedKeys) } ?? []
        } catch let error as ScanError {
            outcome.failure = .init(message: error.description, retryable: false)
        } catch {
            outcome.failure = .init(message: String(describing: error), retryable: true)
        }
        return (outcome, stored)
    }

    /// The `=done` line and the two parts it announces.
    static func encodeAnswer(_ outcome: ChildOutcome, stored: [String: [UInt8]], id: String) -> [UInt8] {
        let encoded = outcome.encode()
        let cache = CacheFile.encode(stored)
        return Array("=done \(id) \(encoded.count) \(cache.count)\n".utf8) + encoded + cache
    }

    /// Writes all of `bytes` to standard output; false if the worker is gone.
    private static func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// One progress line, written whole: a pipe write under PIPE_BUF is atomic, so lines from
    /// the Dispatch workers never interleave.
    static func report(_ line: String, to descriptor: Int32) {
        var bytes = Array(line.utf8.prefix(4000))
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    private static func complain(_ text: String) {
        FileHandle.standardError.write(Data("scan-child: \(text)\n".utf8))
    }

    /// Exits when the worker's end of standard input closes: the worker is gone. Only waits
    /// for the hang-up (`poll` with no events still reports it); requests are read elsewhere.
    private static func watchLifeline(exitingWith status: Int32) {
        let thread = Thread {
            var watched = pollfd(fd: 0, events: 0, revents: 0)
            while poll(&watched, 1, -1) < 0 && errno == EINTR {}
            _exit(status)
        }
        thread.name = "a11y-scan-lifeline"
        thread.start()
    }
}

/// Request lines from standard input.
private struct RequestLines {
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// The next line; nil at end of file (the worker is gone).
    mutating func next() -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            pending += buffer[0..<count]
        }
    }
}

/// The process title `ps` shows, written over the child's own arguments as PostgreSQL and nginx
/// do on Linux: the kernel shows that memory as /proc/PID/cmdline. Only the room the original
/// arguments took is usable, hence the worker's `--title-room`; a longer title is cut.
private struct ProcessTitle {
    private let start: UnsafeMutablePointer<CChar>?
    private let room: Int

    init() {
        // Read (and so keep) the real arguments before their memory is overwritten.
        _ = CommandLine.arguments
        let count = Int(CommandLine.argc)
        guard count > 0, let first = CommandLine.unsafeArgv[0] else { start = nil; room = 0; return }
        // Only arguments laid end to end, as execve lays them, are one block to write over.
        var end = first + strlen(first)
        for index in 1..<count {
            guard let argument = CommandLine.unsafeArgv[index], argument == end + 1 else { start = nil; room = 0; return }
            end = argument + strlen(argument)
        }
        start = first
        room = end - first
    }

    /// Fields separated by NUL, as arguments are; the last byte of the room stays NUL.
    func set(_ fields: [String]) {
        guard let start, room > 0 else { return }
        let bytes = Array(fields.joined(separator: "\0").utf8.prefix(room))
        memset(start, 0, room)
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            UnsafeMutableRawPointer(start).copyMemory(from: base, byteCount: source.count)
        }
    }
}
