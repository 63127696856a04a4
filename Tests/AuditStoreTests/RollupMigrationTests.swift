import AuditStore
import DatabaseTestSupport
import Foundation
import PostgresClient
import Testing

/// The scale simulation's generator (deploy/sim/generate.sql) and migration 0002's backfill:
/// a history written under the first schema reads the same after the roll-ups replace the
/// per-job counts.
@Suite struct RollupMigrationTests {
    /// Runs deploy/sim/generate.sql with psql against the test database.
    func generate(_ database: TestDatabase, repositories: Int, nights: Int) throws {
        let script = """
            CREATE TEMP TABLE sim_rules (id text, kind text, severity text);
            INSERT INTO sim_rules VALUES ('fixed-font-size', 'requirement', 'error'), ('color-contrast', 'requirement', 'error'),
                ('text-below-minimum-size', 'recommendation', 'warning'), ('hstack-never-restacks', 'advisory', 'note'),
                ('image-asset-name-spoken', 'recommendation', 'warning');
            \\i \(TestDatabase.repositoryRoot)/deploy/sim/generate.sql
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString).sql").path
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let (status, output) = try ChildProcess.run("/usr/bin/psql", [
            "-d", database.settings.conninfo, "-q", "-v", "ON_ERROR_STOP=1", "-v", "org=sim", "-v", "repos=\(repositories)",
            "-v", "teams=4", "-v", "nights=\(nights)", "-v", "mean_open=12", "-v", "churn=0.05", "-v", "seed=0.3", "-f", file])
        try #require(status == 0, "psql failed: \(output)")
    }

    /// The rows of a query selecting one column `v`.
    func values(_ connection: PostgresConnection, _ sql: String) throws -> [String] {
        try connection.query(sql, purpose: "read").map { $0.string("v") ?? "NULL" }
    }

    @Test func theGeneratedHistoryIsConsistentAndTheRollUpsPreserveIt() throws {
        try TestDatabase.with(migrated: false) { database in
            let connection = try database.connect()
            let all = try Migrations.load(from: TestDatabase.migrationsDirectory)
            try Migrator(connection: connection).migrate(all.filter { $0.version == 1 })
            try generate(database, repositories: 30, nights: 8)

            // The generator agrees with itself: every summary equals the findings alive that night.
            let inconsistent = try connection.query("""
                SELECT count(*) AS n FROM job_summaries s
                WHERE s.findings_open <> (SELECT count(*) FROM findings f WHERE f.repository_id = s.repository_id
                                            AND f.first_seen_run <= s.run_id AND coalesce(f.fixed_in_run, 1e9) > s.run_id)
                   OR s.findings_new <> (SELECT count(*) FROM findings f WHERE f.repository_id = s.repository_id AND f.first_seen_run = s.run_id)
                   OR s.findings_fixed <> (SELECT count(*) FROM findings f WHERE f.repository_id = s.repository_id AND f.fixed_in_run = s.run_id)
                   OR s.findings_open <> (SELECT coalesce(sum(open_count), 0) FROM job_summary_counts c WHERE c.job_id = s.job_id)
                """, purpose: "check the generated history")
            #expect(inconsistent.first?.int("n") == 0)
            let sizes = try values(connection, """
                SELECT concat_ws('|', (SELECT count(*) FROM jobs), (SELECT count(*) FROM runs), (SELECT count(*) FROM teams)) AS v
                """)
            #expect(sizes == ["240|8|4"])

            // What the pages read under the first schema.
            let trendBefore = try values(connection, """
                SELECT concat_ws('|', c.run_id, c.team_id, c.severity, sum(c.open_count), sum(c.new_count), sum(c.fixed_count)) AS v
                FROM job_summary_counts c GROUP BY c.run_id, c.team_id, c.severity ORDER BY c.run_id, c.team_id, c.severity
                """)
            let openBefore = try values(connection, """
                SELECT concat_ws('|', repository_id, team_id, rule_id, severity, count(*)) AS v FROM findings WHERE fixed_in_run IS NULL
                GROUP BY repository_id, team_id, rule_id, severity ORDER BY repository_id, team_id, rule_id, severity
                """)
            let severityBefore = try values(connection, """
                SELECT concat_ws('|', job_id, coalesce(sum(open_count) FILTER (WHERE severity = 'error'), 0),
                       coalesce(sum(open_count) FILTER (WHERE severity = 'warning'), 0),
                       coalesce(sum(open_count) FILTER (WHERE severity = 'note'), 0)) AS v
                FROM job_summaries LEFT JOIN job_summary_counts USING (job_id) GROUP BY job_id ORDER BY job_id
                """)
            let rowsBefore = try connection.query("SELECT count(*) AS n FROM job_summary_counts", purpose: "count").first?.int("n") ?? 0
            #expect(!trendBefore.isEmpty && !openBefore.isEmpty)

            try Migrator(connection: connection).migrate(all)

            // The same trend, except that each repository's first audit (the first night, here)
            // recorded a baseline: migration 0005 counts its findings as existing, not new.
            let firstRun = trendBefore.compactMap { Int($0.split(separator: "|")[0]) }.min()
            let trendAfter = trendBefore.map { row -> String in
                var parts = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                if Int(parts[0]) == firstRun { parts[4] = "0" }
                return parts.joined(separator: "|")
            }
            #expect(try values(connection, """
                SELECT concat_ws('|', run_id, team_id, severity, sum(open_count), sum(new_count), sum(fixed_count)) AS v
                FROM run_rule_counts GROUP BY run_id, team_id, severity ORDER BY run_id, team_id, severity
                """) == trendAfter)
            #expect(try values(connection, """
                SELECT concat_ws('|', count(*) FILTER (WHERE baseline), count(*) FILTER (WHERE baseline AND first_seen_run <> \(firstRun ?? 0))) AS v
                FROM findings
                """) != ["0|0"])
            #expect(try values(connection, """
                SELECT concat_ws('|', repository_id, team_id, rule_id, severity, open_count) AS v FROM repository_open_counts
                ORDER BY repository_id, team_id, rule_id, severity
                """) == openBefore)
            #expect(try values(connection, "SELECT concat_ws('|', job_id, open_error, open_warning, open_note) AS v FROM job_summaries ORDER BY job_id")
                    == severityBefore)
            #expect(try values(connection, """
                SELECT count(*) AS v FROM repositories p
                WHERE p.open_findings <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.fixed_in_run IS NULL)
                   OR p.open_requirements <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.fixed_in_run IS NULL
                                                AND f.kind = 'requirement')
                """) == ["0"])
            #expect(try values(connection, "SELECT sum(open_findings) AS v FROM repositories") != ["0"])
            // Finished nights keep per-job rows only for what changed, and fewer of them.
            let left = try connection.query("""
                SELECT count(*) AS n, count(*) FILTER (WHERE new_count = 0 AND fixed_count = 0) AS unchanged FROM job_summary_counts
                """, purpose: "count").first
            #expect(left?.int("unchanged") == 0)
            #expect((left?.int("n") ?? 0) < rowsBefore)
            // Each finished run carries its totals.
            #expect(try values(connection, """
                SELECT count(*) AS v FROM runs WHERE NOT counts_rolled_up OR (totals #>> '{jobs,succeeded}')::int <> 30
                   OR (totals ->> 'open')::bigint <> (SELECT sum(findings_open) FROM job_summaries s WHERE s.run_id = runs.id)
                """) == ["0"])

            // The dashboard's trend reads the same numbers as before the roll-up.
            let queries = DashboardQueries(connection: connection)
            let teamID = try #require(try connection.query("SELECT min(team_id) AS t FROM repositories", purpose: "team").first?.int("t"))
            let trend = try queries.trend(org: "sim", teamID: teamID)
            let expected = trendBefore.map { $0.split(separator: "|").map(String.init) }.filter { $0[1] == String(teamID) }
            #expect(trend.map(\.open) == Dictionary(grouping: expected, by: { $0[0] }).sorted { Int($0.key) ?? 0 < Int($1.key) ?? 0 }
                .map { $0.value.reduce(0) { $0 + (Int($1[3]) ?? 0) } })
            #expect(trend.count == 8)
            try RollupConsistency.check(connection)
        }
    }
}
