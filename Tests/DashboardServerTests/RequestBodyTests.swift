import DashboardServer
import DatabaseTestSupport
import Foundation
import HTTPTestSupport
import HTTPServer
import Testing

/// Issue 14, case 10: with `serve --config` every path read bodies of up to 25 MB before
/// routing or authentication, so 40 anonymous connections took the server to 1.1 GB. A body is
/// read only where a route takes one, up to that route's limit, after its credentials.
@Suite struct RequestBodyTests {
    static let adminToken = "admin-secret"
    static let readToken = "read-secret"

    /// The server as `serve --config` sets it up: a webhook route, admin endpoints, and a
    /// 25 MB ceiling (GitHub's cap on payloads).
    func serve(_ folder: SiteFolder, basePath: String = "") throws -> DashboardServer {
        var options = try DashboardOptions(siteDirectory: folder.site, basePath: basePath,
                                           access: AccessPolicy(readToken: Self.readToken, adminToken: Self.adminToken))
        options.postEndpoints["/hooks/github"] = PostEndpoint(maxBodyBytes: 64 * 1024) { request, _ in
            .text("took \(request.body.count) bytes")
        }
        return try DashboardServer(options: options, server: HTTPServerOptions(threads: 2, maxBodyBytes: 25 << 20))
    }

    /// Sends a header announcing `length` bytes and none of them: the answer must come anyway,
    /// and the server must then close the connection rather than read the body.
    func answerBeforeTheBody(_ server: DashboardServer, _ method: String, _ path: String, length: Int = 20_000_000,
                             headers: [String] = []) throws -> RawResponse? {
        let connection = try RawConnection(port: server.port)
        let head = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/octet-stream",
                    "Content-Length: \(length)"] + headers
        #expect(connection.send(head.joined(separator: "\r\n") + "\r\n\r\n"))
        let response = connection.readResponse(seconds: 5)
        if response != nil {
            let sent = connection.sendUntilRefused([UInt8](repeating: 0x61, count: length), seconds: 5)
            #expect(sent < length / 2, "\(method) \(path): the server read \(sent) of \(length) bytes after answering")
        }
        return response
    }

    @Test func routesWithoutABodyAnswerBeforeAnyOfItIsRead() throws {
        let folder = try SiteFolder()
        let server = try serve(folder)
        defer { server.stop() }
        let bearer = "Authorization: Bearer \(Self.readToken)"
        let page = try answerBeforeTheBody(server, "POST", "/teams/payments.html", headers: [bearer])
        #expect(page?.status == 405, "a page takes no POST")
        #expect(page?.header("Allow") == "GET, HEAD")
        let get = try answerBeforeTheBody(server, "GET", "/", headers: [bearer])
        #expect(get?.status == 413, "a GET takes no body")
        let anonymous = try answerBeforeTheBody(server, "POST", "/teams/payments.html")
        #expect(anonymous?.status == 401, "read access is checked before anything else")
        let api = try answerBeforeTheBody(server, "PUT", "/api/runs", headers: [bearer])
        #expect(api?.status == 405)

        let prefixed = try serve(folder, basePath: "/a11y")
        defer { prefixed.stop() }
        let outside = try answerBeforeTheBody(prefixed, "POST", "/elsewhere")
        #expect(outside?.status == 404)
    }

    @Test func adminEndpointsAuthenticateBeforeReadingABody() throws {
        let folder = try SiteFolder()
        let server = try serve(folder)
        defer { server.stop() }
        let path = "/api/admin/jobs/1/cancel"
        let anonymous = try answerBeforeTheBody(server, "POST", path)
        #expect(anonymous?.status == 401)
        #expect(anonymous?.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let wrong = try answerBeforeTheBody(server, "POST", path, headers: ["Authorization: Bearer not-the-token"])
        #expect(wrong?.status == 401)
        let reader = try answerBeforeTheBody(server, "POST", path, headers: ["Authorization: Bearer \(Self.readToken)"])
        #expect(reader?.status == 403)
        let admin = try answerBeforeTheBody(server, "POST", path, headers: ["Authorization: Bearer \(Self.adminToken)"])
        #expect(admin?.status == 413, "an admin may send a small body, not 20 MB")
        // Authenticated and small: routed as before (no database here, so 503).
        let routed = try request(server.baseURL + path, method: "POST", headers: ["Authorization: Bearer \(Self.adminToken)"],
                                 body: Array("{}".utf8))
        #expect(routed.status == 503)
    }

    @Test func theWebhookRouteStillTakesABodyWithinItsLimit() throws {
        let folder = try SiteFolder()
        try TestDatabase.with { database in
            var options = try DashboardOptions(siteDirectory: folder.site, database: database.settings)
            options.postEndpoints["/hooks/github"] = PostEndpoint(maxBodyBytes: 64 * 1024) { request, _ in
                .text("took \(request.body.count) bytes")
            }
            let server = try DashboardServer(options: options, server: HTTPServerOptions(threads: 2, maxBodyBytes: 25 << 20))
            defer { server.stop() }
            let body = [UInt8](repeating: 0x7B, count: 60_000)
            let response = try request(server.baseURL + "/hooks/github", method: "POST", body: body)
            #expect(response.status == 200)
            #expect(response.text == "took 60000 bytes")
            #expect(try sendChunked(port: server.port, path: "/hooks/github", chunks: [body]).hasPrefix("HTTP/1.1 200"))
            // Larger than loopback socket buffers can absorb, so "not read" shows as "not sent".
            let over = try answerBeforeTheBody(server, "POST", "/hooks/github", length: 20_000_000)
            #expect(over?.status == 413, "over the route's limit, though under the server's 25 MB ceiling")
            let overChunked = try sendChunked(port: server.port, path: "/hooks/github", chunks: Array(repeating: body, count: 2))
            #expect(overChunked.hasPrefix("HTTP/1.1 413"), "\(overChunked)")
            let get = try answerBeforeTheBody(server, "GET", "/hooks/github")
            #expect(get?.status == 405, "the webhook route takes POST only")
        }
    }
}
