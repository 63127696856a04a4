import AuditModel
import AuditStore
import DatabaseTestSupport
import Foundation
import OrgModel
import PostgresClient
import Testing
import Webhooks

let secret = "test secret: not GitHub's"

func fixture(_ name: String) throws -> [UInt8] { try GitHubFixtures.bytes(name) }

func rewritten(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
    try GitHubFixtures.rewritten(name, change)
}

func signed(_ body: [UInt8], event: String, delivery: String = UUID().uuidString, contentType: String = "application/json",
            key: String = secret) -> WebhookRequest {
    WebhookRequest(headers: ["X-GitHub-Event": event, "X-GitHub-Delivery": delivery, "Content-Type": contentType,
                             "X-Hub-Signature-256": "sha256=" + Digest.hmacSHA256Hex(key: Array(key.utf8), message: body),
                             "User-Agent": "GitHub-Hookshot/044aadd"], body: body)
}

let config: OrgConfig = {
    var config = OrgConfig(org: "octo", teams: [.init(name: "Hello")],
                           repositories: [.init(name: "Codertocat/Hello-World", team: "Hello")])
    config.pullRequests = .init(gate: "any")
    return config
}()

func setUp(_ database: TestDatabase) throws -> PostgresConnection {
    let connection = try database.connect()
    try OrgStore(connection: connection).sync(config)
    return connection
}

func count(_ connection: PostgresConnection, _ sql: String) throws -> Int {
    try connection.query(sql, purpose: "count").first.flatMap { $0.int("n") } ?? -1
}

@Suite struct WebhookIntakeTests {
    @Test func theSignatureMatchesGitHubsTestVector() {
        #expect(Digest.hmacSHA256Hex(key: Array("It's a Secret to Everybody".utf8), message: Array("Hello, World!".utf8))
                == "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
        #expect(Digest.constantTimeEqual([1, 2, 3], [1, 2, 3]) && !Digest.constantTimeEqual([1, 2, 3], [1, 2, 4]) && !Digest.constantTimeEqual([1], [1, 2]))
    }

    @Test func unsignedOrWronglySignedDeliveriesStoreNothing() throws {
        try TestDatabase.with { database in
            let connection = try setUp(database)
            let intake = WebhookIntake(secret: secret, config: config)
            let body = try fixture("pull_request.opened.payload.json")
            var unsigned = signed(body, event: "pull_request")
            unsigned.headers["x-hub-signature-256"] = nil
            #expect(intake.handle(unsigned, connection: connection).status == 401)
            #expect(intake.handle(signed(body, event: "pull_request", key: "wrong"), connection: connection).status == 401)
            var tampered = signed(body, event: "pull_request")
            tampered.body[10] ^= 1
            #expect(intake.handle(tampered, connection: connection).status == 401)
            #expect(try count(connection, "SELECT count(*) AS n FROM webhook_deliveries") == 0)
            #expect(try count(connection, "SELECT count(*) AS n FROM jobs") == 0)
        }
    }

    @Test func aPullRequestIsQueuedOnceAboveNightlyPriority() throws {
        try TestDatabase.with { database in
            let connection = try setUp(database)
            let intake = WebhookIntake(secret: secret, config: config)
            #expect(intake.handle(signed(try fixture("ping.payload.json"), event: "ping"), connection: connection) == WebhookResponse(status: 200, body: "pong"))
            let request = signed(try fixture("pull_request.opened.payload.json"), event: "pull_request", delivery: "delivery-1")
            let started = Date()
            let response = intake.handle(request, connection: connection)
            #expect(Date().timeIntervalSince(started) < 1, "no work in the request")
            #expect(response.status == 202, "\(response.body)")
            let job = try #require(try connection.query("SELECT * FROM jobs", purpose: "read").first)
            #expect(job.string("kind") == "pr" && job.int("priority") == WebhookIntake.prPriority && job.int("pr_number") == 2)
            #expect(job.string("commit_ref") == "ec26c3e57ca3a959ca5aad62de7213c562f8c821")
            #expect(job.string("base_ref") == "master")
            #expect(job.string("archive_url") == "https://api.github.com/repos/Codertocat/Hello-World/tarball/ec26c3e57ca3a959ca5aad62de7213c562f8c821")
            #expect(job.string("base_archive_url")?.hasSuffix("/tarball/" + (job.string("base_sha") ?? "?")) == true)
            let check = try #require(try PullRequestStore(connection: connection).checks().first)
            #expect(check.state == .pending && check.gate == .any && check.prNumber == 2)

            // GitHub redelivers the same delivery: acknowledged, not queued again.
            let again = intake.handle(request, connection: connection)
            #expect(again.status == 200 && again.body.contains("already handled"))
            #expect(try count(connection, "SELECT count(*) AS n FROM jobs") == 1)
            #expect(try count(connection, "SELECT count(*) AS n FROM webhook_deliveries WHERE outcome = 'queued'") == 1)
        }
    }

