import AuditModel
import AuditPipeline
import AuditStore
import DatabaseTestSupport
import Foundation
import OrgModel
import PostgresClient
import Testing

@Suite(.serialized) struct PullRequestTests {
    /// With the base audited by the nightly run (its files come from the cache) and with a base
    /// never audited (audited now): the same verdict.
    @Test(arguments: [true, false])
    func aPullRequestIsJudgedOnlyByWhatItIntroducesInTheFilesItChanged(nightlyFirst: Bool) throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let base = try workspace.sampleRepository("base")
            let baseArchive = try workspace.archive(base, as: "base.tar.gz")
            let head = try workspace.sampleRepository("head")
            // Adds a fixed-size font (a requirement) in a new file…
            try """
                import SwiftUI
                struct NewBadge: View {
                    var body: some View { Button(action: {}) { Image(systemName: "star.fill") }.accessibilityLabel("star.fill") }
                }
                """.write(toFile: head + "/Shared/NewBadge.swift", atomically: true, encoding: .utf8)
            // …and fixes a too-small text by deleting its modifier line.
            let statusView = head + "/Shared/OrderStatusView.swift"
            let lines = try String(contentsOfFile: statusView, encoding: .utf8).components(separatedBy: "\n")
            try lines.filter { !$0.contains("// expect: text-below-minimum-size") }.joined(separator: "\n")
                .write(toFile: statusView, atomically: true, encoding: .utf8)
            let headArchive = try workspace.archive(head, as: "head.tar.gz")

            let config = try workspace.writeConfig([("acme/app", baseArchive)])
            if nightlyFirst {
                _ = try scheduleNight(database, config: config, date: "2026-11-29")
                _ = try runWorker(database, workspace)   // the nightly audit of the base fills the cache
            } else {
                try OrgStore(connection: try database.connect()).sync(try OrgConfig.load(path: config))
            }

            let connection = try database.connect()
            let repository = try #require(try connection.query("SELECT id FROM repositories", purpose: "read").first?.int("id"))
            let headSHA = String(repeating: "a", count: 40), baseSHA = String(repeating: "b", count: 40)
            let job = try #require(try JobQueue(connection: connection).enqueue(JobRequest(
                runID: nil, repositoryID: repository, kind: .pr, commitRef: headSHA, archiveURL: "file://" + headArchive, priority: 10,
                prNumber: 7, baseSHA: baseSHA, baseRef: "main", baseArchiveURL: "file://" + baseArchive)))
            try PullRequestStore(connection: connection).open(repositoryID: repository, prNumber: 7, headSHA: headSHA, baseSHA: baseSHA,
                                                              baseRef: "main", jobID: job, gate: .requirements)
            let summary = try runWorker(database, workspace)
            #expect(summary.succeeded == 1)

            let check = try #require(try PullRequestStore(connection: connection).checks().first)
            #expect(check.state == .failure, "a new requirement-level finding fails the default gate")
            let results = try #require(check.results)
            let (new, fixed) = (results.new, results.fixed)
            #expect(new.count == check.newCount && fixed.count == check.fixedCount)
            #expect(!new.isEmpty && new.allSatisfy { $0.path == "Shared/NewBadge.swift" }, "\(new)")
            #expect(new.contains { $0.rule == "accessibility-label-raw-identifier" && $0.line == 3 })
            #expect(fixed.contains { $0.rule == "text-below-minimum-size" && $0.path == "Shared/OrderStatusView.swift" })
            #expect(Set(results.changedFiles) == ["Shared/NewBadge.swift", "Shared/OrderStatusView.swift"])
            // The base came from the cache: the nightly run had parsed every file already.
            let parsed = try #require(try connection.query("SELECT files_parsed FROM job_summaries WHERE job_id = $1", [.int(job)],
                                                           purpose: "read").first?.int("files_parsed"))
            if nightlyFirst {
                #expect(parsed == 2, "only the two changed files are parsed")
            } else {
                #expect(parsed > 10, "a base never audited is parsed now: \(parsed) files")
            }
            // A pull request never touches the nightly history.
            #expect(try value(connection, "SELECT count(*) FROM findings WHERE path = 'Shared/NewBadge.swift'") == "0")
        }
    }
}
