import Foundation
import HTTPServer
import Synchronization

/// A request the fake received, for tests to assert on what the client sent.
public struct RecordedRequest: Sendable {
    public let method: String
    /// The path as received, API prefix included.
    public let path: String
    /// The path without the API prefix (`/repos/o/r/statuses/sha`), as GitHub's docs write it.
    public let endpointPath: String
    public let query: [String: String]
    public let headers: HTTPHeaders
    public let body: [UInt8]
    public let receivedAt: Date

    /// The body parsed as JSON (nil if it is none).
    public var json: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }
    public var jsonObject: [String: Any]? { json as? [String: Any] }
}

/// A repository the fake knows.
public struct FakeRepository: Sendable {
    public var name: String
    public var defaultBranch: String
    public var archived: Bool
    public var fork: Bool
    /// `public`, `private` or `internal`.
    public var visibility: String

    public init(name: String, defaultBranch: String = "main", archived: Bool = false, fork: Bool = false,
                visibility: String = "private") {
        self.name = name
        self.defaultBranch = defaultBranch
        self.archived = archived
        self.fork = fork
        self.visibility = visibility
    }
}

/// A commit status as the fake stored it.
public struct FakeStatus: Sendable, Equatable {
    public let id: Int
    public let owner: String
    public let repository: String
    public let sha: String
    public let state: String
    public let description: String?
    public let targetURL: String?
    public let context: String
}

public struct FakeAnnotation: Sendable, Equatable {
    public let path: String
    public let startLine: Int
    public let endLine: Int
    public let level: String
    public let message: String
    public let title: String?
    public let rawDetails: String?
}

/// A check run as the fake holds it after every create and update.
public struct FakeCheckRun: Sendable, Equatable {
    public let id: Int
    public let owner: String
    public let repository: String
    public var name: String
    public var headSHA: String
    public var status: String
    public var conclusion: String?
    public var detailsURL: String?
    public var externalID: String?
    public var title: String?
    public var summary: String?
    public var text: String?
    /// Every annotation received, in order: updates append, as on GitHub.
    public var annotations: [FakeAnnotation]
}

/// Trouble the fake can make on demand.
public enum FakeFault: Sendable {
    /// An error status with GitHub's JSON error body (`502` answers like GitHub's "Server Error").
    case status(Int)
    /// The primary limit runs out: 403 with `x-ratelimit-remaining: 0` and a reset this many
    /// seconds ahead (whole epoch seconds); every request before the reset is refused the same way.
    case primaryRateLimit(resetAfterSeconds: Int)
    /// A secondary limit: 403 with `retry-after`; requests before it has passed are refused again.
    case secondaryRateLimit(retryAfterSeconds: Int)
    /// A secondary limit that gives no `retry-after`, only the message.
    case secondaryRateLimitWithoutRetryAfter
}

/// A fake GitHub REST API on loopback (HTTPServer), answering in GitHub's wire format (the
/// shapes of GitHub's docs and of the recorded responses in ../shared/fixtures/github/):
/// organisation repositories with `Link` pagination, commit statuses, check runs with
/// annotations, archives (302 to a codeload-like URL), GitHub's error bodies and rate-limit
/// headers. It checks the token and the User-Agent, validates bodies as GitHub does (422), and
/// records every request.
public final class FakeGitHub: Sendable {
    public let server: HTTPServer
    /// `""` for github.com's layout, `/api/v3` for GitHub Enterprise Server's.
    public let pathPrefix: String
    public let token: String?
    private let store: Store

    public init(pathPrefix: String = "", token: String? = "fake-github-token") throws {
        var prefix = pathPrefix
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty, !prefix.hasPrefix("/") { prefix = "/" + prefix }
        let store = Store(prefix: prefix, token: token)
        self.store = store
        self.pathPrefix = prefix
        self.token = token
        server = try HTTPServer(options: HTTPServerOptions(threads: 4, maxBodyBytes: 8 << 20)) { request in
            store.handle(request)
        }
    }

    deinit { server.stop() }

    /// What to give `GitHubConfiguration.apiBaseURL`.
    public var apiBaseURL: String { server.baseURL + pathPrefix }

    public func stop() { server.stop() }

    // MARK: Data

    /// Adds an organisation (numeric id picked by the fake) and its repositories, listed in this order.
    @discardableResult
    public func addOrganization(_ login: String, repositories: [FakeRepository]) -> Int {
        store.state.withLock { state in
            let id = 9000 + state.organizations.count + 1
            state.organizations.append(Organization(login: login, id: id, repositories: repositories))
            return id
        }
    }