    @Test func aNewerPushCancelsTheOlderCheck() throws {
        try TestDatabase.with { database in
            let connection = try setUp(database)
            let intake = WebhookIntake(secret: secret, config: config)
            #expect(intake.handle(signed(try fixture("pull_request.opened.payload.json"), event: "pull_request"), connection: connection).status == 202)
            let first = try #require(try JobQueue(connection: connection).claim(worker: "w"))   // the older check is running
            let push = try rewritten("pull_request.synchronize.payload.json") { payload in
                var pull = payload["pull_request"] as? [String: Any] ?? [:]
                var head = pull["head"] as? [String: Any] ?? [:]
                head["sha"] = String(repeating: "c", count: 40)
                pull["head"] = head
                payload["pull_request"] = pull
            }
            #expect(intake.handle(signed(push, event: "pull_request"), connection: connection).status == 202)
            #expect(try JobQueue(connection: connection).heartbeat(first) == .held(cancelRequested: true))
            let states = try connection.query("SELECT commit_ref, state FROM jobs ORDER BY id", purpose: "read").map { $0.string("state") }
            #expect(states == ["running", "queued"], "the running one stops at its next heartbeat")
            let checks = try PullRequestStore(connection: connection).checks()
            #expect(checks.map(\.state) == [.cancelled, .pending])
        }
    }

    @Test func otherEventsDraftsAndStrangersAreNotQueued() throws {
        try TestDatabase.with { database in
            let connection = try setUp(database)
            let intake = WebhookIntake(secret: secret, config: config)
            #expect(intake.handle(signed(try fixture("pull_request.labeled.payload.json"), event: "pull_request"), connection: connection).status == 202)
            #expect(intake.handle(signed(try fixture("push.with-new-branch.payload.json"), event: "push"), connection: connection).status == 202)
            let draft = try rewritten("pull_request.opened.payload.json") { payload in
                var pull = payload["pull_request"] as? [String: Any] ?? [:]
                pull["draft"] = true
                payload["pull_request"] = pull
            }
            let draftResponse = intake.handle(signed(draft, event: "pull_request"), connection: connection)
            #expect(draftResponse.status == 202 && draftResponse.body.contains("draft"))
            let stranger = try rewritten("pull_request.opened.payload.json") { payload in
                var repository = payload["repository"] as? [String: Any] ?? [:]
                repository["full_name"] = "someone/else"
                payload["repository"] = repository
            }
            #expect(intake.handle(signed(stranger, event: "pull_request"), connection: connection).status == 403)
            #expect(try count(connection, "SELECT count(*) AS n FROM jobs") == 0)
            #expect(try count(connection, "SELECT count(*) AS n FROM webhook_deliveries") == 4)

            var drafts = config
            drafts.pullRequests = .init(gate: "requirements", includeDrafts: true)
            #expect(WebhookIntake(secret: secret, config: drafts).handle(signed(draft, event: "pull_request"), connection: connection).status == 202)
            #expect(try count(connection, "SELECT count(*) AS n FROM jobs") == 1)
        }
    }

