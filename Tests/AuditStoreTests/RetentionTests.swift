import AuditStore
import DatabaseTestSupport
import Foundation
import PostgresClient
import Testing

/// `prune` / the coordinator's hourly retention: what is older than `retentionDays` goes, with
/// everything that hangs off it; what is younger, and open findings whatever their age, stay.
@Suite struct RetentionTests {
    @Test func retentionDeletesOldRunsFixedFindingsPullRequestJobsAndChecks() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            _ = try makeOrg(connection, repositories: 1)
            try connection.query("UPDATE org_settings SET retention_days = 30 WHERE org = 'acme'", purpose: "set retention")
            func id(_ sql: String, _ parameters: [PostgresValue] = []) throws -> Int {
                guard let value = try connection.query(sql, parameters, purpose: "seed").first?.int("id") else { throw TestFailure(sql) }
                return value
            }
            let repository = try id("SELECT id FROM repositories LIMIT 1")
            let oldRun = try id("""
                INSERT INTO runs (org, kind, run_date, state, created_at, finished_at)
                VALUES ('acme', 'nightly', current_date - 40, 'succeeded', now() - interval '40 days', now() - interval '40 days') RETURNING id
                """)
            let newRun = try id("""
                INSERT INTO runs (org, kind, run_date, state, created_at, finished_at)
                VALUES ('acme', 'nightly', current_date - 1, 'succeeded', now() - interval '1 day', now() - interval '1 day') RETURNING id
                """)
            func job(_ run: Int?, kind: String, finishedDaysAgo: Int) throws -> Int {
                let job = try id("""
                    INSERT INTO jobs (run_id, repository_id, kind, commit_ref, archive_url, state, finished_at)
                    VALUES ($1, $2, $3, 'main', 'file:///x', 'succeeded', now() - make_interval(days => $4)) RETURNING id
                    """, [.optional(run), .int(repository), .text(kind), .int(finishedDaysAgo)])
                try connection.query("""
                    INSERT INTO job_summaries (job_id, run_id, repository_id, history_applied, files_scanned, files_parsed, cache_hits,
                                               findings_open, findings_new, findings_fixed, fetch_ms, scan_ms, write_ms)
                    VALUES ($1, $2, $3, $4, 1, 1, 0, 0, 0, 0, 1, 1, 1)
                    """, [.int(job), .optional(run), .int(repository), .bool(run != nil)], purpose: "seed a summary")
                return job
            }
            let oldJob = try job(oldRun, kind: "nightly", finishedDaysAgo: 40)
            let newJob = try job(newRun, kind: "nightly", finishedDaysAgo: 1)
            let oldPull = try job(nil, kind: "pr", finishedDaysAgo: 40)
            let newPull = try job(nil, kind: "pr", finishedDaysAgo: 1)
            for (pull, head, daysAgo) in [(oldPull, "a", 40), (newPull, "b", 1)] {
                try connection.query("""
                    INSERT INTO pr_checks (repository_id, pr_number, head_sha, base_sha, base_ref, job_id, state, updated_at)
                    VALUES ($1, 7, $2, 'base', 'main', $3, 'success', now() - make_interval(days => $4))
                    """, [.int(repository), .text(head), .int(pull), .int(daysAgo)], purpose: "seed a check")
            }
            func finding(_ fingerprint: String, fixedDaysAgo: Int?) throws {
                try connection.query("""
                    INSERT INTO findings (repository_id, fingerprint, rule_id, kind, severity, path, line, column_number, message, snippet,
                                          source_line, first_seen_run, fixed_in_run, fixed_at)
                    VALUES ($1, $2, 'r', 'requirement', 'error', 'A.swift', 1, 1, 'm', 's', 's', $3, $4,
                            now() - make_interval(days => $5))
                    """, [.int(repository), .text(fingerprint), .int(oldRun), fixedDaysAgo == nil ? .null : .int(newRun),
                          fixedDaysAgo.map { .int($0) } ?? .null], purpose: "seed a finding")
            }
            try finding("fixed-long-ago", fixedDaysAgo: 40)
            try finding("fixed-yesterday", fixedDaysAgo: 1)
            try finding("open-since-long-ago", fixedDaysAgo: nil)

            #expect(try OrgStore(connection: connection).applyRetention(org: "acme") == 1, "one run past retention")
            func ids(_ sql: String) throws -> [String] { try connection.query(sql, purpose: "read").map { $0.string("v") ?? "" } }
            #expect(try ids("SELECT id::text AS v FROM runs") == ["\(newRun)"])
            #expect(try ids("SELECT id::text AS v FROM jobs ORDER BY id") == ["\(newJob)", "\(newPull)"])
            #expect(try ids("SELECT job_id::text AS v FROM job_summaries ORDER BY job_id") == ["\(newJob)", "\(newPull)"])
            #expect(try ids("SELECT head_sha AS v FROM pr_checks") == ["b"])
            #expect(try ids("SELECT fingerprint AS v FROM findings ORDER BY fingerprint") == ["fixed-yesterday", "open-since-long-ago"])
            _ = oldJob
        }
    }
}
