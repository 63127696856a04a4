import CProcess
import Foundation
import Synchronization

/// A worker slot's share of the pool: the slot's index picks its child.
struct IsolatedSlot: Sendable {
    let pool: ScanChildPool
    let index: Int
    var isolation: ScanIsolation { pool.isolation }
}

/// The long-lived scan children of one worker, one per slot (a slot runs one job at a time, so
/// a child never has two). Starting a child costs ~25 ms (Swift runtime, SwiftSyntax, the
/// reference tables); a child kept from job to job pays that once per slot instead of per job.
/// A child that crashed, was killed for a limit or a cancellation, or said anything unexpected
/// is discarded, and the slot's next job gets a fresh one.
final class ScanChildPool: Sendable {
    let isolation: ScanIsolation
    /// Named in each child's process title, so `ps` tells whose child it is.
    let workDirectory: String
    let log: WorkerLog
    private let state = Mutex(PoolState())

    private struct PoolState {
        var closed = false
        var children: [Int: ServingChild] = [:]
    }

    init(isolation: ScanIsolation, workDirectory: String, log: WorkerLog) {
        self.isolation = isolation
        self.workDirectory = workDirectory
        self.log = log
        // A request written to a child that just died must be an error (EPIPE) for that job,
        // not a SIGPIPE that kills the worker and every job it holds.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The slot's child, started if it has none or replaced if it should retire.
    func child(for slot: Int, memoryLimitMB: Int) throws -> ServingChild {
        let current = try state.withLock { state throws(JobFailure) -> ServingChild? in
            guard !state.closed else { throw Self.shuttingDown }
            return state.children[slot]
        }
        if let current {
            guard let reason = retirement(of: current, memoryLimitMB: memoryLimitMB) else { return current }
            discard(current, slot: slot, reason: reason)
        }
        let fresh = try ServingChild.start(isolation.executable, workDirectory: workDirectory)
        let kept = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.children[slot] = fresh
            return true
        }
        guard kept else {
            fresh.stop()
            throw Self.shuttingDown
        }
        log.event("scan-child.started", [("slot", slot), ("pid", fresh.pid)])
        return fresh
    }

    /// Why `child` must not take the next job, if it must not.
    private func retirement(of child: ServingChild, memoryLimitMB: Int) -> String? {
        if child.waitStatus != nil { return "exited while idle" }
        if child.requestsTaken >= isolation.snapshotsPerChild { return "served \(child.requestsTaken) snapshots" }
        if let resident = IsolatedScan.residentMegabytes(child.pid), resident > min(isolation.idleMemoryLimitMB, memoryLimitMB / 2) {
            return "idle at \(resident) MB"
        }
        return nil
    }

    /// Kills `child` (if it still runs), reaps it, and forgets it: the slot's next job starts a fresh one.
    func discard(_ child: ServingChild, slot: Int, reason: String) {
        let known = state.withLock { state -> Bool in
            guard state.children[slot] === child else { return false }
            state.children[slot] = nil
            return true
        }
        child.stop()
        if known { log.event("scan-child.retired", [("slot", slot), ("pid", child.pid), ("reason", reason)]) }
    }

    /// Kills every child, busy or idle, and refuses to start more: the worker is stopping. A
    /// slot still in a job sees its child die and fails (or abandons) that job.
    func shutdown() {
        let children = state.withLock { state -> [ServingChild] in
            state.closed = true
            defer { state.children = [:] }
            return Array(state.children.values)
        }
        for child in children { child.stop() }
    }

    private static let shuttingDown = JobFailure("stopped: the worker is shutting down", retryable: true)
}

/// The worker's side of one `a11y-audit scan-child --serve`: the pipe its requests go down, a
/// thread reading its progress and `=done` lines, and its exit status once it is reaped.
final class ServingChild: Sendable {
    let pid: pid_t
    private let state: Mutex<ChildState>
    /// Signalled on a `=done` line and on the child's exit: the watch wakes at once.
    private let news = DispatchSemaphore(value: 0)

    private struct ChildState {
        /// The write end of the child's standard input; nil once closed.
        var requests: Int32?
        var progress = ChildProgress()
        var reported: String?
        var waitStatus: Int32?
        var requestsTaken = 0
    }

    struct SendError: Error, CustomStringConvertible {
        let description: String
    }

