import AuditModel
import AuditScanner
import Foundation
import Synchronization

/// How a worker isolates each job's checks: a child process (`a11y-audit scan-child`) per
/// snapshot, killed past its time or memory limit. A crash, a hang or a memory blow-up on one
/// repository then fails that job alone, naming the file, instead of taking down the worker and
/// every other job it holds.
public struct ScanIsolation: Sendable, Equatable {
    /// The `a11y-audit` executable that runs `scan-child`.
    public var executable: String
    /// For jobs whose organisation sets no `limits.jobSeconds` / `limits.jobMemoryMB`.
    public var defaultTimeLimitSeconds: Int
    public var defaultMemoryLimitMB: Int
    /// How often the worker looks at the child's time, memory and cancellation (its exit is
    /// noticed at once).
    public var pollInterval: Double

    public static let standardTimeLimitSeconds = 1800
    public static let standardMemoryLimitMB = 4096

    public init(executable: String, defaultTimeLimitSeconds: Int = ScanIsolation.standardTimeLimitSeconds,
                defaultMemoryLimitMB: Int = ScanIsolation.standardMemoryLimitMB, pollInterval: Double = 0.05) {
        self.executable = executable
        self.defaultTimeLimitSeconds = defaultTimeLimitSeconds
        self.defaultMemoryLimitMB = defaultMemoryLimitMB
        self.pollInterval = pollInterval
    }

    /// This process's own executable, when it is `a11y-audit` (not a test runner).
    public static var currentExecutable: String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).lastPathComponent == "a11y-audit" ? path : nil
    }
}

/// What the child says it was doing, line by line on its standard output.
private struct ChildProgress {
    var phase = "starting"
    /// Files whose check has started and not finished, in start order.
    var inFlight: [String] = []

    mutating func take(_ line: Substring) {
        guard let marker = line.first else { return }
        let text = IsolatedScan.unescape(line.dropFirst())
        switch marker {
        case "#": phase = text
        case "+": inFlight.append(text)
        case "-": inFlight.removeAll { $0 == text }
        default: break
        }
    }

    /// "while checking Sources/X.swift", or the phase when no file was being checked.
    var activity: String {
        guard let first = inFlight.first else { return "while \(phase)" }
        let others = inFlight.dropFirst()
        if others.isEmpty { return "while checking \(first)" }
        return "while checking \(first) (also being checked: \(others.prefix(3).joined(separator: ", "))\(others.count > 3 ? ", …" : ""))"
    }
}

/// Shared between the progress reader thread and the watching loop.
private final class ProgressBox: Sendable {
    let state = Mutex(ChildProgress())
}

/// One snapshot's checks in a child process, watched by the worker.
struct IsolatedScan {
    let isolation: ScanIsolation
    /// The job's limit (its organisation's, or the worker's default), for messages, and when
    /// it runs out: a pull request's two snapshots share one limit.
    let timeLimitSeconds: Int
    let deadline: Date
    let memoryLimitMB: Int
    /// The job's private folder: the hand-over files go there and go with it.
    let directory: String

    /// Exit status of a child that failed cleanly and wrote why into its result file.
    static let failureStatus: Int32 = 3
    /// Exit status of a child whose parent went away.
    static let orphanStatus: Int32 = 70

    private enum Stop {
        case cancelled, timeLimit, memoryLimit(Int)
    }

