import Foundation

/// Child processes for tests, with posix_spawn and waitpid: Foundation's Process sometimes
/// never notices the exit of a short-lived child here.
public enum ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` with standard output to `stdout` and standard error to `stderr`
    /// (file paths; the same path merges them), the test's environment plus `environment`.
    /// The child starts with an empty signal mask and default SIGTERM/SIGINT handling: the test
    /// runner blocks signals in its threads and a child would inherit that, so a daemon would
    /// never see the SIGTERM that should stop it (and `timeout` could not stop anything).
    public static func spawn(_ executable: String, _ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null",
                             environment: [String: String] = [:]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if stderr == stdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t(), defaults = sigset_t()
        sigemptyset(&mask)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let env = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, env)
        guard result == 0 else { throw Failure(description: "cannot start \(executable): error \(result)") }
        return pid
    }

    /// Waits for `pid`; returns the raw wait status.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Runs to the end; returns the exit status (-1 when killed by a signal) and what it printed
    /// on standard output and standard error, merged.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        defer { unlink(output) }
        let status = wait(try spawn(executable, arguments, stdout: output, stderr: output, environment: environment))
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : -1, text)
    }
}