    /// Serves `bytes` for `GET /repos/{owner}/{repository}/tarball/{ref}` (a 302 to the archive, as GitHub does).
    public func addArchive(owner: String, repository: String, ref: String, bytes: [UInt8]) {
        store.state.withLock { $0.archives["\(owner)/\(repository)@\(ref)"] = bytes }
    }

    // MARK: Faults

    /// The next `count` requests matching `method` (any if nil) and whose endpoint path starts
    /// with `pathPrefix` (any if nil) get `fault` instead of their answer.
    public func failNext(_ count: Int = 1, method: String? = nil, pathPrefix: String? = nil, with fault: FakeFault) {
        store.state.withLock { $0.faults.append(FaultRule(remaining: count, method: method, pathPrefix: pathPrefix, fault: fault)) }
    }

    // MARK: Observations

    public var requests: [RecordedRequest] { store.state.withLock { $0.requests } }

    public func requests(_ method: String, _ endpointPathPrefix: String) -> [RecordedRequest] {
        requests.filter { $0.method == method && $0.endpointPath.hasPrefix(endpointPathPrefix) }
    }

    public var statuses: [FakeStatus] { store.state.withLock { $0.statuses } }

    public var checkRuns: [FakeCheckRun] { store.state.withLock { $0.checkRuns } }

    public func checkRun(id: Int) -> FakeCheckRun? { checkRuns.first { $0.id == id } }
}

// MARK: - Server side

private struct Organization {
    let login: String
    let id: Int
    var repositories: [FakeRepository]
}

private struct FaultRule {
    var remaining: Int
    let method: String?
    let pathPrefix: String?
    let fault: FakeFault
}

private struct State {
    var requests: [RecordedRequest] = []
    var organizations: [Organization] = []
    var archives: [String: [UInt8]] = [:]
    var faults: [FaultRule] = []
    var statuses: [FakeStatus] = []
    var checkRuns: [FakeCheckRun] = []
    var nextID = 1000
    var used = 0
    /// While set and in the future, every request gets the primary rate-limit answer.
    var primaryResetAt: Int?
    var secondaryUntil: Date?
    var secondaryRetryAfter = 0
}

/// GitHub's JSON error answer.
private func errorResponse(_ status: Int, _ message: String, documentation: String = "https://docs.github.com/rest",
                           errors: [[String: Any]]? = nil, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
    var object: [String: Any] = ["message": message, "documentation_url": documentation, "status": String(status)]
    if let errors { object["errors"] = errors }
    return jsonResponse(status, object, headers: headers)
}

private func jsonResponse(_ status: Int, _ value: Any, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
    let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    var all = headers
    all.set("Content-Type", "application/json; charset=utf-8")
    all.set("X-GitHub-Media-Type", "github.v3; format=json")
    return HTTPResponse(status: status, headers: all, body: Array(data))
}

/// A JSON value or JSON null.
private func nullable(_ value: Any?) -> Any { value ?? NSNull() }

private func iso8601(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}

private let secondaryMessage = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
private let secondaryDocs = "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"

private final class Store: Sendable {
    let state = Mutex(State())
    let prefix: String
    let token: String?

    init(prefix: String, token: String?) {
        self.prefix = prefix
        self.token = token
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let host = request.headers["Host"] ?? "127.0.0.1"
        let base = "http://\(host)\(prefix)"
        let origin = "http://\(host)"
        return state.withLock { state -> HTTPResponse in
            var endpoint = request.path
            let underPrefix = prefix.isEmpty || request.path == prefix || request.path.hasPrefix(prefix + "/")
            if underPrefix { endpoint = String(request.path.dropFirst(prefix.count)) }
            state.requests.append(RecordedRequest(method: request.method, path: request.path, endpointPath: endpoint,
                                                  query: request.query, headers: request.headers, body: request.body,
                                                  receivedAt: Date()))
            // Archives are served from the codeload-like host part, outside the API and without the token.
            if request.path.hasPrefix("/_codeload/") {
                return codeload(request.path, state: &state)
            }
            var response = underPrefix ? answer(request, endpoint: endpoint, base: base, origin: origin, state: &state)
                                       : errorResponse(404, "Not Found")
            addRateLimitHeaders(&response, state: &state)
            return response
        }
    }

