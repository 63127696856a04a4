import DashboardServer
import Foundation
import HTTPTestSupport
import HTTPServer
import Testing

/// The site folder over real HTTP on loopback, without a database.
@Suite struct StaticFileTests {
    func serve(_ folder: SiteFolder, basePath: String = "", access: AccessPolicy = AccessPolicy()) throws -> DashboardServer {
        try DashboardServer(options: DashboardOptions(siteDirectory: folder.site, basePath: basePath, access: access),
                            server: HTTPServerOptions(threads: 2))
    }

    @Test func pagesAndAssetsCarryTheirTypeValidatorsAndSecurityHeaders() throws {
        let folder = try SiteFolder()
        try folder.write("data/runs.json", Array("{\"runs\":[]}".utf8))
        try folder.write("robots.txt", Array("User-agent: *\n".utf8))
        try folder.write("assets/logo.svg", Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        try folder.write("assets/shot.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 600))
        let server = try serve(folder)
        defer { server.stop() }

        let page = try request(server.baseURL + "/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<h1>Overview</h1>"), "the directory's index.html is served")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:") == true)
        #expect(page.header("Cache-Control") == "public, max-age=60")
        #expect(page.header("ETag")?.hasPrefix("\"") == true)
        #expect(page.header("Last-Modified")?.hasSuffix(" GMT") == true)

        let expected: [(String, String)] = [
            ("/assets/dashboard.css", "text/css; charset=utf-8"), ("/data/runs.json", "application/json"),
            ("/robots.txt", "text/plain; charset=utf-8"), ("/assets/logo.svg", "image/svg+xml; charset=utf-8"),
            ("/assets/shot.png", "image/png"), ("/teams/payments.html", "text/html; charset=utf-8"),
        ]
        for (path, type) in expected {
            let response = try request(server.baseURL + path)
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Content-Type") == type, "\(path)")
        }
        #expect(try request(server.baseURL + "/assets/dashboard.css").header("Cache-Control") == "public, max-age=600")
    }

    @Test func conditionalRequestsAnswer304AndARenderedPageGetsANewETagAtOnce() throws {
        let folder = try SiteFolder()
        let server = try serve(folder)
        defer { server.stop() }
        let url = server.baseURL + "/teams/payments.html"
        let first = try request(url)
        let etag = try #require(first.header("ETag"))
        let modified = try #require(first.header("Last-Modified"))

        let unchanged = try request(url, headers: ["If-None-Match: \(etag)"])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)
        #expect(unchanged.header("ETag") == etag)
        #expect(try request(url, headers: ["If-None-Match: \"other\", \(etag)"]).status == 304, "a list of tags")
        #expect(try request(url, headers: ["If-None-Match: W/\(etag)"]).status == 304, "weak comparison")
        #expect(try request(url, headers: ["If-Modified-Since: \(modified)"]).status == 304)
        #expect(try request(url, headers: ["If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT"]).status == 200)
        #expect(try request(url, headers: ["If-None-Match: \"nope\"", "If-Modified-Since: \(modified)"]).status == 200,
                "If-None-Match decides when both are sent")

