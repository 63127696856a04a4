import AuditModel
import AuditPipeline
import AuditStore
import CurlHTTP
import DashboardServer
import FakeGitHub
import Foundation
import GitHubClient
import HTTPServer
import OrgModel
import PostgresClient
import Webhooks

// `--only pr`: webhook-to-status latency. A generated repository of `files` files is audited
// once (the nightly run that fills the cache); then `pulls` pull requests, each changing a few
// files, are sent one after another as signed webhooks over HTTP to the server's
// `/hooks/github`; two worker slots fetch the archives from a fake GitHub on loopback and post
// the statuses back to it. Latency: from sending the webhook to the final status arriving.
extension PipelineBench {
    static func pullRequests(files: Int, pulls: Int) throws {
        try withDatabase("pr") { settings in
            let github = try FakeGitHub(token: "bench-token")
            _ = github.addOrganization("bench", repositories: [FakeRepository(name: "app", defaultBranch: "main")])
            let root = try temporaryDirectory("pr")
            defer { try? FileManager.default.removeItem(at: root) }
            let folder = root.appendingPathComponent("app")
            var generator = CorpusGenerator(seed: 99, colorSets: 20)
            _ = try generator.write(to: folder, files: files)
            func archive() throws -> [UInt8] {
                let path = root.appendingPathComponent("app.tar.gz").path
                guard try runChild("/bin/tar", ["-czf", path, "-C", root.path, "app"]) == 0 else { throw BenchFailure("tar failed") }
                return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            let baseSHA = String(repeating: "0", count: 40)
            let base = try archive()
            github.addArchive(owner: "bench", repository: "app", ref: "main", bytes: base)
            github.addArchive(owner: "bench", repository: "app", ref: baseSHA, bytes: base)
            var config = OrgConfig(org: "bench", teams: [.init(name: "Apps")],
                                   repositories: [.init(name: "bench/app", team: "Apps", provider: .github)])
            config.providers = OrgConfig.Providers(github: .init(api: github.apiBaseURL))
            let connection = try PostgresConnection(settings)
            try OrgStore(connection: connection).sync(config)
            _ = try OrgStore(connection: connection).scheduleRun(config, date: "2026-01-01", createdBy: "bench") { config.archiveURL(for: $0, ref: $1) }

            let source = FetchingArchiveSource(environment: ["GITHUB_TOKEN": "bench-token"])
            let api = try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: github.apiBaseURL, token: "bench-token"))
            var options = WorkerOptions(database: settings, name: "bench", concurrency: 2, mode: .untilIdle,
                                        policy: QueuePolicy(leaseSeconds: 60), pollInterval: 0.05, scanJobs: 1)
            options.reporter = PullRequestReporter(statuses: api, publicURL: "https://a11y.example.com")
            let nightly = try seconds { _ = try Worker(options: options, source: source, log: .silent).run() }

            // The server that takes the webhooks, and two long-running worker slots.
            var dashboard = try DashboardOptions(siteDirectory: root.path, database: settings)
            let secret = "bench-secret"
            let intake = WebhookIntake(secret: secret, config: config)
            dashboard.postEndpoints["/hooks/github"] = PostEndpoint(maxBodyBytes: 1 << 20) { request, connection in
                var headers: [String: String] = [:]
                for field in request.headers.fields { headers[field.name.lowercased()] = field.value }
                let answer = intake.handle(WebhookRequest(headers: headers, body: request.body), connection: connection)
                return HTTPResponse.text(answer.body, status: answer.status)
            }
            let server = try DashboardServer(options: dashboard, server: HTTPServerOptions(port: 0, threads: 2, maxBodyBytes: 1 << 20))
            defer { server.stop() }
            options.mode = .forever
            let worker = Worker(options: options, source: source, log: .silent)
            let workerThread = Thread { _ = try? worker.run() }
            workerThread.start()
            defer { worker.requestStop() }

            let session = try CurlSession()
            var latencies: [Double] = []
            var random = SystemRandomNumberGenerator()
            let swiftFiles = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
            for number in 1...pulls {
                // Each pull request changes one to three files.
                for path in swiftFiles.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) {
                    let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(path))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("\n// pull request \(number)\n".utf8))
                    try handle.close()
                }
                let headSHA = String(format: "%040x", number)
                github.addArchive(owner: "bench", repository: "app", ref: headSHA, bytes: try archive())
                let payload: [String: Any] = [
                    "action": "synchronize", "number": number,
                    "pull_request": ["number": number, "draft": false, "head": ["sha": headSHA, "ref": "feature-\(number)"],
                                     "base": ["sha": baseSHA, "ref": "main"]],
                    "repository": ["full_name": "bench/app", "name": "app"],
                ]
                let body = [UInt8](try JSONSerialization.data(withJSONObject: payload))
                var headers = HeaderFields()
                headers.add("Content-Type", "application/json")
                headers.add("X-GitHub-Event", "pull_request")
                headers.add("X-GitHub-Delivery", UUID().uuidString)
                headers.add("X-Hub-Signature-256", "sha256=" + Digest.hmacSHA256Hex(key: Array(secret.utf8), message: body))
                let sent = Date()
                let response = session.perform(CurlRequest(method: .post, url: server.baseURL + "/hooks/github", headers: headers, body: body),
                                               options: CurlOptions())
                guard case .success(let answer) = response, answer.status == 202 else { throw BenchFailure("webhook refused: \(response)") }
                while !github.statuses.contains(where: { $0.sha == headSHA && $0.state != "pending" }) {
                    guard Date().timeIntervalSince(sent) < 120 else { throw BenchFailure("no status for pull request \(number)") }
                    Thread.sleep(forTimeInterval: 0.005)
                }
                latencies.append(Date().timeIntervalSince(sent))
            }
            latencies.sort()
            func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)] }
            print("""
                Webhook-to-status latency, \(pulls) pull requests of a \(files)-file repository (1-3 files changed each), two worker \
                slots, fake GitHub on loopback (nightly audit of the base first: \(String(format: "%.1f", nightly)) s):

                | p50 | p95 | max |
                |---:|---:|---:|
                | \(String(format: "%.3f", percentile(0.5))) s | \(String(format: "%.3f", percentile(0.95))) s | \(String(format: "%.3f", latencies.last ?? 0)) s |
                """)
        }
    }
}