    private func answer(_ request: HTTPRequest, endpoint: String, base: String, origin: String,
                        state: inout State) -> HTTPResponse {
        let now = Date()
        if let reset = state.primaryResetAt {
            if Double(reset) > now.timeIntervalSince1970 { return primaryLimited(reset) }
            state.primaryResetAt = nil
        }
        if let until = state.secondaryUntil {
            if until > now {
                return errorResponse(403, secondaryMessage, documentation: secondaryDocs,
                                     headers: ["Retry-After": String(max(1, Int(until.timeIntervalSince(now).rounded(.up))))])
            }
            state.secondaryUntil = nil
        }
        if let index = state.faults.firstIndex(where: { rule in
            rule.remaining > 0 && (rule.method == nil || rule.method == request.method)
                && (rule.pathPrefix == nil || endpoint.hasPrefix(rule.pathPrefix!))
        }) {
            state.faults[index].remaining -= 1
            switch state.faults[index].fault {
            case .status(let status):
                let messages = [400: "Bad Request", 401: "Bad credentials", 403: "Forbidden", 404: "Not Found",
                                422: "Validation Failed", 500: "Server Error", 502: "Server Error", 503: "Service Unavailable"]
                return errorResponse(status, messages[status] ?? (status >= 500 ? "Server Error" : "Error"))
            case .primaryRateLimit(let seconds):
                let reset = Int(now.timeIntervalSince1970.rounded(.up)) + seconds
                state.primaryResetAt = reset
                return primaryLimited(reset)
            case .secondaryRateLimit(let seconds):
                state.secondaryUntil = now.addingTimeInterval(Double(seconds))
                return errorResponse(403, secondaryMessage, documentation: secondaryDocs, headers: ["Retry-After": String(seconds)])
            case .secondaryRateLimitWithoutRetryAfter:
                return errorResponse(403, secondaryMessage, documentation: secondaryDocs)
            }
        }
        guard let agent = request.headers["User-Agent"], !agent.isEmpty else {
            return HTTPResponse.text("Request forbidden by administrative rules. Please make sure your request has a User-Agent header.\n",
                                     status: 403)
        }
        if let token, request.headers["Authorization"] != "Bearer \(token)" {
            return errorResponse(401, "Bad credentials")
        }
        let parts = endpoint.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch (request.method, parts.count) {
        case ("GET", 3) where parts[0] == "orgs" && parts[2] == "repos":
            guard let organization = state.organizations.first(where: { $0.login.lowercased() == parts[1].lowercased() }) else {
                return errorResponse(404, "Not Found", documentation: "https://docs.github.com/rest/repos/repos#list-organization-repositories")
            }
            return repositoriesPage(organization, request: request, base: base, origin: origin)
        case ("GET", 3) where parts[0] == "organizations" && parts[2] == "repos":
            guard let organization = state.organizations.first(where: { String($0.id) == parts[1] }) else {
                return errorResponse(404, "Not Found")
            }
            return repositoriesPage(organization, request: request, base: base, origin: origin)
        case ("POST", 5) where parts[0] == "repos" && parts[3] == "statuses":
            guard repositoryExists(parts[1], parts[2], state: state) else { return notFound("commits/statuses#create-a-commit-status") }
            return createStatus(owner: parts[1], repository: parts[2], sha: parts[4], request: request, base: base, state: &state)
        case ("POST", 4) where parts[0] == "repos" && parts[3] == "check-runs":
            guard repositoryExists(parts[1], parts[2], state: state) else { return notFound("checks/runs#create-a-check-run") }
            return writeCheckRun(owner: parts[1], repository: parts[2], id: nil, request: request, base: base, state: &state)
        case ("PATCH", 5) where parts[0] == "repos" && parts[3] == "check-runs":
            guard let id = Int(parts[4]), state.checkRuns.contains(where: { $0.id == id && $0.owner == parts[1] && $0.repository == parts[2] }) else {
                return notFound("checks/runs#update-a-check-run")
            }
            return writeCheckRun(owner: parts[1], repository: parts[2], id: id, request: request, base: base, state: &state)
        case ("GET", 6) where parts[0] == "repos" && parts[3] == "check-runs" && parts[5] == "annotations":
            guard let id = Int(parts[4]), let run = state.checkRuns.first(where: { $0.id == id }) else {
                return notFound("checks/runs#list-check-run-annotations")
            }
            return jsonResponse(200, run.annotations.map { annotation -> [String: Any] in
                ["path": annotation.path, "start_line": annotation.startLine, "end_line": annotation.endLine,
                 "annotation_level": annotation.level, "message": annotation.message, "title": nullable(annotation.title),
                 "start_column": NSNull(), "end_column": NSNull(), "raw_details": nullable(annotation.rawDetails),
                 "blob_href": "\(origin)/\(run.owner)/\(run.repository)/blob/\(run.headSHA)/\(annotation.path)"]
            })
        case ("GET", _) where parts.count >= 5 && parts[0] == "repos" && parts[3] == "tarball":
            let ref = parts[4...].joined(separator: "/")
            guard state.archives["\(parts[1])/\(parts[2])@\(ref)"] != nil else { return notFound("repos/contents#download-a-repository-archive-tar") }
            return HTTPResponse(status: 302, headers: ["Location": "\(origin)/_codeload/\(parts[1])/\(parts[2])/legacy.tar.gz/\(ref)",
                                                       "Content-Length": "0"])
        default:
            return errorResponse(404, "Not Found")
        }
    }