        try folder.replaceAtomically("teams/payments.html", "<!doctype html><title>new</title><h1>Re-rendered</h1>")
        let fresh = try request(url, headers: ["If-None-Match: \(etag)"])
        #expect(fresh.status == 200, "the replaced page no longer matches the old ETag")
        #expect(fresh.text.contains("Re-rendered"))
        #expect(fresh.header("ETag") != etag)
    }

    @Test func gzipWhenTheClientAcceptsIt() throws {
        let folder = try SiteFolder()
        try folder.write("assets/big.png", [UInt8](repeating: 1, count: 4000))
        let server = try serve(folder)
        defer { server.stop() }
        let url = server.baseURL + "/assets/dashboard.css"
        let plain = try request(url)
        let zipped = try request(url, headers: ["Accept-Encoding: br, gzip;q=0.8"])
        #expect(plain.header("Content-Encoding") == nil)
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(zipped.header("Vary") == "Accept-Encoding")
        #expect(plain.header("Vary") == "Accept-Encoding")
        #expect(zipped.body.count < plain.body.count / 2)
        #expect(Gzip.decompress(zipped.body) == plain.body)
        #expect(zipped.header("ETag") != plain.header("ETag"), "each representation has its own strong validator")
        let zippedETag = try #require(zipped.header("ETag"))
        #expect(try request(url, headers: ["Accept-Encoding: gzip", "If-None-Match: \(zippedETag)"]).status == 304)

        #expect(try request(url, headers: ["Accept-Encoding: gzip;q=0, identity"]).header("Content-Encoding") == nil)
        #expect(try request(url, headers: ["Accept-Encoding: *"]).header("Content-Encoding") == "gzip")
        #expect(try request(url, headers: ["Accept-Encoding: *, gzip;q=0"]).header("Content-Encoding") == nil)
        let png = try request(server.baseURL + "/assets/big.png", headers: ["Accept-Encoding: gzip"])
        #expect(png.header("Content-Encoding") == nil, "images are not compressed again")
        #expect(png.body.count == 4000)
    }

    @Test func headMethodsRedirectsAndMissingPages() throws {
        let folder = try SiteFolder()
        let server = try serve(folder)
        defer { server.stop() }
        let get = try request(server.baseURL + "/teams/payments.html")
        let head = try request(server.baseURL + "/teams/payments.html", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag"))

        let post = try request(server.baseURL + "/teams/payments.html", method: "POST", body: Array("x".utf8))
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        #expect(post.text.contains("<h1>Method not allowed</h1>"))

        let directory = try request(server.baseURL + "/teams/payments/regressions")
        #expect(directory.status == 301)
        #expect(directory.header("Location") == "/teams/payments/regressions/")
        #expect(try request(server.baseURL + "/teams/payments/regressions/").status == 404, "a folder without index.html")

        let missing = try request(server.baseURL + "/teams/nobody.html")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "text/html; charset=utf-8")
        #expect(missing.text.contains("<html lang=\"en\">") && missing.text.contains("<main id=\"main\">"))
    }

    /// Issue 14, case 8: `GET //teams` answered `Location: //teams/`, which a browser reads as
    /// the host `teams`. Every redirect must stay on this origin.
    @Test func redirectsStayOnThisOriginWhateverSlashesThePathHas() throws {
        let folder = try SiteFolder()
        let root = try serve(folder)
        let prefixed = try serve(folder, basePath: "/a11y")
        defer { root.stop(); prefixed.stop() }
        let cases: [(server: DashboardServer, path: String, expected: String)] = [
            (root, "//teams", "/teams/"),
            (root, "///teams", "/teams/"),
            (root, "//teams//payments/regressions", "/teams/payments/regressions/"),
            (root, "/teams//payments///regressions", "/teams/payments/regressions/"),
            (root, "/%2Fteams", "/teams/"),
            (prefixed, "/a11y//teams", "/a11y/teams/"),
            (prefixed, "/a11y///teams//payments/regressions", "/a11y/teams/payments/regressions/"),
        ]
        let origin = { (server: DashboardServer) in server.baseURL.replacingOccurrences(of: "/a11y", with: "") }
        for (server, path, expected) in cases {
            let response = try request(origin(server) + path)
            #expect(response.status == 301, "\(path)")
            #expect(response.header("Location") == expected, "\(path) redirected to \(response.header("Location") ?? "nothing")")
        }
        // Whatever else a path holds, no answer names another host.
        let probes = ["//teams", "/\\teams", "/%5Cteams", "//%5Cteams", "/%09/teams", "//example.com", "//example.com/",
                      "/%2F%2Fexample.com", "/./teams", "/teams/payments/regressions//", "/a11y", "//a11y", "/a11y//"]
        for server in [root, prefixed] {
            for path in probes {
                let response = try request(origin(server) + path)
                guard let location = response.header("Location") else { continue }
                #expect(location.hasPrefix("/") && !location.hasPrefix("//") && !location.hasPrefix("/\\"),
                        "\(path) redirected off-site to \(location)")
                #expect(!location.contains("\\") && !location.contains("\t"), "\(path) redirected to \(location)")
            }
        }
    }

    @Test func nothingOutsideTheSiteFolderIsReachable() throws {
        let folder = try SiteFolder()
        let secret = folder.root + "/secret.txt"
        try "root:x:0:0 the secret outside the site".write(toFile: secret, atomically: true, encoding: .utf8)
        #expect(symlink(secret, folder.site + "/leak.txt") == 0)
        #expect(symlink(folder.root, folder.site + "/up") == 0)
        #expect(symlink("/etc", folder.site + "/etc") == 0)
        #expect(symlink(folder.site + "/teams/payments.html", folder.site + "/payments-alias.html") == 0)
        try folder.write(".hidden.html", Array("hidden".utf8))
        try folder.write("teams/.payments.html.tmp", Array("half a page".utf8))
        let server = try serve(folder)
        defer { server.stop() }

        let attempts = [
            "/../secret.txt", "/teams/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd",
            "/teams/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "//etc/passwd",
            "/%2fetc%2fpasswd", "/leak.txt", "/up/secret.txt", "/etc/passwd", "/etc/hostname", "/.hidden.html",
            "/teams/.payments.html.tmp", "/%252e%252e/secret.txt", "/teams/./payments.html", "/..",
        ]
        for path in attempts {
            let response = try request(server.baseURL + path)
            #expect(response.status == 404 || response.status == 400, "\(path) answered \(response.status)")
            #expect(!response.text.contains("root:"), "\(path) leaked a file")
        }
        // libmicrohttpd decodes %00 and the path ends there: whatever it serves, never the secret.
        #expect(!(try request(server.baseURL + "/%00/../secret.txt").text.contains("root:")))
        #expect(try request(server.baseURL + "/payments-alias.html").status == 200, "a link inside the site is followed")
    }

    @Test func largeFilesAreSentFromDiskWithTheirLengthAndValidators() throws {
        let folder = try SiteFolder()
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try folder.write("data/history.json", bytes)
        let server = try serve(folder)
        defer { server.stop() }
        let response = try request(server.baseURL + "/data/history.json", headers: ["Accept-Encoding: gzip"])
        #expect(response.status == 200)
        #expect(response.body == bytes)
        #expect(response.header("Content-Length") == String(bytes.count))
        let etag = try #require(response.header("ETag"))
        #expect(try request(server.baseURL + "/data/history.json", headers: ["If-None-Match: \(etag)"]).status == 304)
    }

    @Test func aBasePathPrefixesEverythingAndNothingElseIsServed() throws {
        let folder = try SiteFolder()
        let server = try serve(folder, basePath: "/a11y/")
        defer { server.stop() }
        let root = server.baseURL.replacingOccurrences(of: "/a11y", with: "")
        #expect(server.baseURL.hasSuffix("/a11y"))
        #expect(try request(server.baseURL + "/").text.contains("<h1>Overview</h1>"))
        #expect(try request(server.baseURL + "/teams/payments.html").status == 200)
        #expect(try request(root + "/teams/payments.html").status == 404)
        #expect(try request(root + "/a11yteams/payments.html").status == 404)
        let bare = try request(root + "/a11y")
        #expect(bare.status == 301)
        #expect(bare.header("Location") == "/a11y/")
        #expect(try request(server.baseURL + "/teams").header("Location") == "/a11y/teams/")
        let missing = try request(server.baseURL + "/nothing.html")
        #expect(missing.text.contains("href=\"/a11y/assets/dashboard.css\""), "error pages link the stylesheet under the base path")
        #expect(throws: DashboardConfigError.self) { try DashboardOptions(basePath: "a11y") }
        #expect(throws: DashboardConfigError.self) { try DashboardOptions(basePath: "/a/../b") }
        #expect(throws: DashboardConfigError.self) { try DashboardOptions(basePath: "/a?b") }
    }

    @Test func readAccessNeedsTheTokenOrBasicCredentials() throws {
        let folder = try SiteFolder()
        let access = AccessPolicy(readToken: "read-secret", basicUser: "ann", basicPassword: "pa:ss", adminToken: nil)
        let server = try serve(folder, access: access)
        defer { server.stop() }
        let url = server.baseURL + "/teams/payments.html"
        func basic(_ user: String, _ password: String) -> String {
            "Authorization: Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        let anonymous = try request(url)
        #expect(anonymous.status == 401)
        #expect(anonymous.headers("WWW-Authenticate").contains { $0.hasPrefix("Basic realm=") })
        #expect(anonymous.headers("WWW-Authenticate").contains { $0.hasPrefix("Bearer realm=") })
        #expect(!anonymous.text.contains("Payments team"))
        #expect(try request(url, headers: ["Authorization: Bearer read-secret"]).status == 200)
        #expect(try request(url, headers: ["Authorization: Bearer read-secre"]).status == 401)
        #expect(try request(url, headers: ["Authorization: Bearer read-secret2"]).status == 401)
        #expect(try request(url, headers: [basic("ann", "pa:ss")]).status == 200, "the password may contain a colon")
        #expect(try request(url, headers: [basic("ann", "pa:sx")]).status == 401)
        #expect(try request(url, headers: [basic("bob", "pa:ss")]).status == 401)
        #expect(try request(url, headers: [basic("anyone", "read-secret")]).status == 200, "a browser sends the token as a password")
        #expect(try request(url, headers: ["Authorization: Basic !!!"]).status == 401)
        let page = try request(url, headers: ["Authorization: Bearer read-secret"])
        #expect(page.header("Cache-Control") == "private, max-age=60", "shared caches must not keep protected pages")
        #expect(try request(server.baseURL + "/api/admin/jobs/1/cancel", method: "POST").status == 404,
                "no admin token: no admin endpoints")
    }
}

