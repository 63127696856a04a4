import DashboardServer
import DatabaseTestSupport
import Foundation
import HTTPTestSupport
import HTTPServer
import PostgresClient
import Testing

/// A small history written straight into the pipeline's tables: one organisation, two teams,
/// three repositories, last night's finished run (two succeeded jobs, one dead) and tonight's
/// run in progress (one queued, one running job).
struct SeededHistory {
    var payments = 0, design = 0
    var lastNight = 0, tonight = 0
    var queuedJob = 0, runningJob = 0, deadJob = 0, succeededJob = 0

    init(_ connection: PostgresConnection) throws {
        func id(_ sql: String, _ parameters: [PostgresValue] = []) throws -> Int {
            guard let value = try connection.query(sql, parameters, purpose: "seed").first?.int("id") else { throw TestFailure("no id from \(sql)") }
            return value
        }
        payments = try id("INSERT INTO teams (org, name, slug) VALUES ('acme', 'Payments', 'payments') RETURNING id")
        design = try id("INSERT INTO teams (org, name, slug) VALUES ('acme', 'Design System', 'design-system') RETURNING id")
        let app = try id("INSERT INTO repositories (org, name, team_id, provider) VALUES ('acme', 'acme/app', $1, 'github') RETURNING id", [.int(payments)])
        let wallet = try id("INSERT INTO repositories (org, name, team_id, provider) VALUES ('acme', 'acme/wallet', $1, 'github') RETURNING id", [.int(payments)])
        let kit = try id("INSERT INTO repositories (org, name, team_id, provider) VALUES ('acme', 'acme/kit', $1, 'github') RETURNING id", [.int(design)])
        lastNight = try id("""
            INSERT INTO runs (org, kind, run_date, state, jobs_total, created_at, finished_at)
            VALUES ('acme', 'nightly', current_date - 1, 'failed', 3, now() - interval '1 day', now() - interval '1 day' + interval '250 seconds')
            RETURNING id
            """)
        tonight = try id("INSERT INTO runs (org, kind, run_date, state, jobs_total) VALUES ('acme', 'nightly', current_date, 'running', 2) RETURNING id")
        func job(_ run: Int, _ repository: Int, _ state: String) throws -> Int {
            try id("""
                INSERT INTO jobs (run_id, repository_id, kind, commit_ref, archive_url, state, attempt, started_at, finished_at)
                VALUES ($1, $2, 'nightly', 'main', 'https://example.invalid/a.tar.gz', $3, 1, now(), CASE WHEN $3 IN ('succeeded', 'dead') THEN now() END)
                RETURNING id
                """, [.int(run), .int(repository), .text(state)])
        }
        succeededJob = try job(lastNight, app, "succeeded")
        let second = try job(lastNight, kit, "succeeded")
        deadJob = try job(lastNight, wallet, "dead")
        queuedJob = try job(tonight, app, "queued")
        runningJob = try job(tonight, kit, "running")
        func summary(_ job: Int, _ repository: Int, fetch: Int, scan: Int, write: Int, open: Int, new: Int, fixed: Int) throws {
            try connection.query("""
                INSERT INTO job_summaries (job_id, run_id, repository_id, history_applied, files_scanned, files_parsed, cache_hits,
                                           findings_open, findings_new, findings_fixed, fetch_ms, scan_ms, write_ms)
                VALUES ($1, $2, $3, true, 10, 10, 0, $4, $5, $6, $7, $8, $9)
                """, [.int(job), .int(lastNight), .int(repository), .int(open), .int(new), .int(fixed), .int(fetch), .int(scan), .int(write)],
                purpose: "seed a summary")
        }
        try summary(succeededJob, app, fetch: 40, scan: 1200, write: 30, open: 5, new: 2, fixed: 1)
        try summary(second, kit, fetch: 3000, scan: 70000, write: 100, open: 4, new: 0, fixed: 2)
        func counts(_ job: Int, _ team: Int, _ rule: String, _ severity: String, open: Int, new: Int, fixed: Int) throws {
            try connection.query("""
                INSERT INTO job_summary_counts (job_id, run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
                VALUES ($1, $2, $3, $4, 'requirement', $5, $6, $7, $8)
                """, [.int(job), .int(lastNight), .int(team), .text(rule), .text(severity), .int(open), .int(new), .int(fixed)],
                purpose: "seed counts")
        }
        // acme/kit's findings partly belong to Payments by CODEOWNERS.
        try counts(succeededJob, payments, "image-button-missing-label", "error", open: 3, new: 1, fixed: 0)
        try counts(succeededJob, payments, "fixed-font-size", "warning", open: 2, new: 1, fixed: 1)
        try counts(second, payments, "image-button-missing-label", "error", open: 4, new: 0, fixed: 2)
        try counts(second, design, "fixed-font-size", "warning", open: 9, new: 9, fixed: 9)
        func finding(_ repository: Int, _ fingerprint: String, _ severity: String, _ kind: String, fixed: Bool) throws {
            try connection.query("""
                INSERT INTO findings (repository_id, fingerprint, rule_id, kind, severity, team_id, path, line, column_number,
                                      message, snippet, source_line, first_seen_run, fixed_in_run)
                VALUES ($1, $2, 'rule', $3, $4, NULL, 'A.swift', 1, 1, 'm', 's', 's', $5, $6)
                """, [.int(repository), .text(fingerprint), .text(kind), .text(severity), .int(lastNight), fixed ? .int(lastNight) : .null],
                purpose: "seed a finding")
        }
        try finding(app, "f1", "error", "requirement", fixed: false)
        try finding(app, "f2", "error", "requirement", fixed: false)
        try finding(kit, "f3", "warning", "recommendation", fixed: false)
        try finding(kit, "f4", "error", "requirement", fixed: true)
        // The roll-up HistoryWriter keeps beside the findings it writes.
        try connection.query("""
            INSERT INTO repository_open_counts (repository_id, team_id, rule_id, kind, severity, open_count)
            SELECT repository_id, team_id, rule_id, max(kind), severity, count(*) FROM findings WHERE fixed_in_run IS NULL
            GROUP BY repository_id, team_id, rule_id, severity
            """, purpose: "seed the open counts")
        for (delivery, event, outcome) in [("d1", "pull_request", "queued"), ("d2", "pull_request", "queued"), ("d3", "push", "ignored"),
                                           ("d4", "pull_request", "rejected: bad \"signature\"\nretry")] {
            try connection.query("INSERT INTO webhook_deliveries (delivery_id, event, outcome) VALUES ($1, $2, $3)",
                                 [.text(delivery), .text(event), .text(outcome)], purpose: "seed a delivery")
        }
    }
}