    private func notFound(_ docs: String) -> HTTPResponse {
        errorResponse(404, "Not Found", documentation: "https://docs.github.com/rest/\(docs)")
    }

    private func primaryLimited(_ reset: Int) -> HTTPResponse {
        errorResponse(403, "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID.",
                      documentation: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
                      headers: ["X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset),
                                "X-RateLimit-Used": "5000", "X-RateLimit-Resource": "core"])
    }

    private func addRateLimitHeaders(_ response: inout HTTPResponse, state: inout State) {
        state.used += 1
        response.headers.set("X-GitHub-Api-Version-Selected", "2022-11-28")
        response.headers.set("X-GitHub-Request-Id", "FAKE:\(state.requests.count)")
        guard response.headers["X-RateLimit-Remaining"] == nil else { return }
        let reset = Int(Date().timeIntervalSince1970) + 3600
        response.headers.set("X-RateLimit-Limit", "5000")
        response.headers.set("X-RateLimit-Remaining", String(max(1, 5000 - state.used)))
        response.headers.set("X-RateLimit-Reset", String(reset))
        response.headers.set("X-RateLimit-Used", String(state.used))
        response.headers.set("X-RateLimit-Resource", "core")
    }

    private func repositoryExists(_ owner: String, _ name: String, state: State) -> Bool {
        state.organizations.contains { $0.login.lowercased() == owner.lowercased() && $0.repositories.contains { $0.name.lowercased() == name.lowercased() } }
    }

    private func codeload(_ path: String, state: inout State) -> HTTPResponse {
        // /_codeload/{owner}/{repo}/legacy.tar.gz/{ref...}
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 5, parts[3] == "legacy.tar.gz" else { return .text("Not Found", status: 404) }
        let ref = parts[4...].joined(separator: "/")
        guard let bytes = state.archives["\(parts[1])/\(parts[2])@\(ref)"] else { return .text("Not Found", status: 404) }
        return HTTPResponse(status: 200, headers: [
            "Content-Type": "application/x-gzip",
            "Content-Disposition": "attachment; filename=\(parts[1])-\(parts[2])-\(String(ref.prefix(7))).tar.gz",
        ], body: bytes)
    }

    // MARK: Repositories

