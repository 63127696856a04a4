import AuditModel
import AuditStore
import Foundation
import OrgModel
import DatabaseTestSupport
import PostgresClient
import Testing
import Synchronization

/// An organisation of `count` repositories in two teams, saved to the database.
func makeOrg(_ connection: PostgresConnection, repositories count: Int, maxAttempts: Int = 3) throws -> OrgConfig {
    var config = OrgConfig(
        org: "acme",
        teams: [.init(name: "Payments", owners: ["@acme/payments"]), .init(name: "Platform", owners: ["@acme/platform"])],
        repositories: (0..<count).map { index in
            .init(name: "acme/app-\(index)", team: index % 2 == 0 ? "Payments" : "Platform", archive: "file:///archives/app-\(index).tar.gz")
        })
    config.limits = .init(maxAttempts: maxAttempts)
    try OrgStore(connection: connection).sync(config)
    return config
}

func schedule(_ connection: PostgresConnection, _ config: OrgConfig, date: String = "2026-11-30") throws -> ScheduleOutcome {
    try OrgStore(connection: connection).scheduleRun(config, date: date, createdBy: "test") { repository, ref in
        (repository.archive ?? "").replacingOccurrences(of: "{ref}", with: ref)
    }
}

func jobState(_ connection: PostgresConnection, _ id: Int) throws -> (state: String, attempt: Int, lastError: String?) {
    let row = try #require(try connection.query("SELECT state, attempt, last_error FROM jobs WHERE id = $1", [.int(id)], purpose: "read").first)
    return (row.string("state") ?? "", row.int("attempt") ?? -1, row.string("last_error"))
}

func runState(_ connection: PostgresConnection, _ id: Int) throws -> String? {
    try connection.query("SELECT state FROM runs WHERE id = $1", [.int(id)], purpose: "read").first?.string("state")
}

let fastRetries = QueuePolicy(leaseSeconds: 30, backoffBaseSeconds: 0.001, backoffMaxSeconds: 0.001)

