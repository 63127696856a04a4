import AuditModel
import AuditStore
import Dashboard
import OrgModel
import PostgresClient
import Testing

/// Claims every queued job and completes it through the real write path, each reporting what
/// `findings` says for its repository (the name after the owner). Findings without a
/// fingerprint (written by hand) get one; a scanner's keep theirs.
func auditQueuedJobs(_ connection: PostgresConnection, platforms: (String) -> PlatformSet? = { _ in nil },
                     _ findings: (String) -> [Finding]) throws {
    let queue = JobQueue(connection: connection)
    let commit = String(repeating: "ab", count: 20)
    while let job = try queue.claim(worker: "scenario") {
        let name = String(job.repositoryName.split(separator: "/").last ?? "")
        var list = findings(name)
        var written = list.filter { $0.fingerprint.isEmpty }
        written.assignFingerprints()
        list = list.filter { !$0.fingerprint.isEmpty } + written
        let teamID = try connection.query("SELECT team_id FROM repositories WHERE id = $1", [.int(job.repositoryID)], purpose: "team").first?.int("team_id")
        let outcome = try queue.complete(job) {
            try HistoryWriter(connection: $0).write(JobResults(findings: list.map { .init(finding: $0, teamID: teamID) }, filesScanned: 5,
                                                               filesParsed: 5, cacheHits: 0, commitSHA: commit,
                                                               platforms: platforms(name)), for: job)
        }
        #expect(outcome == .completed)
    }
}

func scheduleRun(_ connection: PostgresConnection, _ config: OrgConfig, _ date: String, kind: JobKind = .nightly) throws -> Int {
    let outcome = try OrgStore(connection: connection).scheduleRun(config, date: date, kind: kind, createdBy: "test") { repository, ref in
        (repository.archive ?? "").replacingOccurrences(of: "{ref}", with: ref)
    }
    guard case .created(let runID, _) = outcome else { throw RenderError.noOrganisation }
    return runID
}
