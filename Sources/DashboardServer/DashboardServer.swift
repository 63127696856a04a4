import AuditModel
import AuditStore
import Foundation
import HTTPServer
import PostgresClient
import Synchronization

public enum DashboardConfigError: Error, CustomStringConvertible, Equatable {
    case badBasePath(String)

    public var description: String {
        switch self {
        case .badBasePath(let path):
            "--base-path \"\(path)\" must be a path such as /a11y (starting with /, no \"..\", \"?\" or \"#\")"
        }
    }
}

public struct DashboardOptions: Sendable {
    /// The folder the renderer writes (`site/`).
    public var siteDirectory: String
    /// The sub-path the server answers under behind a reverse proxy (`/a11y`), or "" for the root.
    /// The proxy passes the path unchanged; requests outside it get 404.
    public var basePath: String
    public var access: AccessPolicy
    /// nil: no database (static pages only; `/healthz` says so with 503).
    public var database: ConnectionSettings?
    public var healthTimeout: TimeInterval
    /// POST endpoints that authenticate themselves (webhooks sign their bodies), by path under
    /// the base path: the read token does not apply to them. Each gets a pooled connection.
    public var postEndpoints: [String: PostEndpoint] = [:]
    /// The admin endpoints take no body today; a few kilobytes leave room for a JSON argument.
    public static let adminMaxBodyBytes = 4096

    public init(siteDirectory: String = "site", basePath: String = "", access: AccessPolicy = AccessPolicy(),
                database: ConnectionSettings? = nil, healthTimeout: TimeInterval = 2) throws {
        self.siteDirectory = siteDirectory
        self.basePath = try Self.normalizedBasePath(basePath)
        self.access = access
        self.database = database
        self.healthTimeout = healthTimeout
    }

    /// "" or "/prefix" without a trailing slash.
    public static func normalizedBasePath(_ path: String) throws -> String {
        var trimmed = path
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.isEmpty { return "" }
        let components = trimmed.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard trimmed.hasPrefix("/"), !trimmed.contains("?"), !trimmed.contains("#"), !trimmed.contains("%"),
              components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw DashboardConfigError.badBasePath(path)
        }
        return trimmed
    }
}

/// A POST route that authenticates itself, and the largest body it takes: only these routes
/// (and the admin endpoints) have their bodies read at all.
public struct PostEndpoint: Sendable {
    public var maxBodyBytes: Int
    public var handle: @Sendable (HTTPRequest, PostgresConnection) -> HTTPResponse

    public init(maxBodyBytes: Int, handle: @escaping @Sendable (HTTPRequest, PostgresConnection) -> HTTPResponse) {
        self.maxBodyBytes = maxBodyBytes
        self.handle = handle
    }
}

/// The dashboard's HTTP side: the rendered site, `/healthz`, `/metrics`, the JSON API and the
/// admin endpoints, under an optional base path.
public final class DashboardServer: Sendable {
    public let options: DashboardOptions
    private let site: StaticSite
    private let pool: ConnectionPool?
    private let health: HealthProbe?
    private let server: HTTPServer

    /// Serves at once on `server.host`/`server.port` (port 0 picks a free one).
    public init(options: DashboardOptions, server serverOptions: HTTPServerOptions = HTTPServerOptions()) throws {
        self.options = options
        site = try StaticSite(directory: options.siteDirectory)
        pool = options.database.map { ConnectionPool(settings: $0, capacity: serverOptions.threads) }
        health = options.database.map { HealthProbe(settings: $0) }
        let router = Router(options: options, site: site, pool: pool, health: health)
        server = try HTTPServer(options: serverOptions, admission: { router.admit($0) }) { request in router.handle(request) }
    }

    public var port: UInt16 { server.port }
    /// `http://host:port` followed by the base path.
    public var baseURL: String { server.baseURL + options.basePath }

    public func stop() { server.stop() }
}