    @Test func formEncodedBodiesAndOversizedOnes() throws {
        try TestDatabase.with { database in
            let connection = try setUp(database)
            let intake = WebhookIntake(secret: secret, config: config)
            let json = String(decoding: try fixture("pull_request.reopened.payload.json"), as: UTF8.self)
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let form = Array(("payload=" + (json.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")).utf8)
            let response = intake.handle(signed(form, event: "pull_request", contentType: "application/x-www-form-urlencoded"), connection: connection)
            #expect(response.status == 202 && response.body.contains("queued job"), "\(response.body)")
            let huge = [UInt8](repeating: UInt8(ascii: " "), count: WebhookIntake.maxBodyBytes + 1)
            #expect(intake.handle(signed(huge, event: "pull_request"), connection: connection).status == 413)
            #expect(intake.handle(signed(Array("not json".utf8), event: "pull_request"), connection: connection).status == 400)
        }
    }

    /// A pull_request payload with one field of the real fixture replaced.
    func opened(_ field: String, of object: String, _ value: Any) throws -> [UInt8] {
        try rewritten("pull_request.opened.payload.json") { payload in
            var pull = payload["pull_request"] as? [String: Any] ?? [:]
            switch object {
            case "pull_request": pull[field] = value
            case "repository":
                var repository = payload["repository"] as? [String: Any] ?? [:]
                repository[field] = value
                payload["repository"] = repository
            default:
                var part = pull[object] as? [String: Any] ?? [:]
                part[field] = value
                pull[object] = part
            }
            payload["pull_request"] = pull
        }
    }

    // Swift's Character.isHexDigit and isNumber accept other scripts' digits: 40 fullwidth "ａ"
    // were a commit to the old check, and Foundation turns JSON `true` into the number 1.
    @Test func shasNumbersAndNamesOutsideASCIIOrRangeAreRefusedAsMalformed() throws {
        try TestDatabase.with { database in
            let connection = try setUp(database)
            var discovering = config
            discovering.discovery = .init(githubOrg: "Codertocat", team: "Hello")
            let intake = WebhookIntake(secret: secret, config: discovering)
            let malformed: [(String, [UInt8])] = [
                ("fullwidth head sha", try opened("sha", of: "head", String(repeating: "\u{FF41}", count: 40))),
                ("Arabic-Indic base sha", try opened("sha", of: "base", String(repeating: "\u{0663}", count: 40))),
                ("head sha of 39 hex digits and a fullwidth one", try opened("sha", of: "head", String(repeating: "a", count: 39) + "\u{FF41}")),
                ("head sha with a combining mark", try opened("sha", of: "head", String(repeating: "a", count: 39) + "a\u{0301}")),
                ("negative number", try opened("number", of: "pull_request", -2)),
                ("number 0", try opened("number", of: "pull_request", 0)),
                ("number true", try opened("number", of: "pull_request", true)),
                ("fractional number", try opened("number", of: "pull_request", 2.5)),
                ("number as a string", try opened("number", of: "pull_request", "2")),
                ("number beyond the integer column", try opened("number", of: "pull_request", 3_000_000_000)),
                ("empty base ref", try opened("ref", of: "base", "")),
                ("base ref with a newline", try opened("ref", of: "base", "main\nforged")),
                ("repository name with a fullwidth letter", try opened("full_name", of: "repository", "Codertocat/\u{FF28}ello")),
                ("repository name with a dot-dot", try opened("full_name", of: "repository", "Codertocat/..")),
                ("repository name with three parts", try opened("full_name", of: "repository", "Codertocat/Hello/World")),
            ]
            for (name, body) in malformed {
                let response = intake.handle(signed(body, event: "pull_request"), connection: connection)
                #expect(response.status == 400, "\(name): \(response.status) \(response.body)")
            }
            for delivery in ["delivery\nforged: 1", "\u{FF41}-delivery", "delivery with spaces"] {
                let response = intake.handle(signed(try fixture("pull_request.opened.payload.json"), event: "pull_request", delivery: delivery),
                                             connection: connection)
                #expect(response.status == 400, "delivery \(delivery.debugDescription): \(response.status) \(response.body)")
            }
            #expect(try count(connection, "SELECT count(*) AS n FROM jobs") == 0)
            #expect(try count(connection, "SELECT count(*) AS n FROM repositories") == 1, "no repository row from a malformed name")
            #expect(try count(connection, "SELECT count(*) AS n FROM webhook_deliveries WHERE outcome = 'malformed'") == malformed.count)

            // GitHub's own values still pass: the fixture as it is, and an upper-case SHA.
            #expect(intake.handle(signed(try fixture("pull_request.opened.payload.json"), event: "pull_request"), connection: connection).status == 202)
            let upper = try opened("sha", of: "head", "EC26C3E57CA3A959CA5AAD62DE7213C562F8C821")
            #expect(intake.handle(signed(upper, event: "pull_request"), connection: connection).status == 202)
        }
    }
}
