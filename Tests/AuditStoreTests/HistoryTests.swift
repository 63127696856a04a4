import AuditModel
import AuditStore
import Foundation
import OrgModel
import DatabaseTestSupport
import PostgresClient
import Testing

func finding(_ rule: String, _ file: String, line: Int, snippet: String, severity: Severity = .error) -> Finding {
    Finding(ruleID: rule, kind: severity == .error ? .requirement : .recommendation, severity: severity,
            location: SourceLocation(file: file, line: line, column: 5), message: "\(rule) at \(file):\(line)",
            fix: "fix it", citation: Citation("HIG", "quote"), platforms: PlatformSet(.iOS), snippet: snippet, sourceLine: "    " + snippet)
}

func results(_ findings: [Finding], teamID: Int? = nil, rulesChecked: [String]? = nil) -> JobResults {
    var list = findings
    // Findings given their fingerprints keep them (an older build's, or a scanner's).
    if list.contains(where: { $0.fingerprint.isEmpty }) { list.assignFingerprints() }
    return JobResults(findings: list.map { .init(finding: $0, teamID: teamID) }, filesScanned: 10, filesParsed: 10, cacheHits: 0,
                      rulesChecked: rulesChecked)
}

/// Schedules the night, claims the repository's job and completes it with `findings`.
@discardableResult
func runNight(_ connection: PostgresConnection, _ config: OrgConfig, date: String, _ findings: [Finding],
              rulesChecked: [String]? = nil, teamID: Int? = nil) throws -> (runID: Int, applied: HistoryWriter.Applied?) {
    guard case .created(let runID, _) = try schedule(connection, config, date: date) else { throw TestFailure("night \(date) not created") }
    let queue = JobQueue(connection: connection)
    let job = try #require(try queue.claim(worker: "w"))
    var applied: HistoryWriter.Applied?
    let outcome = try queue.complete(job) { connection in
        applied = try HistoryWriter(connection: connection).write(results(findings, teamID: teamID, rulesChecked: rulesChecked), for: job)
    }
    #expect(outcome == .completed)
    return (runID, applied)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite struct HistoryTests {
    let a = finding("missing-accessibility-label", "App/Play.swift", line: 10, snippet: "Image(\"play\")")
    let b = finding("fixed-font-size", "App/Title.swift", line: 4, snippet: ".font(.system(size: 14))", severity: .warning)
    let c = finding("insufficient-contrast", "App/Badge.swift", line: 22, snippet: ".foregroundStyle(.gray)")

    @Test func threeNightsRecordAFindingAddedKeptAndFixed() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            let night1 = try runNight(connection, config, date: "2026-11-28", [a, b])
            // The repository's first audit records what is there: a baseline, not two regressions.
            #expect(night1.applied == .init(open: 2, new: 0, fixed: 0, historyApplied: true, baseline: 2))

            // Night 2: `a` moved down two lines (same fingerprint), `c` appears.
            var moved = a
            moved.location.line = 12
            let night2 = try runNight(connection, config, date: "2026-11-29", [moved, b, c])
            #expect(night2.applied == .init(open: 3, new: 1, fixed: 0, historyApplied: true))

            // Night 3: `b` is fixed.
            let night3 = try runNight(connection, config, date: "2026-11-30", [moved, c])
            #expect(night3.applied == .init(open: 2, new: 0, fixed: 1, historyApplied: true))

            let rows = try connection.query("""
                SELECT rule_id, line, first_seen_run, last_seen_run, fixed_in_run FROM findings ORDER BY rule_id
                """, purpose: "read")
            let byRule = Dictionary(uniqueKeysWithValues: rows.map { ($0.string("rule_id") ?? "", $0) })
            let playRow = try #require(byRule["missing-accessibility-label"])
            #expect(playRow.int("first_seen_run") == night1.runID && playRow.int("fixed_in_run") == nil && playRow.int("line") == 12)
            let contrastRow = try #require(byRule["insufficient-contrast"])
            #expect(contrastRow.int("first_seen_run") == night2.runID && contrastRow.int("fixed_in_run") == nil)
            let fontRow = try #require(byRule["fixed-font-size"])
            #expect(fontRow.int("first_seen_run") == night1.runID)
            #expect(fontRow.int("fixed_in_run") == night3.runID)
            #expect(fontRow.int("last_seen_run") == night2.runID)
            #expect(rows.count == 3, "one row per distinct finding, not per night")

            // The per-night counts the trend charts read: each finished night rolled up.
            let counts = try connection.query("""
                SELECT run_id, sum(open_count) AS open, sum(new_count) AS new, sum(fixed_count) AS fixed
                FROM run_rule_counts GROUP BY run_id ORDER BY run_id
                """, purpose: "read")
            #expect(counts.map { [$0.int("open"), $0.int("new"), $0.int("fixed")] } == [[2, 0, 0], [3, 1, 0], [2, 0, 1]])
            let rolledUp = try connection.query("SELECT count(*) AS n FROM runs WHERE counts_rolled_up", purpose: "read")
            #expect(rolledUp.first?.int("n") == 3)
            // Per-job rows are kept only where something changed: night 1's baseline, night 2's `b`
            // (unchanged) and night 3's `a` and `c` (unchanged) are gone; night 2's `c`, night 3's `b` stay.
            let kept = try connection.query("""
                SELECT s.run_id, c.rule_id FROM job_summary_counts c JOIN job_summaries s ON s.job_id = c.job_id ORDER BY 1, 2
                """, purpose: "read").map { "\($0.int("run_id") ?? 0):\($0.string("rule_id") ?? "")" }
            #expect(kept == ["\(night2.runID):insufficient-contrast", "\(night3.runID):fixed-font-size"])
            // The repository's open counts follow its open findings.
            let open = try connection.query("""
                SELECT rule_id, open_count FROM repository_open_counts ORDER BY rule_id
                """, purpose: "read").map { "\($0.string("rule_id") ?? "")=\($0.int("open_count") ?? 0)" }
            #expect(open == ["insufficient-contrast=1", "missing-accessibility-label=1"])
            let totals = try connection.query("SELECT open_findings, open_requirements FROM repositories", purpose: "read").first
            #expect(totals?.int("open_findings") == 2 && totals?.int("open_requirements") == 2)
            // And the summaries carry the night's open findings by severity.
            let bySeverity = try connection.query("""
                SELECT open_error, open_warning, open_note FROM job_summaries ORDER BY run_id
                """, purpose: "read").map { [$0.int("open_error") ?? -1, $0.int("open_warning") ?? -1, $0.int("open_note") ?? -1] }
            #expect(bySeverity == [[1, 1, 0], [2, 1, 0], [2, 0, 0]])
            try RollupConsistency.check(connection)
        }
    }

    @Test func aRuleCheckedForTheFirstTimeRecordsABaselineAndLaterFindingsOfItAreNew() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            let team = try #require(try connection.query("SELECT team_id FROM repositories", purpose: "team").first?.int("team_id"))
            let before = ["fixed-font-size", "missing-accessibility-label"]
            try runNight(connection, config, date: "2026-11-27", [a], rulesChecked: before, teamID: team)
            // Night 2: a build that adds insufficient-contrast; `c` is what that rule finds on day one.
            let night2 = try runNight(connection, config, date: "2026-11-28", [a, c], rulesChecked: before + ["insufficient-contrast"], teamID: team)
            #expect(night2.applied == .init(open: 2, new: 0, fixed: 0, historyApplied: true, baseline: 1))
            // Night 3: `b`, of a rule checked before, is new; so is a second contrast finding.
            var another = c
            another.location.file = "App/Other.swift"
            another.snippet = ".foregroundStyle(.yellow)"
            another.sourceLine = "    .foregroundStyle(.yellow)"
            let night3 = try runNight(connection, config, date: "2026-11-29", [a, b, c, another],
                                      rulesChecked: before + ["insufficient-contrast"], teamID: team)
            #expect(night3.applied == .init(open: 4, new: 2, fixed: 0, historyApplied: true))
            // Night 4: unknown rules (a worker that does not say) make nothing a baseline.
            var third = c
            third.location.file = "App/Third.swift"
            third.snippet = ".foregroundStyle(.mint)"
            third.sourceLine = "    .foregroundStyle(.mint)"
            let night4 = try runNight(connection, config, date: "2026-11-30", [a, b, c, another, third], teamID: team)
            #expect(night4.applied?.new == 1 && night4.applied?.baseline == 0)
            let queries = DashboardQueries(connection: connection)
            #expect(try queries.findings(teamID: team, runID: night2.runID, fixed: false).isEmpty, "a baseline is not a regression")
            #expect(try queries.findings(teamID: team, runID: night3.runID, fixed: false).count == 2)
            let stored = try connection.query("SELECT array_to_string(rules_checked, ',') AS r FROM repositories", purpose: "read").first
            #expect(stored?.string("r") == "fixed-font-size,insufficient-contrast,missing-accessibility-label",
                    "an audit that does not say which rules it checked keeps the last known set")
            try RollupConsistency.check(connection)
        }
    }

    @Test func aFixedFindingThatReturnsIsNewAgain() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            try runNight(connection, config, date: "2026-11-28", [a])
            try runNight(connection, config, date: "2026-11-29", [])
            let night3 = try runNight(connection, config, date: "2026-11-30", [a])
            #expect(night3.applied?.new == 1)
            let row = try #require(try connection.query("SELECT first_seen_run, fixed_in_run FROM findings", purpose: "read").first)
            #expect(row.int("first_seen_run") == night3.runID && row.int("fixed_in_run") == nil)
            try RollupConsistency.check(connection)
        }
    }

    static func twins(_ lines: [Int]) -> [Finding] {
        lines.map { finding("fixed-font-size", "App/Receipt.swift", line: $0, snippet: ".font(.system(size: 12))") }
    }

    /// The night a build with version 2 fingerprints first writes over version 1 history: every
    /// finding continues (mapped through the legacy fingerprints), none is new or fixed, and the
    /// rows take the new fingerprints.
    @Test func theUpgradeToVersionTwoFingerprintsKeepsEveryFindingsHistory() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            let today = [a, b] + Self.twins([6, 8])
            var old = today
            let legacy = old.legacyFingerprints()
            for index in old.indices { old[index].fingerprint = legacy[index] }
            let night1 = try runNight(connection, config, date: "2026-11-28", old)
            var upgraded = today
            upgraded.assignFingerprints { FingerprintContext(scope: "Receipt.body", neighbours: "line \($0.location.line)") }
            #expect(Set(upgraded.map(\.fingerprint)).isDisjoint(with: legacy))
            let night2 = try runNight(connection, config, date: "2026-11-29", upgraded)
            #expect(night2.applied == .init(open: 4, new: 0, fixed: 0, historyApplied: true))
            let rows = try connection.query("SELECT fingerprint, first_seen_run, fixed_in_run FROM findings", purpose: "read")
            #expect(Set(rows.compactMap { $0.string("fingerprint") }) == Set(upgraded.map(\.fingerprint)))
            #expect(rows.allSatisfy { $0.int("first_seen_run") == night1.runID && $0.int("fixed_in_run") == nil })
            try RollupConsistency.check(connection)
        }
    }

    /// A finding continued under a new fingerprint that a fixed finding holds reopens that one
    /// (the unique key stays whole) instead of renaming the open one.
    @Test func aContinuationOntoAFixedFingerprintReopensIt() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            var pair = Self.twins([6, 8])
            pair[0].fingerprint = "twin-at-6"
            pair[1].fingerprint = "twin-at-8"
            try runNight(connection, config, date: "2026-11-28", pair)
            let night2 = try runNight(connection, config, date: "2026-11-29", [pair[1]])
            #expect(night2.applied?.fixed == 1)
            let night3 = try runNight(connection, config, date: "2026-11-30", [pair[0]])
            #expect(night3.applied?.new == 1 && night3.applied?.fixed == 1)
            let rows = try connection.query("SELECT fingerprint, first_seen_run, fixed_in_run FROM findings ORDER BY fingerprint", purpose: "read")
            #expect(rows.map { [$0.string("fingerprint") ?? "", "\($0.int("first_seen_run") ?? 0)", "\($0.int("fixed_in_run") ?? 0)"] }
                    == [["twin-at-6", "\(night3.runID)", "0"], ["twin-at-8", "\(night3.runID - 2)", "\(night3.runID)"]])
            try RollupConsistency.check(connection)
        }
    }

    @Test func anOlderRunFinishingLateDoesNotRewindHistory() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            guard case .created(let older, _) = try schedule(connection, config, date: "2026-11-29") else { throw TestFailure("no run") }
            let queue = JobQueue(connection: connection)
            let olderJob = try #require(try queue.claim(worker: "slow"))
            try runNight(connection, config, date: "2026-11-30", [a, c])
            var applied: HistoryWriter.Applied?
            _ = try queue.complete(olderJob) { applied = try HistoryWriter(connection: $0).write(results([a]), for: olderJob) }
            #expect(applied?.historyApplied == false)
            let open = try connection.query("SELECT count(*) AS n FROM findings WHERE fixed_in_run IS NULL", purpose: "read").first?.int("n")
            #expect(open == 2, "the late older run must not mark the newer run's finding fixed")
            #expect(try runState(connection, older) == "succeeded")
            try RollupConsistency.check(connection)
        }
    }

    @Test func aRetriedJobIsCountedExactlyOnce() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            _ = try schedule(connection, config)
            let expiring = JobQueue(connection: connection, policy: QueuePolicy(leaseSeconds: 0.2, backoffBaseSeconds: 0.001, backoffMaxSeconds: 0.001))
            let first = try #require(try expiring.claim(worker: "first"))
            Thread.sleep(forTimeInterval: 0.3)
            #expect(try expiring.rescueExpiredLeases() == [first.id])
            Thread.sleep(forTimeInterval: 0.01)
            let queue = JobQueue(connection: connection)
            let second = try #require(try queue.claim(worker: "second"))
            #expect(try queue.complete(second) { try HistoryWriter(connection: $0).write(results([a, b]), for: second) } == .completed)
            // The first attempt wakes up and tries to write its (identical) results.
            #expect(try queue.complete(first) { try HistoryWriter(connection: $0).write(results([a, b]), for: first) } == .leaseLost)
            let summaries = try connection.query("SELECT count(*) AS n, sum(findings_open) AS open FROM job_summaries", purpose: "read").first
            #expect(summaries?.int("n") == 1 && summaries?.int("open") == 2)
            #expect(try connection.query("SELECT sum(open_count) AS n FROM run_rule_counts", purpose: "read").first?.int("n") == 2)
            try RollupConsistency.check(connection)
            // Writing the same job's summary twice is refused by the database itself.
            #expect(throws: DatabaseError.self) {
                try connection.transaction(purpose: "double write") { try HistoryWriter(connection: $0).write(results([a]), for: second) }
            }
        }
    }

    @Test func textIsStoredExactlyWhateverItHolds() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let config = try makeOrg(connection, repositories: 1)
            let tricky = finding("label-names-trait", "App/Ünïcödé \"quoted\", {braces}.swift", line: 1,
                                 snippet: #"Text("NULL \\ \" , } { 🎉 \n")"#)
            try runNight(connection, config, date: "2026-11-30", [tricky])
            let row = try #require(try connection.query("SELECT path, snippet FROM findings", purpose: "read").first)
            #expect(row.string("path") == tricky.location.file)
            #expect(row.string("snippet") == tricky.snippet)
            #expect(throws: DatabaseError.self) {
                try connection.query("SELECT $1::text", [.text("a\u{0}b")], purpose: "pass a NUL")
            }
            // A NUL in a source line (past the scanner's binary check) does not fail the job.
            var withNUL = finding("fixed-font-size", "App/NUL.swift", line: 2, snippet: "Text(\"a\u{0}b\")")
            withNUL.sourceLine = "Text(\"a\u{0}b\")"
            try runNight(connection, config, date: "2026-12-01", [tricky, withNUL])
            #expect(try connection.query("SELECT snippet FROM findings WHERE path = 'App/NUL.swift'", purpose: "read").first?.string("snippet")
                    == "Text(\"a\u{FFFD}b\")")
            let bytes: [UInt8] = [0, 1, 2, 255, 92, 120]
            #expect(try connection.query("SELECT $1::bytea AS b", [.bytes(bytes)], purpose: "round-trip bytes").first?.bytes("b") == bytes)
        }
    }
}