/// Samples of a Prometheus text body by their full name with labels.
func samples(_ text: String) -> [String: Double] {
    var values: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " ") else { continue }
        values[String(line[..<space])] = Double(line[line.index(after: space)...])
    }
    return values
}

@Suite(.serialized) struct DatabaseEndpointTests {
    func serve(_ database: TestDatabase, access: AccessPolicy = AccessPolicy(), site: SiteFolder) throws -> DashboardServer {
        try DashboardServer(options: DashboardOptions(siteDirectory: site.site, access: access, database: database.settings),
                            server: HTTPServerOptions(threads: 3))
    }

    @Test func healthzSaysOkWhenTheDatabaseAnswersAnd503WithoutSecretsWhenNot() throws {
        let site = try SiteFolder()
        try TestDatabase.with { database in
            let server = try serve(database, access: AccessPolicy(readToken: "r"), site: site)
            defer { server.stop() }
            let healthy = try request(server.baseURL + "/healthz")
            #expect(healthy.status == 200, "open even when pages need a token")
            #expect(healthy.text == "ok\n")
        }
        let unreachable = ConnectionSettings(conninfo: "postgresql://audit:hunter2secret@127.0.0.1:1/a11y")
        var options = try DashboardOptions(siteDirectory: site.site, database: unreachable)
        options.postEndpoints["/hooks/github"] = PostEndpoint(maxBodyBytes: 1 << 20) { _, _ in .text("handled\n") }
        let server = try DashboardServer(options: options, server: HTTPServerOptions(threads: 2))
        defer { server.stop() }
        let hook = try request(server.baseURL + "/hooks/github", method: "POST", body: Array("{}".utf8))
        #expect(hook.status == 503 && hook.text.contains("database unavailable"), "\(hook.text)")
        #expect(!hook.text.contains("127.0.0.1") && !hook.text.contains("audit@"), "a webhook URL needs no credentials: \(hook.text)")
        let down = try request(server.baseURL + "/healthz")
        #expect(down.status == 503)
        // Anyone can ask: the reason (which server, what failed) goes to the log, not to them.
        #expect(down.text == "database unavailable\n", "\(down.text)")
        #expect(try request(server.baseURL + "/metrics").status == 503)
        #expect(try request(server.baseURL + "/").status == 200, "pages are served without a database")
    }

