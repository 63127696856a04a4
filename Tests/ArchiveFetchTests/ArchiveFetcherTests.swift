import ArchiveFetch
import Foundation
import HTTPServer
import Synchronization
import Testing

/// Options for tests: short backoff so retries do not slow the suite, everything else real.
private func testOptions(maxBytes: Int = 1 << 20, maxAttempts: Int = 3, maxRedirects: Int = 5,
                         totalTimeout: Double = 20) -> FetchOptions {
    FetchOptions(connectTimeoutSeconds: 5, totalTimeoutSeconds: totalTimeout, maxBytes: maxBytes, maxRedirects: maxRedirects,
                 maxAttempts: maxAttempts, retryBaseDelaySeconds: 0.01, retryMaxDelaySeconds: 0.05, maxRetryAfterSeconds: 5)
}

private let archiveBytes: [UInt8] = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 256) }

/// Requests seen by a test server, by path.
private final class RequestLog: Sendable {
    private let requests = Mutex<[HTTPRequest]>([])
    func record(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }
    var all: [HTTPRequest] { requests.withLock { $0 } }
    func count(_ path: String) -> Int { all.filter { $0.path == path }.count }
}

private func memoryBytes(_ archive: FetchedArchive) -> [UInt8]? {
    if case .memory(let bytes) = archive.content { return bytes }
    return nil
}

private func fetchError(_ body: () throws -> Void) -> FetchError? {
    do { try body() } catch let error as FetchError { return error } catch { return nil }
    return nil
}

private final class TemporaryDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
}

@Suite struct ArchiveFetcherTests {
    @Test func downloadsAnArchiveIntoMemory() throws {
        let log = RequestLog()
        let server = try HTTPServer { request in
            log.record(request)
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/gzip"], body: archiveBytes)
        }
        defer { server.stop() }
        let fetched = try ArchiveFetcher(options: testOptions()).fetch(try .url(server.baseURL + "/archive.tar.gz"))
        #expect(memoryBytes(fetched) == archiveBytes)
        #expect(fetched.byteCount == archiveBytes.count && fetched.attempts == 1 && fetched.redirects == 0)
        #expect(log.all.first?.headers["user-agent"] == "a11y-audit")
    }

