import ArchiveFetch
import AuditModel
import AuditScanner
import AuditStore
import Foundation
import PostgresClient
import PullRequestVerdict

/// One job's work between claim and completion: fetch the archive, audit it with the same
/// scanner as `a11y-audit scan` (per-file cache kept in PostgreSQL), attribute each finding to a
/// team. Touches the database only to read the cache and the teams, and to store new cache rows.
struct JobAudit {
    let job: ClaimedJob
    let connection: PostgresConnection
    let source: any ArchiveSource
    let directory: String
    let scanJobs: Int
    let useCache: Bool
    /// The worker slot's scan child; nil: the checks run in this process (tests that need no
    /// isolation, embedding).
    let isolation: IsolatedSlot?
    /// When the job was claimed: its time limit counts from here (with isolation).
    let started: Date

    /// The job's limits: its organisation's, else the worker's defaults.
    private var timeLimitSeconds: Int { job.timeLimitSeconds ?? isolation?.isolation.defaultTimeLimitSeconds ?? 0 }
    private var memoryLimitMB: Int { job.memoryLimitMB ?? isolation?.isolation.defaultMemoryLimitMB ?? 0 }

    struct Outcome {
        var results: JobResults
        /// Pull-request jobs: the head's findings against the base's.
        var comparison: PullRequestComparison?
        /// Why the new cache rows were not stored, if they were not.
        var cacheError: String?
        /// The scan children that checked the snapshots (none without isolation).
        var childPIDs: [Int32]
    }

    /// One snapshot fetched and audited.
    struct Snapshot {
        var result: SnapshotResult
        var report: ScanReport { result.report }
        var fetchMilliseconds: Int
        var scanMilliseconds: Int
        var childPID: Int32?
    }

    func run(cancelled: () -> Bool) throws -> Outcome {
        var cacheError: String?
        // The database reads and cache writes of a job are idempotent: after a lost connection
        // (a server restart, a failover) they are simply run again on a new one.
        let cache = useCache ? try connection.retryingAfterReconnect { MemoryCacheStorage(entries: try FileCacheStore(connection: $0).load(repositoryID: job.repositoryID)) } : nil
        let head = try audit(job.archiveURL, cache: cache, cancelled: cancelled)
        // A pull request's base is audited too; its files were mostly audited by the nightly
        // run of the default branch, so they come from the cache and are not parsed again.
        var comparison: PullRequestComparison?
        var base: Snapshot?
        if job.kind == .pr, let baseURL = job.baseArchiveURL {
            let snapshot = try audit(baseURL, cache: cache, cancelled: cancelled)
            comparison = PullRequestComparison(
                head: head.report.findings, base: snapshot.report.findings,
                changedFiles: PullRequestComparison.changedFiles(head: head.result.digests ?? [:], base: snapshot.result.digests ?? [:]))
            base = snapshot
        }
        if let cache {
            // The cache only saves time: failing to store it must not fail the audit.
            do {
                try connection.retryingAfterReconnect { try FileCacheStore(connection: $0).save(added: cache.newEntries, used: cache.usedKeys, repositoryID: job.repositoryID) }
            } catch {
                cacheError = "\(error)"
            }
        }

        let attribution = try connection.retryingAfterReconnect {
            try TeamAttribution.load(for: job.repositoryID, input: head.result.sideInput, connection: $0)
        }
        let findings = head.report.findings.map { JobResults.AttributedFinding(finding: $0, teamID: attribution.team(for: $0.location.file)) }
        let configJSON = head.result.sideInput.files.first { $0.path == AuditConfig.fileName }
            .flatMap { try? $0.bytes() }.flatMap { String(bytes: $0, encoding: .utf8) }
            .flatMap { text in (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil ? text : nil }
        let statistics = head.report.statistics
        return Outcome(results: JobResults(
            findings: findings, notes: head.report.notes.filter { $0.kind != .summary } + attribution.notes,
            filesScanned: statistics.filesChecked + (base?.report.statistics.filesChecked ?? 0),
            filesParsed: statistics.filesParsed + (base?.report.statistics.filesParsed ?? 0),
            cacheHits: statistics.cacheHits + (base?.report.statistics.cacheHits ?? 0), suppressed: statistics.findingsSuppressed,
            fetchMilliseconds: head.fetchMilliseconds + (base?.fetchMilliseconds ?? 0),
            scanMilliseconds: head.scanMilliseconds + (base?.scanMilliseconds ?? 0),
            commitSHA: Self.looksLikeCommit(job.commitRef) ? job.commitRef : nil, configJSON: configJSON,
            rulesChecked: Scanner.rulesChecked(configJSON: configJSON), platforms: statistics.platforms),
            comparison: comparison, cacheError: cacheError, childPIDs: [head.childPID, base?.childPID].compactMap { $0 })
    }

    private func audit(_ url: String, cache: MemoryCacheStorage?, cancelled: () -> Bool) throws -> Snapshot {
        let fetchStarted = Date()
        let archive = try source.fetch(url, provider: job.provider, into: directory)
        let fetchMilliseconds = Int(Date().timeIntervalSince(fetchStarted) * 1000)
        if cancelled() { throw JobFailure("stopped: the job was cancelled or its lease lost", retryable: true) }
        let scanStarted = Date()
        let result: SnapshotResult
        var childPID: Int32?
        do {
            if let isolation {
                (result, childPID) = try IsolatedScan(slot: isolation, timeLimitSeconds: timeLimitSeconds,
                                                      deadline: started.addingTimeInterval(Double(timeLimitSeconds)),
                                                      memoryLimitMB: memoryLimitMB, directory: directory)
                    .run(archive: archive, root: job.repositoryName, jobs: scanJobs, cache: cache, wantDigests: job.kind == .pr,
                         cancelled: cancelled)
            } else {
                result = try SnapshotAudit.run(archive: archive, root: job.repositoryName, jobs: scanJobs, cache: cache,
                                               wantDigests: job.kind == .pr)
            }
        } catch let error as ScanError {
            // Name the archive by its URL, not by the worker's temporary copy.
            throw JobFailure(error.description.replacingOccurrences(of: archive, with: redactedURL(url)), retryable: false)
        } catch let failure as JobFailure {
            throw JobFailure(failure.description.replacingOccurrences(of: archive, with: redactedURL(url)), retryable: failure.retryable)
        }
        // The archive is read; its copy is not needed any more (a pull request fetches two).
        if archive.hasPrefix(directory) { unlink(archive) }
        return Snapshot(result: result, fetchMilliseconds: fetchMilliseconds,
                        scanMilliseconds: Int(Date().timeIntervalSince(scanStarted) * 1000), childPID: childPID)
    }

    static func looksLikeCommit(_ ref: String) -> Bool {
        ASCII.isCommitSHA(ref)
    }
}