@Suite struct QueueTests {
    @Test func claimsByPriorityThenAge() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            _ = try makeOrg(connection, repositories: 3)
            let ids = try connection.query("SELECT id FROM repositories ORDER BY name", purpose: "read").compactMap { $0.int("id") }
            let queue = JobQueue(connection: connection)
            let old = try #require(try queue.enqueue(JobRequest(runID: nil, repositoryID: ids[0], kind: .nightly, commitRef: "main", archiveURL: "file:///a")))
            let newer = try #require(try queue.enqueue(JobRequest(runID: nil, repositoryID: ids[1], kind: .nightly, commitRef: "main", archiveURL: "file:///b")))
            let urgent = try #require(try queue.enqueue(JobRequest(runID: nil, repositoryID: ids[2], kind: .pr, commitRef: "abc", archiveURL: "file:///c", priority: 10)))
            let order = try (0..<4).map { _ in try queue.claim(worker: "w1")?.id }
            #expect(order == [urgent, old, newer, nil])
        }
    }

    @Test func theSameRepositoryCommitAndKindIsNotQueuedTwice() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            _ = try makeOrg(connection, repositories: 1)
            let repository = try #require(try connection.query("SELECT id FROM repositories", purpose: "read").first?.int("id"))
            let queue = JobQueue(connection: connection)
            let request = JobRequest(runID: nil, repositoryID: repository, kind: .pr, commitRef: "abc123", archiveURL: "file:///x")
            let first = try queue.enqueue(request)
            #expect(first != nil)
            #expect(try queue.enqueue(request) == nil)
            let job = try #require(try queue.claim(worker: "w"))
            let again = try queue.enqueue(request)
            #expect(again != nil, "one may wait while another runs")
            #expect(try queue.enqueue(request) == nil, "but not two")
            #expect(try queue.complete(job) { _ in } == .completed)
        }
    }

    @Test func concurrentWorkersNeverClaimTheSameJob() throws {
        try TestDatabase.with { database in
            let setup = try database.connect()
            let config = try makeOrg(setup, repositories: 120)
            guard case .created(_, let jobs) = try schedule(setup, config) else { Issue.record("not created"); return }
            #expect(jobs == 120)
            let claimed = ClaimLog()
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                do {
                    let queue = JobQueue(connection: try database.connect())
                    while let job = try queue.claim(worker: "worker-\(worker)") {
                        claimed.append(job.id)
                        _ = try queue.complete(job) { _ in }
                    }
                } catch {
                    claimed.fail("\(error)")
                }
            }
            #expect(claimed.errors.isEmpty)
            #expect(claimed.values.count == 120)
            #expect(Set(claimed.values).count == 120, "a job was claimed twice")
            let states = try setup.query("SELECT state, count(*) AS n FROM jobs GROUP BY state", purpose: "read")
            #expect(states.count == 1 && states.first?.string("state") == "succeeded")
            #expect(try setup.query("SELECT state FROM runs", purpose: "read").first?.string("state") == "succeeded")
        }
    }

    @Test func anExpiredLeaseIsRescuedAndTheOldHolderCanWriteNothing() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            _ = try schedule(connection, config)
            let shortLease = JobQueue(connection: connection, policy: QueuePolicy(leaseSeconds: 0.3, backoffBaseSeconds: 0.001, backoffMaxSeconds: 0.001))
            let zombie = try #require(try shortLease.claim(worker: "zombie"))
            #expect(try shortLease.rescueExpiredLeases().isEmpty, "the lease has not expired yet")
            Thread.sleep(forTimeInterval: 0.5)
            #expect(try shortLease.rescueExpiredLeases() == [zombie.id])
            let rescued = try jobState(connection, zombie.id)
            #expect(rescued.state == "failed")
            #expect(rescued.lastError?.contains("lease expired") == true)
            #expect(try shortLease.heartbeat(zombie) == .lost)

            Thread.sleep(forTimeInterval: 0.01)
            let queue = JobQueue(connection: connection, policy: fastRetries)
            let second = try #require(try queue.claim(worker: "healthy"))
            #expect(second.id == zombie.id && second.attempt == 2)
            #expect(try queue.complete(zombie) { _ in Issue.record("the zombie must not write") } == .leaseLost)
            #expect(try queue.complete(second) { _ in } == .completed)
            #expect(try queue.complete(second) { _ in Issue.record("written twice") } == .alreadyCompleted)
            #expect(try jobState(connection, zombie.id).state == "succeeded")
        }
    }

    @Test func heartbeatsKeepTheLease() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            _ = try schedule(connection, config)
            let queue = JobQueue(connection: connection, policy: QueuePolicy(leaseSeconds: 0.4))
            let job = try #require(try queue.claim(worker: "w"))
            for _ in 0..<4 {
                Thread.sleep(forTimeInterval: 0.2)
                #expect(try queue.heartbeat(job) == .held(cancelRequested: false))
                #expect(try queue.rescueExpiredLeases().isEmpty)
            }
            #expect(try queue.complete(job) { _ in } == .completed)
        }
    }

    @Test func failuresRetryWithBackoffThenDieKeepingTheErrors() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1, maxAttempts: 2)
            guard case .created(let runID, _) = try schedule(connection, config) else { Issue.record("not created"); return }
            let slow = JobQueue(connection: connection, policy: QueuePolicy(backoffBaseSeconds: 60, backoffMaxSeconds: 60))
            let first = try #require(try slow.claim(worker: "w"))
            guard case .retryScheduled(let delay) = try slow.fail(first, error: "HTTP 503 from the archive host", retryable: true) else {
                Issue.record("expected a retry"); return
            }
            #expect(delay >= 29 && delay <= 91, "60 s ± 50% jitter, got \(delay)")
            #expect(try slow.claim(worker: "w") == nil, "not before its backoff")
            try connection.query("UPDATE jobs SET run_after = now()", purpose: "skip the wait")
            let second = try #require(try slow.claim(worker: "w"))
            #expect(second.attempt == 2)
            #expect(try slow.fail(second, error: "HTTP 503 again", retryable: true) == .dead)
            let state = try jobState(connection, first.id)
            #expect(state.state == "dead" && state.lastError == "HTTP 503 again")
            let errors = try connection.query("SELECT jsonb_array_length(errors) AS n FROM jobs", purpose: "read").first?.int("n")
            #expect(errors == 2)
            #expect(try runState(connection, runID) == "failed")
        }
    }

    @Test func aNonRetryableErrorIsDeadAtOnce() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1, maxAttempts: 5)
            _ = try schedule(connection, config)
            let queue = JobQueue(connection: connection, policy: fastRetries)
            let job = try #require(try queue.claim(worker: "w"))
            #expect(try queue.fail(job, error: "archive entry ../../etc/passwd escapes the tree", retryable: false) == .dead)
            #expect(try jobState(connection, job.id).attempt == 1)
        }
    }

    @Test func cancellationStopsWaitingAndRunningJobs() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 2)
            guard case .created(let runID, _) = try schedule(connection, config) else { Issue.record("not created"); return }
            let queue = JobQueue(connection: connection)
            let running = try #require(try queue.claim(worker: "w"))
            let waiting = try #require(try connection.query("SELECT id FROM jobs WHERE state = 'queued'", purpose: "read").first?.int("id"))
            #expect(try queue.cancel(jobID: waiting) == .queued)
            #expect(try jobState(connection, waiting).state == "cancelled")
            #expect(try queue.cancel(jobID: running.id) == .running)
            #expect(try jobState(connection, running.id).state == "running", "a running job stops at its next heartbeat")
            #expect(try queue.heartbeat(running) == .held(cancelRequested: true))
            #expect(try queue.complete(running) { _ in Issue.record("a cancelled job must not write results") } == .cancelled)
            #expect(try jobState(connection, running.id).state == "cancelled")
            #expect(try queue.cancel(jobID: running.id) == nil, "already finished")
            #expect(try runState(connection, runID) == "cancelled", "both jobs were cancelled: the run audited nothing")
        }
    }

    @Test func releaseGivesTheJobBackWithoutUsingAnAttempt() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            _ = try schedule(connection, config)
            let queue = JobQueue(connection: connection)
            let job = try #require(try queue.claim(worker: "stopping"))
            #expect(try queue.release(job))
            let again = try #require(try queue.claim(worker: "other"))
            #expect(again.id == job.id && again.attempt == 1)
        }
    }

    @Test func aReleasedJobWithAWaitingTwinIsCancelledAndItsRunFinishes() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            guard case .created(let runID, _) = try schedule(connection, config) else { throw TestFailure("no run") }
            let queue = JobQueue(connection: connection)
            let job = try #require(try queue.claim(worker: "stopping"))
            // A manual audit of the same commit waits while the nightly job runs.
            let twin = try #require(try queue.enqueue(JobRequest(runID: nil, repositoryID: job.repositoryID, kind: job.kind,
                                                                 commitRef: job.commitRef, archiveURL: "file:///x")))
            #expect(try queue.release(job))
            #expect(try jobState(connection, job.id).state == "cancelled")
            #expect(try jobState(connection, twin).state == "queued")
            let run = try connection.query("SELECT state, finished_at IS NOT NULL AS done FROM runs WHERE id = $1", [.int(runID)], purpose: "read").first
            // The twin audits the commit, but outside this run, which audited nothing.
            #expect(run?.string("state") == "cancelled" && run?.bool("done") == true, "the run's last job is settled, so the run is")
        }
    }

    @Test func theGlobalRunningLimitHoldsUnderConcurrentClaims() throws {
        try TestDatabase.with { database in
            let setup = try database.connect()
            let config = try makeOrg(setup, repositories: 20)
            _ = try schedule(setup, config)
            let claimed = ClaimLog()
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                do {
                    let queue = JobQueue(connection: try database.connect(), policy: QueuePolicy(maxRunningJobs: 3))
                    for _ in 0..<3 { if let job = try queue.claim(worker: "w\(worker)") { claimed.append(job.id) } }
                } catch { claimed.fail("\(error)") }
            }
            #expect(claimed.errors.isEmpty)
            #expect(claimed.values.count == 3)
        }
    }

    @Test func twoCoordinatorsScheduleOneRunPerNight() throws {
        try TestDatabase.with { database in
            let setup = try database.connect()
            let config = try makeOrg(setup, repositories: 30)
            let outcomes = OutcomeLog()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { outcomes.append(try schedule(try database.connect(), config)) } catch { outcomes.fail("\(error)") }
            }
            #expect(outcomes.errors.isEmpty)
            let created = outcomes.values.filter { if case .created = $0 { return true } else { return false } }
            #expect(created.count == 1)
            #expect(outcomes.values.count == 4)
            #expect(try setup.query("SELECT count(*) AS n FROM runs", purpose: "read").first?.int("n") == 1)
            #expect(try setup.query("SELECT count(*) AS n FROM jobs", purpose: "read").first?.int("n") == 30)
            guard case .created = try schedule(setup, config, date: "2026-12-01") else { Issue.record("the next night is a new run"); return }
        }
    }

    @Test func tonightsRunSupersedesLastNightsWaitingJobs() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 2)
            guard case .created(let night1, _) = try schedule(connection, config, date: "2026-11-29") else { throw TestFailure("no run") }
            let queue = JobQueue(connection: connection, policy: QueuePolicy(backoffBaseSeconds: 3600, backoffMaxSeconds: 3600))
            let running = try #require(try queue.claim(worker: "w"))
            let retrying = try #require(try queue.claim(worker: "w"))
            _ = try queue.fail(retrying, error: "HTTP 502", retryable: true)
            guard case .created(let night2, let jobs) = try schedule(connection, config, date: "2026-11-30") else { throw TestFailure("no run") }
            #expect(jobs == 2, "both repositories are audited tonight")
            let old = try jobState(connection, retrying.id)
            #expect(old.state == "cancelled" && old.lastError?.contains("superseded") == true)
            #expect(try jobState(connection, running.id).state == "running", "a running job is left to finish")
            #expect(try queue.complete(running) { _ in } == .completed)
            #expect(try runState(connection, night1) == "succeeded")
            #expect(try runState(connection, night2) == "running")
        }
    }

    @Test func syncRetiresRepositoriesNoLongerListedAndKeepsTheirHistory() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            var config = try makeOrg(connection, repositories: 3)
            config.repositories[0].archive = "https://example.com/a,b \"quoted\".tar.gz"
            config.repositories.remove(at: 2)
            try OrgStore(connection: connection).sync(config)
            let rows = try connection.query("SELECT name, active, archive_url FROM repositories ORDER BY name", purpose: "read")
            #expect(rows.map { $0.bool("active") } == [true, true, false])
            #expect(rows.first?.string("archive_url") == "https://example.com/a,b \"quoted\".tar.gz")
            guard case .created(_, let jobs) = try schedule(connection, config) else { throw TestFailure("no run") }
            #expect(jobs == 2, "a retired repository is not audited")
        }
    }

    /// A job that fails or whose worker dies while a twin (same repository, commit, kind) waits:
    /// cancelled, not retried (a second waiting twin would break the unique index).
    @Test func aFailureWithAWaitingTwinIsCancelledNotRetried() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            _ = try makeOrg(connection, repositories: 1)
            let repository = try #require(try connection.query("SELECT id FROM repositories", purpose: "read").first?.int("id"))
            let request = JobRequest(runID: nil, repositoryID: repository, kind: .manual, commitRef: "main", archiveURL: "file:///x")
            let queue = JobQueue(connection: connection, policy: QueuePolicy(leaseSeconds: 0.2, backoffBaseSeconds: 0.001, backoffMaxSeconds: 0.001))
            _ = try queue.enqueue(request)
            let running = try #require(try queue.claim(worker: "w"))
            let twin = try #require(try queue.enqueue(request))
            #expect(try queue.fail(running, error: "HTTP 503", retryable: true) == .cancelled)
            #expect(try jobState(connection, running.id).state == "cancelled")
            #expect(try jobState(connection, twin).state == "queued")

            let second = try #require(try queue.claim(worker: "w"))
            _ = try queue.enqueue(request)
            Thread.sleep(forTimeInterval: 0.3)
            #expect(try queue.rescueExpiredLeases() == [second.id], "the rescue does not trip over the twin")
            #expect(try jobState(connection, second.id).state == "cancelled")
        }
    }

    @Test func aPullRequestCheckWhoseJobDiesOrIsCancelledIsSettled() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            _ = try makeOrg(connection, repositories: 1, maxAttempts: 1)
            let repository = try #require(try connection.query("SELECT id FROM repositories", purpose: "read").first?.int("id"))
            let queue = JobQueue(connection: connection)
            let store = PullRequestStore(connection: connection)
            for (number, sha) in [(1, String(repeating: "a", count: 40)), (2, String(repeating: "b", count: 40))] {
                let job = try queue.enqueue(JobRequest(runID: nil, repositoryID: repository, kind: .pr, commitRef: sha, archiveURL: "file:///x",
                                                       prNumber: number, baseSHA: sha, baseRef: "main", baseArchiveURL: "file:///y"))
                try store.open(repositoryID: repository, prNumber: number, headSHA: sha, baseSHA: sha, baseRef: "main", jobID: job, gate: .requirements)
            }
            let first = try #require(try queue.claim(worker: "w"))
            #expect(try queue.fail(first, error: "HTTP 404 from the archive host", retryable: false) == .dead)
            let waiting = try #require(try connection.query("SELECT id FROM jobs WHERE state = 'queued'", purpose: "read").first?.int("id"))
            #expect(try queue.cancel(jobID: waiting) == .queued)
            #expect(try store.checks().map(\.state) == [.error, .cancelled], "GitHub hears of both instead of a pending forever")
        }
    }

    @Test func aRunWithNoRepositoriesFinishesAtOnce() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 0)
            guard case .created(let runID, let jobs) = try schedule(connection, config) else { Issue.record("not created"); return }
            #expect(jobs == 0)
            #expect(try runState(connection, runID) == "succeeded")
        }
    }

    /// A run none of whose jobs succeeded or died, because they were cancelled, audited nothing:
    /// it is `cancelled`, not `succeeded`. Mixed outcomes keep their meaning: any dead job makes
    /// the run `failed`, otherwise one success makes it `succeeded`.
    @Test func aRunWhoseJobsWereAllCancelledIsCancelled() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let queue = JobQueue(connection: connection)
            func run(_ date: String, repositories: Int) throws -> Int {
                let config = try makeOrg(connection, repositories: repositories, maxAttempts: 1)
                guard case .created(let runID, _) = try schedule(connection, config, date: date) else { throw TestFailure("no run of \(date)") }
                return runID
            }
            func jobs(_ runID: Int) throws -> [Int] {
                try connection.query("SELECT id FROM jobs WHERE run_id = $1 ORDER BY id", [.int(runID)], purpose: "read").compactMap { $0.int("id") }
            }

            let only = try run("2026-11-01", repositories: 1)
            #expect(try queue.cancel(jobID: try #require(try jobs(only).first)) == .queued)
            let finished = try #require(try connection.query("SELECT state, finished_at IS NOT NULL AS done FROM runs WHERE id = $1",
                                                             [.int(only)], purpose: "read").first)
            #expect(finished.string("state") == "cancelled" && finished.bool("done") == true)
            let status = try PipelineStatus(connection: connection).render(runID: only)
            #expect(status.contains("run \(only) (acme nightly 2026-11-01): cancelled"), "\(status)")
            #expect(status.contains("jobs: cancelled 1"), "\(status)")

            // A running job cancelled at its heartbeat, and one whose worker vanished after the
            // cancel was asked for: both settle as cancelled, and so does their run.
            let both = try run("2026-11-02", repositories: 2)
            let stopped = try #require(try queue.claim(worker: "w"))
            let vanished = try #require(try JobQueue(connection: connection, policy: QueuePolicy(leaseSeconds: 0.1)).claim(worker: "gone"))
            #expect(try queue.cancel(jobID: stopped.id) == .running && queue.cancel(jobID: vanished.id) == .running)
            #expect(try queue.complete(stopped) { _ in Issue.record("a cancelled job writes nothing") } == .cancelled)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(try queue.rescueExpiredLeases() == [vanished.id])
            #expect(try runState(connection, both) == "cancelled")

            let mixed = try run("2026-11-03", repositories: 2)
            let done = try #require(try queue.claim(worker: "w"))
            #expect(try queue.complete(done) { _ in } == .completed)
            _ = try queue.cancel(jobID: try #require(try jobs(mixed).last))
            #expect(try runState(connection, mixed) == "succeeded", "one repository audited, one cancelled")

            let failed = try run("2026-11-04", repositories: 2)
            let dying = try #require(try queue.claim(worker: "w"))
            #expect(try queue.fail(dying, error: "HTTP 404 from the archive host", retryable: false) == .dead)
            _ = try queue.cancel(jobID: try #require(try jobs(failed).last))
            #expect(try runState(connection, failed) == "failed", "a dead job is never hidden behind a cancelled one")
        }
    }
}

/// What several threads report: values and errors, in arrival order.
final class ThreadLog<Value: Sendable>: Sendable {
    private let entries = Mutex<(values: [Value], errors: [String])>(([], []))
    func append(_ value: Value) { entries.withLock { $0.values.append(value) } }
    func fail(_ error: String) { entries.withLock { $0.errors.append(error) } }
    var values: [Value] { entries.withLock { $0.values } }
    var errors: [String] { entries.withLock { $0.errors } }
}

typealias ClaimLog = ThreadLog<Int>
typealias OutcomeLog = ThreadLog<ScheduleOutcome>
