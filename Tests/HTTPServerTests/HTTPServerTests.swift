import Foundation
import HTTPTestSupport
import HTTPServer
import Synchronization
import Testing

@Suite struct HTTPServerTests {
    @Test func passesMethodPathQueryAndHeadersToTheHandler() throws {
        let server = try HTTPServer { request in
            let lines = [
                request.method, request.path, request.query["name"] ?? "-", request.query["empty"] ?? "-",
                request.headers["x-custom-header"] ?? "-", request.headers["X-CUSTOM-HEADER"] ?? "-",
            ]
            var response = HTTPResponse.text(lines.joined(separator: "\n"), status: 201)
            response.headers.add("X-Reply", "yes")
            return response
        }
        defer { server.stop() }
        let response = try request(server.baseURL + "/some/path%20here?name=a%20b&empty", method: "PUT",
                                   headers: ["X-Custom-Header: Value 1"], body: [])
        #expect(response.status == 201)
        #expect(response.header("x-reply") == "yes")
        #expect(response.text.split(separator: "\n", omittingEmptySubsequences: false)
            == ["PUT", "/some/path here", "a b", "", "Value 1", "Value 1"])
    }

    @Test func accumulatesALargeBodyAcrossUploadCallbacks() throws {
        let server = try HTTPServer(options: HTTPServerOptions(maxBodyBytes: 4 << 20)) { request in
            // Echo the body so the test compares every byte.
            HTTPResponse(status: 200, body: request.body)
        }
        defer { server.stop() }
        let body = (0..<(1_500_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let response = try request(server.baseURL + "/upload", method: "POST", body: body)
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.header("content-length") == String(body.count))
    }

    @Test func refusesADeclaredBodyOverTheCapWithoutCallingTheHandler() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(options: HTTPServerOptions(maxBodyBytes: 1000)) { _ in
            calls.add(1, ordering: .relaxed)
            return .text("ok")
        }
        defer { server.stop() }
        let small = try request(server.baseURL + "/", method: "POST", body: [UInt8](repeating: 1, count: 1000))
        let large = try request(server.baseURL + "/", method: "POST", body: [UInt8](repeating: 1, count: 1001))
        #expect(small.status == 200)
        #expect(large.status == 413)
        #expect(large.text.contains("1000-byte limit"))
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func refusesAChunkedBodyThatGrowsOverTheCap() throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(options: HTTPServerOptions(maxBodyBytes: 10_000)) { request in
            calls.add(1, ordering: .relaxed)
            return .text("\(request.body.count)")
        }
        defer { server.stop() }
        let within = try sendChunked(port: server.port, path: "/", chunks: Array(repeating: [UInt8](repeating: 7, count: 2000), count: 5))
        let over = try sendChunked(port: server.port, path: "/", chunks: Array(repeating: [UInt8](repeating: 7, count: 2000), count: 6))
        #expect(within.hasPrefix("HTTP/1.1 200"))
        #expect(over.hasPrefix("HTTP/1.1 413"))
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func anAdmissionCallbackDecidesEachBodyBeforeAnyOfItIsRead() throws {
        let admitted = Mutex<[String]>([])
        let server = try HTTPServer(options: HTTPServerOptions(maxBodyBytes: 1 << 20), admission: { head in
            admitted.withLock { $0.append(head.path) }
            if head.path == "/private", head.headers["Authorization"] != "Bearer yes" { return .refuse(.text("no", status: 401)) }
            return .accept(maxBodyBytes: head.path == "/small" ? 10 : 1000)
        }) { request in .text("\(request.path) took \(request.body.count)") }
        defer { server.stop() }

        let refused = try RawConnection(port: server.port)
        refused.send("POST /private HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n")
        let early = refused.readResponse(seconds: 5)
        #expect(early?.status == 401, "answered before the 500 bytes were sent")
        #expect(refused.receive(seconds: 5) == .closed, "and the connection closed rather than read them")

        let allowed = try request(server.baseURL + "/private", method: "POST", headers: ["Authorization: Bearer yes"],
                                  body: [UInt8](repeating: 1, count: 500))
        #expect(allowed.text == "/private took 500")
        #expect(try request(server.baseURL + "/small", method: "POST", body: [UInt8](repeating: 1, count: 11)).status == 413)
        #expect(try sendChunked(port: server.port, path: "/small", chunks: [[UInt8](repeating: 1, count: 11)]).hasPrefix("HTTP/1.1 413"))
        #expect(try request(server.baseURL + "/small", method: "POST", body: [UInt8](repeating: 1, count: 10)).text == "/small took 10")
        #expect(try request(server.baseURL + "/no-body").text == "/no-body took 0")
        #expect(!admitted.withLock { $0 }.contains("/no-body"), "a request without a body is not put to the callback")
    }

    @Test func bodiesBeingReceivedShareOneMemoryBudget() throws {
        let server = try HTTPServer(options: HTTPServerOptions(maxBodyBytes: 80_000, maxBufferedBodyBytes: 100_000)) { request in
            .text("took \(request.body.count)")
        }
        defer { server.stop() }
        // The first upload holds 80,000 bytes of the budget from its header on.
        let first = try RawConnection(port: server.port)
        first.send("POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 80000\r\n\r\n")
        first.send([UInt8](repeating: 1, count: 10))
        Thread.sleep(forTimeInterval: 0.2)
        let second = try RawConnection(port: server.port)
        second.send("POST /b HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50000\r\n\r\n")
        let busy = second.readResponse(seconds: 5)
        #expect(busy?.status == 503)
        #expect(busy?.header("Retry-After") == "5")
        first.send([UInt8](repeating: 1, count: 79_990))
        #expect(first.readResponse(seconds: 5)?.text == "took 80000")
        // Released once answered.
        #expect(try request(server.baseURL + "/b", method: "POST", body: [UInt8](repeating: 1, count: 50_000)).text == "took 50000")
    }

    @Test func streamsAResponseWithoutContentLength() throws {
        let server = try HTTPServer { _ in
            let remaining = Mutex(5)
            return HTTPResponse(status: 200) {
                remaining.withLock { count -> [UInt8]? in
                    guard count > 0 else { return nil }
                    count -= 1
                    return [UInt8](repeating: UInt8(ascii: "a") + UInt8(count), count: 50_000)
                }
            }
        }
        defer { server.stop() }
        let response = try request(server.baseURL + "/stream")
        #expect(response.status == 200)
        #expect(response.header("content-length") == nil)
        #expect(response.header("transfer-encoding")?.lowercased() == "chunked")
        #expect(response.body.count == 250_000)
        #expect(response.body.first == UInt8(ascii: "e") && response.body.last == UInt8(ascii: "a"))
    }

    @Test func picksAFreePortAndReportsIt() throws {
        let first = try HTTPServer { _ in .text("first") }
        let second = try HTTPServer { _ in .text("second") }
        defer { first.stop(); second.stop() }
        #expect(first.port != 0 && second.port != 0 && first.port != second.port)
        #expect(try request(first.baseURL + "/").text == "first")
        #expect(try request(second.baseURL + "/").text == "second")
        // The port is taken now: a third server asking for it by number fails with a clear error.
        #expect {
            _ = try HTTPServer(options: HTTPServerOptions(port: first.port)) { _ in .text("third") }
        } throws: { error in
            guard let error = error as? HTTPServerError, case .startFailed(_, let port, _) = error else { return false }
            return port == first.port && error.description.contains("\(first.port)")
        }
    }

    @Test func rejectsANonNumericAddress() {
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(options: HTTPServerOptions(host: "localhost.example")) { _ in .text("") }
        }
    }

    @Test func servesIPv6Loopback() throws {
        let server: HTTPServer
        do { server = try HTTPServer(options: HTTPServerOptions(host: "::1")) { _ in .text("six") } } catch {
            // A host without IPv6 cannot bind ::1; that is the machine, not the server.
            withKnownIssue("IPv6 loopback unavailable here: \(error)") { throw error }
            return
        }
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("http://[::1]:"))
        #expect(try request(server.baseURL + "/").text == "six")
    }

    @Test func stopClosesTheListeningSocket() throws {
        let server = try HTTPServer { _ in .text("up") }
        let url = server.baseURL + "/"
        #expect(try request(url).text == "up")
        server.stop()
        server.stop()
        #expect(throws: ClientError.self) { _ = try request(url) }
    }

    @Test func servesRequestsInParallelOnItsThreadPool() throws {
        let server = try HTTPServer(options: HTTPServerOptions(threads: 4)) { _ in
            Thread.sleep(forTimeInterval: 0.5)
            return .text("slow")
        }
        defer { server.stop() }
        let started = Date()
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let status = (try? request(server.baseURL + "/"))?.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(statuses.withLock { $0 } == [200, 200, 200, 200])
        // One at a time would take 2 s.
        #expect(elapsed < 1.6, "4 requests of 0.5 s took \(elapsed) s")
    }
}

