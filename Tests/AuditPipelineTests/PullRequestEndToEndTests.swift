import AuditModel
import AuditPipeline
import AuditStore
import DatabaseTestSupport
import FakeGitHub
import Foundation
import GitHubClient
import OrgModel
import PostgresClient
import Testing
import Webhooks

/// Webhook in, verdict out: GitHub's real payload signed with the test secret, the worker
/// fetching archives from a fake GitHub over loopback, and the status and check run it posts.
@Suite(.serialized) struct PullRequestEndToEndTests {
    @Test func aPullRequestThatAddsOneFindingAndFixesAnotherGetsItsVerdict() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let github = try FakeGitHub(token: "fake-github-token")
            _ = github.addOrganization("Codertocat", repositories: [FakeRepository(name: "Hello-World", defaultBranch: "master")])
            let base = try workspace.sampleRepository("base")
            let head = try workspace.sampleRepository("head")
            try """
                import SwiftUI
                struct NewBadge: View {
                    var body: some View { Button(action: {}) { Image(systemName: "star.fill") }.accessibilityLabel("star.fill") }
                }
                struct ShareRow: View {
                    var body: some View {
                        Button(action: {}) { Image(systemName: "square.and.arrow.up") }.accessibilityLabel("Share button")
                        Image("QRCode")
                    }
                }
                """.write(toFile: head + "/Shared/NewBadge.swift", atomically: true, encoding: .utf8)
            let statusView = head + "/Shared/OrderStatusView.swift"
            try String(contentsOfFile: statusView, encoding: .utf8).components(separatedBy: "\n")
                .filter { !$0.contains("// expect: text-below-minimum-size") }.joined(separator: "\n")
                .write(toFile: statusView, atomically: true, encoding: .utf8)
            let headSHA = String(repeating: "1", count: 40), baseSHA = String(repeating: "2", count: 40)
            let baseBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try workspace.archive(base, as: "base.tar.gz"))))
            github.addArchive(owner: "Codertocat", repository: "Hello-World", ref: baseSHA, bytes: baseBytes)
            github.addArchive(owner: "Codertocat", repository: "Hello-World", ref: "master", bytes: baseBytes)
            github.addArchive(owner: "Codertocat", repository: "Hello-World", ref: headSHA,
                              bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: try workspace.archive(head, as: "head.tar.gz")))))

            var config = OrgConfig(org: "octo", teams: [.init(name: "Hello")],
                                   repositories: [.init(name: "Codertocat/Hello-World", team: "Hello", defaultBranch: "master")])
            config.providers = OrgConfig.Providers(github: .init(api: github.apiBaseURL, tokenEnvironment: nil), gitlab: nil)
            let connection = try database.connect()
            try OrgStore(connection: connection).sync(config)
            _ = try OrgStore(connection: connection).scheduleRun(config, date: "2026-11-29", createdBy: "test") { config.archiveURL(for: $0, ref: $1) }
            let source = FetchingArchiveSource(environment: ["GITHUB_TOKEN": "fake-github-token"])
            let api = try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: github.apiBaseURL, token: "fake-github-token",
                                                                       retryBaseDelaySeconds: 0.01, retryMaxDelaySeconds: 0.02))
            let reporter = PullRequestReporter(statuses: api, checks: api, publicURL: "https://a11y.example.com/")
            var options = workerOptions(database, workspace)
            options.reporter = reporter
            #expect(try Worker(options: options, source: source, log: .silent).run().succeeded == 1, "the nightly audit of the base")

            // The webhook: GitHub's own payload, pointed at our commits and signed.
            let payload = try rewritten("pull_request.opened.payload.json") { payload in
                var pull = payload["pull_request"] as? [String: Any] ?? [:]
                var headRef = pull["head"] as? [String: Any] ?? [:], baseRef = pull["base"] as? [String: Any] ?? [:]
                headRef["sha"] = headSHA
                baseRef["sha"] = baseSHA
                pull["head"] = headRef
                pull["base"] = baseRef
                payload["pull_request"] = pull
            }
            let response = WebhookIntake(secret: "s3cret", config: config).handle(
                WebhookRequest(headers: ["X-GitHub-Event": "pull_request", "X-GitHub-Delivery": "d-1", "Content-Type": "application/json",
                                         "X-Hub-Signature-256": "sha256=" + Digest.hmacSHA256Hex(key: Array("s3cret".utf8), message: payload)],
                               body: payload), connection: connection)
            #expect(response.status == 202, "\(response.body)")

            // GitHub fails the first status post with a 500: the pending status is still posted once.
            github.failNext(1, method: "POST", pathPrefix: "/repos/Codertocat/Hello-World/statuses", with: .status(500))
            #expect(try reporter.sweep(connection) == 1)
            let afterSweep = try PullRequestStore(connection: connection).checks()
            #expect(github.statuses.map(\.state) == ["pending"], "\(afterSweep)")

            #expect(try Worker(options: options, source: source, log: .silent).run().succeeded == 1, "the pull request's check")
            let statuses = github.statuses
            #expect(statuses.map(\.state) == ["pending", "failure"])
            let final = try #require(statuses.last)
            #expect(final.sha == headSHA && final.context == "a11y-audit")
            #expect(final.description?.hasPrefix("2 new accessibility findings (1 requirement), 3 to review") == true, "\(final.description ?? "")")
            #expect(final.description?.contains("fixed") == true)
            #expect(final.targetURL == "https://a11y.example.com/pulls/Codertocat/Hello-World/2-111111111111.html")
            let run = try #require(github.checkRuns.first)
            #expect(run.headSHA == headSHA && run.conclusion == "failure")
            #expect(run.annotations.contains { $0.path == "Shared/NewBadge.swift" && $0.startLine == 3 && $0.level == "failure" && $0.title == "accessibility-label-raw-identifier" })
            // A finding that needs review is a notice, never a failure mark.
            #expect(run.annotations.contains { $0.startLine == 8 && $0.level == "notice" && $0.title == "image-asset-name-spoken (needs review)" },
                    "\(run.annotations)")
            // A mechanical fix travels with its finding: the details show the line as it would become.
            let fixable = try #require(run.annotations.first { $0.title == "accessibility-label-names-trait" })
            #expect(fixable.level == "warning" && fixable.startLine == 7)
            #expect(fixable.rawDetails?.hasPrefix("Suggested fix: Drop the type word: \"Share\"") == true, "\(fixable.rawDetails ?? "")")
            #expect(fixable.rawDetails?.contains("\n+ Button(action: {}) { Image(systemName: \"square.and.arrow.up\") }.accessibilityLabel(\"Share\")") == true,
                    "\(fixable.rawDetails ?? "")")
            #expect(run.annotations.filter { $0.rawDetails != nil }.count == 1, "only the finding with a correction has details")
            #expect(run.summary?.contains("1 of the 5 new findings has a mechanical fix") == true, "\(run.summary ?? "")")
            #expect(github.requests("POST", "/repos/Codertocat/Hello-World/statuses").count == 3, "one 500, then two statuses")
            // Nothing left to report: a second sweep posts nothing.
            #expect(try reporter.sweep(connection) == 0)
            #expect(github.statuses.count == 2)
        }
    }
}

func rewritten(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
    try GitHubFixtures.rewritten(name, change)
}