    private init(pid: pid_t, requests: Int32) {
        self.pid = pid
        state = Mutex(ChildState(requests: requests))
    }

    /// Its arguments leave room for the process title the child writes over them.
    static let titleRoom = String(repeating: " ", count: 400)

    static func start(_ executable: String, workDirectory: String) throws -> ServingChild {
        // Close-on-exec from the start: another slot starting its child at the same moment
        // must not inherit this child's pipe, or this child would never see its end of file.
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard a11y_pipe_cloexec(&input) == 0 else { throw startFailure(executable, errno) }
        guard a11y_pipe_cloexec(&output) == 0 else {
            let error = errno
            close(input[0]); close(input[1])
            throw startFailure(executable, error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        // Until a request names the job's file, what it says on standard error goes nowhere.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The worker's database sockets and other descriptors are none of the child's business.
        a11y_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The worker ignores SIGPIPE and its threads may block signals (the test runner's do):
        // the child starts with the defaults, so a kill and a closed pipe act on it as usual.
        var mask = sigset_t(), defaults = sigset_t()
        sigemptyset(&mask)
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = [executable, "scan-child", "--serve", "--work-dir", workDirectory, "--title-room", titleRoom]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child reads local archives and writes local files: it gets no credential, and no
        // crash report slows its death.
        var environment = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"].contains($0.key) }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1]); close(output[0])
            throw startFailure(executable, result)
        }
        let child = ServingChild(pid: pid, requests: input[1])
        let progress = output[0]
        let reader = Thread { child.read(progress) }
        reader.name = "a11y-scan-child-\(pid)"
        reader.start()
        return child
    }

    private static func startFailure(_ executable: String, _ code: Int32) -> JobFailure {
        JobFailure("cannot start \(executable) scan-child --serve: \(String(cString: strerror(code)))", retryable: true)
    }

    /// The reader thread: progress and `=done` lines until end of file, then the exit status.
    private func read(_ descriptor: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                take(Substring(String(decoding: pending[..<newline], as: UTF8.self)))
                pending.removeSubrange(...newline)
            }
            // A line never grows past a path and its marker; anything longer is not ours.
            if pending.count > 1 << 16 { pending.removeAll() }
        }
        close(descriptor)
        // Wait without reaping, then reap under the lock: `stop` signals the pid only while it is
        // not reaped, so a kill can never reach another process that reused the number.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        state.withLock { state in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            state.waitStatus = status
        }
        news.signal()
    }

    private func take(_ line: Substring) {
        if line.hasPrefix("=done ") {
            state.withLock { $0.reported = String(line.dropFirst("=done ".count)) }
            news.signal()
        } else {
            state.withLock { $0.progress.take(line) }
        }
    }

    /// Writes one request line; a child that is gone (EPIPE) or stopped taking requests throws.
    func send(_ request: ChildRequest) throws {
        var line = [UInt8](try JSONEncoder().encode(request))
        line.append(UInt8(ascii: "\n"))
        try state.withLock { state throws(SendError) in
            guard let descriptor = state.requests, state.waitStatus == nil else { throw SendError(description: "the child has exited") }
            state.progress = ChildProgress()
            state.reported = nil
            state.requestsTaken += 1
            var offset = 0
            while offset < line.count {
                let written = line[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw SendError(description: String(cString: strerror(errno))) }
                offset += written
            }
        }
    }

    /// Whether the child reported the request `id` done, and whether it has exited.
    func status(of id: String) -> (reported: Bool, exited: Bool) {
        state.withLock { ($0.reported == id, $0.waitStatus != nil) }
    }

    func waitForNews(timeout: Double) {
        _ = news.wait(timeout: .now() + timeout)
    }

    var activity: String { state.withLock { $0.progress.activity } }
    var waitStatus: Int32? { state.withLock { $0.waitStatus } }
    var requestsTaken: Int { state.withLock { $0.requestsTaken } }

    /// SIGKILL unless already reaped, close its standard input, and wait until it is reaped:
    /// when this returns the process is gone.
    func stop() {
        state.withLock { state in
            if state.waitStatus == nil { kill(pid, SIGKILL) }
            if let descriptor = state.requests { close(descriptor) }
            state.requests = nil
        }
        while waitStatus == nil { waitForNews(timeout: 0.05) }
        // Leave a signal for anyone else waiting on this child (the job's watch during a shutdown).
        news.signal()
    }
}
