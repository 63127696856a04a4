import FakeGitHub
import Foundation
import GitHubClient
import HTTPServer
import Synchronization
import Testing

/// A client for the fake: real libcurl over loopback, short backoff so retries do not slow the suite.
private func client(_ fake: FakeGitHub, base: String? = nil, token: String? = nil, maxRateLimitWait: Double = 10,
                    retries: RetryLog? = nil) throws -> GitHubAPI {
    let configuration = GitHubConfiguration(apiBaseURL: base ?? fake.apiBaseURL, token: token ?? fake.token,
                                            userAgent: "a11y-audit-tests", connectTimeoutSeconds: 5, requestTimeoutSeconds: 20,
                                            maxAttempts: 4, retryBaseDelaySeconds: 0.01, retryMaxDelaySeconds: 0.05,
                                            maxRateLimitWaitSeconds: maxRateLimitWait, secondaryRateLimitWaitSeconds: 0.2)
    return try GitHubAPI(configuration: configuration, onRetry: { retry in retries?.record(retry) })
}

/// Retries the client reported, for asserting on reasons and delays.
private final class RetryLog: Sendable {
    private let entries = Mutex<[GitHubRetry]>([])
    func record(_ retry: GitHubRetry) { entries.withLock { $0.append(retry) } }
    var all: [GitHubRetry] { entries.withLock { $0 } }
}

private func gitHubError(_ body: () throws -> Void) -> GitHubError? {
    do { try body() } catch let error as GitHubError { return error } catch { return nil }
    return nil
}

private let sha = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"

@Suite struct GitHubAPITests {
    @Test func listsEveryRepositoryAcrossThreePagesFollowingLinkHeaders() throws {
        let fake = try FakeGitHub()
        let repositories = (1...250).map { index in
            FakeRepository(name: "app-\(index)", defaultBranch: index == 7 ? "develop" : "main", archived: index % 50 == 0,
                           fork: index % 3 == 0, visibility: index % 2 == 0 ? "public" : "private")
        }
        let orgID = fake.addOrganization("acme", repositories: repositories)
        let listed = try client(fake).listOrganizationRepositories("acme")
        #expect(listed.map(\.name) == repositories.map(\.name))
        #expect(listed[6].defaultBranch == "develop" && listed[6].fullName == "acme/app-7")
        #expect(listed[49].archived && !listed[48].archived)
        #expect(listed[2].fork && !listed[3].fork)
        #expect(listed[1].visibility == "public" && listed[0].visibility == "private")

        let gets = fake.requests
        #expect(gets.count == 3)
        #expect(gets[0].endpointPath == "/orgs/acme/repos")
        #expect(gets[0].query == ["per_page": "100", "type": "all"])
        // Later pages are where GitHub's Link header pointed: the organisation by id, the page set.
        #expect(gets[1].endpointPath == "/organizations/\(orgID)/repos" && gets[1].query["page"] == "2")
        #expect(gets[2].query["page"] == "3" && gets[2].query["per_page"] == "100" && gets[2].query["type"] == "all")
        for request in gets {
            #expect(request.method == "GET")
            #expect(request.headers["Authorization"] == "Bearer \(fake.token ?? "")")
            #expect(request.headers["Accept"] == "application/vnd.github+json")
            #expect(request.headers["X-GitHub-Api-Version"] == "2022-11-28")
            #expect(request.headers["User-Agent"] == "a11y-audit-tests")
        }
    }

