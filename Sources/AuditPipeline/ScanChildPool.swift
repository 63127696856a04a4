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

/// The worker's side of one `a11y-audit scan-child --serve`: the pipe its requests go down,
/// the pipe its answers come up, the pipe of its progress lines, and its exit status once it is
/// reaped.
///
/// The job's own thread waits for the child's answer (`waitForNews`): one wake-up per answer.
/// Progress lines are read only when it wakes anyway (at least every poll interval, and at the
/// answer or the child's end), so a line per file never takes a core from the checks. An idle
/// child says nothing; its exit is noticed before its next job (`waitStatus`), and `stop` reaps it.
final class ServingChild: Sendable {
    let pid: pid_t
    /// The read ends of the child's standard output and of its progress pipe (descriptor 3 in
    /// the child, non-blocking here); closed when the child is dropped.
    private let answers: Int32
    private let progressLines: Int32
    private let state: Mutex<ChildState>

    private struct ChildState {
        /// The write end of the child's standard input; nil once closed.
        var requests: Int32?
        var progress = ChildProgress()
        var answer: ChildAnswer?
        var waitStatus: Int32?
        var requestsTaken = 0
        /// Bytes read and not yet taken, and the answer being read: its id and how many bytes
        /// of each part it announced.
        var pending: [UInt8] = []
        var pendingProgress: [UInt8] = []
        var awaited: (id: String, outcome: Int, cache: Int)?
    }

    /// What the child answered for one request: its outcome (`ChildOutcome.encode`) and the cache entries it
    /// stored, or why the answer could not be read.
    struct ChildAnswer {
        let id: String
        let outcome: Result<(outcome: ArraySlice<UInt8>, cache: ArraySlice<UInt8>), SendError>
    }

    /// An answer bigger than this is not one our child wrote (a result for the largest real
    /// repositories is a few megabytes).
    static let answerLimit = 1 << 30

    struct SendError: Error, CustomStringConvertible {
        let description: String
    }

    private init(pid: pid_t, requests: Int32, answers: Int32, progressLines: Int32) {
        self.pid = pid
        self.answers = answers
        self.progressLines = progressLines
        state = Mutex(ChildState(requests: requests))
    }

    deinit {
        close(answers)
        close(progressLines)
    }

    /// Its arguments leave room for the process title the child writes over them.
    static let titleRoom = String(repeating: " ", count: 400)

    static func start(_ executable: String, workDirectory: String) throws -> ServingChild {
        // Close-on-exec from the start: another slot starting its child at the same moment
        // must not inherit this child's pipe, or this child would never see its end of file.
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], progress: [Int32] = [-1, -1]
        guard a11y_pipe_cloexec(&input) == 0 else { throw startFailure(executable, errno) }
        guard a11y_pipe_cloexec(&output) == 0 else {
            let error = errno
            close(input[0]); close(input[1])
            throw startFailure(executable, error)
        }
        guard a11y_pipe_cloexec(&progress) == 0 else {
            let error = errno
            for descriptor in input + output { close(descriptor) }
            throw startFailure(executable, error)
        }
        _ = fcntl(progress[0], F_SETFL, fcntl(progress[0], F_GETFL) | O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, progress[1], 3)
        // Until a request names the job's file, what it says on standard error goes nowhere.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The worker's database sockets and other descriptors are none of the child's business.
        a11y_spawn_close_from(&actions, 4)
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

