import DatabaseTestSupport
import Foundation
import HTTPTestSupport
import PostgresClient
import Testing

/// A malformed DATABASE_URL with a password in it, what must never be printed of it, and what
/// the message must still say about it.
struct MalformedURL: Sendable, CustomStringConvertible {
    let url: String
    /// The password and every piece of it that libpq could quote.
    let secrets: [String]
    /// Text naming what is wrong.
    let says: String
    var description: String { says }
}

let malformedURLs: [MalformedURL] = [
    MalformedURL(url: "postgresql://u:s3cretpw@host:badport/db", secrets: ["s3cretpw"], says: "invalid integer value \"badport\" for connection option \"port\""),
    MalformedURL(url: "postgresql://u:s3cretpw@/db?bogus=1", secrets: ["s3cretpw"], says: "invalid URI query parameter: \"bogus\""),
    MalformedURL(url: "password=s3cretpw host=127.0.0.1 port=x", secrets: ["s3cretpw"], says: "invalid integer value \"x\" for connection option \"port\""),
    // Percent-encoded: "%65" is "e", so libpq reads the same password.
    MalformedURL(url: "postgresql://u:s3cr%65tpw@host:badport/db", secrets: ["s3cretpw", "s3cr%65tpw"], says: "\"badport\""),
    // libpq quotes the whole URI.
    MalformedURL(url: "postgresql://u:s3cretpw@[::1/db", secrets: ["s3cretpw"], says: "IPv6 host address"),
    // libpq quotes the password itself.
    MalformedURL(url: "postgresql://u:s3cretpw%zz@host/db", secrets: ["s3cretpw"], says: "invalid percent-encoded token"),
    // An unencoded "/" ends the authority: the password's start is read as the port.
    MalformedURL(url: "postgresql://u:sesame/hunter2@127.0.0.1/db", secrets: ["sesame", "hunter2"], says: "for connection option \"port\""),
    // An unencoded "@": the password's end is read as part of the host name.
    MalformedURL(url: "postgresql://u:sesame@hunter2@127.0.0.1:1/db", secrets: ["sesame", "hunter2"], says: "host name"),
    // An unquoted space: the password's second word is read as a keyword.
    MalformedURL(url: "host=127.0.0.1 port=1 password=sesame hunter2", secrets: ["sesame", "hunter2"], says: "missing \"=\" after"),
    MalformedURL(url: "host=127.0.0.1 port=1 password='s3cretpw", secrets: ["s3cretpw"], says: "unterminated quoted string"),
    MalformedURL(url: "postgresql://u@127.0.0.1:1/db?password=s3cretpw&sslmode=bogus", secrets: ["s3cretpw"], says: "invalid sslmode value: \"bogus\""),
]

func leaks(_ text: String, _ url: MalformedURL) -> [String] { url.secrets.filter { text.contains($0) } }

@Suite struct ConnectionSecretTests {
    @Test(arguments: malformedURLs)
    func aConnectionErrorSaysWhatIsWrongWithoutThePassword(_ url: MalformedURL) throws {
        let settings = ConnectionSettings(conninfo: url.url)
        do {
            _ = try PostgresConnection(settings)
            Issue.record("\(url.url) connected")
        } catch {
            let message = String(describing: error)
            #expect(leaks(message, url).isEmpty, "\(message)")
            #expect(message.contains(url.says), "\(message)")
        }
        for printed in ["\(settings)", String(reflecting: settings), settings.redactedTarget] {
            #expect(leaks(printed, url).isEmpty, "\(printed)")
        }
        var dumped = ""
        dump(settings, to: &dumped)
        #expect(leaks(dumped, url).isEmpty, "\(dumped)")
    }

    @Test func theRedactedStringKeepsEverythingButThePassword() {
        #expect("\(ConnectionSettings(conninfo: "postgresql://audit:s3cretpw@db.example.com:5432/a11y?sslmode=require"))"
                == "postgresql://audit:***@db.example.com:5432/a11y?sslmode=require")
        #expect("\(ConnectionSettings(conninfo: "host=db password = 's3c ret\\' pw' sslpassword=k3y dbname=a11y"))"
                == "host=db password = '***' sslpassword=*** dbname=a11y")
        #expect("\(ConnectionSettings(conninfo: "postgresql://db/a11y?pass%77ord=s3cretpw&user=audit"))" == "postgresql://db/a11y?pass%77ord=***&user=audit")
        let plain = "postgresql://audit@db.example.com/a11y"
        #expect("\(ConnectionSettings(conninfo: plain))" == plain)
        #expect(throws: DatabaseError.connectionFailed(target: "audit@db.example.com:badport/a11y",
                                                       reason: "invalid integer value \"badport\" for connection option \"port\""),
                "nothing to hide, nothing changed") {
            try PostgresConnection(ConnectionSettings(conninfo: "postgresql://audit@db.example.com:badport/a11y"))
        }
    }

    // A channel name is spliced into LISTEN: Character.isLetter would let any script's letters in.
    @Test func aChannelNameOutsideASCIIIsRefused() throws {
        try TestDatabase.with(migrated: false) { database in
            let connection = try database.connect()
            for channel in ["\u{FF43}hannel", "ch\u{0663}", "a b", ""] {
                #expect(throws: DatabaseError.self, "\(channel.debugDescription)") { try connection.listen(channel) }
            }
            try connection.listen("a11y_audit_jobs_2")
        }
    }
}

/// The real binary, as an operator runs it with a mistyped DATABASE_URL.
@Suite(.serialized) struct DatabaseURLSecrecyTests {
    @Test func theWorkerSaysWhatIsWrongWithTheURLWithoutThePassword() throws {
        for url in malformedURLs {
            let result = try ChildProcess.run(Executable.path, ["worker", "--once"], environment: ["DATABASE_URL": url.url])
            #expect(result.status != 0, "\(url.url): \(result.output)")
            #expect(leaks(result.output, url).isEmpty, "\(url.url): \(result.output)")
            #expect(result.output.contains(url.says), "\(url.url): \(result.output)")
        }
    }

    @Test func serveAnswersHealthzWithoutTheURLAndLogsWhatIsWrong() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("secrecy-site-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: site) }
        for url in malformedURLs {
            let log = site + "/serve.log"
            let pid = try ChildProcess.spawn(Executable.path, ["serve", "--site", site, "--port", "0", "--threads", "2"],
                                             stdout: log, stderr: log, environment: ["DATABASE_URL": url.url])
            func output() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
            defer {
                kill(pid, SIGTERM)
                _ = ChildProcess.wait(pid)
            }
            var baseURL: String?
            let deadline = Date().addingTimeInterval(20)
            while baseURL == nil && Date() < deadline {
                if let line = output().split(separator: "\n").first(where: { $0.hasPrefix("serving ") }), let at = line.range(of: " at ") {
                    baseURL = String(line[at.upperBound...])
                } else {
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            let base = try #require(baseURL, "serve did not start: \(output())")
            let health = try request(base + "healthz")
            #expect(health.status == 503)
            #expect(health.text == "database unavailable\n", "\(url.url): \(health.text)")
            // The reason is for the operator, in the log (logfmt: its double quotes become single).
            let logged = url.says.replacingOccurrences(of: "\"", with: "'")
            while !output().contains(logged) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(output().contains("event=healthz.failed") && output().contains(logged), "\(url.url): \(output())")
            #expect(leaks(output() + health.text, url).isEmpty, "\(url.url): \(output())")
        }
    }
}