    @Test func aHungDatabaseIsProbedOnceWhileLaterHealthChecksWaitForThatProbe() throws {
        let hung = try SilentListener()
        defer { hung.close() }
        let site = try SiteFolder()
        let settings = ConnectionSettings(conninfo: "postgresql://audit@127.0.0.1:\(hung.port)/a11y")
        let server = try DashboardServer(options: DashboardOptions(siteDirectory: site.site, database: settings, healthTimeout: 0.3),
                                         server: HTTPServerOptions(threads: 3))
        defer { server.stop() }
        // Inside libpq's connect timeout (3 s): one probe hangs on the server, the checks wait on it.
        let started = Date()
        for _ in 0..<4 {
            let response = try request(server.baseURL + "/healthz")
            #expect(response.status == 503 && response.text == "database unavailable\n", "\(response.text)")
        }
        #expect(Date().timeIntervalSince(started) < 2.5, "each check gives up after its own deadline")
        #expect(hung.connections == 1, "one probe at a time, not one per check")
    }

    @Test func durationsAreCountedOnceWhenSettledAndKeptAfterRetention() throws {
        let site = try SiteFolder()
        try TestDatabase.with { database in
            let connection = try database.connect()
            let seeded = try SeededHistory(connection)
            // acme/kit's summary was written an hour ago: settled, so counted once and kept.
            try connection.query("""
                UPDATE job_summaries SET created_at = now() - interval '1 hour' WHERE job_id <> $1
                """, [.int(seeded.succeededJob)], purpose: "age a summary")
            let server = try serve(database, site: site)
            defer { server.stop() }
            let count = "a11y_audit_job_duration_seconds_count{phase=\"fetch\"}"
            let slow = "a11y_audit_job_duration_seconds_bucket{phase=\"fetch\",le=\"2.5\"}"
            #expect(samples(try request(server.baseURL + "/metrics").text)[count] == 2)
            #expect(samples(try request(server.baseURL + "/metrics").text)[count] == 2, "a second scrape does not count it again")
            // Retention deletes the old summary: the counter keeps it (Prometheus counters never go down).
            try connection.query("DELETE FROM job_summaries WHERE job_id <> $1", [.int(seeded.succeededJob)], purpose: "prune")
            let afterPrune = samples(try request(server.baseURL + "/metrics").text)
            #expect(afterPrune[count] == 2)
            #expect(afterPrune[slow] == 1, "the 40 ms fetch is under 2.5 s, the pruned 3,000 ms one is not")
            // A summary written since is counted as it arrives.
            try connection.query("""
                INSERT INTO job_summaries (job_id, run_id, repository_id, history_applied, files_scanned, files_parsed, cache_hits,
                                           findings_open, findings_new, findings_fixed, fetch_ms, scan_ms, write_ms)
                SELECT $1, run_id, repository_id, true, 1, 1, 0, 0, 0, 0, 100, 100, 1 FROM jobs WHERE id = $1
                """, [.int(seeded.queuedJob)], purpose: "add a summary")
            #expect(samples(try request(server.baseURL + "/metrics").text)[count] == 3)
        }
    }