    func run(archive: String, root: String, jobs: Int, cache: MemoryCacheStorage?, wantDigests: Bool,
             cancelled: () -> Bool) throws -> SnapshotResult {
        let tag = UUID().uuidString.prefix(8)
        let resultPath = "\(directory)/scan-\(tag).result.json"
        let cacheOutPath = "\(directory)/scan-\(tag).cache-out"
        let stderrPath = "\(directory)/scan-\(tag).stderr"
        var arguments = ["scan-child", "--archive", archive, "--root", root, "--jobs", String(jobs), "--out", resultPath]
        if let cache {
            let cacheInPath = "\(directory)/scan-\(tag).cache-in"
            try CacheFile.write(cache.allEntries, to: cacheInPath)
            arguments += ["--cache-in", cacheInPath, "--cache-out", cacheOutPath]
        }
        if wantDigests { arguments.append("--digests") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: isolation.executable)
        process.arguments = arguments
        // The child reads a local archive and writes local files: it gets no credential, and no
        // crash report slows its death.
        var environment = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"].contains($0.key) }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        // Its standard input stays open while the worker lives: at end of file the child knows
        // the worker died (kill -9) and exits instead of running on as an orphan.
        let lifeline = Pipe()
        let progressPipe = Pipe()
        process.standardInput = lifeline
        process.standardOutput = progressPipe
        guard FileManager.default.createFile(atPath: stderrPath, contents: nil),
              let errorOutput = FileHandle(forWritingAtPath: stderrPath) else {
            throw JobFailure("cannot create \(stderrPath) for the checks' error output", retryable: true)
        }
        process.standardError = errorOutput

        let progress = ProgressBox()
        let readerDone = DispatchSemaphore(value: 0)
        let reading = progressPipe.fileHandleForReading
        let reader = Thread {
            var pending: [UInt8] = []
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    progress.state.withLock { $0.take(Substring(line)) }
                }
                // A line never grows past a path and its marker; anything longer is not ours.
                if pending.count > 1 << 16 { pending.removeAll() }
            }
            readerDone.signal()
        }
        reader.name = "a11y-scan-progress"

        // The exit wakes the watch at once: a job whose checks take 5 ms must not wait out a
        // poll interval. The interval only paces the looks at time, memory and cancellation.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        reader.start()
        var stop: Stop?
        while process.isRunning {
            if exited.wait(timeout: .now() + isolation.pollInterval) == .success { break }
            guard process.isRunning else { break }
            if cancelled() {
                stop = .cancelled
            } else if Date() > deadline {
                stop = .timeLimit
            } else if let resident = Self.residentMegabytes(process.processIdentifier), resident > memoryLimitMB {
                stop = .memoryLimit(resident)
            }
            if stop != nil {
                kill(process.processIdentifier, SIGKILL)
                break
            }
        }
        process.waitUntilExit()
        try? lifeline.fileHandleForWriting.close()
        readerDone.wait()
        let activity = progress.state.withLock { $0.activity }
        defer {
            for path in [resultPath, cacheOutPath, stderrPath] { unlink(path) }
        }

        switch stop {
        case .cancelled?:
            throw JobFailure("stopped: the job was cancelled or its lease lost", retryable: true)
        case .timeLimit?:
            throw JobFailure("a11y-audit stopped the checks after the \(timeLimitSeconds) s time limit (limits.jobSeconds) \(activity)",
                             retryable: true)
        case .memoryLimit(let resident)?:
            throw JobFailure("a11y-audit stopped the checks at \(resident) MB, over the \(memoryLimitMB) MB memory limit (limits.jobMemoryMB) \(activity)",
                             retryable: true)
        case nil:
            break
        }
        if process.terminationReason == .uncaughtSignal {
            throw JobFailure("a11y-audit crashed (signal \(process.terminationStatus)) \(activity)", retryable: true)
        }
        let decoder = JSONDecoder()
        guard let data = FileManager.default.contents(atPath: resultPath),
              let outcome = try? decoder.decode(ChildOutcome.self, from: data) else {
            let detail = Self.tail(of: stderrPath)
            throw JobFailure("a11y-audit exited with status \(process.terminationStatus) \(activity) without a result\(detail.isEmpty ? "" : ": \(detail)")",
                             retryable: true)
        }
        if let failure = outcome.failure { throw JobFailure(failure.message, retryable: failure.retryable) }
        guard let result = outcome.result else {
            throw JobFailure("a11y-audit wrote neither a result nor a failure \(activity)", retryable: true)
        }
        if let cache {
            let stored = (try? CacheFile.read(cacheOutPath)) ?? [:]
            cache.merge(stored: stored, used: Set(outcome.usedCacheKeys))
        }
        return result
    }

    /// The child's resident set, from /proc (Linux); nil once it is gone.
    static func residentMegabytes(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / (1 << 20)
    }

    /// The last line the child wrote to standard error, capped: enough to say why it stopped.
    static func tail(of path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return "" }
        let text = String(decoding: data.suffix(2000), as: UTF8.self)
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        return String(last.prefix(300))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func unescape(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// What `scan-child` writes to its result file.
struct ChildOutcome: Codable {
    struct Failure: Codable {
        var message: String
        var retryable: Bool
    }
    var result: SnapshotResult?
    var usedCacheKeys: [String] = []
    var failure: Failure?
}

/// `a11y-audit scan-child`: the isolated side. Reads the archive the worker fetched, checks it,
/// and writes the result file; progress goes to standard output, one line per event.
public enum ScanChild {
    public static let usage = "a11y-audit scan-child --archive FILE --root NAME --out FILE [--jobs N] [--cache-in FILE --cache-out FILE] [--digests]"

    public static func main(_ arguments: [String]) -> Int32 {
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
                FileHandle.standardError.write(Data("scan-child: unexpected argument \(argument)\n\(usage)\n".utf8))
                return 2
            }
        }
        guard let archive = values["--archive"], let root = values["--root"], let out = values["--out"] else {
            FileHandle.standardError.write(Data("scan-child: --archive, --root and --out are required\n\(usage)\n".utf8))
            return 2
        }
        watchLifeline()
        let jobs = values["--jobs"].flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount
        var outcome = ChildOutcome()
        do {
            report("#reading the archive")
            let cache = try values["--cache-in"].map { MemoryCacheStorage(entries: try CacheFile.read($0)) }
            report("#checking the repository")
            let result = try SnapshotAudit.run(archive: archive, root: root, jobs: jobs, cache: cache, wantDigests: digests) { event in
                switch event {
                case .started(let path): report("+" + IsolatedScan.escape(path))
                case .finished(let path): report("-" + IsolatedScan.escape(path))
                }
            }
            report("#writing the results")
            if let cache, let cacheOut = values["--cache-out"] { try CacheFile.write(cache.newEntries, to: cacheOut) }
            outcome.result = result
            outcome.usedCacheKeys = cache.map { Array($0.usedKeys) } ?? []
        } catch let error as ScanError {
            outcome.failure = .init(message: error.description, retryable: false)
        } catch {
            outcome.failure = .init(message: String(describing: error), retryable: true)
        }
        do {
            let data = try JSONEncoder().encode(outcome)
            try data.write(to: URL(fileURLWithPath: out + ".partial"))
            guard rename(out + ".partial", out) == 0 else { return 1 }
        } catch {
            FileHandle.standardError.write(Data("scan-child: cannot write \(out): \(error)\n".utf8))
            return 1
        }
        return outcome.failure == nil ? 0 : IsolatedScan.failureStatus
    }

    /// One progress line, written whole: a pipe write under PIPE_BUF is atomic, so lines from
    /// the Dispatch workers never interleave.
    private static func report(_ line: String) {
        var bytes = Array(line.utf8.prefix(4000))
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
    }

    /// Exits when the worker's end of standard input closes: the worker is gone.
    private static func watchLifeline() {
        let thread = Thread {
            var byte: UInt8 = 0
            while read(0, &byte, 1) > 0 {}
            _exit(IsolatedScan.orphanStatus)
        }
        thread.name = "a11y-scan-lifeline"
        thread.start()
    }
}
