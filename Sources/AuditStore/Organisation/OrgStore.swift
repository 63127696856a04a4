import Foundation
import OrgModel
import PostgresClient

public enum ScheduleOutcome: Sendable, Equatable {
    case created(runID: Int, jobs: Int)
    /// Another coordinator (or an earlier call) already scheduled this night's run.
    case alreadyScheduled(runID: Int)
}

/// Teams, repositories and runs of an organisation: mirrors the org config into the database and
/// schedules runs.
public struct OrgStore {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// Makes the database's teams and repositories match the config: new ones added, changed ones
    /// updated, repositories no longer listed made inactive (their history stays).
    public func sync(_ config: OrgConfig, discovered: [OrgConfig.Repository] = []) throws {
        try connection.transaction(purpose: "save the organisation config of \(config.org)") { connection in
            for team in config.teams {
                try connection.query("""
                    INSERT INTO teams (org, name, slug, owners) VALUES ($1, $2, $3, $4::text[])
                    ON CONFLICT (org, name) DO UPDATE SET owners = EXCLUDED.owners
                    WHERE teams.owners IS DISTINCT FROM EXCLUDED.owners
                    """, [.text(config.org), .text(team.name), .text(OrgConfig.slug(team.name)), .textArray(team.owners ?? [])],
                    purpose: "save team \(team.name)")
            }
            let listed = config.repositories + discovered.filter { found in !config.repositories.contains { $0.name == found.name } }
            // One statement for every repository: an organisation of thousands syncs in one round trip.
            try connection.query("""
                INSERT INTO repositories (org, name, team_id, default_branch, provider, archive_url, active)
                SELECT $1, r.name, t.id, r.branch, r.provider, r.archive, true
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r (name, team, branch, provider, archive)
                LEFT JOIN teams t ON t.org = $1 AND t.name = r.team
                ON CONFLICT (org, name) DO UPDATE SET team_id = EXCLUDED.team_id, default_branch = EXCLUDED.default_branch,
                    provider = EXCLUDED.provider, archive_url = EXCLUDED.archive_url, active = true, updated_at = now()
                WHERE (repositories.team_id, repositories.default_branch, repositories.provider, repositories.archive_url, repositories.active)
                      IS DISTINCT FROM (EXCLUDED.team_id, EXCLUDED.default_branch, EXCLUDED.provider, EXCLUDED.archive_url, true)
                """, [.text(config.org), .textArray(listed.map(\.name)), .textArray(listed.map(\.team)), .textArray(listed.map(\.branch)),
                      .textArray(listed.map(\.resolvedProvider.rawValue)), .optionalTextArray(listed.map(\.archive))],
                purpose: "save \(listed.count) repositories")
            try connection.query("""
                UPDATE repositories SET active = false, updated_at = now()
                WHERE org = $1 AND active AND NOT (name = ANY($2::text[]))
                """, [.text(config.org), .textArray(listed.map(\.name))], purpose: "retire repositories no longer listed")
            try connection.query("""
                INSERT INTO org_settings (org, retention_days) VALUES ($1, $2)
                ON CONFLICT (org) DO UPDATE SET retention_days = EXCLUDED.retention_days, updated_at = now()
                """, [.text(config.org), .int(config.retentionDays ?? 400)], purpose: "save the retention setting")
        }
    }