    @Test func writesToAPrivateFileInTheGivenDirectory() throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 200, body: archiveBytes) }
        defer { server.stop() }
        let work = try TemporaryDirectory()
        let fetched = try ArchiveFetcher(options: testOptions()).fetch(try .url(server.baseURL + "/a.tar.gz"), to: .file(directory: work.path))
        guard case .file(let path) = fetched.content else {
            Issue.record("expected a file, got \(fetched.content)")
            return
        }
        #expect(path.hasPrefix(work.path + "/"))
        #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == archiveBytes)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func sendsTheGitHubTokenAndDropsItOnTheRedirectToAnotherOrigin() throws {
        let codeloadLog = RequestLog(), apiLog = RequestLog()
        let codeload = try HTTPServer { request in
            codeloadLog.record(request)
            return HTTPResponse(status: 200, body: archiveBytes)
        }
        defer { codeload.stop() }
        let codeloadURL = codeload.baseURL
        let api = try HTTPServer { request in
            apiLog.record(request)
            return HTTPResponse(status: 302, headers: ["Location": codeloadURL + "/octo/app/legacy.tar.gz/main?token=SIGNED"])
        }
        defer { api.stop() }
        let location = try ArchiveLocation.github(owner: "octo", repository: "app", ref: "main", apiBase: api.baseURL)
        let fetched = try ArchiveFetcher(options: testOptions()).fetch(location, credential: location.credential(token: "s3cr3t"))
        #expect(memoryBytes(fetched) == archiveBytes)
        #expect(fetched.redirects == 1)
        #expect(apiLog.all.map(\.path) == ["/repos/octo/app/tarball/main"])
        #expect(apiLog.all.first?.headers["authorization"] == "Bearer s3cr3t")
        #expect(codeloadLog.all.count == 1)
        #expect(codeloadLog.all.first?.headers["authorization"] == nil)
        // The signed query value is not repeated in what the caller may log.
        #expect(!fetched.finalURL.contains("SIGNED") && fetched.finalURL.contains("/octo/app/legacy.tar.gz/main"))
    }

    @Test func sendsTheGitLabTokenAsPrivateToken() throws {
        let log = RequestLog()
        let server = try HTTPServer { request in
            log.record(request)
            return HTTPResponse(status: 200, body: archiveBytes)
        }
        defer { server.stop() }
        let location = try ArchiveLocation.gitlab(project: "group/sub/app", ref: "v1.0", apiBase: server.baseURL + "/api/v4")
        _ = try ArchiveFetcher(options: testOptions()).fetch(location, credential: location.credential(token: "glpat-x"))
        #expect(log.all.first?.headers["private-token"] == "glpat-x")
        #expect(log.all.first?.headers["authorization"] == nil)
        #expect(log.all.first?.query["sha"] == "v1.0")
    }

    @Test func doesNotRetryANotFound() throws {
        let log = RequestLog()
        let server = try HTTPServer { request in
            log.record(request)
            return .text("Not Found", status: 404)
        }
        defer { server.stop() }
        let url = server.baseURL.replacingOccurrences(of: "http://", with: "http://robot:hunter2@") + "/missing.tar.gz"
        let error = fetchError { _ = try ArchiveFetcher(options: testOptions()).fetch(try .url(url)) }
        #expect(error == .httpStatus(url: server.baseURL + "/missing.tar.gz", status: 404, attempts: 1))
        #expect(log.count("/missing.tar.gz") == 1)
        let message = error?.description ?? ""
        #expect(message.contains("/missing.tar.gz") && message.contains("404") && !message.contains("hunter2"))
    }

    @Test func retriesAServiceUnavailableThenSucceeds() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer { _ in
            calls.add(1, ordering: .relaxed).newValue == 1 ? .text("busy", status: 503) : HTTPResponse(status: 200, body: archiveBytes)
        }
        defer { server.stop() }
        let retries = Mutex<[FetchRetry]>([])
        let fetcher = ArchiveFetcher(options: testOptions()) { retry in retries.withLock { $0.append(retry) } }
        let fetched = try fetcher.fetch(try .url(server.baseURL + "/flaky.tar.gz"))
        #expect(memoryBytes(fetched) == archiveBytes)
        #expect(fetched.attempts == 2 && calls.load(ordering: .relaxed) == 2)
        let seen = retries.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.error == .httpStatus(url: server.baseURL + "/flaky.tar.gz", status: 503, attempts: 1))
        // Backoff: base 0.01 s with jitter in 0.5...1.
        #expect((0.005...0.01).contains(seen.first?.delaySeconds ?? -1))
    }

    @Test func givesUpAfterMaxAttemptsOfServerErrors() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer { _ in
            calls.add(1, ordering: .relaxed)
            return .text("down", status: 502)
        }
        defer { server.stop() }
        let error = fetchError { _ = try ArchiveFetcher(options: testOptions(maxAttempts: 3)).fetch(try .url(server.baseURL + "/x")) }
        #expect(error == .httpStatus(url: server.baseURL + "/x", status: 502, attempts: 3))
        #expect(calls.load(ordering: .relaxed) == 3)
    }

    @Test func honoursRetryAfterInSeconds() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer { _ in
            calls.add(1, ordering: .relaxed).newValue == 1
                ? HTTPResponse(status: 429, headers: ["Retry-After": "1"]) : HTTPResponse(status: 200, body: archiveBytes)
        }
        defer { server.stop() }
        let started = Date()
        let fetched = try ArchiveFetcher(options: testOptions()).fetch(try .url(server.baseURL + "/limited"))
        let elapsed = Date().timeIntervalSince(started)
        #expect(fetched.attempts == 2)
        #expect(elapsed >= 0.95, "waited only \(elapsed) s despite Retry-After: 1")
    }

    @Test func honoursRetryAfterAsAnHTTPDate() throws {
        let calls = Atomic<Int>(0)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let server = try HTTPServer { _ in
            guard calls.add(1, ordering: .relaxed).newValue == 1 else { return HTTPResponse(status: 200, body: archiveBytes) }
            // Whole seconds: two seconds ahead is at least one second ahead.
            return HTTPResponse(status: 503, headers: ["Retry-After": formatter.string(from: Date().addingTimeInterval(2))])
        }
        defer { server.stop() }
        let retries = Mutex<[FetchRetry]>([])
        let fetcher = ArchiveFetcher(options: testOptions()) { retry in retries.withLock { $0.append(retry) } }
        let started = Date()
        _ = try fetcher.fetch(try .url(server.baseURL + "/later"))
        let delay = retries.withLock { $0.first?.delaySeconds } ?? 0
        #expect((1...2).contains(delay))
        #expect(Date().timeIntervalSince(started) >= 0.95)
    }

    @Test func failsWhenRetryAfterIsOverTheCap() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer { _ in
            calls.add(1, ordering: .relaxed)
            return HTTPResponse(status: 429, headers: ["Retry-After": "3600"])
        }
        defer { server.stop() }
        let error = fetchError { _ = try ArchiveFetcher(options: testOptions()).fetch(try .url(server.baseURL + "/x")) }
        #expect(error == .retryAfterTooLong(url: server.baseURL + "/x", seconds: 3600, cap: 5))
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func followsRedirectsUpToTheCap() throws {
        let log = RequestLog()
        // /hop/N redirects to /hop/N-1 (relative Location); /hop/0 is the archive.
        let server = try HTTPServer { request in
            log.record(request)
            let number = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return number == 0 ? HTTPResponse(status: 200, body: archiveBytes)
                : HTTPResponse(status: 307, headers: ["Location": "/hop/\(number - 1)"])
        }
        defer { server.stop() }
        let fetcher = ArchiveFetcher(options: testOptions(maxRedirects: 3))
        let fetched = try fetcher.fetch(try .url(server.baseURL + "/hop/3"))
        #expect(memoryBytes(fetched) == archiveBytes && fetched.redirects == 3)
        #expect(fetched.finalURL == server.baseURL + "/hop/0")

        let before = log.all.count
        let error = fetchError { _ = try fetcher.fetch(try .url(server.baseURL + "/hop/4")) }
        #expect(error == .tooManyRedirects(url: server.baseURL + "/hop/4", limit: 3))
        // The first request and three followed redirects; the fourth is not followed, nor retried.
        #expect(log.all.count - before == 4)
    }

    @Test func refusesARedirectToALocalFile() throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 302, headers: ["Location": "file:///etc/passwd"]) }
        defer { server.stop() }
        let error = fetchError { _ = try ArchiveFetcher(options: testOptions()).fetch(try .url(server.baseURL + "/r")) }
        #expect(error == .forbiddenRedirect(url: server.baseURL + "/r", to: "file:///etc/passwd"))
    }

    @Test func refusesADeclaredSizeOverTheCapBeforeDownloading() throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 200, body: archiveBytes) }
        defer { server.stop() }
        let work = try TemporaryDirectory()
        let error = fetchError {
            _ = try ArchiveFetcher(options: testOptions(maxBytes: 50_000)).fetch(try .url(server.baseURL + "/big"), to: .file(directory: work.path))
        }
        #expect(error == .tooLarge(url: server.baseURL + "/big", limit: 50_000, declared: archiveBytes.count))
        #expect(work.contents.isEmpty)
    }

    @Test func stopsAStreamedBodyAsSoonAsItPassesTheCap() throws {
        let chunksSent = Atomic<Int>(0)
        let server = try HTTPServer { _ in
            // 100 chunks of 64 KiB, no Content-Length, 10 ms apart (so socket buffers do not
            // swallow them all at once); the client should stop after the second.
            HTTPResponse(status: 200) {
                Thread.sleep(forTimeInterval: 0.01)
                return chunksSent.add(1, ordering: .relaxed).newValue <= 100 ? [UInt8](repeating: 0x1F, count: 65_536) : nil
            }
        }
        defer { server.stop() }
        let work = try TemporaryDirectory()
        let error = fetchError {
            _ = try ArchiveFetcher(options: testOptions(maxBytes: 100_000)).fetch(try .url(server.baseURL + "/endless"), to: .file(directory: work.path))
        }
        #expect(error == .tooLarge(url: server.baseURL + "/endless", limit: 100_000, declared: nil))
        #expect(work.contents.isEmpty)
        #expect(chunksSent.load(ordering: .relaxed) < 20)
    }

    @Test func timesOutOnASlowServer() throws {
        let server = try HTTPServer { _ in
            Thread.sleep(forTimeInterval: 2)
            return HTTPResponse(status: 200, body: archiveBytes)
        }
        defer { server.stop() }
        let started = Date()
        let error = fetchError {
            _ = try ArchiveFetcher(options: testOptions(maxAttempts: 1, totalTimeout: 0.5)).fetch(try .url(server.baseURL + "/slow"))
        }
        #expect(error == .timedOut(url: server.baseURL + "/slow", seconds: 0.5, attempts: 1))
        #expect(Date().timeIntervalSince(started) < 1.8)
    }

    @Test func retriesARefusedConnection() throws {
        let server = try HTTPServer { _ in .text("") }
        let url = server.baseURL + "/gone"
        server.stop()
        let retries = Atomic<Int>(0)
        let fetcher = ArchiveFetcher(options: testOptions(maxAttempts: 2)) { _ in retries.add(1, ordering: .relaxed) }
        let error = fetchError { _ = try fetcher.fetch(try .url(url)) }
        guard case .network(let shown, _, let attempts)? = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(shown == url && attempts == 2 && retries.load(ordering: .relaxed) == 1)
    }

    @Test func reportsATLSFailureWithoutRetrying() throws {
        // A plain-HTTP server cannot complete a TLS handshake: libcurl fails in TLS, not HTTP.
        let calls = Atomic<Int>(0)
        let server = try HTTPServer { _ in
            calls.add(1, ordering: .relaxed)
            return .text("plain")
        }
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/archive.tar.gz"
        let error = fetchError { _ = try ArchiveFetcher(options: testOptions()).fetch(try .url(url)) }
        guard case .tls(let shown, _)? = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
        #expect(shown == url && calls.load(ordering: .relaxed) == 0)
        #expect(error?.description.contains("verification is always on") == true)
    }

    @Test func readsALocalArchiveThroughFileURLs() throws {
        let work = try TemporaryDirectory()
        let path = work.path + "/repo.tar.gz"
        try Data(archiveBytes).write(to: URL(fileURLWithPath: path))
        let fetched = try ArchiveFetcher(options: testOptions()).fetch(.file(path))
        #expect(memoryBytes(fetched) == archiveBytes && fetched.attempts == 1)

        let tooSmall = fetchError { _ = try ArchiveFetcher(options: testOptions(maxBytes: 1000)).fetch(.file(path)) }
        #expect(tooSmall == .tooLarge(url: "file://" + path, limit: 1000, declared: archiveBytes.count))

        let missing = fetchError { _ = try ArchiveFetcher(options: testOptions()).fetch(.file(work.path + "/nope.tar.gz")) }
        guard case .fileNotReadable(let url, _)? = missing else {
            Issue.record("expected fileNotReadable, got \(String(describing: missing))")
            return
        }
        #expect(url == "file://" + work.path + "/nope.tar.gz")
    }

    @Test func refusesAMissingDestinationDirectory() {
        let error = fetchError {
            _ = try ArchiveFetcher(options: testOptions()).fetch(.file("/dev/null"), to: .file(directory: "/nonexistent/fetch-dir"))
        }
        #expect(error == .destination(path: "/nonexistent/fetch-dir", reason: "not an existing directory"))
    }
}

