import CurlHTTP
import Foundation
import HTTPServer
import Synchronization
import Testing

@Suite struct CurlSessionTests {
    @Test func returnsEveryResponseHeaderCaseInsensitivelyAndSendsMethodHeadersAndBody() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try HTTPServer { request in
            seen.withLock { $0 = request }
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            headers.add("Link", "<https://h/2>; rel=\"next\"")
            headers.add("link", "<https://h/9>; rel=\"last\"")
            headers.add("X-RateLimit-Remaining", "4999")
            return HTTPResponse(status: 201, headers: headers, body: Array("{\"ok\":true}".utf8))
        }
        defer { server.stop() }
        let session = try CurlSession()
        let request = CurlRequest(method: .patch, url: server.baseURL + "/thing", headers: ["X-Test": "yes"],
                                  body: Array(#"{"a":1}"#.utf8))
        let response = try session.perform(request, options: CurlOptions(userAgent: "ua-test")).get()
        #expect(response.status == 201)
        #expect(response.headers.values(for: "LINK") == ["<https://h/2>; rel=\"next\"", "<https://h/9>; rel=\"last\""])
        #expect(response.headers["x-ratelimit-remaining"] == "4999")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"ok\":true}")
        let received = try #require(seen.withLock { $0 })
        #expect(received.method == "PATCH" && received.headers["X-Test"] == "yes" && received.headers["User-Agent"] == "ua-test")
        #expect(String(decoding: received.body, as: UTF8.self) == #"{"a":1}"#)
    }

    @Test func capsTheResponseSize() throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 65, count: 5000)) }
        defer { server.stop() }
        let streamed = try HTTPServer { _ in
            let sent = Mutex(0)
            return HTTPResponse(status: 200) { sent.withLock { count in count += 1; return count <= 10 ? [UInt8](repeating: 66, count: 1000) : nil } }
        }
        defer { streamed.stop() }
        let session = try CurlSession()
        let options = CurlOptions(maxResponseBytes: 1000)
        let declared = session.perform(CurlRequest(url: server.baseURL), options: options)
        guard case .failure(let failure) = declared else {
            Issue.record("expected the cap to refuse the body")
            return
        }
        #expect(failure.kind == .tooLarge(limit: 1000, declared: 5000))
        guard case .failure(let streamedFailure) = session.perform(CurlRequest(url: streamed.baseURL), options: options) else {
            Issue.record("expected the cap to stop the stream")
            return
        }
        #expect(streamedFailure.kind == .tooLarge(limit: 1000, declared: nil))
        // The same session still works after an aborted transfer.
        #expect(try session.perform(CurlRequest(url: server.baseURL), options: CurlOptions()).get().body.count == 5000)
    }

    @Test func refusesSchemesNotAllowedAndReportsConnectionFailuresAsTransient() throws {
        let session = try CurlSession()
        guard case .failure(let file) = session.perform(CurlRequest(url: "file:///etc/passwd"), options: CurlOptions()) else {
            Issue.record("file:// must be refused by default")
            return
        }
        #expect(file.kind == .unsupportedScheme)
        // A port nothing listens on: bind one, then stop it.
        let server = try HTTPServer { _ in .text("") }
        let url = server.baseURL
        server.stop()
        guard case .failure(let refused) = session.perform(CurlRequest(url: url), options: CurlOptions(connectTimeoutSeconds: 2)) else {
            Issue.record("expected a connection failure")
            return
        }
        #expect(refused.isTransient)
    }
}