/// Routes one request. Immutable apart from its thread-safe parts, so every pool thread shares it.
struct Router: Sendable {
    let options: DashboardOptions
    let site: StaticSite
    let pool: ConnectionPool?
    let health: HealthProbe?
    let durations = JobDurationTotals()

    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func handle(_ request: HTTPRequest) -> HTTPResponse { finish(route(request)) }

    /// Decides a request's body from its header, before any of it is read: refused as the
    /// request itself would be (404, 401, 405, ...), or read up to its route's limit. Called
    /// only for requests that announce a body.
    func admit(_ head: HTTPRequest) -> HTTPBodyAdmission {
        switch destination(head) {
        case .answer(let response): return .refuse(finish(response))
        case .post(let endpoint, _): return .accept(maxBodyBytes: endpoint.maxBodyBytes)
        case .admin: return .accept(maxBodyBytes: DashboardOptions.adminMaxBodyBytes)
        case .health, .metrics, .api, .site:
            return .refuse(finish(errorPage(413, title: "No request body here",
                                            message: "\(head.method) \(head.path) takes no request body; send the request without one.")))
        }
    }

    private func finish(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Content-Security-Policy", Self.contentSecurityPolicy)
        response.headers.set("Referrer-Policy", "same-origin")
        if response.headers["Cache-Control"] == nil { response.headers.set("Cache-Control", "no-store") }
        return response
    }

    /// Where a request goes, from its method, path and credentials alone, never its body.
    private enum Destination {
        /// Answered without going further: redirected, not found, not allowed, no credentials.
        case answer(HTTPResponse)
        case health
        case post(PostEndpoint, ConnectionPool)
        /// Credentials checked: an admin request.
        case admin(path: String)
        case metrics
        case api(path: String)
        case site(path: String)
    }

    private func destination(_ request: HTTPRequest) -> Destination {
        let base = options.basePath
        var path = request.path
        if !base.isEmpty {
            if path == base { return .answer(Redirect.response(to: Redirect.location(base, directory: true), basePath: base)) }
            guard path.hasPrefix(base + "/") else { return .answer(notFound(request)) }
            path = String(path.dropFirst(base.count))
        }
        if path == "/healthz" { return methods(request, ["GET", "HEAD"]).map(Destination.answer) ?? .health }
        if let endpoint = options.postEndpoints[path] {
            if let refused = methods(request, ["POST"]) { return .answer(refused) }
            guard let pool else { return .answer(jsonError(503, "no database configured")) }
            return .post(endpoint, pool)
        }
        if path == "/api/admin" || path.hasPrefix("/api/admin/") {
            return adminRefusal(request).map(Destination.answer) ?? .admin(path: path)
        }
        if let refused = readRefusal(request) { return .answer(refused) }
        if path == "/metrics" { return methods(request, ["GET", "HEAD"]).map(Destination.answer) ?? .metrics }
        if path == "/api" || path.hasPrefix("/api/") { return methods(request, ["GET", "HEAD"]).map(Destination.answer) ?? .api(path: path) }
        if let refused = methods(request, ["GET", "HEAD"]) { return .answer(refused) }
        return .site(path: path)
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        switch destination(request) {
        case .answer(let response): return response
        case .health: return healthz()
        case .post(let endpoint, let pool):
            do {
                return try pool.with { endpoint.handle(request, $0) }
            } catch {
                logError("post", error)
                return jsonError(503, "database unavailable")
            }
        case .admin(let path): return admin(request, path: path)
        case .metrics: return metrics()
        case .api(let path): return api(request, path: path)
        case .site(let path):
            return StaticResponder(site: site, basePath: options.basePath, cacheIsPrivate: options.access.readIsRestricted)
                .respond(path: path, headers: request.headers) ?? notFound(request)
        }
    }

