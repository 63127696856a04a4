import Dashboard
import DashboardServer
import Foundation
import HTTPServer
import OrgModel
import PostgresClient
import Webhooks

let serveUsage = """
    Dashboard:
      a11y-audit serve [--site DIR] [--host ADDRESS] [--port N] [--threads N] [--base-path /PREFIX]
                       [--read-token TOKEN] [--basic-auth USER:PASSWORD] [--admin-token TOKEN]
                       [--render] [--config ORG.json] [--max-connections N] [--max-connections-per-ip N]
        --render keeps the site current: a whole render at start, then the pages each finished
        job changed. --config enables POST /hooks/github (GitHub's pull_request webhooks, up to
        4 MiB; the secret comes from A11Y_AUDIT_WEBHOOK_SECRET).
        --max-connections (default 1000) and --max-connections-per-ip (default 64; 0 turns it
        off, as behind a reverse proxy, where every client has the proxy's address) limit the
        connections open at once; a header must arrive within 10 s, a body within 10 s plus
        1 s per 64 KiB (docs/operations.md).
        Serves the rendered site (default ./site), /healthz, /metrics, /api/runs,
        /api/teams/<team>/trend and POST /api/admin/jobs/<id>/cancel. Secrets may come from the
        environment instead of the command line (where other users can see them):
        A11Y_AUDIT_READ_TOKEN, A11Y_AUDIT_BASIC_AUTH, A11Y_AUDIT_ADMIN_TOKEN.
    """

/// The largest webhook delivery read. GitHub caps payloads at 25 MB, but the pull_request
/// events this endpoint takes are tens of kilobytes (a description is at most 65,536
/// characters), and every byte of a body is held in memory before its signature can be checked.
let webhookMaxBodyBytes = 4 << 20

func runServe(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("serve", arguments, valued: ["--site", "--host", "--port", "--threads", "--base-path", "--read-token",
                                              "--basic-auth", "--admin-token", "--config", "--max-connections",
                                              "--max-connections-per-ip"], switches: ["--render"])
    let environment = ProcessInfo.processInfo.environment
    func secret(_ flag: String, _ variable: String) -> String? {
        (flags.value(flag) ?? environment[variable]).flatMap { $0.isEmpty ? nil : $0 }
    }
    var access = AccessPolicy(readToken: secret("--read-token", "A11Y_AUDIT_READ_TOKEN"),
                              adminToken: secret("--admin-token", "A11Y_AUDIT_ADMIN_TOKEN"))
    if let basic = secret("--basic-auth", "A11Y_AUDIT_BASIC_AUTH") {
        guard let (user, password) = AccessPolicy.parseBasic(basic) else {
            throw UsageError(description: "--basic-auth needs USER:PASSWORD, both non-empty")
        }
        access.basicUser = user
        access.basicPassword = password
    }
    let port = try flags.integer("--port", default: 8080, minimum: 0)
    guard port <= 65535 else { throw UsageError(description: "--port must be at most 65535, got \(port)") }
    let threads = try flags.integer("--threads", default: max(2, ProcessInfo.processInfo.activeProcessorCount))
    var options: DashboardOptions
    do {
        options = try DashboardOptions(siteDirectory: flags.value("--site") ?? "site", basePath: flags.value("--base-path") ?? "",
                                       access: access, database: ConnectionSettings.fromEnvironment())
    } catch let error as DashboardConfigError {
        throw UsageError(description: error.description)
    }
    if flags.has("--render") {
        try FileManager.default.createDirectory(atPath: options.siteDirectory, withIntermediateDirectories: true)
    }
    // Only the admin endpoints take a body without --config; their own limit is smaller still.
    var maxBody = 64 * 1024
    if let configPath = flags.value("--config") {
        let config = try OrgConfig.load(path: configPath)
        guard let secret = environment["A11Y_AUDIT_WEBHOOK_SECRET"], !secret.isEmpty else {
            throw UsageError(description: "--config enables POST /hooks/github, which needs the webhook's secret in A11Y_AUDIT_WEBHOOK_SECRET")
        }
        let intake = WebhookIntake(secret: secret, config: config)
        options.postEndpoints["/hooks/github"] = PostEndpoint(maxBodyBytes: webhookMaxBodyBytes) { request, connection in
            var headers: [String: String] = [:]
            for field in request.headers.fields where headers[field.name.lowercased()] == nil { headers[field.name.lowercased()] = field.value }
            let answer = intake.handle(WebhookRequest(headers: headers, body: request.body), connection: connection)
            return HTTPResponse.text(answer.body + "\n", status: answer.status)
        }
        maxBody = webhookMaxBodyBytes
    }
    let defaults = HTTPServerOptions()
    let maxConnections = try flags.integer("--max-connections", default: defaults.maxConnections)
    let maxPerIP = try flags.integer("--max-connections-per-ip", default: defaults.maxConnectionsPerIP, minimum: 0)
    let server = try DashboardServer(options: options,
                                     server: HTTPServerOptions(host: flags.value("--host") ?? "127.0.0.1", port: UInt16(port),
                                                               threads: threads, maxBodyBytes: maxBody, maxConnections: maxConnections,
                                                               maxConnectionsPerIP: maxPerIP))
    var renderer: LiveRenderer?
    if flags.has("--render") {
        let live = LiveRenderer(settings: ConnectionSettings.fromEnvironment(), output: options.siteDirectory) { standardError("a11y-audit: \($0)") }
        Thread { live.run() }.start()
        renderer = live
    }
    // The bound address on standard output (scripts and tests start with --port 0 and read it).
    // Written unbuffered: a pipe or file reader sees it at once.
    FileHandle.standardOutput.write(Data("serving \(options.siteDirectory) at \(server.baseURL)/\n".utf8))
    standardError("a11y-audit: \(access); \(threads) threads; database \(ConnectionSettings.fromEnvironment().redactedTarget)")

    let stopped = DispatchSemaphore(value: 0)
    var sources: [DispatchSourceSignal] = []
    for number in [SIGTERM, SIGINT] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { stopped.signal() }
        source.resume()
        sources.append(source)
    }
    stopped.wait()
    withExtendedLifetime(sources) {}
    // Requests in flight finish; then the listening socket closes.
    server.stop()
    renderer?.stop()
    standardError("a11y-audit: stopped serving")
    return .clean
}
