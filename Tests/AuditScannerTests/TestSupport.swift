import Foundation

/// A temporary directory holding a small repository, removed when the test ends.
final class TemporaryRepository {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-audit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var path: String { root.path }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> URL {
        try write(relative, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ relative: String, bytes: [UInt8]) throws -> URL {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }
}

/// Runs a program and returns its exit status, standard output and standard error. It gets this
/// process's environment without Xcode's build settings (which would change `scan`'s default
/// format when the tests run inside Xcode), plus `environment`.
func runProcess(_ executable: String, _ arguments: [String], currentDirectory: String? = nil,
                environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    for name in ["XCODE_VERSION_ACTUAL", "XCODE_PRODUCT_BUILD_VERSION"] { inherited[name] = nil }
    process.environment = inherited.merging(environment) { $1 }
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting so a large report cannot block the child on a full pipe.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

enum Paths {
    /// The package root, from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `a11y-audit` executable that `swift build` put beside the test bundle.
    static var executable: String {
        let bundle = Bundle.main.bundleURL
        for candidate in [bundle.appendingPathComponent("a11y-audit"),
                          bundle.deletingLastPathComponent().appendingPathComponent("a11y-audit"),
                          packageRoot.appendingPathComponent(".build/debug/a11y-audit")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.path
        }
        return packageRoot.appendingPathComponent(".build/debug/a11y-audit").path
    }

    /// `shared/` beside the checkout (as CI and the sessions lay it out), if present.
    static var shared: URL? {
        let candidate = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("reference").path) ? candidate : nil
    }
}

/// Runs a program to its end with its output discarded and returns its exit status and peak
/// resident memory. wait4 reports the one child's own peak, where getrusage(RUSAGE_CHILDREN)
/// would report the largest of every child the test process has ever waited for.
func runMeasuringPeakMemory(_ executable: String, _ arguments: [String]) throws -> (status: Int32, peakKilobytes: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard started == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start \(executable): error \(started)"]) }
    var status: Int32 = 0
    var usage = rusage()
    var waited: pid_t
    repeat { waited = wait4(pid, &status, 0, &usage) } while waited < 0 && errno == EINTR
    // Another waiter reaping the child would leave a zeroed usage: a silent pass, so refuse it.
    guard waited == pid else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "wait4 failed: errno \(errno)"]) }
    let exited = (status & 0x7F) == 0
    // Linux reports ru_maxrss in kilobytes.
    return (exited ? (status >> 8) & 0xFF : -1, Int(usage.ru_maxrss))
}
