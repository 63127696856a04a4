import AuditModel
import AuditStore
import Foundation
import OrgModel
import PostgresClient
import PullRequestVerdict

/// A webhook delivery as the HTTP layer received it.
public struct WebhookRequest: Sendable {
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    public init(headers: [String: String], body: [UInt8]) {
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

public struct WebhookResponse: Sendable, Equatable {
    public var status: Int
    public var body: String
    public init(status: Int, body: String) { self.status = status; self.body = body }
}

/// `POST /hooks/github`: verifies the signature before reading anything, records the delivery
/// (a redelivery is acknowledged and not queued twice), and turns pull-request events into PR
/// jobs above nightly priority, cancelling the job of an older push. No audit work happens in
/// the request: it answers in milliseconds.
public struct WebhookIntake: Sendable {
    public static let prPriority = 100
    public static let maxBodyBytes = 25 << 20    // GitHub caps payloads at 25 MB
    static let handledActions: Set<String> = ["opened", "synchronize", "reopened", "ready_for_review"]

    let secret: [UInt8]
    let config: OrgConfig

    public init(secret: String, config: OrgConfig) {
        self.secret = Array(secret.utf8)
        self.config = config
    }

    public func handle(_ request: WebhookRequest, connection: PostgresConnection) -> WebhookResponse {
        guard request.body.count <= Self.maxBodyBytes else {
            return WebhookResponse(status: 413, body: "payload over \(Self.maxBodyBytes) bytes")
        }
        guard let signature = request.headers["x-hub-signature-256"] else {
            return WebhookResponse(status: 401, body: "missing X-Hub-Signature-256: configure the webhook's secret")
        }
        let expected = "sha256=" + Digest.hmacSHA256Hex(key: secret, message: request.body)
        guard Digest.constantTimeEqual(Array(signature.lowercased().utf8), Array(expected.utf8)) else {
            return WebhookResponse(status: 401, body: "signature does not match: check the webhook secret")
        }
        // Headers are not covered by the signature: both are checked before they reach a log,
        // a message or the database.
        guard let delivery = request.headers["x-github-delivery"], delivery.utf8.count <= 200, ASCII.isToken(delivery, extra: "-_.") else {
            return WebhookResponse(status: 400, body: "X-GitHub-Delivery must be GitHub's delivery GUID (ASCII letters, digits, - _ and ., at most 200 bytes)")
        }
        let event = request.headers["x-github-event"] ?? ""
        guard event.isEmpty || (event.utf8.count <= 100 && ASCII.isToken(event, extra: "_")) else {
            return WebhookResponse(status: 400, body: "X-GitHub-Event must be an event name such as pull_request")
        }
        guard let payload = Self.payload(request) else {
            return WebhookResponse(status: 400, body: "body is neither JSON nor a form with a payload field")
        }
        do {
            return try connection.retryingAfterReconnect { connection in
                try connection.transaction(purpose: "take webhook delivery \(delivery)") { connection in
                    try route(delivery: delivery, event: event, payload: payload, connection: connection)
                }
            }
        } catch {
            // GitHub shows the status on the delivery; it can be redelivered by hand.
            return WebhookResponse(status: 503, body: "could not record the delivery: \(error)")
        }
    }

    private func route(delivery: String, event: String, payload: [String: Any], connection: PostgresConnection) throws -> WebhookResponse {
        let action = payload["action"] as? String
        let repositoryName = (payload["repository"] as? [String: Any])?["full_name"] as? String
        // The delivery id is the primary key: a redelivery finds its row and stops here.
        let deliveries = WebhookDeliveryStore(connection: connection)
        guard try deliveries.record(delivery: delivery, event: event, action: action, repository: repositoryName) else {
            return WebhookResponse(status: 200, body: "delivery \(delivery) was already handled")
        }
        func finish(_ outcome: DeliveryOutcome, _ status: Int, _ body: String, job: Int? = nil) throws -> WebhookResponse {
            try deliveries.setOutcome(delivery: delivery, outcome, jobID: job)
            return WebhookResponse(status: status, body: body)
        }
        switch event {
        case "ping":
            return try finish(.pong, 200, "pong")
        case "pull_request":
            guard let action, Self.handledActions.contains(action) else {
                return try finish(.ignored, 202, "pull_request action \(action ?? "(none)") needs no check")
            }
            return try pullRequest(payload, action: action, connection: connection, finish: finish)
        default:
            return try finish(.ignored, 202, "event \(event.isEmpty ? "(none)" : event) is not handled")
        }
    }

    private func pullRequest(_ payload: [String: Any], action: String, connection: PostgresConnection,
                             finish: (DeliveryOutcome, Int, String, Int?) throws -> WebhookResponse) throws -> WebhookResponse {
        guard let pull = payload["pull_request"] as? [String: Any],
              let head = pull["head"] as? [String: Any], let headSHA = head["sha"] as? String,
              let base = pull["base"] as? [String: Any], let baseSHA = base["sha"] as? String, let baseRef = base["ref"] as? String,
              let repositoryName = (payload["repository"] as? [String: Any])?["full_name"] as? String else {
            return try finish(.malformed, 400, "pull_request payload lacks number, head.sha, base.sha, base.ref or repository.full_name", nil)
        }
        guard let number = Self.integer(pull["number"], in: Self.pullRequestNumbers) else {
            return try finish(.malformed, 400, "pull_request.number must be a whole number from 1 to \(Self.pullRequestNumbers.upperBound)", nil)
        }
        guard Self.isCommit(headSHA), Self.isCommit(baseSHA) else {
            return try finish(.malformed, 400, "head.sha and base.sha must be 40 ASCII hexadecimal digits", nil)
        }
        guard Self.isBranchName(baseRef) else {
            return try finish(.malformed, 400, "base.ref must be a branch name (1 to 255 bytes, no spaces, control characters or ~^:?*[\\)", nil)
        }
        guard Self.isRepositoryFullName(repositoryName) else {
            return try finish(.malformed, 400, "repository.full_name must be owner/name in GitHub's characters (ASCII letters, digits, - _ .)", nil)
        }
        if pull["draft"] as? Bool == true, config.pullRequests?.includeDrafts != true {
            return try finish(.ignored, 202, "pull request #\(number) is a draft; drafts are not checked (pullRequests.includeDrafts)", nil)
        }
        var repository = config.repositories.first { $0.name.caseInsensitiveCompare(repositoryName) == .orderedSame }
        if repository == nil, let discovery = config.discovery,
           repositoryName.lowercased().hasPrefix(discovery.githubOrg.lowercased() + "/") {
            // The same include/exclude patterns as the coordinator's discovery.
            let name = String(repositoryName.split(separator: "/").last ?? "")
            let include = (discovery.include ?? []).map(Glob.init), exclude = (discovery.exclude ?? []).map(Glob.init)
            let included = include.isEmpty || include.contains { $0.matches(name) || $0.matches(repositoryName) }
            let excluded = exclude.contains { $0.matches(name) || $0.matches(repositoryName) }
            if included && !excluded {
                repository = OrgConfig.Repository(name: repositoryName, team: discovery.team, provider: .github)
            }
        }
        guard let repository else {
            return try finish(.refused, 403, "repository \(repositoryName) is not in the org config of \(config.org)", nil)
        }
        let repositoryID = try OrgStore(connection: connection).ensureRepository(org: config.org, repository)
        // A newer push supersedes the checks of older heads of the same pull request.
        let queue = JobQueue(connection: connection)
        for id in try queue.unfinishedPullRequestJobs(repositoryID: repositoryID, prNumber: number, otherThan: headSHA) {
            try queue.cancel(jobID: id)
            try PullRequestStore(connection: connection).cancel(jobID: id)
        }
        let job = try queue.enqueue(JobRequest(
            runID: nil, repositoryID: repositoryID, kind: .pr, commitRef: headSHA,
            archiveURL: config.archiveURL(for: repository, ref: headSHA), priority: Self.prPriority, maxAttempts: config.maxAttempts,
            prNumber: number, baseSHA: baseSHA, baseRef: baseRef, baseArchiveURL: config.archiveURL(for: repository, ref: baseSHA),
            timeLimitSeconds: config.limits?.jobSeconds, memoryLimitMB: config.limits?.jobMemoryMB))
        let gate = PullRequestGate(rawValue: config.gate(for: repository.name)) ?? .requirements
        let check = try PullRequestStore(connection: connection).open(repositoryID: repositoryID, prNumber: number, headSHA: headSHA,
                                                                      baseSHA: baseSHA, baseRef: baseRef, jobID: job, gate: gate)
        let body = job.map { "queued job \($0) (check \(check)) for \(repository.name)#\(number) at \(headSHA.prefix(12))" }
            ?? "a check of \(repository.name)#\(number) at \(headSHA.prefix(12)) is already queued"
        return try finish(.queued, 202, body, job)
    }

    static func isCommit(_ sha: String) -> Bool { ASCII.isCommitSHA(sha) }

    /// The pull-request number column is a PostgreSQL `integer`.
    static let pullRequestNumbers = 1...Int(Int32.max)

    /// A JSON integer in `range`. Foundation hands every JSON number and Boolean over as an
    /// NSNumber, and `as? Int` turns `true` into 1 and `2.0` into 2, so the number's own type
    /// decides: an integer type, not a Boolean (`c`) or a floating-point one.
    static func integer(_ value: Any?, in range: ClosedRange<Int>) -> Int? {
        guard let number = value as? NSNumber, "silqSILQ".utf8.contains(UInt8(truncatingIfNeeded: number.objCType.pointee)),
              let integer = value as? Int, range.contains(integer) else { return nil }
        return integer
    }

    /// What git's check-ref-format allows of a branch name, roughly: no spaces, control
    /// characters or the characters git reserves. Non-ASCII letters are allowed, as in git.
    static func isBranchName(_ ref: String) -> Bool {
        !ref.isEmpty && ref.utf8.count <= 255
            && ref.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !"~^:?*[\\".unicodeScalars.contains($0) }
    }

    /// `owner/name` as GitHub spells them: ASCII letters, digits and `-` in the owner (39 at
    /// most), also `_` and `.` in the name (100 at most), which is never `.` or `..`. The name
    /// becomes a repository row and a path in an archive URL.
    static func isRepositoryFullName(_ fullName: String) -> Bool {
        let parts = fullName.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts[0].utf8.count <= 39, parts[1].utf8.count <= 100, parts[1] != ".", parts[1] != ".." else { return false }
        return ASCII.isToken(parts[0], extra: "-") && ASCII.isToken(parts[1], extra: "-_.")
    }

    /// The JSON payload: the body itself, or the `payload` field of a form-encoded body.
    static func payload(_ request: WebhookRequest) -> [String: Any]? {
        var data = Data(request.body)
        if request.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true {
            let text = String(decoding: request.body, as: UTF8.self)
            guard let field = text.split(separator: "&").first(where: { $0.hasPrefix("payload=") }),
                  let decoded = String(field.dropFirst(8)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding else { return nil }
            data = Data(decoded.utf8)
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
