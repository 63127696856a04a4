import AuditModel
import AuditScanner
import Foundation
import Synchronization

/// How a worker isolates each job's checks: in a child process (`a11y-audit scan-child
/// --serve`) per worker slot, which takes job after job and is killed past a job's time or
/// memory limit. A crash, a hang or a memory blow-up on one repository then fails that job
/// alone, naming the file, instead of taking down the worker and every other job it holds.
public struct ScanIsolation: Sendable, Equatable {
    /// The `a11y-audit` executable that runs `scan-child`.
    public var executable: String
    /// For jobs whose organisation sets no `limits.jobSeconds` / `limits.jobMemoryMB`.
    public var defaultTimeLimitSeconds: Int
    public var defaultMemoryLimitMB: Int
    /// How often the worker looks at the child's time, memory and cancellation (its result and
    /// its exit are noticed at once).
    public var pollInterval: Double
    /// A child is replaced after this many snapshots: whatever a job leaves behind in it (heap
    /// fragmentation, a cache that grows) is bounded. Its start and warm-up (~40 ms of CPU:
    /// loading, symbol binding, the first parse) are paid once per this many; memory a child
    /// keeps is bounded by the idle check below, so this can be large.
    public var snapshotsPerChild: Int
    /// A child is replaced before a job when, idle, its resident set is over this or over half
    /// of the job's memory limit: the limit is per job, and memory the child kept from earlier
    /// jobs would otherwise count against this one.
    public var idleMemoryLimitMB: Int

    public static let standardTimeLimitSeconds = 1800
    public static let standardMemoryLimitMB = 4096
    public static let standardSnapshotsPerChild = 1000
    public static let standardIdleMemoryLimitMB = 256

    public init(executable: String, defaultTimeLimitSeconds: Int = ScanIsolation.standardTimeLimitSeconds,
                defaultMemoryLimitMB: Int = ScanIsolation.standardMemoryLimitMB, pollInterval: Double = 0.05,
                snapshotsPerChild: Int = ScanIsolation.standardSnapshotsPerChild,
                idleMemoryLimitMB: Int = ScanIsolation.standardIdleMemoryLimitMB) {
        self.executable = executable
        self.defaultTimeLimitSeconds = defaultTimeLimitSeconds
        self.defaultMemoryLimitMB = defaultMemoryLimitMB
        self.pollInterval = pollInterval
        self.snapshotsPerChild = max(1, snapshotsPerChild)
        self.idleMemoryLimitMB = idleMemoryLimitMB
    }

    /// This process's own executable, when it is `a11y-audit` (not a test runner).
    public static var currentExecutable: String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).lastPathComponent == "a11y-audit" ? path : nil
    }
}

/// What the child says it was doing, line by line on its standard output.
struct ChildProgress {
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

/// One snapshot's checks handed to a worker slot's scan child, watched by the worker.
struct IsolatedScan {
    let slot: IsolatedSlot
    /// The job's limit (its organisation's, or the worker's default), for messages, and when
    /// it runs out: a pull request's two snapshots share one limit.
    let timeLimitSeconds: Int
    let deadline: Date
    let memoryLimitMB: Int
    /// The job's private folder: the hand-over files go there and go with it.
    let directory: String

    /// Exit status of a child whose parent went away.
    static let orphanStatus: Int32 = 70

    private enum Stop {
        case cancelled, timeLimit, memoryLimit(Int)
    }

