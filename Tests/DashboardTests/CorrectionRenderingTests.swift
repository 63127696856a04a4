import AuditModel
import AuditStore
import Dashboard
import DatabaseTestSupport
import Foundation
import HistorySimulation
import PostgresClient
import PullRequestVerdict
import Testing

/// A finding's mechanical fix goes through the history and the pull-request check and is shown
/// with the finding: what the fix does and the line as it leaves it.
@Suite(.serialized) struct CorrectionRenderingTests {
    static let sourceLine = "        Text(\"price\").font(.system(size: 17))"

    /// `.system(size: 17)` (columns 29-45 of line 5) becomes `.body`, and line 6 gets an insertion.
    static func fixable(file: String = "App/Price.swift") -> Finding {
        var finding = FixtureHistory.finding(FixtureHistory.rules[0], file: file, line: 5, code: "price",
                                             message: "`.system(size:)` fixes the text at 17 pt")
        finding.sourceLine = sourceLine
        finding.correction = Correction(summary: "Use `.body`, the text style of 17 pt", edits: [
            TextEdit(file: file, start: TextPoint(offset: 128, line: 5, column: 28), end: TextPoint(offset: 145, line: 5, column: 45),
                     replacement: ".body"),
            TextEdit(file: file, start: TextPoint(offset: 170, line: 6, column: 1), end: TextPoint(offset: 170, line: 6, column: 1),
                     replacement: "        // fixed\n"),
        ])
        return finding
    }

    static func review(file: String = "App/Scan.swift") -> Finding {
        var finding = FixtureHistory.finding(FixtureHistory.rules[6], file: file, line: 8, code: "qr",
                                             message: "`Image(\"QRCode\")` may read its asset name")
        finding.certainty = .review
        return finding
    }

    @Test func theEditedLineIsTheSourceLineWithTheEditsOnItApplied() {
        let correction = Self.fixable().correction!
        #expect(correction.editedLine(Self.sourceLine, number: 5) == "        Text(\"price\").font(.body)")
        #expect(correction.editsElsewhere(than: 5) == ["line 6: insert `// fixed`"])
        // The line the edits were not made against, or one cut short before them, shows no edited line.
        #expect(correction.editedLine("Text(\"x\")", number: 5) == nil)
        #expect(correction.editedLine(Self.sourceLine, number: 9) == nil)
        // Columns count Unicode scalars: a line with "é" before the edit.
        let accented = Correction(summary: "s", edits: [TextEdit(file: "f", start: TextPoint(offset: 3, line: 1, column: 3),
                                                                 end: TextPoint(offset: 4, line: 1, column: 4), replacement: "X")])
        #expect(accented.editedLine("éab", number: 1) == "éaX")
        // An edit reaching into the next line is not shown as this line's result.
        let spanning = Correction(summary: "s", edits: [TextEdit(file: "f", start: TextPoint(offset: 2, line: 1, column: 3),
                                                                 end: TextPoint(offset: 8, line: 2, column: 2), replacement: "")])
        #expect(spanning.editedLine("abcd", number: 1) == nil)
    }

    @Test func storedResultsKeepCertaintyAndCorrectionAndOldRowsStillRead() throws {
        let comparison = PullRequestComparison(head: [Self.fixable(), Self.review()], base: [], changedFiles: ["App/Price.swift", "App/Scan.swift"])
        let results = PullRequestResults(comparison)
        let decoded = try PullRequestResults(json: results.json)
        #expect(decoded == results)
        #expect(decoded.new.first { $0.path == "App/Scan.swift" }?.certainty == .review)
        #expect(decoded.new.first { $0.path == "App/Price.swift" }?.correction == Self.fixable().correction)
        // A row written before certainty and corrections were stored.
        let old = """
            {"changedFiles":["A.swift"],"fixed":[],"new":[{"column":3,"fingerprint":"f","kind":"requirement","line":2,"message":"m",
            "path":"A.swift","rule":"fixed-font-size","severity":"error","snippet":"s","sourceLine":"l"}],"summary":"1 new","unchangedInChangedFiles":[]}
            """
        let oldResults = try PullRequestResults(json: old)
        #expect(oldResults.new.count == 1 && oldResults.new[0].certainty == .violation && oldResults.new[0].correction == nil)
        // jsonb refuses \u0000: a NUL in a message is stored as U+FFFD.
        var withNUL = Self.review()
        withNUL.message = "a\u{0}b"
        let stored = PullRequestResults(PullRequestComparison(head: [withNUL], base: [], changedFiles: ["App/Scan.swift"])).json
        #expect(!stored.contains("\\u0000") && stored.contains("a\u{FFFD}b"))
    }