    @Test func metricsReportQueueDurationsFindingsAndDeliveries() throws {
        let site = try SiteFolder()
        try TestDatabase.with { database in
            _ = try SeededHistory(database.connect())
            let server = try serve(database, site: site)
            defer { server.stop() }
            let response = try request(server.baseURL + "/metrics")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            let text = response.text
            let values = samples(text)
            #expect(text.contains("# TYPE a11y_audit_jobs gauge"))
            #expect(values["a11y_audit_jobs{state=\"queued\"}"] == 1)
            #expect(values["a11y_audit_jobs{state=\"running\"}"] == 1)
            #expect(values["a11y_audit_jobs{state=\"succeeded\"}"] == 2)
            #expect(values["a11y_audit_jobs{state=\"dead\"}"] == 1)
            #expect(values["a11y_audit_jobs{state=\"failed\"}"] == 0)

            #expect(text.contains("# TYPE a11y_audit_job_duration_seconds histogram"))
            // fetch: 40 ms and 3000 ms.
            #expect(values["a11y_audit_job_duration_seconds_bucket{phase=\"fetch\",le=\"0.05\"}"] == 1)
            #expect(values["a11y_audit_job_duration_seconds_bucket{phase=\"fetch\",le=\"2.5\"}"] == 1)
            #expect(values["a11y_audit_job_duration_seconds_bucket{phase=\"fetch\",le=\"5\"}"] == 2)
            #expect(values["a11y_audit_job_duration_seconds_bucket{phase=\"fetch\",le=\"+Inf\"}"] == 2)
            #expect(values["a11y_audit_job_duration_seconds_sum{phase=\"fetch\"}"] == 3.04)
            #expect(values["a11y_audit_job_duration_seconds_count{phase=\"scan\"}"] == 2)
            // total: 1270 ms and 73100 ms.
            #expect(values["a11y_audit_job_duration_seconds_bucket{phase=\"total\",le=\"60\"}"] == 1)
            #expect(values["a11y_audit_job_duration_seconds_bucket{phase=\"total\",le=\"120\"}"] == 2)
            let buckets = text.split(separator: "\n").filter { $0.hasPrefix("a11y_audit_job_duration_seconds_bucket{phase=\"scan\"") }
                .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            #expect(buckets == buckets.sorted(), "buckets are cumulative")

            #expect(values["a11y_audit_open_findings{org=\"acme\",severity=\"error\",kind=\"requirement\"}"] == 2)
            #expect(values["a11y_audit_open_findings{org=\"acme\",severity=\"warning\",kind=\"recommendation\"}"] == 1)
            #expect(values["a11y_audit_webhook_deliveries_total{event=\"pull_request\",outcome=\"queued\"}"] == 2)
            #expect(values["a11y_audit_webhook_deliveries_total{event=\"push\",outcome=\"ignored\"}"] == 1)
            #expect(text.contains("outcome=\"rejected: bad \\\"signature\\\"\\nretry\"} 1"), "label values escaped")
            #expect(values["a11y_audit_latest_run{org=\"acme\",state=\"running\"}"] == 1)
            #expect(values["a11y_audit_last_run_finished_timestamp_seconds{org=\"acme\"}"].map { $0 > 1_700_000_000 } == true)
        }
    }

    @Test func runsAPIListsTheLatestRunsWithCountsAndDurations() throws {
        let site = try SiteFolder()
        try TestDatabase.with { database in
            let seeded = try SeededHistory(database.connect())
            let server = try serve(database, site: site)
            defer { server.stop() }
            let response = try request(server.baseURL + "/api/runs")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let runs = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
            #expect(runs.count == 2)
            #expect(runs.first?["id"] as? Int == seeded.tonight, "newest first")
            #expect(runs.first?["state"] as? String == "running")
            #expect(runs.first?["durationSeconds"] == nil || runs.first?["durationSeconds"] is NSNull)
            let last = try #require(runs.last)
            #expect(last["id"] as? Int == seeded.lastNight)
            #expect(last["state"] as? String == "failed")
            #expect((last["durationSeconds"] as? Double).map { abs($0 - 250) < 0.01 } == true)
            let jobs = try #require(last["jobs"] as? [String: Int])
            #expect(jobs == ["total": 3, "queued": 0, "running": 0, "succeeded": 2, "failed": 0, "dead": 1, "cancelled": 0])
            #expect(last["findings"] as? [String: Int] == ["open": 9, "new": 2, "fixed": 3])
            #expect(last["jobMilliseconds"] as? [String: Int] == ["fetch": 3040, "scan": 71200, "write": 130])
            #expect((last["createdAt"] as? String)?.hasSuffix("Z") == true)

            // Once last night is rolled up (its totals kept on the run, as JobQueue does when a run
            // finishes), the API answers the same, once per run.
            let connection = try database.connect()
            try connection.query("""
                UPDATE runs r SET counts_rolled_up = true, totals = jsonb_build_object(
                    'jobs', (SELECT jsonb_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM jobs WHERE run_id = r.id GROUP BY state) j),
                    'open', s.open, 'new', s.new, 'fixed', s.fixed, 'fetch_ms', s.fetch, 'scan_ms', s.scan, 'write_ms', s.write)
                FROM (SELECT sum(findings_open) AS open, sum(findings_new) AS new, sum(findings_fixed) AS fixed, sum(fetch_ms) AS fetch,
                             sum(scan_ms) AS scan, sum(write_ms) AS write FROM job_summaries WHERE run_id = $1) s
                WHERE r.id = $1
                """, [.int(seeded.lastNight)], purpose: "roll last night up")
            let rolled = try #require(try JSONSerialization.jsonObject(with: Data(try request(server.baseURL + "/api/runs").body)) as? [[String: Any]])
            #expect(rolled.count == 2, "one entry per run")
            #expect(NSDictionary(dictionary: try #require(rolled.last)).isEqual(to: last), "\(rolled.last ?? [:]) against \(last)")

            let limited = try request(server.baseURL + "/api/runs?limit=1")
            #expect((try JSONSerialization.jsonObject(with: Data(limited.body)) as? [Any])?.count == 1)
            let bad = try request(server.baseURL + "/api/runs?limit=lots")
            #expect(bad.status == 400)
            #expect(bad.text.contains("limit must be a whole number"))
            #expect(try request(server.baseURL + "/api/runs?org=other").text == "[]\n")
            #expect(try request(server.baseURL + "/api/nothing").status == 404)
        }
    }

