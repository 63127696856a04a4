import AuditModel
import Foundation
import PostgresClient

/// What one job produced, ready to store.
public struct JobResults: Sendable {
    public struct AttributedFinding: Sendable {
        public var finding: Finding
        public var teamID: Int?
        public init(finding: Finding, teamID: Int?) { self.finding = finding; self.teamID = teamID }
    }

    public var findings: [AttributedFinding]
    public var notes: [ScanNote]
    public var filesScanned: Int
    public var filesParsed: Int
    public var cacheHits: Int
    public var suppressed: Int
    public var fetchMilliseconds: Int
    public var scanMilliseconds: Int
    public var commitSHA: String?
    /// The repository config in effect, as JSON text (shown on the repository page).
    public var configJSON: String?
    /// The rules this audit checked; nil: not known (then no rule counts as checked for the
    /// first time). A rule the repository's previous audit did not check records a baseline.
    public var rulesChecked: [String]?
    /// The platforms the app builds for (`ScanStatistics.platforms`); nil: not known.
    public var platforms: PlatformSet?

    public init(findings: [AttributedFinding], notes: [ScanNote] = [], filesScanned: Int, filesParsed: Int, cacheHits: Int,
                suppressed: Int = 0, fetchMilliseconds: Int = 0, scanMilliseconds: Int = 0, commitSHA: String? = nil,
                configJSON: String? = nil, rulesChecked: [String]? = nil, platforms: PlatformSet? = nil) {
        self.findings = findings; self.notes = notes; self.filesScanned = filesScanned; self.filesParsed = filesParsed
        self.cacheHits = cacheHits; self.suppressed = suppressed; self.fetchMilliseconds = fetchMilliseconds
        self.scanMilliseconds = scanMilliseconds; self.commitSHA = commitSHA; self.configJSON = configJSON
        self.rulesChecked = rulesChecked
        self.platforms = platforms
    }
}

/// Applies a job's findings to the repository's history and writes its summary. Runs inside the
/// completing transaction (`JobQueue.complete`), so results and the job's success commit together.
///
/// History is applied in run order per repository: findings, matched to the open ones by
/// `FindingMatcher`, get `first_seen_run` when they appear and `fixed_in_run` when they
/// disappear; a finding continued under a new fingerprint takes it; an unchanged open
/// finding is not written at all, so the table grows with change, not with nights.
public struct HistoryWriter {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    public struct Applied: Sendable, Equatable {
        public var open: Int
        /// First seen in this audit, and not part of a baseline.
        public var new: Int
        public var fixed: Int
        public var historyApplied: Bool
        /// First seen in this audit that establishes the baseline of their rule: the repository's
        /// first audit, or the first that checked the rule. Existing findings, not regressions.
        public var baseline: Int
        public init(open: Int, new: Int, fixed: Int, historyApplied: Bool, baseline: Int = 0) {
            self.open = open; self.new = new; self.fixed = fixed; self.historyApplied = historyApplied; self.baseline = baseline
        }
    }