    /// The snapshot's result, and the process id of the child that checked it.
    func run(archive: String, root: String, jobs: Int, cache: MemoryCacheStorage?, wantDigests: Bool,
             cancelled: () -> Bool) throws -> (result: SnapshotResult, childPID: Int32) {
        let tag = String(UUID().uuidString.prefix(8))
        let cacheInPath = "\(directory)/scan-\(tag).cache-in"
        let stderrPath = "\(directory)/scan-\(tag).stderr"
        defer {
            for path in [cacheInPath, stderrPath] { unlink(path) }
        }
        // A repository's first audit has nothing to hand over: no file then.
        let handed = cache?.allEntries ?? [:]
        if !handed.isEmpty { try CacheFile.write(handed, to: cacheInPath) }
        let request = ChildRequest(id: tag, archive: archive, root: root, jobs: jobs, usesCache: cache != nil,
                                   cacheIn: handed.isEmpty ? nil : cacheInPath, digests: wantDigests, errorOutput: stderrPath)
        let child = try hand(request)

        var stop: Stop?
        var answer: ServingChild.ChildAnswer?
        while true {
            let status = child.status(of: request.id)
            if let given = status.answer { answer = given; break }
            if status.exited { break }
            if cancelled() {
                stop = .cancelled
            } else if Date() > deadline {
                stop = .timeLimit
            } else if let resident = Self.residentMegabytes(child.pid), resident > memoryLimitMB {
                stop = .memoryLimit(resident)
            }
            if stop != nil { break }
            child.waitForNews(timeout: slot.pool.isolation.pollInterval)
        }
        // A child that did not report this job's result is never given another: it crashed,
        // was stopped, or its state is unknown.
        if answer == nil { slot.pool.discard(child, slot: slot.index, reason: stop.map(Self.reason) ?? "exited during a job") }
        let activity = child.activity

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
        guard let answer else {
            let status = child.waitStatus ?? 0
            if status & 0x7F != 0 {
                throw JobFailure("a11y-audit crashed (signal \(status & 0x7F)) \(activity)", retryable: true)
            }
            let detail = Self.tail(of: stderrPath)
            throw JobFailure("a11y-audit exited with status \((status >> 8) & 0xFF) \(activity) without a result\(detail.isEmpty ? "" : ": \(detail)")",
                             retryable: true)
        }
        let parts: (outcome: ArraySlice<UInt8>, cache: ArraySlice<UInt8>)
        let outcome: ChildOutcome
        let stored: [String: [UInt8]]
        do {
            parts = try answer.outcome.get()
            guard let decoded = ChildOutcome.decode(parts.outcome) else {
                throw ServingChild.SendError(description: "its outcome is not in the format this build writes")
            }
            outcome = decoded
            stored = try CacheFile.decode(parts.cache, source: "the cache entries a11y-audit scan-child \(child.pid) sent")
        } catch {
            slot.pool.discard(child, slot: slot.index, reason: "sent an unreadable answer")
            throw JobFailure("a11y-audit answered \(activity) but its answer cannot be read: \(error)", retryable: true)
        }
        if let failure = outcome.failure { throw JobFailure(failure.message, retryable: failure.retryable) }
        guard let result = outcome.result else {
            throw JobFailure("a11y-audit wrote neither a result nor a failure \(activity)", retryable: true)
        }
        cache?.merge(stored: stored, used: Set(outcome.usedCacheKeys))
        return (result, outcome.childPID ?? child.pid)
    }

    /// Sends the request to the slot's child; a child that died while idle (its pipe is closed)
    /// is replaced once, so that a job does not fail for something that happened before it.
    private func hand(_ request: ChildRequest) throws -> ServingChild {
        var lastError: Error?
        for _ in 0..<2 {
            let child = try slot.pool.child(for: slot.index, memoryLimitMB: memoryLimitMB)
            do {
                try child.send(request)
                return child
            } catch {
                lastError = error
                slot.pool.discard(child, slot: slot.index, reason: "refused a request")
            }
        }
        throw JobFailure("cannot hand the checks to a11y-audit scan-child: \(lastError.map { "\($0)" } ?? "unknown error")", retryable: true)
    }

