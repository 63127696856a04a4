import AuditModel
import AuditStore
import DatabaseTestSupport
import Foundation
import HTTPTestSupport
import OrgModel
import Testing

/// `a11y-audit serve` as a child process, on a free port, stopped (SIGTERM, then waited for) on deinit.
final class ServeProcess {
    static var executable: String { Executable.path }

    let pid: pid_t
    let baseURL: String
    let port: UInt16
    let log: String

    init(_ arguments: [String], environment: [String: String]) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log").path
        pid = try ChildProcess.spawn(Self.executable, ["serve", "--port", "0"] + arguments, stdout: log, stderr: log,
                                     environment: environment)
        let deadline = Date().addingTimeInterval(20)
        var found: String?
        while Date() < deadline, found == nil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }), let range = line.range(of: " at ") {
                found = String(line[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let found, let port = found.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            throw TestFailure("a11y-audit serve did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        baseURL = found
        self.port = port
    }

    /// Resident memory in bytes, from /proc.
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) * 1024
    }

    deinit {
        kill(pid, SIGTERM)
        _ = ChildProcess.wait(pid)
        unlink(log)
    }
}

/// Issue 14, case 10, against the binary: `serve --config` read a 25 MB body on every path.
@Suite(.serialized) struct ServeCommandTests {
    @Test func serveWithAConfigReadsBodiesOnlyWhereARouteTakesOneAndStillTakesWebhooks() throws {
        let folder = try SiteFolder()
        let configPath = folder.root + "/org.json"
        try """
            {"org": "octo", "teams": [{"name": "Hello"}],
             "repositories": [{"name": "Codertocat/Hello-World", "team": "Hello"}],
             "pullRequests": {"gate": "any"}}
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        let secret = "webhook secret for the test"
        try TestDatabase.with { database in
            try OrgStore(connection: try database.connect()).sync(try OrgConfig.load(path: configPath))
            let server = try ServeProcess(["--site", folder.site, "--threads", "2", "--config", configPath, "--admin-token", "admin-secret"],
                                          environment: ["DATABASE_URL": database.settings.conninfo, "A11Y_AUDIT_WEBHOOK_SECRET": secret])
            Thread.sleep(forTimeInterval: 0.3)
            let before = server.residentBytes

            // 40 anonymous connections, each announcing 25 MB to a route that takes no body (or
            // needs credentials first) and offering 2 MB of it.
            let targets = [("POST", "/"), ("GET", "/teams/payments.html"), ("POST", "/api/admin/jobs/1/cancel"), ("PUT", "/api/runs")]
            let length = 25_000_000
            var connections: [RawConnection] = []
            for number in 0..<40 {
                let (method, path) = targets[number % targets.count]
                let connection = try RawConnection(port: server.port)
                connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\n")
                connections.append(connection)
            }
            let chunk = [UInt8](repeating: 0x61, count: 2 << 20)
            for connection in connections { _ = connection.sendUntilRefused(chunk, seconds: 1) }
            var statuses: [Int] = []
            for connection in connections { statuses.append(connection.readResponse(seconds: 0.5)?.status ?? 0) }
            let grown = server.residentBytes - before
            #expect(statuses.filter { $0 == 0 }.isEmpty, "\(statuses.filter { $0 == 0 }.count) of 40 got no answer while the server waited for their bodies")
            #expect(Set(statuses).isSubset(of: [401, 405, 413]), "\(statuses)")
            #expect(grown < 24 << 20, "resident memory grew by \(grown >> 20) MB for bodies no route takes")
            connections.removeAll()

            // The webhook route still takes a signed delivery.
            let body = try GitHubFixtures.bytes("pull_request.opened.payload.json")
            let signature = "sha256=" + Digest.hmacSHA256Hex(key: Array(secret.utf8), message: body)
            let delivery = try request(server.baseURL + "/hooks/github", method: "POST",
                                       headers: ["Content-Type: application/json", "X-GitHub-Event: pull_request",
                                                 "X-GitHub-Delivery: \(UUID().uuidString)", "X-Hub-Signature-256: \(signature)"],
                                       body: body)
            #expect(delivery.status == 202, "\(delivery.text)")
            let jobs = try database.connect().query("SELECT count(*) AS n FROM jobs WHERE kind = 'pr'", purpose: "count").first?.int("n")
            #expect(jobs == 1)
        }
    }
}