        let arguments = [executable, "scan-child", "--serve", "--work-dir", workDirectory, "--progress-fd", "3", "--title-room", titleRoom]
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
        close(progress[1])
        guard result == 0 else {
            close(input[1]); close(output[0]); close(progress[0])
            throw startFailure(executable, result)
        }
        return ServingChild(pid: pid, requests: input[1], answers: output[0], progressLines: progress[0])
    }

    private static func startFailure(_ executable: String, _ code: Int32) -> JobFailure {
        JobFailure("cannot start \(executable) scan-child --serve: \(String(cString: strerror(code)))", retryable: true)
    }

    /// Waits up to `timeout` seconds for the child to say something, and takes what it said:
    /// progress lines, an answer, or its end (then it is reaped). Called by the one job thread
    /// that holds the child.
    func waitForNews(timeout: Double) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        defer { readProgress(into: &buffer) }
        var wait = Int32(max(0, timeout) * 1000)
        // Reads on while more is ready at once: a large answer comes in many pipe-fulls.
        while true {
            var watched = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(answers, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                reapAfterEndOfFile()
                return
            }
            let answered = state.withLock { state in
                state.pending += buffer[0..<count]
                Self.take(&state)
                return state.answer != nil
            }
            if answered { return }
            wait = 0
        }
    }

    /// Takes every progress line the child has written so far (the pipe is non-blocking).
    private func readProgress(into buffer: inout [UInt8]) {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(progressLines, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            state.withLock { state in
                state.pendingProgress += buffer[0..<count]
                while let newline = state.pendingProgress.firstIndex(of: UInt8(ascii: "\n")) {
                    state.progress.take(Substring(String(decoding: state.pendingProgress[..<newline], as: UTF8.self)))
                    state.pendingProgress.removeSubrange(...newline)
                }
                // A line never grows past a path and its marker; anything longer is not ours.
                if state.pendingProgress.count > 1 << 16 { state.pendingProgress.removeAll() }
            }
        }
    }

    /// Parses what is pending: answers of announced length (and any stray line before one).
    private static func take(_ state: inout ChildState) {
        while true {
            if let answer = state.awaited {
                let total = answer.outcome + answer.cache
                guard state.pending.count >= total else {
                    state.pending.reserveCapacity(total)
                    return
                }
                let outcome = state.pending[..<answer.outcome], cache = state.pending[answer.outcome..<total]
                state.answer = ChildAnswer(id: answer.id, outcome: .success((outcome, cache)))
                state.pending.removeSubrange(..<total)
                state.awaited = nil
                continue
            }
            guard let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) else {
                if state.pending.count > 1 << 16 { state.pending.removeAll() }
                return
            }
            let line = String(decoding: state.pending[..<newline], as: UTF8.self)
            state.pending.removeSubrange(...newline)
            guard line.hasPrefix("=done ") else {
                state.progress.take(Substring(line))
                continue
            }
            let fields = line.dropFirst("=done ".count).split(separator: " ")
            if fields.count == 3, let outcome = Int(fields[1]), let cache = Int(fields[2]), outcome >= 0, cache >= 0,
               outcome + cache <= answerLimit {
                state.awaited = (String(fields[0]), outcome, cache)
            } else {
                let error = SendError(description: "it sent a malformed answer line \(line.prefix(120))")
                state.answer = ChildAnswer(id: fields.first.map(String.init) ?? "", outcome: .failure(error))
            }
        }
    }

    /// The child closed its output: it is exiting (a crash, a kill, or the end of its requests).
    /// Its status is collected without blocking for long; one that lingers with its output
    /// closed is not ours to trust and is killed.
    private func reapAfterEndOfFile() {
        for _ in 0..<200 {
            if reap(blocking: false) { return }
            usleep(5_000)
        }
        state.withLock { state in
            if state.waitStatus == nil { kill(pid, SIGKILL) }
        }
        _ = reap(blocking: true)
    }

    /// Collects the exit status under the lock: `stop` signals the pid only while it is not
    /// reaped, so a kill can never reach another process that reused the number.
    @discardableResult
    private func reap(blocking: Bool) -> Bool {
        state.withLock { state in
            if state.waitStatus != nil { return true }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
            guard result == pid else { return false }
            state.waitStatus = status
            return true
        }
    }

    /// Writes one request line; a child that is gone (EPIPE) or stopped taking requests throws.
    func send(_ request: ChildRequest) throws {
        let line = Array(request.line.utf8)
        try state.withLock { state throws(SendError) in
            guard let descriptor = state.requests, state.waitStatus == nil else { throw SendError(description: "the child has exited") }
            state.progress = ChildProgress()
            state.answer = nil
            state.pending.removeAll()
            state.pendingProgress.removeAll()
            state.awaited = nil
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

    /// The child's answer to the request `id` if it has given it, and whether it has exited.
    func status(of id: String) -> (answer: ChildAnswer?, exited: Bool) {
        state.withLock { state in (state.answer?.id == id ? state.answer : nil, state.waitStatus != nil) }
    }

    var activity: String { state.withLock { $0.progress.activity } }
    /// The exit status once the child is gone (an idle child's exit is collected here).
    var waitStatus: Int32? {
        reap(blocking: false)
        return state.withLock { $0.waitStatus }
    }
    var requestsTaken: Int { state.withLock { $0.requestsTaken } }

    /// SIGKILL unless already reaped, close its standard input, and reap it: when this returns
    /// the process is gone.
    func stop() {
        state.withLock { state in
            if state.waitStatus == nil { kill(pid, SIGKILL) }
            if let descriptor = state.requests { close(descriptor) }
            state.requests = nil
        }
        reap(blocking: true)
    }
}