@Suite struct DashboardUnitTests {
    @Test func constantTimeComparison() {
        #expect(constantTimeEqual("token", "token"))
        #expect(!constantTimeEqual("token", "tokem"))
        #expect(!constantTimeEqual("token", "token-longer"))
        #expect(!constantTimeEqual("", "x"))
        #expect(constantTimeEqual("", ""))
    }

    @Test func prometheusEscapesLabelValuesAndHelp() {
        var text = PrometheusText()
        text.family("m", .gauge, help: "a \\ back\nslash")
        text.sample("m", [("outcome", "bad \"sig\"\nline \\ end")], 2)
        text.sample("m", [], 0.25)
        #expect(text.text == """
            # HELP m a \\\\ back\\nslash
            # TYPE m gauge
            m{outcome="bad \\"sig\\"\\nline \\\\ end"} 2
            m 0.25

            """)
    }

    @Test func gzipRoundTripsAndRefusesGarbage() {
        let input = Array(String(repeating: "accessible ", count: 500).utf8)
        let compressed = Gzip.compress(input)
        #expect(compressed.map { $0.count < input.count / 5 } == true)
        #expect(compressed.map { Array($0.prefix(2)) } == [0x1F, 0x8B], "a gzip header, not zlib's")
        #expect(compressed.flatMap { Gzip.decompress($0) } == input)
        #expect(Gzip.decompress(Array("not gzip at all".utf8)) == nil)
    }
}