@Suite struct ArchiveLocationTests {
    @Test func buildsGitHubTarballURLs() throws {
        #expect(try ArchiveLocation.github(owner: "apple", repository: "swift", ref: "main").url
            == "https://api.github.com/repos/apple/swift/tarball/main")
        // GitHub Enterprise Server, a branch with a slash, a trailing slash on the base.
        #expect(try ArchiveLocation.github(owner: "team", repository: "app.ios", ref: "release/2.0", apiBase: "https://ghe.example.com/api/v3/").url
            == "https://ghe.example.com/api/v3/repos/team/app.ios/tarball/release/2.0")
    }

    @Test func buildsGitLabArchiveURLsWithAnEncodedProjectPath() throws {
        let location = try ArchiveLocation.gitlab(project: "group/sub group/app", ref: "feature/x")
        #expect(location.url == "https://gitlab.com/api/v4/projects/group%2Fsub%20group%2Fapp/repository/archive.tar.gz?sha=feature%2Fx")
        #expect(location.credential(token: "t") == .gitlabToken("t"))
        #expect(location.credential(token: "t").description == "PRIVATE-TOKEN: <redacted>")
    }

    @Test func rejectsUnusableLocations() {
        #expect(throws: FetchError.self) { try ArchiveLocation.github(owner: "", repository: "r", ref: "main") }
        #expect(throws: FetchError.self) { try ArchiveLocation.github(owner: "o/x", repository: "r", ref: "main") }
        #expect(throws: FetchError.self) { try ArchiveLocation.github(owner: "o", repository: "..", ref: "main") }
        #expect(throws: FetchError.self) { try ArchiveLocation.github(owner: "o", repository: "r", ref: "../../etc") }
        #expect(throws: FetchError.self) { try ArchiveLocation.github(owner: "o", repository: "r", ref: "main", apiBase: "ftp://x") }
        #expect(throws: FetchError.self) { try ArchiveLocation.gitlab(project: "group//app", ref: "main") }
        #expect(throws: FetchError.self) { try ArchiveLocation.url("ftp://example.com/a.tar.gz") }
        #expect(throws: FetchError.self) { try ArchiveLocation.url("https:///a.tar.gz") }
        #expect((try? ArchiveLocation.url("file:///tmp/a.tar.gz"))?.provider == .plain)
    }

    @Test func redactsCredentialsInURLs() {
        #expect(redactedURL("https://user:pw@host.example/a.tar.gz?token=abc&sha=main")
            == "https://host.example/a.tar.gz?token=REDACTED&sha=main")
        #expect(redactedURL("https://codeload.github.com/o/r/legacy.tar.gz/main") == "https://codeload.github.com/o/r/legacy.tar.gz/main")
    }
}