    @Test func teamTrendGivesEachNightsOpenNewAndFixed() throws {
        let site = try SiteFolder()
        try TestDatabase.with { database in
            let seeded = try SeededHistory(database.connect())
            let server = try serve(database, site: site)
            defer { server.stop() }
            let response = try request(server.baseURL + "/api/teams/payments/trend")
            #expect(response.status == 200)
            let trend = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(trend["team"] as? [String: String] == ["org": "acme", "name": "Payments", "slug": "payments"])
            let nights = try #require(trend["nights"] as? [[String: Any]])
            #expect(nights.count == 2)
            let first = try #require(nights.first)
            #expect(first["runId"] as? Int == seeded.lastNight)
            #expect(first["open"] as? [String: Int] == ["error": 7, "warning": 2, "note": 0])
            #expect(first["openTotal"] as? Int == 9)
            #expect(first["new"] as? Int == 2)
            #expect(first["fixed"] as? Int == 3)
            #expect(nights.last?["openTotal"] as? Int == 0, "tonight has no results yet")

            let design = try request(server.baseURL + "/api/teams/design-system/trend")
            let designNights = (try JSONSerialization.jsonObject(with: Data(design.body)) as? [String: Any])?["nights"] as? [[String: Any]]
            #expect(designNights?.first?["new"] as? Int == 9, "counts are per team")

            let unknown = try request(server.baseURL + "/api/teams/nobody/trend")
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("no team"))
            #expect(try request(server.baseURL + "/api/teams/payments/trend?days=0").status == 400)
        }
    }

    @Test func cancellingAJobNeedsTheAdminToken() throws {
        let site = try SiteFolder()
        try TestDatabase.with { database in
            let connection = try database.connect()
            let seeded = try SeededHistory(connection)
            let server = try serve(database, access: AccessPolicy(readToken: "reader", adminToken: "the-admin-token"), site: site)
            defer { server.stop() }
            func cancel(_ job: Int, _ headers: [String]) throws -> ClientResponse {
                try request(server.baseURL + "/api/admin/jobs/\(job)/cancel", method: "POST", headers: headers, body: [])
            }
            func state(_ job: Int) throws -> String? {
                try connection.query("SELECT state FROM jobs WHERE id = $1", [.int(job)], purpose: "read").first?.string("state")
            }
            let anonymous = try cancel(seeded.queuedJob, [])
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(try cancel(seeded.queuedJob, ["Authorization: Bearer wrong"]).status == 401)
            #expect(try cancel(seeded.queuedJob, ["Authorization: Bearer reader"]).status == 403, "a read token is not an admin token")
            #expect(try state(seeded.queuedJob) == "queued", "nothing changed without the admin token")

            let admin = ["Authorization: Bearer the-admin-token"]
            let cancelled = try cancel(seeded.queuedJob, admin)
            #expect(cancelled.status == 200)
            #expect(cancelled.text.contains("\"result\":\"cancelled\""))
            #expect(try state(seeded.queuedJob) == "cancelled")

            let running = try cancel(seeded.runningJob, admin)
            #expect(running.status == 202)
            #expect(try connection.query("SELECT cancel_requested FROM jobs WHERE id = $1", [.int(seeded.runningJob)],
                                         purpose: "read").first?.bool("cancel_requested") == true)
            #expect(try cancel(seeded.succeededJob, admin).status == 409)
            #expect(try cancel(999_999, admin).status == 404)
            #expect(try cancel(0, admin).status == 404)
            let get = try request(server.baseURL + "/api/admin/jobs/\(seeded.deadJob)/cancel", headers: admin)
            #expect(get.status == 405)
            #expect(get.header("Allow") == "POST")
            #expect(try request(server.baseURL + "/api/runs", headers: admin).status == 200, "the admin token also reads")
            #expect(try request(server.baseURL + "/api/runs").status == 401)
        }
    }
}