    @Test func theHistoryStoresTheFixAndTheRepositoryAndPullRequestPagesShowIt() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            var history = FixtureHistory(teams: 1, repositories: 2, nights: 2)
            history.planted = [Self.fixable(), Self.review()]
            try history.write(to: connection)
            let stored = try connection.query("SELECT correction FROM findings WHERE path = 'App/Price.swift'", purpose: "read")
            let json = try #require(stored.first?.string("correction"))
            #expect(try JSONDecoder().decode(Correction.self, from: Data(json.utf8)) == Self.fixable().correction)
            #expect(try connection.query("SELECT count(*) AS n FROM findings WHERE correction IS NOT NULL", purpose: "read").first?.int("n") == 1)

            // A row from before the column existed gets its fix from the next audit that sees it.
            try connection.query("UPDATE findings SET correction = NULL", purpose: "forget")
            let repository = try #require(try OrgStore(connection: connection).repositoryID(org: "fixture", name: "fixture/app-0"))
            guard case .created(let run, _) = try OrgStore(connection: connection).scheduleRun(
                history.config, date: FixtureHistory.date(1), kind: .manual, createdBy: "test",
                archiveURL: { repository, _ in repository.archive ?? "" }) else { Issue.record("no run"); return }
            let queue = JobQueue(connection: connection)
            while let job = try queue.claim(worker: "test") {
                let findings = history.findings(repository: job.repositoryID == repository ? 0 : 1, night: 1)
                _ = try queue.complete(job) {
                    try HistoryWriter(connection: $0).write(JobResults(findings: findings.map { .init(finding: $0, teamID: nil) },
                                                                       filesScanned: 3, filesParsed: 0, cacheHits: 3), for: job)
                }
            }
            #expect(run > 0)
            #expect(try connection.query("SELECT correction FROM findings WHERE path = 'App/Price.swift' AND fixed_in_run IS NULL",
                                         purpose: "read").first?.string("correction") == json)

            // A pull request adding the same two findings in other files, and fixing the price one.
            let headSHA = String(repeating: "c", count: 40), baseSHA = String(repeating: "d", count: 40)
            _ = try queue.enqueue(JobRequest(runID: nil, repositoryID: repository, kind: .pr, commitRef: headSHA, archiveURL: "file:///head",
                                             priority: 100, prNumber: 9, baseSHA: baseSHA, baseRef: "main", baseArchiveURL: "file:///base"))
            let job = try #require(try queue.claim(worker: "test"))
            var head = [Self.fixable(file: "App/NewPrice.swift"), Self.review(file: "App/NewScan.swift")]
            head.assignFingerprints()
            var base = [Self.fixable()]
            base.assignFingerprints()
            let comparison = PullRequestComparison(head: head, base: base, changedFiles: ["App/NewPrice.swift", "App/NewScan.swift", "App/Price.swift"])
            _ = try queue.complete(job) { try PullRequestStore(connection: $0).complete(job, comparison: comparison) }

            let site = try RenderedSite()
            _ = try render(connection, into: site)
            let repositoryPage = try #require(try site.pages.filter { $0.hasPrefix("repos/") }
                .map { try site.html($0).replacingOccurrences(of: "<wbr>", with: "") }
                .first { $0.contains("App/Price.swift") })
            #expect(repositoryPage.contains("Fixable: Use <code>.body</code>, the text style of 17 pt. <code>a11y-audit fix</code> applies it; the line becomes:"))
            #expect(repositoryPage.contains("<pre class=\"snippet snippet--fixed\"><code>        Text(&quot;price&quot;).font(.body)</code></pre>"))
            #expect(repositoryPage.contains("It also edits line 6: insert <code>// fixed</code>."))
            #expect(count("snippet--fixed", in: repositoryPage) == 1, "only the finding with a fix shows one")

            let pullPage = try site.html(PullRequestReport.path(repository: "fixture/app-0", prNumber: 9, headSHA: headSHA))
                .replacingOccurrences(of: "<wbr>", with: "")
            let newSection = try #require(pullPage.components(separatedBy: "<h2 id=\"fixed\">").first)
            let fixedSection = try #require(pullPage.components(separatedBy: "<h2 id=\"fixed\">").dropFirst().first?
                .components(separatedBy: "<h2 id=\"unchanged\">").first)
            // The review finding is under "Needs review", not shown as a violation.
            let review = try #require(newSection.components(separatedBy: "<h3>Needs review (1)</h3>").dropFirst().first)
            #expect(review.contains("App/NewScan.swift") && !newSection.contains("<h3>Notes"), "\(newSection)")
            #expect(newSection.contains("the line becomes:") && newSection.contains("Text(&quot;price&quot;).font(.body)"))
            #expect(fixedSection.contains("App/Price.swift") && !fixedSection.contains("Fixable:"), "a fixed finding offers no fix")
        }
    }
}