    private func repositoriesPage(_ organization: Organization, request: HTTPRequest, base: String, origin: String) -> HTTPResponse {
        let perPage = min(100, max(1, request.query["per_page"].flatMap(Int.init) ?? 30))
        let page = max(1, request.query["page"].flatMap(Int.init) ?? 1)
        let type = request.query["type"] ?? "all"
        let all = organization.repositories.filter { repository in
            switch type {
            case "public": repository.visibility == "public"
            case "private": repository.visibility == "private"
            case "forks": repository.fork
            case "sources": !repository.fork
            default: true
            }
        }
        let pages = max(1, (all.count + perPage - 1) / perPage)
        let slice = all.dropFirst((page - 1) * perPage).prefix(perPage)
        let body: [[String: Any]] = slice.enumerated().map { offset, repository in
            let full = "\(organization.login)/\(repository.name)"
            return [
                "id": organization.id * 1000 + (page - 1) * perPage + offset + 1,
                "node_id": "R_fake\(organization.id)\(offset)",
                "name": repository.name,
                "full_name": full,
                "private": repository.visibility != "public",
                "owner": ["login": organization.login, "id": organization.id, "type": "Organization",
                          "url": "\(base)/users/\(organization.login)"],
                "html_url": "\(origin)/\(full)",
                "description": NSNull(),
                "fork": repository.fork,
                "url": "\(base)/repos/\(full)",
                "archived": repository.archived,
                "disabled": false,
                "visibility": repository.visibility,
                "default_branch": repository.defaultBranch,
                "pushed_at": "2025-01-02T03:04:05Z",
                "created_at": "2024-01-02T03:04:05Z",
                "updated_at": "2025-01-02T03:04:05Z",
                "permissions": ["admin": false, "push": false, "pull": true],
            ]
        }
        // GitHub's links name the organisation by id, keep the query as sent, and set `page`.
        func link(_ number: Int, _ rel: String) -> String {
            var query = request.query
            query["page"] = String(number)
            let text = query.keys.sorted().map { "\($0)=\(query[$0] ?? "")" }.joined(separator: "&")
            return "<\(base)/organizations/\(organization.id)/repos?\(text)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        if page > 1 { links.append(link(page - 1, "prev")) }
        if page < pages { links.append(link(page + 1, "next")) }
        if page < pages { links.append(link(pages, "last")) }
        if page > 1 { links.append(link(1, "first")) }
        var headers = HTTPHeaders()
        if !links.isEmpty { headers.add("Link", links.joined(separator: ", ")) }
        return jsonResponse(200, body, headers: headers)
    }

    // MARK: Statuses

    private func createStatus(owner: String, repository: String, sha: String, request: HTTPRequest, base: String,
                              state: inout State) -> HTTPResponse {
        let docs = "https://docs.github.com/rest/commits/statuses#create-a-commit-status"
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] else {
            return errorResponse(400, "Problems parsing JSON", documentation: docs)
        }
        guard let stateValue = object["state"] as? String, ["error", "failure", "pending", "success"].contains(stateValue) else {
            return errorResponse(422, "Validation Failed", documentation: docs,
                                 errors: [["resource": "Status", "code": "custom", "field": "state", "message": "state is not included in the list"]])
        }
        let description = object["description"] as? String
        if let description, description.unicodeScalars.count > 140 {
            return errorResponse(422, "Validation Failed", documentation: docs,
                                 errors: [["resource": "Status", "code": "custom", "field": "description",
                                           "message": "description is too long (maximum is 140 characters)"]])
        }
        state.nextID += 1
        let context = object["context"] as? String ?? "default"
        let status = FakeStatus(id: state.nextID, owner: owner, repository: repository, sha: sha, state: stateValue,
                                description: description, targetURL: object["target_url"] as? String, context: context)
        state.statuses.append(status)
        let now = iso8601(Date())
        return jsonResponse(201, [
            "url": "\(base)/repos/\(owner)/\(repository)/statuses/\(sha)",
            "avatar_url": "https://avatars.githubusercontent.com/u/1?v=4",
            "id": status.id,
            "node_id": "SC_fake\(status.id)",
            "state": stateValue,
            "description": nullable(description),
            "target_url": nullable(status.targetURL),
            "context": context,
            "created_at": now,
            "updated_at": now,
            "creator": ["login": "a11y-audit[bot]", "id": 1, "type": "Bot", "site_admin": false],
        ])
    }

    // MARK: Check runs