    private func readRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard options.access.readDecision(authorization: request.headers["Authorization"]) != .allowed else { return nil }
        var response = errorPage(401, title: "Sign-in needed",
                                 message: "This dashboard needs credentials: use the user name and password or token you were given.")
        for challenge in options.access.readChallenges { response.headers.add("WWW-Authenticate", challenge) }
        return response
    }

    private func methods(_ request: HTTPRequest, _ allowed: [String]) -> HTTPResponse? {
        guard !allowed.contains(request.method) else { return nil }
        var response = errorPage(405, title: "Method not allowed",
                                 message: "\(request.method) is not supported here; use \(allowed.joined(separator: " or ")).")
        response.headers.set("Allow", allowed.joined(separator: ", "))
        return response
    }

    // MARK: Health and metrics

    private func healthz() -> HTTPResponse {
        guard let health else { return .text("no database configured\n", status: 503) }
        switch health.check(timeout: options.healthTimeout) {
        case .healthy: return .text("ok\n")
        case .unhealthy: return .text("database unavailable\n", status: 503)
        }
    }

    private func metrics() -> HTTPResponse {
        guard let pool else { return .text("no database configured\n", status: 503) }
        do {
            let text = try pool.with { try MetricsPage.render($0, durations: durations) }
            return HTTPResponse(status: 200, headers: ["Content-Type": PrometheusText.contentType], body: Array(text.utf8))
        } catch {
            logError("metrics", error)
            return .text("database unavailable: \(error)\n", status: 503)
        }
    }

    // MARK: JSON API

    private func api(_ request: HTTPRequest, path: String) -> HTTPResponse {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // ["", "api", ...]
        if parts == ["", "api", "runs"] {
            let limitText = request.query["limit"] ?? "20"
            guard let limit = Int(limitText), (1...500).contains(limit) else {
                return jsonError(400, "limit must be a whole number from 1 to 500, not \"\(limitText)\"")
            }
            return database { try DashboardQueries(connection: $0).runSummaries(limit: limit, org: request.query["org"]) }
        }
        if parts.count == 5, parts[1] == "api", parts[2] == "teams", parts[4] == "trend", !parts[3].isEmpty {
            let daysText = request.query["days"] ?? "90"
            guard let days = Int(daysText), (1...3660).contains(days) else {
                return jsonError(400, "days must be a whole number from 1 to 3660, not \"\(daysText)\"")
            }
            let slug = parts[3]
            guard let pool else { return jsonError(503, "no database configured") }
            do {
                let lookup = try pool.with { try DashboardQueries(connection: $0).teamTrend(slug: slug, org: request.query["org"], days: days) }
                switch lookup {
                case .found(let trend): return json(trend)
                case .unknown: return jsonError(404, "no team with the URL name \"\(slug)\"")
                case .ambiguous(let orgs):
                    return jsonError(400, "team \"\(slug)\" exists in \(orgs.joined(separator: ", ")): add ?org=NAME")
                }
            } catch {
                logError("api.trend", error)
                return jsonError(503, "database unavailable: \(error)")
            }
        }
        return jsonError(404, "no API endpoint \(path); there are /api/runs and /api/teams/<team>/trend")
    }

    private func database<T: Encodable>(_ body: (PostgresConnection) throws -> T) -> HTTPResponse {
        guard let pool else { return jsonError(503, "no database configured") }
        do {
            return json(try pool.with(body))
        } catch {
            logError("api", error)
            return jsonError(503, "database unavailable: \(error)")
        }
    }

    // MARK: Admin

    private func adminRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        // Without an admin token there are no admin endpoints at all.
        guard options.access.adminIsEnabled else { return jsonError(404, "not found") }
        switch options.access.adminDecision(authorization: request.headers["Authorization"]) {
        case .allowed:
            return nil
        case .unauthorized:
            var response = jsonError(401, "admin endpoints need Authorization: Bearer <admin token>")
            response.headers.set("WWW-Authenticate", "Bearer realm=\"a11y-audit admin\"")
            return response
        case .forbidden:
            return jsonError(403, "these credentials may read the dashboard but not use admin endpoints")
        }
    }

    /// An authenticated admin request.
    private func admin(_ request: HTTPRequest, path: String) -> HTTPResponse {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // ["", "api", "admin", "jobs", id, "cancel"]
        guard parts.count == 6, parts[3] == "jobs", parts[5] == "cancel" else {
            return jsonError(404, "no admin endpoint \(path); there is POST /api/admin/jobs/<id>/cancel")
        }
        guard request.method == "POST" else {
            var response = jsonError(405, "use POST to cancel a job")
            response.headers.set("Allow", "POST")
            return response
        }
        guard let jobID = Int(parts[4]), jobID > 0 else { return jsonError(404, "\"\(parts[4])\" is not a job id") }
        guard let pool else { return jsonError(503, "no database configured") }
        do {
            let previous = try pool.with { try JobQueue(connection: $0).cancel(jobID: jobID) }
            logInfo("event=admin.cancel job=\(jobID) previous=\(previous?.rawValue ?? "finished-or-missing")")
            switch previous {
            case .running?:
                return json(CancelResult(job: jobID, result: "cancel-requested",
                                         message: "job \(jobID) is running: its worker stops it at the next heartbeat"), status: 202)
            case .some(let state):
                return json(CancelResult(job: jobID, result: "cancelled", message: "job \(jobID) was \(state.rawValue) and is cancelled"))
            case nil:
                guard let state = try pool.with({ try JobQueue(connection: $0).state(ofJob: jobID) }) else { return jsonError(404, "no job \(jobID)") }
                return json(CancelResult(job: jobID, result: "already-finished", message: "job \(jobID) is already \(state.rawValue)"),
                            status: 409)
            }
        } catch {
            logError("admin.cancel", error)
            return jsonError(503, "database unavailable: \(error)")
        }
    }

    private struct CancelResult: Encodable {
        let job: Int
        let result: String
        let message: String
    }

    // MARK: Responses

    private func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return jsonError(500, "the answer could not be encoded") }
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(data) + [0x0A])
    }

    private func jsonError(_ status: Int, _ message: String) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(["error": message])).map(Array.init) ?? Array("{\"error\":\"error\"}".utf8)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body + [0x0A])
    }

    private func notFound(_ request: HTTPRequest) -> HTTPResponse {
        errorPage(404, title: "Page not found", message: "There is no page at this address. It may belong to a night older than the archive keeps.")
    }

    func errorPage(_ status: Int, title: String, message: String) -> HTTPResponse {
        ErrorPage(basePath: options.basePath).response(status: status, title: title, message: message)
    }
}

/// Small, accessible HTML pages for errors: a landmark, one heading, a way back.
struct ErrorPage {
    let basePath: String

    func response(status: Int, title: String, message: String) -> HTTPResponse {
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escapeHTML(title)) — a11y-audit</title>
            <link rel="stylesheet" href="\(escapeHTML(basePath))/assets/dashboard.css">
            </head>
            <body>
            <main id="main">
            <h1>\(escapeHTML(title))</h1>
            <p>\(escapeHTML(message))</p>
            <p><a href="\(escapeHTML(basePath))/">Go to the dashboard’s overview</a></p>
            </main>
            </body>
            </html>

            """
        return HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8))
    }
}

func escapeHTML(_ text: String) -> String { HTMLText.escape(text) }

/// Whole lines only: two request threads logging at once must not interleave.
private let logLock = Mutex(())

/// One line per event, like the worker's; never a header, a token or a password.
func logInfo(_ fields: String) {
    let line = "time=\(ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withInternetDateTime])) level=info \(fields)\n"
    logLock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
}

func logError(_ event: String, _ error: Error) {
    let reason = String(describing: error).replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\n", with: " ")
    let line = "time=\(ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withInternetDateTime])) level=error event=\(event).failed reason=\"\(reason)\"\n"
    logLock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
}
