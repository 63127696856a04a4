import AuditScanner
import CProcess
import Foundation
import Synchronization

/// `a11y-audit scan-child`: the isolated side. Reads an archive the worker fetched, checks it,
/// and writes the result file; progress goes to standard output, one line per event.
///
/// `--serve` (what the worker runs): one child per worker slot takes request after request, one
/// JSON line each on standard input, and reports each with a `=done ID` line once its result
/// file is in place. Without `--serve`: one snapshot from the command line, then exit (for
/// reproducing a crash by hand). Either way, end of file on standard input means the worker is
/// gone: the child exits at once, even in the middle of a job.
public enum ScanChild {
    public static let usage = """
        a11y-audit scan-child --serve [--work-dir DIR]   (requests on standard input)
        a11y-audit scan-child --archive FILE --root NAME --out FILE [--jobs N] [--cache-in FILE --cache-out FILE] [--digests]
        """

    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == "--serve" { return serve(Array(arguments.dropFirst())) }
        var values: [String: String] = [:]
        var digests = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--digests" {
                digests = true
                index += 1
            } else if ["--archive", "--root", "--out", "--jobs", "--cache-in", "--cache-out"].contains(argument), index + 1 < arguments.count {
                values[argument] = arguments[index + 1]
                index += 2
            } else {
                complain("unexpected argument \(argument)\n\(usage)")
                return 2
            }
        }
        guard let archive = values["--archive"], let root = values["--root"], let out = values["--out"] else {
            complain("--archive, --root and --out are required\n\(usage)")
            return 2
        }
        watchLifeline(exitingWith: IsolatedScan.orphanStatus)
        let request = ChildRequest(id: "-", archive: archive, root: root,
                                   jobs: values["--jobs"].flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount,
                                   out: out, cacheIn: values["--cache-in"], cacheOut: values["--cache-out"], digests: digests)
        let outcome = check(request)
        guard write(outcome, to: out) else { return 1 }
        return outcome.failure == nil ? 0 : IsolatedScan.failureStatus
    }

    /// Request after request until the worker closes standard input.
    static func serve(_ arguments: [String]) -> Int32 {
        var workDirectory: String?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--work-dir" where index + 1 < arguments.count: workDirectory = arguments[index + 1]
            // Spaces the process title is written over; see ProcessTitle.
            case "--title-room" where index + 1 < arguments.count: break
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
        let inbox = RequestInbox()
        inbox.start()
        while true {
            let line = inbox.next()
            let request: ChildRequest
            do {
                request = try JSONDecoder().decode(ChildRequest.self, from: Data(line.utf8))
            } catch {
                // The worker sees the exit without a result and starts a fresh child.
                complain("cannot read the request \(String(line.prefix(200))): \(error)")
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
            let outcome = check(request)
            guard write(outcome, to: request.out) else { return 1 }
            dup2(quiet, 2)
            report("=done " + request.id)
            title.set(idleTitle)
            // Freed memory goes back to the system between jobs, so the idle resident set the
            // worker reads before the next job is what this child really keeps.
            _ = a11y_malloc_trim()
        }
    }

    /// One snapshot's checks; every error becomes the outcome's failure.
    static func check(_ request: ChildRequest) -> ChildOutcome {
        var outcome = ChildOutcome()
        outcome.childPID = getpid()
        do {
            report("#reading the archive")
            let cache = try request.cacheIn.map { MemoryCacheStorage(entries: try CacheFile.read($0)) }
            report("#checking the repository")
            let result = try SnapshotAudit.run(archive: request.archive, root: request.root, jobs: request.jobs, cache: cache,
                                               wantDigests: request.digests) { event in
                switch event {
                case .started(let path): report("+" + IsolatedScan.escape(path))
                case .finished(let path): report("-" + IsolatedScan.escape(path))
                case .parsedSwift: break
                }
            }
            report("#writing the results")
            if let cache, let cacheOut = request.cacheOut { try CacheFile.write(cache.newEntries, to: cacheOut) }
            outcome.result = result
            outcome.usedCacheKeys = cache.map { Array($0.usedKeys) } ?? []
        } catch let error as ScanError {
            outcome.failure = .init(message: error.description, retryable: false)
        } catch {
            outcome.failure = .init(message: String(describing: error), retryable: true)
        }
        return outcome
    }

    /// A `HandOverFile`: the worker never reads half a result.
    static func write(_ outcome: ChildOutcome, to out: String) -> Bool {
        do {
            try HandOverFile.write([UInt8](try JSONEncoder().encode(outcome)), to: out)
            return true
        } catch {
            complain("cannot write \(out): \(error)")
            return false
        }
    }

    /// One progress line, written whole: a pipe write under PIPE_BUF is atomic, so lines from
    /// the Dispatch workers never interleave.
    static func report(_ line: String) {
        var bytes = Array(line.utf8.prefix(4000))
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    }

    private static func complain(_ text: String) {
        FileHandle.standardError.write(Data("scan-child: \(text)\n".utf8))
    }

    /// Exits when the worker's end of standard input closes: the worker is gone.
    private static func watchLifeline(exitingWith status: Int32) {
        let thread = Thread {
            var byte: UInt8 = 0
            while Glibc.read(0, &byte, 1) > 0 {}
            _exit(status)
        }
        thread.name = "a11y-scan-lifeline"
        thread.start()
    }
}

/// Request lines from standard input, read by a thread of their own so that end of file (the
/// worker is gone) ends the child at once, even in the middle of a job.
private final class RequestInbox: Sendable {
    private let lines = Mutex<[String]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func start() {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lines.withLock { $0.append(line) }
                    arrived.signal()
                }
            }
            _exit(IsolatedScan.orphanStatus)
        }
        thread.name = "a11y-scan-requests"
        thread.start()
    }

    func next() -> String {
        arrived.wait()
        return lines.withLock { $0.removeFirst() }
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