    /// Creates the run of `date` (YYYY-MM-DD in the schedule's time zone) with one job per active
    /// repository, in one transaction. The unique key on (org, date) of nightly runs makes a
    /// second call, from this or another coordinator, a no-op that returns the existing run.
    public func scheduleRun(_ config: OrgConfig, date: String, kind: JobKind = .nightly, createdBy: String,
                            archiveURL: (OrgConfig.Repository, String) -> String) throws -> ScheduleOutcome {
        precondition(kind != .pr, "pull-request jobs belong to no run")
        return try connection.transaction(purpose: "schedule the \(kind.rawValue) run of \(config.org) for \(date)") { connection in
            let inserted = try connection.query("""
                INSERT INTO runs (org, kind, run_date, created_by) VALUES ($1, $2, $3::date, $4)
                ON CONFLICT (org, run_date) WHERE kind = \(RunKind.nightly.sql) DO NOTHING
                RETURNING id
                """, [.text(config.org), .text(kind.rawValue), .text(date), .text(createdBy)], purpose: "create the run")
            guard let runID = inserted.first?.int("id") else {
                let existing = try connection.query("""
                    SELECT id FROM runs WHERE org = $1 AND run_date = $2::date AND kind = \(RunKind.nightly.sql)
                    """, [.text(config.org), .text(date)], purpose: "find the existing run")
                guard let id = existing.first?.int("id") else {
                    throw DatabaseError.unexpectedResult(purpose: "schedule the run", reason: "the run of \(date) conflicts but cannot be found")
                }
                return .alreadyScheduled(runID: id)
            }
            let repositories = try connection.query("""
                SELECT id, name, default_branch, provider, archive_url FROM repositories WHERE org = $1 AND active ORDER BY name
                """, [.text(config.org)], purpose: "list the repositories to audit")
            // A nightly job of an earlier night still waiting (for its retry, or behind a long
            // queue) is superseded: tonight's job audits a newer commit of the same branch.
            let queue = JobQueue(connection: connection)
            try queue.supersedeWaiting(kind: kind, repositoryIDs: repositories.compactMap { $0.int("id") },
                                       reason: "superseded by the \(kind.rawValue) run of \(date)", in: connection)
            let byName = Dictionary(config.repositories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var targets: [(repositoryID: Int, commitRef: String, archiveURL: String)] = []
            for row in repositories {
                guard let id = row.int("id"), let name = row.string("name") else { continue }
                // Discovered repositories are not in the config: their row has what discovery found.
                let repository = byName[name] ?? OrgConfig.Repository(
                    name: name, team: "", defaultBranch: row.string("default_branch"),
                    provider: row.string("provider").flatMap(OrgConfig.Provider.init(rawValue:)) ?? .github,
                    archive: row.string("archive_url"))
                targets.append((id, repository.branch, archiveURL(repository, repository.branch)))
            }
            let jobs = try queue.enqueue(runID: runID, kind: kind, targets: targets, maxAttempts: config.maxAttempts,
                                         timeLimitSeconds: config.limits?.jobSeconds, memoryLimitMB: config.limits?.jobMemoryMB)
            try connection.query("UPDATE runs SET jobs_total = $2 WHERE id = $1", [.int(runID), .int(jobs.count)],
                                 purpose: "count the run's jobs")
            // A run with nothing to do (no repositories, or all already queued) is finished at once.
            try RunLedger.finishIfDone(runID, in: connection)
            return .created(runID: runID, jobs: jobs.count)
        }
    }

    /// Deletes what is older than the organisation's retention: runs (with their jobs and
    /// summaries), findings fixed before the cutoff, webhook deliveries, and cache rows unused
    /// for `cacheDays`. Returns how many runs went.
    @discardableResult
    public func applyRetention(org: String, cacheDays: Int = 30) throws -> Int {
        try connection.transaction(purpose: "apply the retention of \(org)") { connection in
            let days = try connection.query("SELECT retention_days FROM org_settings WHERE org = $1", [.text(org)],
                                            purpose: "read the retention setting").first?.int("retention_days") ?? 400
            let runs = try connection.query("""
                DELETE FROM runs WHERE org = $1 AND created_at < now() - make_interval(days => $2) AND state <> \(RunState.running.sql)
                RETURNING id
                """, [.text(org), .int(days)], purpose: "delete runs past retention")
            try connection.query("""
                DELETE FROM findings f USING repositories r
                WHERE f.repository_id = r.id AND r.org = $1 AND f.fixed_at < now() - make_interval(days => $2)
                """, [.text(org), .int(days)], purpose: "delete findings fixed before the retention cutoff")
            // Pull-request jobs belong to no run, so deleting runs does not reach them.
            try connection.query("""
                DELETE FROM pr_checks c USING repositories r
                WHERE c.repository_id = r.id AND r.org = $1 AND c.updated_at < now() - make_interval(days => $2)
                """, [.text(org), .int(days)], purpose: "delete pull-request checks past retention")
            try connection.query("""
                DELETE FROM jobs j USING repositories r
                WHERE j.repository_id = r.id AND r.org = $1 AND j.run_id IS NULL AND j.finished_at < now() - make_interval(days => $2)
                """, [.text(org), .int(days)], purpose: "delete pull-request jobs past retention")
            try connection.query("DELETE FROM webhook_deliveries WHERE received_at < now() - make_interval(days => $1)",
                                 [.int(days)], purpose: "delete old webhook deliveries")
            try connection.query("DELETE FROM file_cache WHERE last_used < current_date - $1::integer",
                                 [.int(cacheDays)], purpose: "prune unused cache rows")
            return runs.count
        }
    }

    /// The team the org config gives a repository, and every team of its organisation by the
    /// CODEOWNERS handles the team owns (lowercased): what attributes a finding to a team.
    public func teamsOwning(repositoryID: Int) throws -> (repositoryTeam: Int?, byOwner: [String: Int]) {
        let rows = try connection.query("""
            SELECT r.team_id, t.id AS owner_team, o.owner
            FROM repositories r
            LEFT JOIN teams t ON t.org = r.org
            LEFT JOIN LATERAL unnest(t.owners) AS o (owner) ON true
            WHERE r.id = $1
            """, [.int(repositoryID)], purpose: "read the teams of repository \(repositoryID)")
        var byOwner: [String: Int] = [:]
        for row in rows {
            if let owner = row.string("owner"), let team = row.int("owner_team") { byOwner[owner.lowercased()] = team }
        }
        return (rows.first?.int("team_id"), byOwner)
    }

    /// The id of `repository` of `org`, added (with its team, branch and provider) if the org
    /// has not seen it yet: a pull request may come before the first night's sync.
    public func ensureRepository(org: String, _ repository: OrgConfig.Repository) throws -> Int {
        let ids = try connection.query("""
            INSERT INTO repositories (org, name, team_id, default_branch, provider, archive_url)
            VALUES ($1, $2, (SELECT id FROM teams WHERE org = $1 AND name = $3), $4, $5, $6)
            ON CONFLICT (org, name) DO UPDATE SET updated_at = repositories.updated_at
            RETURNING id
            """, [.text(org), .text(repository.name), .text(repository.team), .text(repository.branch),
                  .text(repository.resolvedProvider.rawValue), .optional(repository.archive)], purpose: "find repository \(repository.name)")
        guard let id = ids.first?.int("id") else {
            throw DatabaseError.unexpectedResult(purpose: "find repository \(repository.name)", reason: "no id")
        }
        return id
    }

    /// The organisation's teams by name.
    public func teamIDs(org: String) throws -> [String: Int] {
        var ids: [String: Int] = [:]
        for row in try connection.query("SELECT name, id FROM teams WHERE org = $1", [.text(org)], purpose: "read the teams of \(org)") {
            if let name = row.string("name"), let id = row.int("id") { ids[name] = id }
        }
        return ids
    }

    public func repositoryID(org: String, name: String) throws -> Int? {
        try connection.query("SELECT id FROM repositories WHERE org = $1 AND name = $2", [.text(org), .text(name)],
                             purpose: "find repository \(name)").first?.int("id")
    }
}