    @discardableResult
    public func write(_ results: JobResults, for job: ClaimedJob, writeMilliseconds: Int = 0) throws -> Applied {
        // One finding per fingerprint, the last reported, as `findings` stores them: every count
        // (summary, roll-ups) then agrees with the rows.
        var results = results
        var seen = Set<String>()
        results.findings = results.findings.reversed().filter { seen.insert($0.finding.fingerprint).inserted }.reversed()
        var applied = Applied(open: results.findings.count, new: 0, fixed: 0, historyApplied: false)
        var newFingerprints = Set<String>()
        var fixedByKey: [CountKey: Int] = [:]
        var fixedKinds: [String: String] = [:]
        // Pull-request jobs are compared against their base, not folded into the nightly history.
        if let runID = job.runID, job.kind != .pr {
            let repository = try connection.query("""
                SELECT last_run_id, array_to_string(rules_checked, ',') AS rules_checked FROM repositories WHERE id = $1 FOR NO KEY UPDATE
                """, [.int(job.repositoryID)], purpose: "lock repository \(job.repositoryName)'s history")
            let lastRun = repository.first?.int("last_run_id")
            if lastRun.map({ $0 <= runID }) ?? true {
                let baseline = Self.baselineRules(firstAudit: lastRun == nil, checkedBefore: repository.first?.string("rules_checked")
                                                      .map { $0.split(separator: ",").map(String.init) },
                                                  checkedNow: results.rulesChecked)
                var baselineCount = 0
                (newFingerprints, baselineCount, fixedByKey, fixedKinds) = try applyHistory(
                    results, repositoryID: job.repositoryID, runID: runID, previousRun: lastRun, baseline: baseline)
                applied.new = newFingerprints.count
                applied.baseline = baselineCount
                applied.fixed = fixedByKey.values.reduce(0, +)
                applied.historyApplied = true
                try connection.query("""
                    UPDATE repositories SET last_run_id = $2, open_findings = $3, open_requirements = $4,
                        rules_checked = coalesce($5::text[], rules_checked), platforms = coalesce($6::text[], platforms) WHERE id = $1
                    """, [.int(job.repositoryID), .int(runID), .int(results.findings.count),
                          .int(results.findings.filter { $0.finding.kind == .requirement && $0.finding.certainty == .violation }.count),
                          results.rulesChecked.map { .textArray($0.sorted()) } ?? .null,
                          results.platforms.map { .textArray($0.platforms.map(\.rawValue)) } ?? .null],
                    purpose: "record the newest run of \(job.repositoryName)")
            }
        }
        try writeSummary(results, job: job, applied: applied, newFingerprints: newFingerprints, fixedByKey: fixedByKey,
                         fixedKinds: fixedKinds, writeMilliseconds: writeMilliseconds)
        return applied
    }

    /// The unique key of job_summary_counts; a rule's kind rides along (a build that changes a
    /// rule's kind must not split one key in two).
    struct CountKey: Hashable {
        var teamID: Int?
        var ruleID: String
        var severity: String
    }

    /// Which rules' new findings are a baseline: every rule on a repository's first audit; else
    /// the rules checked now that the previous audit did not check (none when either is unknown).
    enum BaselineRules: Equatable {
        case all
        case some(Set<String>)

        func contains(_ ruleID: String) -> Bool {
            switch self {
            case .all: true
            case .some(let rules): rules.contains(ruleID)
            }
        }
    }

    static func baselineRules(firstAudit: Bool, checkedBefore: [String]?, checkedNow: [String]?) -> BaselineRules {
        if firstAudit { return .all }
        guard let checkedBefore, let checkedNow else { return .some([]) }
        return .some(Set(checkedNow).subtracting(checkedBefore))
    }