    @Test func retriesA502AndPostsTheStatusOnce() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        fake.failNext(1, method: "POST", pathPrefix: "/repos/acme/app/statuses", with: .status(502))
        let retries = RetryLog()
        let created = try client(fake, retries: retries).createCommitStatus(
            owner: "acme", repository: "app", sha: sha,
            CommitStatus(state: .failure, targetURL: "https://audit.example/pr/2", description: "3 new accessibility findings"))
        #expect(created.state == .failure && created.context == "a11y-audit")
        #expect(fake.requests("POST", "/repos/acme/app/statuses/\(sha)").count == 2)
        #expect(fake.statuses.count == 1)
        #expect(fake.statuses.first?.description == "3 new accessibility findings")
        #expect(fake.statuses.first?.targetURL == "https://audit.example/pr/2")
        let seen = retries.all
        #expect(seen.count == 1 && seen.first?.reason == "HTTP 502")
        let body = fake.requests.last?.jsonObject
        #expect(body?["state"] as? String == "failure" && body?["context"] as? String == "a11y-audit")
        #expect(fake.requests.last?.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test func givesUpOnServerErrorsAfterTheLastAttemptWithGitHubsMessage() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        fake.failNext(10, with: .status(500))
        let error = gitHubError { _ = try client(fake).listOrganizationRepositories("acme") }
        guard case .http(_, let status, let message, _, _, let attempts)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(status == 500 && message == "Server Error" && attempts == 4)
        #expect(fake.requests.count == 4)
    }

    @Test func waitsOutThePrimaryRateLimitUntilItsReset() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        fake.failNext(1, with: .primaryRateLimit(resetAfterSeconds: 1))
        let retries = RetryLog()
        let listed = try client(fake, retries: retries).listOrganizationRepositories("acme")
        #expect(listed.map(\.name) == ["app"])
        let requests = fake.requests
        #expect(requests.count == 2)
        // The fake refuses anything before its reset, so a second request means the wait was long enough.
        #expect(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt) >= 1)
        #expect(retries.all.first?.reason == "HTTP 403: primary rate limit")
    }

    @Test func aPrimaryLimitResettingAfterTheCapFailsAtOnceSayingWhenItResets() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        fake.failNext(1, with: .primaryRateLimit(resetAfterSeconds: 600))
        let started = Date()
        let error = gitHubError { _ = try client(fake, maxRateLimitWait: 5).listOrganizationRepositories("acme") }
        guard case .rateLimited(let endpoint, let limit, let resetsAt, let message)? = error else {
            Issue.record("expected a rate-limit error, got \(String(describing: error))")
            return
        }
        #expect(limit == .primary)
        #expect(endpoint.hasPrefix("GET http://127.0.0.1:") && endpoint.contains("/orgs/acme/repos"))
        #expect(resetsAt.timeIntervalSince(started) > 590 && resetsAt.timeIntervalSince(started) < 615)
        #expect(message?.hasPrefix("API rate limit exceeded") == true)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(fake.requests.count == 1)
        #expect(error?.description.contains("resets at") == true)
    }

    @Test func honoursRetryAfterOnASecondaryRateLimit() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        fake.failNext(1, method: "POST", with: .secondaryRateLimit(retryAfterSeconds: 1))
        _ = try client(fake).createCommitStatus(owner: "acme", repository: "app", sha: sha, CommitStatus(state: .pending))
        let posts = fake.requests("POST", "/repos/acme/app/statuses")
        #expect(posts.count == 2)
        #expect(posts[1].receivedAt.timeIntervalSince(posts[0].receivedAt) >= 1)
        #expect(fake.statuses.map(\.state) == ["pending"])
    }

    @Test func aSecondaryLimitWithoutRetryAfterIsRecognisedByItsMessageAndBackedOff() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        fake.failNext(2, with: .secondaryRateLimitWithoutRetryAfter)
        let retries = RetryLog()
        _ = try client(fake, retries: retries).listOrganizationRepositories("acme")
        let delays = retries.all.map(\.delaySeconds)
        // The configured wait (0.2 s here, a minute by default), doubled the second time.
        #expect(delays == [0.2, 0.4])
        #expect(fake.requests.count == 3)
    }

    @Test func surfacesGitHubsErrorMessageOnA404WithoutRetryingOrShowingTheToken() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        let error = gitHubError {
            _ = try client(fake).createCommitStatus(owner: "acme", repository: "missing", sha: sha, CommitStatus(state: .success))
        }
        guard case .http(let endpoint, let status, let message, let documentation, _, let attempts)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(status == 404 && message == "Not Found" && attempts == 1)
        #expect(documentation == "https://docs.github.com/rest/commits/statuses#create-a-commit-status")
        #expect(endpoint.hasPrefix("POST ") && endpoint.hasSuffix("/repos/acme/missing/statuses/\(sha)"))
        let text = error?.description ?? ""
        #expect(text.contains("HTTP 404: Not Found") && text.contains("docs.github.com"))
        #expect(!text.contains(fake.token ?? "?"))
        #expect(fake.requests.count == 1)

        let badToken = gitHubError { _ = try client(fake, token: "tok-bad-31337").listOrganizationRepositories("acme") }
        guard case .http(_, 401, "Bad credentials", _, _, 1)? = badToken else {
            Issue.record("expected 401 Bad credentials, got \(String(describing: badToken))")
            return
        }
        #expect(badToken?.description.contains("tok-bad-31337") == false)
    }

    @Test func truncatesAStatusDescriptionGitHubWouldRefuse() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        let long = "12 new accessibility findings: " + String(repeating: "contrast 🇯🇵 too low, ", count: 12)
        let created = try client(fake).createCommitStatus(owner: "acme", repository: "app", sha: sha,
                                                          CommitStatus(state: .failure, description: long))
        let sent = try #require(fake.statuses.first?.description)
        #expect(sent.unicodeScalars.count <= 140 && sent.utf16.count <= 140)
        #expect(sent.hasSuffix("…") && long.hasPrefix(String(sent.dropLast())))
        #expect(created.description == sent)
    }

    @Test func sends120AnnotationsAs50Then50Then20AndCompletesWithTheLast() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        let levels: [CheckRunAnnotation.Level] = [.failure, .warning, .notice]
        let annotations = (1...120).map { index in
            CheckRunAnnotation(path: "Sources/View\(index).swift", startLine: index, level: levels[index % 3],
                               message: "Finding \(index)", title: "rule-\(index % 3)")
        }
        let run = NewCheckRun(name: "a11y-audit", headSHA: sha, status: .completed, conclusion: .failure,
                              detailsURL: "https://audit.example/pr/2",
                              output: CheckRunOutput(title: "120 new findings", summary: "**120** new", annotations: annotations))
        let result = try client(fake).createCheckRun(owner: "acme", repository: "app", run)
        #expect(result.requests == 3 && result.annotationsSent == 120)
        #expect(result.status == "completed" && result.conclusion == "failure")

        let create = try #require(fake.requests("POST", "/repos/acme/app/check-runs").first?.jsonObject)
        let patches = fake.requests("PATCH", "/repos/acme/app/check-runs/\(result.id)").compactMap(\.jsonObject)
        #expect(patches.count == 2)
        func count(_ body: [String: Any]) -> Int { ((body["output"] as? [String: Any])?["annotations"] as? [Any])?.count ?? -1 }
        #expect([count(create)] + patches.map(count) == [50, 50, 20])
        #expect(create["name"] as? String == "a11y-audit" && create["head_sha"] as? String == sha)
        #expect(create["status"] as? String == "in_progress" && create["conclusion"] == nil)
        #expect(patches[0]["status"] == nil && patches[0]["conclusion"] == nil)
        #expect(patches[1]["status"] as? String == "completed" && patches[1]["conclusion"] as? String == "failure")
        let firstAnnotation = ((create["output"] as? [String: Any])?["annotations"] as? [[String: Any]])?.first
        #expect(firstAnnotation?["path"] as? String == "Sources/View1.swift")
        #expect(firstAnnotation?["start_line"] as? Int == 1 && firstAnnotation?["end_line"] as? Int == 1)
        #expect(firstAnnotation?["annotation_level"] as? String == "warning")
        #expect(firstAnnotation?["title"] as? String == "rule-1" && firstAnnotation?["message"] as? String == "Finding 1")

        let stored = try #require(fake.checkRun(id: result.id))
        #expect(stored.annotations.count == 120)
        #expect(stored.annotations.map(\.level) == annotations.map(\.level.rawValue))
        #expect(stored.annotations.map(\.message) == annotations.map(\.message))
        #expect(stored.status == "completed" && stored.conclusion == "failure")
        #expect(stored.title == "120 new findings" && stored.detailsURL == "https://audit.example/pr/2")
    }

    @Test func updatesACheckRunInPlace() throws {
        let fake = try FakeGitHub()
        fake.addOrganization("acme", repositories: [FakeRepository(name: "app")])
        let api = try client(fake)
        let created = try api.createCheckRun(owner: "acme", repository: "app",
                                             NewCheckRun(name: "a11y-audit", headSHA: sha, status: .inProgress))
        #expect(created.status == "in_progress" && created.requests == 1)
        let updated = try api.updateCheckRun(owner: "acme", repository: "app", id: created.id,
                                             CheckRunUpdate(status: .completed, conclusion: .success,
                                                            output: CheckRunOutput(title: "No new findings", summary: "All clear")))
        #expect(updated.id == created.id && updated.conclusion == "success")
        #expect(fake.checkRun(id: created.id)?.summary == "All clear")
    }

    @Test func worksUnderAGitHubEnterpriseBaseURLWithAPathPrefix() throws {
        let fake = try FakeGitHub(pathPrefix: "/api/v3")
        fake.addOrganization("acme", repositories: (1...150).map { FakeRepository(name: "r\($0)") })
        let api = try client(fake, base: fake.apiBaseURL + "/")
        #expect(try api.listOrganizationRepositories("acme").count == 150)
        try api.createCommitStatus(owner: "acme", repository: "r1", sha: sha, CommitStatus(state: .success))
        let paths = fake.requests.map(\.path)
        #expect(paths.count == 3)
        #expect(paths.allSatisfy { $0.hasPrefix("/api/v3/") })
        #expect(paths[0] == "/api/v3/orgs/acme/repos" && paths[2] == "/api/v3/repos/acme/r1/statuses/\(sha)")
        #expect(fake.statuses.count == 1)
    }

    @Test func refusesANextLinkToAnotherHostSoTheTokenStaysHome() throws {
        let elsewhere = Mutex<[HTTPRequest]>([])
        let other = try HTTPServer { request in
            elsewhere.withLock { $0.append(request) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array("[]".utf8))
        }
        defer { other.stop() }
        let otherURL = other.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let api = try HTTPServer { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Link": "<\(otherURL)/steal?page=2>; rel=\"next\""],
                         body: Array(#"[{"id": 1, "name": "a", "full_name": "o/a", "fork": false}]"#.utf8))
        }
        defer { api.stop() }
        let configuration = GitHubConfiguration(apiBaseURL: api.baseURL, token: "secret-token")
        let error = gitHubError { _ = try GitHubAPI(configuration: configuration).listOrganizationRepositories("o") }
        guard case .foreignLink? = error else {
            Issue.record("expected a foreign-link error, got \(String(describing: error))")
            return
        }
        #expect(elsewhere.withLock { $0.isEmpty })
    }

    @Test func refusesBadConfigurationAndArgumentsBeforeSendingAnything() throws {
        #expect(gitHubError { _ = try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: "ftp://ghe.example.com")) } != nil)
        #expect(gitHubError { _ = try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: "https://ghe.example.com/api/v3?x=1")) } != nil)
        #expect(gitHubError { _ = try GitHubAPI(configuration: GitHubConfiguration(token: "a\nb")) } != nil)
        #expect(gitHubError { _ = try GitHubAPI(configuration: GitHubConfiguration(userAgent: " ")) } != nil)
        let api = try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: "https://ghe.example.com/api/v3"))
        guard case .invalidArgument? = gitHubError({ _ = try api.listOrganizationRepositories("../etc") }) else {
            Issue.record("expected invalidArgument for a path-traversing organisation")
            return
        }
        #expect(GitHubConfiguration(token: "ghp_secret").description.contains("ghp_secret") == false)
    }
}