    private func writeCheckRun(owner: String, repository: String, id: Int?, request: HTTPRequest, base: String,
                               state: inout State) -> HTTPResponse {
        let docs = id == nil ? "https://docs.github.com/rest/checks/runs#create-a-check-run"
                             : "https://docs.github.com/rest/checks/runs#update-a-check-run"
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] else {
            return errorResponse(400, "Problems parsing JSON", documentation: docs)
        }
        func invalid(_ field: String, _ message: String) -> HTTPResponse {
            errorResponse(422, "Invalid request.\n\n\(message)", documentation: docs,
                          errors: [["resource": "CheckRun", "code": "invalid", "field": field, "message": message]])
        }
        let existing = id.flatMap { id in state.checkRuns.first { $0.id == id } }
        if id == nil {
            guard object["name"] is String else { return invalid("name", "\"name\" wasn't supplied.") }
            guard object["head_sha"] is String else { return invalid("head_sha", "\"head_sha\" wasn't supplied.") }
        }
        let status = object["status"] as? String ?? existing?.status ?? "queued"
        guard ["queued", "in_progress", "completed"].contains(status) else { return invalid("status", "status is not included in the list") }
        let conclusion = object["conclusion"] as? String ?? existing?.conclusion
        let conclusions = ["action_required", "cancelled", "failure", "neutral", "success", "skipped", "timed_out"]
        if let conclusion, !conclusions.contains(conclusion) { return invalid("conclusion", "conclusion is not included in the list") }
        if status == "completed", conclusion == nil { return invalid("conclusion", "Conclusion can't be blank when status is completed.") }
        var annotations: [FakeAnnotation] = []
        var output = object["output"] as? [String: Any]
        if object["output"] != nil, output == nil { return invalid("output", "output is not an object") }
        if let given = output {
            guard given["title"] is String, given["summary"] is String else {
                return invalid("output", "\"title\" and \"summary\" are required in output.")
            }
            let raw = given["annotations"] as? [[String: Any]] ?? []
            if raw.count > 50 { return invalid("output.annotations", "Only 50 annotations are allowed per request.") }
            for entry in raw {
                guard let path = entry["path"] as? String, let start = entry["start_line"] as? Int, let end = entry["end_line"] as? Int,
                      let level = entry["annotation_level"] as? String, ["notice", "warning", "failure"].contains(level),
                      let message = entry["message"] as? String, start >= 1, end >= start else {
                    return invalid("output.annotations", "An annotation is missing path, start_line, end_line, annotation_level or message, or has a bad value.")
                }
                if entry["start_column"] != nil || entry["end_column"] != nil, start != end {
                    return invalid("output.annotations", "start_column and end_column are allowed only when start_line equals end_line.")
                }
                // GitHub's limit on raw_details, like the message's: 64 KB.
                let details = entry["raw_details"] as? String
                if let details, details.utf8.count > 64 * 1024 {
                    return invalid("output.annotations", "raw_details is longer than 64 KB.")
                }
                annotations.append(FakeAnnotation(path: path, startLine: start, endLine: end, level: level, message: message,
                                                  title: entry["title"] as? String, rawDetails: details))
            }
            output?["annotations"] = nil
        }
        var run: FakeCheckRun
        if let existing {
            run = existing
        } else {
            state.nextID += 1
            run = FakeCheckRun(id: state.nextID, owner: owner, repository: repository, name: "", headSHA: "", status: "queued",
                               conclusion: nil, detailsURL: nil, externalID: nil, title: nil, summary: nil, text: nil, annotations: [])
        }
        if let name = object["name"] as? String { run.name = name }
        if let sha = object["head_sha"] as? String { run.headSHA = sha }
        run.status = status
        run.conclusion = conclusion
        if let details = object["details_url"] as? String { run.detailsURL = details }
        if let external = object["external_id"] as? String { run.externalID = external }
        if let output {
            run.title = output["title"] as? String
            run.summary = output["summary"] as? String
            if let text = output["text"] as? String { run.text = text }
        }
        run.annotations += annotations
        if let index = state.checkRuns.firstIndex(where: { $0.id == run.id }) {
            state.checkRuns[index] = run
        } else {
            state.checkRuns.append(run)
        }
        let url = "\(base)/repos/\(owner)/\(repository)/check-runs/\(run.id)"
        let now = iso8601(Date())
        return jsonResponse(id == nil ? 201 : 200, [
            "id": run.id,
            "head_sha": run.headSHA,
            "node_id": "CR_fake\(run.id)",
            "external_id": run.externalID ?? "",
            "url": url,
            "html_url": "http://\(request.headers["Host"] ?? "127.0.0.1")/\(owner)/\(repository)/runs/\(run.id)",
            "details_url": nullable(run.detailsURL),
            "status": run.status,
            "conclusion": nullable(run.conclusion),
            "started_at": object["started_at"] as? String ?? now,
            "completed_at": run.status == "completed" ? (object["completed_at"] as? String ?? now) as Any : NSNull(),
            "output": [
                "title": nullable(run.title),
                "summary": nullable(run.summary),
                "text": nullable(run.text),
                "annotations_count": run.annotations.count,
                "annotations_url": "\(url)/annotations",
            ] as [String: Any],
            "name": run.name,
            "check_suite": ["id": 5],
            "app": ["id": 1, "slug": "a11y-audit", "node_id": "A_fake1", "name": "a11y-audit"] as [String: Any],
            "pull_requests": [] as [Any],
        ])
    }
}