    /// Returns the fingerprints of the new findings (baseline ones left out), how many were a
    /// baseline, and the fixed counts by key with the fixed rules' kinds.
    private func applyHistory(_ results: JobResults, repositoryID: Int, runID: Int, previousRun: Int?,
                              baseline: BaselineRules) throws -> (Set<String>, Int, [CountKey: Int], [String: String]) {
        let open = try connection.query("""
            SELECT id, fingerprint, team_id, rule_id, kind, severity, certainty, path, line, column_number, message, snippet, source_line,
                   correction
            FROM findings WHERE repository_id = $1 AND fixed_in_run IS NULL
            """, [.int(repositoryID)], purpose: "read the open findings of repository \(repositoryID)")
        let rows = open.filter { $0.string("fingerprint") != nil && $0.int("id") != nil }
        let previous = rows.map { row in
            FindingIdentity(fingerprint: row.string("fingerprint") ?? "", ruleID: row.string("rule_id") ?? "", file: row.string("path") ?? "",
                            snippet: row.string("snippet") ?? "", line: row.int("line") ?? 0)
        }
        let items = results.findings
        // Stored text is NUL-free (`storable`), so the identities compare what the rows hold.
        let current = items.map { item in
            FindingIdentity(fingerprint: item.finding.fingerprint, ruleID: item.finding.ruleID,
                            file: HistoryWriter.storable(item.finding.location.file),
                            snippet: HistoryWriter.storable(item.finding.snippet), line: item.finding.location.line)
        }
        let legacy = items.map(\.finding).legacyFingerprints()
        var matches = FindingMatcher.match(previous: previous, current: current, legacy: legacy)
        // A finding continued under a new fingerprint takes that fingerprint; where a finding
        // fixed earlier holds it, the current one reopens that one instead.
        let remapped = items.indices.filter { index in matches[index].map { previous[$0].fingerprint != current[index].fingerprint } ?? false }
        if !remapped.isEmpty {
            let held = try connection.query("""
                SELECT fingerprint FROM findings WHERE repository_id = $1 AND fixed_in_run IS NOT NULL AND fingerprint = ANY($2::text[])
                """, [.int(repositoryID), .textArray(remapped.map { current[$0].fingerprint })],
                purpose: "find fixed findings that \(remapped.count) continued findings would reopen")
            let heldFingerprints = Set(held.compactMap { $0.string("fingerprint") })
            if !heldFingerprints.isEmpty {
                matches = FindingMatcher.match(previous: previous, current: current, legacy: legacy,
                                               reopening: Set(remapped.filter { heldFingerprints.contains(current[$0].fingerprint) }))
            }
        }

        var inserted: [JobResults.AttributedFinding] = []
        var changed: [(Int, JobResults.AttributedFinding)] = []
        for (index, item) in items.enumerated() {
            guard let match = matches[index] else { inserted.append(item); continue }
            let row = rows[match]
            let finding = item.finding
            if row.string("fingerprint") != finding.fingerprint
                || row.int("line") != finding.location.line || row.int("column_number") != finding.location.column
                || row.string("path") != HistoryWriter.storable(finding.location.file)
                || row.string("message") != HistoryWriter.storable(finding.message)
                || row.string("severity") != finding.severity.rawValue || row.int("team_id") != item.teamID
                || row.string("snippet") != HistoryWriter.storable(finding.snippet)
                || row.string("source_line") != HistoryWriter.storable(finding.sourceLine)
                || row.string("kind") != finding.kind.rawValue || row.string("certainty") != finding.certainty.rawValue
                || row.string("correction") != HistoryWriter.correctionJSON(finding.correction),
               let id = row.int("id") {
                changed.append((id, item))
            }
        }
        let continued = Set(matches.compactMap { $0 })
        var fixedIDs: [Int] = []
        var fixedByKey: [CountKey: Int] = [:]
        var fixedKinds: [String: String] = [:]
        for (index, row) in rows.enumerated() where !continued.contains(index) {
            guard let id = row.int("id") else { continue }
            fixedIDs.append(id)
            fixedByKey[CountKey(teamID: row.int("team_id"), ruleID: row.string("rule_id") ?? "",
                                severity: row.string("severity") ?? ""), default: 0] += 1
            fixedKinds[row.string("rule_id") ?? ""] = row.string("kind")
        }

        if !inserted.isEmpty {
            // A fingerprint fixed earlier and seen again is reopened as new in this run.
            try connection.query("""
                INSERT INTO findings (repository_id, fingerprint, rule_id, kind, severity, team_id, path, line, column_number,
                                      message, snippet, source_line, certainty, correction, baseline, first_seen_run)
                SELECT $1, * , $16 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[],
                                          $8::int[], $9::int[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                                          $15::bool[])
                ON CONFLICT (repository_id, fingerprint) DO UPDATE SET
                    baseline = EXCLUDED.baseline,
                    rule_id = EXCLUDED.rule_id, kind = EXCLUDED.kind, severity = EXCLUDED.severity, team_id = EXCLUDED.team_id,
                    certainty = EXCLUDED.certainty, correction = EXCLUDED.correction,
                    path = EXCLUDED.path, line = EXCLUDED.line, column_number = EXCLUDED.column_number,
                    message = EXCLUDED.message, snippet = EXCLUDED.snippet, source_line = EXCLUDED.source_line,
                    first_seen_run = EXCLUDED.first_seen_run, first_seen_at = now(),
                    last_seen_run = NULL, fixed_in_run = NULL, fixed_at = NULL
                """, [.int(repositoryID)] + Self.columns(inserted) + [.boolArray(inserted.map { baseline.contains($0.finding.ruleID) }), .int(runID)],
                purpose: "insert \(inserted.count) new findings")
        }
        if !changed.isEmpty {
            try connection.query("""
                UPDATE findings f SET severity = u.severity, kind = u.kind, team_id = u.team_id, path = u.path, line = u.line,
                    column_number = u.column_number, message = u.message, snippet = u.snippet, source_line = u.source_line,
                    certainty = u.certainty, correction = u.correction, fingerprint = u.fingerprint
                FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[],
                            $10::text[], $11::text[], $12::text[], $13::text[])
                     AS u (id, severity, team_id, path, line, column_number, message, snippet, source_line, kind, certainty, correction,
                           fingerprint)
                WHERE f.id = u.id
                """, [.intArray(changed.map(\.0)), .textArray(changed.map { $0.1.finding.severity.rawValue }),
                      .optionalIntArray(changed.map { $0.1.teamID }), .textArray(changed.map { $0.1.finding.location.file }),
                      .intArray(changed.map { $0.1.finding.location.line }), .intArray(changed.map { $0.1.finding.location.column }),
                      .textArray(changed.map { HistoryWriter.storable($0.1.finding.message) }),
                      .textArray(changed.map { HistoryWriter.storable($0.1.finding.snippet) }),
                      .textArray(changed.map { HistoryWriter.storable($0.1.finding.sourceLine) }), .textArray(changed.map { $0.1.finding.kind.rawValue }),
                      .textArray(changed.map { $0.1.finding.certainty.rawValue }),
                      .optionalTextArray(changed.map { HistoryWriter.correctionJSON($0.1.finding.correction) }),
                      .textArray(changed.map { $0.1.finding.fingerprint })],
                purpose: "update \(changed.count) moved or reworded findings")
        }
        if !fixedIDs.isEmpty {
            try connection.query("""
                UPDATE findings SET fixed_in_run = $2, last_seen_run = $3, fixed_at = now() WHERE id = ANY($1::bigint[])
                """, [.intArray(fixedIDs), .int(runID), .optional(previousRun)], purpose: "mark \(fixedIDs.count) findings fixed")
        }
        let (baselined, new) = (inserted.filter { baseline.contains($0.finding.ruleID) }, inserted.filter { !baseline.contains($0.finding.ruleID) })
        return (Set(new.map(\.finding.fingerprint)), baselined.count, fixedByKey, fixedKinds)
    }

