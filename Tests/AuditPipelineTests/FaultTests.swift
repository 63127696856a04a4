import AuditPipeline
import AuditStore
import DatabaseTestSupport
import Foundation
import PostgresClient
import Testing

/// A named pipe standing in for an archive: whoever reads it waits, mid-job, until the test
/// writes the real archive into it.
struct StalledArchive {
    let path: String
    let archive: String

    init(in workspace: Workspace, archive: String) throws {
        path = workspace.root + "/stalled.tar.gz"
        self.archive = archive
        guard mkfifo(path, 0o644) == 0 else { throw TestFailure("mkfifo failed: \(errno)") }
    }

    /// Blocks until a reader opens the pipe, then writes the archive and closes it.
    func release() {
        let thread = Thread { [path, archive] in
            guard let bytes = FileManager.default.contents(atPath: archive) else { return }
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(descriptor)
        }
        thread.start()
    }
}

func waitFor(_ what: String, timeout: Double = 30, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (try? condition()) == true { return }
        Thread.sleep(forTimeInterval: 0.1)
    }
    throw TestFailure("timed out waiting for \(what)")
}

@Suite(.serialized) struct FaultTests {
    @Test func aWorkerKilledMidJobIsReplacedAfterItsLeaseAndTheJobCompletesOnce() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let stalled = try StalledArchive(in: workspace, archive: app)
            let config = try workspace.writeConfig([("acme/app", stalled.path)])
            let run = try scheduleNight(database, config: config, date: "2026-11-30")
            let connection = try database.connect()

            let victim = try ChildProcess.spawn(Executable.path, ["worker", "--once", "--lease", "1", "--poll", "0.1", "--name", "victim",
                                                                  "--work-dir", workspace.workDirectory],
                                                environment: ["DATABASE_URL": database.settings.conninfo])
            try waitFor("the victim to claim the job") { try value(connection, "SELECT state FROM jobs") == "running" }
            Thread.sleep(forTimeInterval: 0.3)
            kill(victim, SIGKILL)
            #expect(ChildProcess.wait(victim) & 0x7f == SIGKILL, "killed by SIGKILL")
            #expect(try value(connection, "SELECT locked_by FROM jobs") == "victim")

            stalled.release()
            var options = workerOptions(database, workspace, concurrency: 1, lease: 1)
            options.name = "rescuer"
            let summary = try Worker(options: options, source: FetchingArchiveSource(), log: .silent).run()
            #expect(summary.succeeded == 1)
            let job = try #require(try connection.query("""
                SELECT state, attempt, locked_by, errors->0->>'error' AS first_error FROM jobs
                """, purpose: "read").first)
            #expect(job.string("state") == "succeeded" && job.int("attempt") == 2 && job.string("locked_by") == "rescuer")
            #expect(job.string("first_error") == "lease expired")
            #expect(try value(connection, "SELECT count(*) FROM job_summaries") == "1")
            #expect(try value(connection, "SELECT state FROM runs WHERE id = $1", [.int(run)]) == "succeeded")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).allSatisfy { !$0.contains("-job-") || $0.contains("-1-") },
                    "the rescuer cleans its own folder")
        }
    }

    @Test func workersReconnectWhenPostgreSQLRestartsMidRun() throws {
        let workspace = try Workspace()
        let serverDirectory = workspace.root + "/pg"
        let script = TestDatabase.repositoryRoot + "/deploy/postgres.sh"
        // The URL is the script's last line (standard error is merged into the output).
        let url = String(try shell(script, ["start", serverDirectory]).split(separator: "\n").last ?? "")
        defer { _ = try? shell(script, ["stop", serverDirectory]) }
        let settings = ConnectionSettings(conninfo: url)
        try Migrator(connection: PostgresConnection(settings)).migrate(try Migrations.load(from: TestDatabase.migrationsDirectory))

        let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
        let stalled = try StalledArchive(in: workspace, archive: app)
        let config = try workspace.writeConfig([("acme/a-first", app), ("acme/b-stalled", stalled.path)])
        guard case .created(let run, _) = try Coordinator(configPath: config, database: settings, log: .silent).scheduleNow(date: "2026-11-30") else {
            throw TestFailure("not scheduled")
        }
        let options = WorkerOptions(database: settings, name: "survivor", concurrency: 1, mode: .forever,
                                    policy: QueuePolicy(leaseSeconds: 30, backoffBaseSeconds: 0.01, backoffMaxSeconds: 0.01),
                                    pollInterval: 0.1, workDirectory: workspace.workDirectory, scanJobs: 2)
        let worker = Worker(options: options, source: FetchingArchiveSource(), log: .silent)
        let finished = DispatchSemaphore(value: 0)
        let outcome = LockedList<WorkerSummary>()
        Thread {
            if let summary = try? worker.run() { outcome.append(summary) }
            finished.signal()
        }.start()

        func query(_ sql: String) throws -> String? {
            let rows = try PostgresConnection(settings).query(sql, purpose: "test query")
            return rows.columns.first.flatMap { rows.first?.string($0) }
        }
        try waitFor("the stalled job to start") {
            try query("SELECT j.state FROM jobs j JOIN repositories r ON r.id = j.repository_id WHERE r.name = 'acme/b-stalled'") == "running"
        }
        _ = try shell(script, ["stop", serverDirectory])
        Thread.sleep(forTimeInterval: 1)
        _ = try shell(script, ["start", serverDirectory, try String(contentsOfFile: serverDirectory + "/port", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)])
        stalled.release()
        try waitFor("the run to finish", timeout: 60) { try query("SELECT state FROM runs WHERE id = \(run)") == "succeeded" }
        worker.requestStop()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(try query("SELECT count(*) FROM jobs WHERE state = 'succeeded' AND attempt = 1") == "2",
                "the job in hand kept its lease across the restart and completed once")
        #expect(try query("SELECT count(*) FROM job_summaries") == "2")
        #expect(outcome.values.first?.succeeded == 2)
    }
}

/// Runs a program to its end; its output, or an error when it fails.
@discardableResult
func shell(_ executable: String, _ arguments: [String]) throws -> String {
    let result = try ChildProcess.run(executable, arguments)
    guard result.status == 0 else { throw TestFailure("\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.output)") }
    return result.output
}