/// Issue 14, case 9: slow clients (slowloris). libmicrohttpd's own timeout counts idle time only,
/// so a client that sends a byte every few seconds kept its connection for ever, and 1,030 of
/// them locked every other client out.
@Suite(.serialized) struct SlowClientTests {
    @Test func slowHeadersAndSlowBodiesAreCutOffAtTheirDeadlineHoweverSteadilyTheyTrickle() throws {
        let calls = Atomic<Int>(0)
        let options = HTTPServerOptions(maxBodyBytes: 1000, connectionTimeoutSeconds: 30, headerDeadlineSeconds: 1,
                                        bodyDeadlineSeconds: 1, minimumBodyBytesPerSecond: 1000)
        let server = try HTTPServer(options: options) { request in
            calls.add(1, ordering: .relaxed)
            return .text("answered \(request.path)")
        }
        defer { server.stop() }
        let slowHeader = try RawConnection(port: server.port)
        #expect(slowHeader.send("GET /slow-header HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))
        let slowBody = try RawConnection(port: server.port)
        #expect(slowBody.send("POST /slow-body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"))
        // On a kept-alive connection the next request's header has its own deadline.
        let keptAlive = try RawConnection(port: server.port)
        #expect(keptAlive.send("GET /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        #expect(keptAlive.readResponse(seconds: 5)?.status == 200)
        #expect(keptAlive.send("GET /second HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))

        // One byte every 100 ms each: never idle, and 100 body bytes would take 10 s.
        let started = Date()
        let slow = [("header", slowHeader), ("body", slowBody), ("kept-alive", keptAlive)]
        var closedAfter: [String: Double] = [:]
        while Date().timeIntervalSince(started) < 6, closedAfter.count < slow.count {
            for (name, connection) in slow where closedAfter[name] == nil {
                if connection.isClosedByPeer || !connection.send("a") { closedAfter[name] = Date().timeIntervalSince(started) }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        for (name, _) in slow {
            let after = closedAfter[name]
            #expect(after != nil, "the slow \(name) connection was still open after 6 s")
            if let after { #expect(after > 0.5 && after < 4, "the slow \(name) connection was closed after \(after) s; its deadline is about 1 s") }
        }
        #expect(calls.load(ordering: .relaxed) == 1, "only the complete first request reached the handler")
        #expect(try request(server.baseURL + "/prompt").text == "answered /prompt")
    }

    @Test func aLegitimateClientIsServedWhileOneAddressHoldsHundredsOfSlowConnections() throws {
        // The defaults, as `a11y-audit serve` runs them.
        let server = try HTTPServer(options: HTTPServerOptions(threads: 4)) { request in .text("served \(request.path)") }
        defer { server.stop() }
        var slow: [RawConnection] = []
        for _ in 0..<1100 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(connection)
        }
        for _ in 0..<5 {
            for connection in slow { connection.send("a") }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let open = slow.filter { !$0.isClosedByPeer }.count
        let perIP = HTTPServerOptions().maxConnectionsPerIP
        #expect(open <= perIP, "\(open) slow connections from one address are open; the limit per address is \(perIP)")

        // Another client (another loopback address) is answered at once.
        let started = Date()
        let legitimate = try RawConnection(port: server.port, source: "127.0.0.2")
        #expect(legitimate.send("GET /legitimate HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        let response = legitimate.readResponse(seconds: 5)
        let elapsed = Date().timeIntervalSince(started)
        #expect(response?.status == 200)
        #expect(response?.text == "served /legitimate")
        #expect(elapsed < 2, "the legitimate request took \(elapsed) s")

        // One more connection from the crowded address is closed at once, without an answer.
        let extra = try RawConnection(port: server.port)
        extra.send("GET /one-more HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(extra.receive(seconds: 3) == .closed)
        withExtendedLifetime(slow) {}
    }

    @Test func aFullServerMakesANewClientWaitNoLongerThanTheHeaderDeadline() throws {
        // No limit per address here: the total limit is what is full.
        let options = HTTPServerOptions(threads: 1, headerDeadlineSeconds: 1, maxConnections: 4, maxConnectionsPerIP: 0)
        let server = try HTTPServer(options: options) { _ in .text("served") }
        defer { server.stop() }
        var slow: [RawConnection] = []
        for _ in 0..<4 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(connection)
        }
        Thread.sleep(forTimeInterval: 0.2)
        let started = Date()
        let legitimate = try RawConnection(port: server.port, source: "127.0.0.2")
        legitimate.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = legitimate.readResponse(seconds: 6)
        let elapsed = Date().timeIntervalSince(started)
        #expect(response?.status == 200, "no answer within 6 s")
        #expect(elapsed > 0.5, "answered before a connection was free: the limit of 4 did not apply")
        #expect(elapsed < 4, "the new client waited \(elapsed) s; the slow ones are cut after 1 s")
        // The first cut frees the slot the new client takes; the other three are cut within
        // moments of it (their deadlines started a few milliseconds apart), not at once.
        let cutBy = Date().addingTimeInterval(2)
        while !slow.allSatisfy({ $0.isClosedByPeer }) && Date() < cutBy { Thread.sleep(forTimeInterval: 0.02) }
        #expect(slow.allSatisfy { $0.isClosedByPeer }, "a slow connection was still open 2 s after the new client was answered")
    }

    @Test func oneAddressGetsNoMoreThanItsConnections() throws {
        let server = try HTTPServer(options: HTTPServerOptions(threads: 2, maxConnectionsPerIP: 3)) { _ in .text("served") }
        defer { server.stop() }
        let idle = try (0..<6).map { _ in try RawConnection(port: server.port) }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(idle.filter { !$0.isClosedByPeer }.count == 3)
        let other = try RawConnection(port: server.port, source: "127.0.0.2")
        other.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(other.readResponse(seconds: 5)?.status == 200)
    }
}