    private func writeSummary(_ results: JobResults, job: ClaimedJob, applied: Applied, newFingerprints: Set<String>,
                              fixedByKey: [CountKey: Int], fixedKinds: [String: String], writeMilliseconds: Int) throws {
        // The primary key on job_id is the guard against counting a job twice: a second write
        // for the same job fails instead of adding to the totals.
        let notes = results.notes.map { note -> [String: Any] in
            var object: [String: Any] = ["kind": note.kind.rawValue, "file": Self.storable(note.file), "message": Self.storable(note.message)]
            if let line = note.line { object["line"] = line }
            return object
        }
        let notesJSON = (try? JSONSerialization.data(withJSONObject: notes, options: [.sortedKeys]))
            .flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        var openBySeverity: [Severity: Int] = [:]
        for item in results.findings { openBySeverity[item.finding.severity, default: 0] += 1 }
        try connection.query("""
            INSERT INTO job_summaries (job_id, run_id, repository_id, commit_sha, history_applied, files_scanned, files_parsed,
                                       cache_hits, findings_open, findings_new, findings_fixed, suppressed, fetch_ms, scan_ms,
                                       write_ms, notes, config, open_error, open_warning, open_note, findings_baseline)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb, $17::jsonb, $18, $19, $20, $21)
            """, [.int(job.id), .optional(job.runID), .int(job.repositoryID), .optional(results.commitSHA), .bool(applied.historyApplied),
                  .int(results.filesScanned), .int(results.filesParsed), .int(results.cacheHits), .int(applied.open),
                  .int(applied.new), .int(applied.fixed), .int(results.suppressed), .int(results.fetchMilliseconds),
                  .int(results.scanMilliseconds), .int(writeMilliseconds), .text(notesJSON),
                  // jsonb refuses \u0000 although JSON allows it: such a config is not kept.
                  .optional(results.configJSON.flatMap { $0.contains("\\u0000") ? nil : $0 }),
                  .int(openBySeverity[.error] ?? 0), .int(openBySeverity[.warning] ?? 0), .int(openBySeverity[.note] ?? 0),
                  .int(applied.baseline)],
            purpose: "write the summary of job \(job.id)")

        var counts: [CountKey: (open: Int, new: Int, fixed: Int)] = [:]
        var kinds: [String: String] = [:]
        for item in results.findings {
            kinds[item.finding.ruleID] = item.finding.kind.rawValue
            let key = CountKey(teamID: item.teamID, ruleID: item.finding.ruleID, severity: item.finding.severity.rawValue)
            counts[key, default: (0, 0, 0)].open += 1
            if newFingerprints.contains(item.finding.fingerprint) { counts[key, default: (0, 0, 0)].new += 1 }
        }
        for (key, fixed) in fixedByKey { counts[key, default: (0, 0, 0)].fixed += fixed }
        // No counts means nothing open now and nothing fixed, so nothing was open before either:
        // the repository's open counts are already empty.
        // A job outside a run (a pull request's) has no trend to count for.
        guard !counts.isEmpty, job.runID != nil else { return }
        let keys = Array(counts.keys)
        // One statement: the job's counts; when the job applied the repository's history, the
        // repository's open counts replaced by this job's (keys upserted, vanished keys deleted:
        // disjoint rows, so the two sub-statements cannot collide); and when the job's run was
        // already rolled up (a job finishing after its run, which JobQueue does not let happen
        // today), its counts added to the run's roll-up so trends stay whole.
        try connection.query("""
            WITH c AS (
                SELECT * FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[])
                    AS u (team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
            ), job_counts AS (
                INSERT INTO job_summary_counts (job_id, run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
                SELECT $1, $2, * FROM c
            ), open_now AS (
                INSERT INTO repository_open_counts AS o (repository_id, team_id, rule_id, kind, severity, open_count)
                SELECT $10, team_id, rule_id, kind, severity, open_count FROM c WHERE $11 AND open_count > 0
                ON CONFLICT (repository_id, team_id, rule_id, severity)
                DO UPDATE SET kind = EXCLUDED.kind, open_count = EXCLUDED.open_count
            ), open_gone AS (
                DELETE FROM repository_open_counts o WHERE $11 AND o.repository_id = $10
                  AND NOT EXISTS (SELECT 1 FROM c WHERE c.open_count > 0 AND c.team_id IS NOT DISTINCT FROM o.team_id
                                    AND c.rule_id = o.rule_id AND c.severity = o.severity)
            )
            INSERT INTO run_counts AS r (run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
            SELECT $2, c.* FROM c WHERE EXISTS (SELECT 1 FROM runs WHERE id = $2 AND counts_rolled_up)
            ON CONFLICT (run_id, team_id, rule_id, severity) DO UPDATE SET
                open_count = r.open_count + EXCLUDED.open_count, new_count = r.new_count + EXCLUDED.new_count,
                fixed_count = r.fixed_count + EXCLUDED.fixed_count
            """, [.int(job.id), .optional(job.runID), .optionalIntArray(keys.map(\.teamID)), .textArray(keys.map(\.ruleID)),
                  .textArray(keys.map { kinds[$0.ruleID] ?? fixedKinds[$0.ruleID] ?? "recommendation" }), .textArray(keys.map(\.severity)), .intArray(keys.map { counts[$0]?.open ?? 0 }),
                  .intArray(keys.map { counts[$0]?.new ?? 0 }), .intArray(keys.map { counts[$0]?.fixed ?? 0 }),
                  .int(job.repositoryID), .bool(applied.historyApplied)],
            purpose: "write the counts of job \(job.id)")
    }

    private static func columns(_ items: [JobResults.AttributedFinding]) -> [PostgresValue] {
        [.textArray(items.map(\.finding.fingerprint)), .textArray(items.map(\.finding.ruleID)),
         .textArray(items.map(\.finding.kind.rawValue)), .textArray(items.map(\.finding.severity.rawValue)),
         .optionalIntArray(items.map(\.teamID)), .textArray(items.map { storable($0.finding.location.file) }),
         .intArray(items.map(\.finding.location.line)), .intArray(items.map(\.finding.location.column)),
         .textArray(items.map { storable($0.finding.message) }), .textArray(items.map { storable($0.finding.snippet) }),
         .textArray(items.map { storable($0.finding.sourceLine) }), .textArray(items.map(\.finding.certainty.rawValue)),
         .optionalTextArray(items.map { correctionJSON($0.finding.correction) })]
    }

    static func correctionJSON(_ correction: Correction?) -> String? { correction?.storedJSON }

    static func storable(_ text: String) -> String { text.replacingNUL }

}