    private static func reason(_ stop: Stop) -> String {
        switch stop {
        case .cancelled: "job cancelled"
        case .timeLimit: "time limit"
        case .memoryLimit: "memory limit"
        }
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

/// One snapshot to check, sent to `scan-child --serve` as one line (`line`).
struct ChildRequest: Sendable {
    /// Echoed in the `=done` line, so a late report of an earlier request is never taken for this one.
    var id: String
    var archive: String
    var root: String
    var jobs: Int
    /// Whether the scan uses a cache (and so reports the entries it stored); `cacheIn` is the
    /// file holding the worker's entries, nil when it holds none.
    var usesCache: Bool
    var cacheIn: String?
    var digests: Bool
    /// Where the child's standard error goes while it checks this snapshot: the job's folder,
    /// so a crash message is quoted in that job's error and removed with it.
    var errorOutput: String?
}

extension ChildRequest {
    /// Tab-separated fields ending in a newline; an optional path is `-` when absent, `=path`
    /// when present.
    var line: String {
        func optional(_ value: String?) -> String { value.map { "=" + $0 } ?? "-" }
        return ScanReportWire.line(["request", id, archive, root, String(jobs), usesCache ? "1" : "0", optional(cacheIn), digests ? "1" : "0",
                                    optional(errorOutput)])
    }

    /// Nil for a line the worker of this build did not write.
    init?(line: String) {
        let fields = ScanReportWire.fields(of: Array(line.utf8)[...])
        func optional(_ field: String) -> String?? {
            if field == "-" { return .some(nil) }
            return field.hasPrefix("=") ? .some(String(field.dropFirst())) : nil
        }
        guard fields.count == 9, fields[0] == "request", let jobs = Int(fields[4]), jobs > 0,
              let cacheIn = optional(fields[6]), let errorOutput = optional(fields[8]) else { return nil }
        self.init(id: fields[1], archive: fields[2], root: fields[3], jobs: jobs, usesCache: fields[5] == "1", cacheIn: cacheIn,
                  digests: fields[7] == "1", errorOutput: errorOutput)
    }
}

/// What `scan-child` reports for one snapshot (the cache entries it stored travel beside it).
struct ChildOutcome {
    struct Failure {
        var message: String
        var retryable: Bool
    }
    var result: SnapshotResult?
    var usedCacheKeys: [String] = []
    var failure: Failure?
    /// The process that checked the snapshot: the worker logs it, and tests see reuse by it.
    var childPID: Int32?
}

/// The outcome as lines, the report last in `ScanReportWire`'s format. Foundation's JSON
/// coding of it (in the child and again in the worker) was half of what isolation added to a
/// one-file job.
extension ChildOutcome {
    static let header = "a11y-audit outcome 1"

    func encode() -> [UInt8] {
        let line = ScanReportWire.line
        var out = Self.header + "\n"
        if let childPID { out += line(["P", String(childPID)]) }
        if let failure { out += line(["X", failure.retryable ? "1" : "0", failure.message]) }
        if !usedCacheKeys.isEmpty { out += line(["K"] + usedCacheKeys) }
        guard let result else { return Array(out.utf8) }
        for (path, bytes) in result.sideFiles.sorted(by: { $0.key < $1.key }) { out += line(["S", path, bytes.base64EncodedString()]) }
        if let digests = result.digests {
            out += line(["D"])
            for (path, digest) in digests.sorted(by: { $0.key < $1.key }) { out += line(["G", path, digest]) }
        }
        out += line(["W"])
        return Array(out.utf8) + ScanReportWire.encode(result.report)
    }

    /// Nil for an answer this build did not write.
    static func decode(_ bytes: ArraySlice<UInt8>) -> ChildOutcome? {
        var outcome = ChildOutcome()
        var rest = bytes
        var sideFiles: [String: Data] = [:], digests: [String: String]?
        var first = true
        while let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
            let lineBytes = rest[rest.startIndex..<end]
            rest = rest[(end + 1)...]
            if first {
                guard lineBytes.elementsEqual(header.utf8) else { return nil }
                first = false
                continue
            }
            let fields = ScanReportWire.fields(of: lineBytes)
            switch fields[0] {
            case "P":
                guard fields.count == 2, let pid = Int32(fields[1]) else { return nil }
                outcome.childPID = pid
            case "X":
                guard fields.count == 3 else { return nil }
                outcome.failure = Failure(message: fields[2], retryable: fields[1] == "1")
            case "K":
                outcome.usedCacheKeys = Array(fields.dropFirst())
            case "S":
                guard fields.count == 3, let data = Data(base64Encoded: fields[2]) else { return nil }
                sideFiles[fields[1]] = data
            case "D":
                digests = [:]
            case "G":
                guard fields.count == 3, digests != nil else { return nil }
                digests?[fields[1]] = fields[2]
            case "W":
                guard let report = ScanReportWire.decode(rest) else { return nil }
                outcome.result = SnapshotResult(report: report, sideFiles: sideFiles, digests: digests)
                return outcome
            default:
                return nil
            }
        }
        return first || !rest.isEmpty ? nil : outcome
    }
}
