import DatabaseTestSupport
import Foundation
import OrgModel
import Testing

/// The README's quick start, run as a newcomer would in a fresh copy of the repository: the
/// script the README names, with its steps. Two deviations, both switches of the script itself:
/// `--no-install` (the suite's machine has the packages) and `A11Y_AUDIT_BINARY` (the build the
/// suite runs under, instead of a second, release build). DATABASE_URL names a fresh database on
/// the test server, so the script skips its private cluster (deploy/postgres.sh, which starts
/// that cluster, is what Tests/run itself starts the test server with).
enum QuickStart {
    /// The commands of the README's "Two commands" block, comments and blank lines dropped.
    static func readmeCommands() throws -> [String] {
        let readme = try MarkdownDocument(file: "README.md")
        guard let heading = readme.lines.firstIndex(of: "## Two commands") else {
            throw DeployFailure("README.md has no \"## Two commands\" section")
        }
        let end = readme.lines[(heading + 1)...].firstIndex { $0.hasPrefix("## ") } ?? readme.lines.count
        guard let block = readme.blocks.first(where: { $0.language == "sh" && $0.firstLine > heading && $0.firstLine <= end }) else {
            throw DeployFailure("README.md: the \"Two commands\" section has no sh block")
        }
        return block.lines.map(MarkdownDocument.stripComment).filter { !$0.isEmpty }
    }

    static let scriptPath = "deploy/local/run.sh"

    /// HTTP status and body of `url`, fetched with curl (libcurl's command line) over loopback.
    static func fetch(_ url: String, in directory: String) throws -> (status: Int, body: String) {
        let body = directory + "/fetched-\(UUID().uuidString).html"
        defer { unlink(body) }
        let result = try Sandbox.run("/usr/bin/curl", ["-sS", "--max-time", "10", "-o", body, "-w", "%{http_code}", url], in: directory, seconds: 20)
        return (Int(result.stdout) ?? 0, (try? String(contentsOfFile: body, encoding: .utf8)) ?? "")
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct QuickStartTests {
    /// The README cannot drift from what is tested: its block must be exactly these commands,
    /// the first is the script `theQuickStartRunsInAFreshCopy` runs, the second the suite's runner.
    @Test func theReadmeNamesTheCommandsThisSuiteRuns() throws {
        let commands = try QuickStart.readmeCommands()
        #expect(commands == [QuickStart.scriptPath, "Tests/run"], "README.md's Two commands block changed: update QuickStartTests with it")
        for command in commands {
            #expect(FileManager.default.isExecutableFile(atPath: Deploy.root + "/" + command), "\(command) is not an executable file")
        }
        let runner = try String(contentsOfFile: Deploy.root + "/Tests/run", encoding: .utf8)
        #expect(runner.contains("swift test"), "Tests/run runs the suite")
    }

    @Test func theQuickStartRunsInAFreshCopy() throws {
        let script = try #require(QuickStart.readmeCommands().first)
        let sandbox = try Sandbox.make("quick-start")
        defer { try? FileManager.default.removeItem(atPath: sandbox) }
        try Sandbox.copyRepository(to: sandbox)
        let state = sandbox + "/.local"
        var serverPID: pid_t?
        defer { if let serverPID { kill(serverPID, SIGTERM) } }

        try TestDatabase.with(migrated: false) { database in
            let environment = ["DATABASE_URL": try databaseURL(database), "A11Y_AUDIT_BINARY": Deploy.executable, "A11Y_AUDIT_PORT": "0"]
            let first = try Sandbox.run(sandbox + "/" + script, ["--no-install"], in: sandbox, environment: environment, seconds: 420)
            #expect(first.status == 0, "\(script) failed:\n\(first.output)")
            serverPID = (try? String(contentsOfFile: state + "/serve.pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }

            // Every step ran, in order; only the two the switches name were skipped.
            var searchFrom = first.stdout.startIndex
            for step in 1...9 {
                let header = try #require(first.stdout.range(of: "== \(step). ", range: searchFrom..<first.stdout.endIndex), "step \(step) missing:\n\(first.output)")
                searchFrom = header.upperBound
            }
            #expect(first.stdout.contains("skipped (--no-install)") && first.stdout.contains("skipped: using \(Deploy.executable) (A11Y_AUDIT_BINARY)"))

            // The scanner's reports: the directory and the archive give the same findings.
            let reports = state + "/reports"
            var counts: [Int] = []
            for name in ["SampleApp", "SampleApp-archive"] {
                let json = try #require(FileManager.default.contents(atPath: "\(reports)/\(name).json"))
                let findings = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["findings"] as? [Any], "\(name).json has findings")
                counts.append(findings.count)
                let sarif = try #require(FileManager.default.contents(atPath: "\(reports)/\(name).sarif"))
                #expect((try JSONSerialization.jsonObject(with: sarif) as? [String: Any])?["version"] as? String == "2.1.0")
                let text = try String(contentsOfFile: "\(reports)/\(name).txt", encoding: .utf8)
                #expect(text.contains("fixed-font-size"), "\(name).txt lists findings")
            }
            #expect(counts.count == 2 && counts[0] > 10 && counts[0] == counts[1], "directory and archive: \(counts)")

            // The org config it generated is valid and points at the archives it made.
            let org = try OrgConfig.load(path: state + "/org.json")
            #expect(org.repositories.map(\.name).sorted() == ["sample/checkout-app", "sample/legacy-storyboards", "sample/sample-app"])
            for repository in org.repositories {
                let archive = try #require(repository.archive.flatMap(URL.init(string:)))
                #expect(FileManager.default.fileExists(atPath: archive.path), "\(archive.path)")
            }

            // The run: three repositories audited, named by status.
            #expect(first.stdout.contains("run 1 (sample manual "), "\(first.stdout)")
            #expect(first.stdout.contains("succeeded, 3 jobs"))
            for name in ["sample/sample-app", "sample/checkout-app", "sample/legacy-storyboards"] {
                #expect(first.stdout.contains("  \(name): succeeded, "), "status names \(name)")
            }

            // The rendered site, with CODEOWNERS at work: checkout-app's Shared/ belongs to Design System.
            let site = state + "/site"
            for page in ["index.html", "teams/mobile/index.html", "teams/design-system/index.html", "repos/sample/checkout-app.html",
                         "readiness.html", "runs/1.html", "assets/dashboard.css"] {
                #expect(FileManager.default.fileExists(atPath: site + "/" + page), "site has \(page)")
            }
            let design = try String(contentsOfFile: site + "/teams/design-system/index.html", encoding: .utf8)
            #expect(design.contains("sample/checkout-app") && design.contains("(Mobile's repository)"),
                    "Design System's page lists checkout-app, where CODEOWNERS gives it files")
            let checkout = try String(contentsOfFile: site + "/repos/sample/checkout-app.html", encoding: .utf8)
            #expect(checkout.contains("Shared/") && checkout.contains("owned by Design System"), "Design System owns checkout-app's Shared/ by CODEOWNERS")

            // Served on loopback at the address the script printed.
            let url = try #require(first.stdout.firstMatch(of: /Dashboard: (http:\/\/127\.0\.0\.1:[0-9]+\/)/).map { String($0.output.1) },
                                   "the script prints the dashboard's address:\n\(first.stdout)")
            let overview = try QuickStart.fetch(url, in: sandbox)
            #expect(overview.status == 200 && overview.body.contains("Accessibility overview") && overview.body.contains("3 of 3 repositories audited"),
                    "GET / answered \(overview.status)")
            let team = try QuickStart.fetch(url + "teams/mobile/", in: sandbox)
            #expect(team.status == 200 && team.body.contains("Team Mobile") && team.body.contains("sample/sample-app"), "GET /teams/mobile/ answered \(team.status)")

            // Running it again audits again (a second run, nothing new), and stops the old server.
            let second = try Sandbox.run(sandbox + "/" + script, ["--no-install", "--no-serve"], in: sandbox, environment: environment, seconds: 300)
            #expect(second.status == 0, "second run failed:\n\(second.output)")
            #expect(second.stdout.contains("run 2 (sample manual "), "\(second.stdout)")
            let statusLines = second.stdout.split(separator: "\n")
            for name in ["sample/sample-app", "sample/checkout-app", "sample/legacy-storyboards"] {
                let line = statusLines.first { $0.hasPrefix("  \(name): ") }
                #expect(line?.hasPrefix("  \(name): succeeded, ") == true && line?.hasSuffix(" open, 0 new, 0 fixed") == true, "\(name) unchanged: \(line ?? "missing")")
            }
            #expect(second.stdout.contains("not served: --no-serve"))
            #expect(!FileManager.default.fileExists(atPath: state + "/serve.pid"), "--no-serve leaves no server behind")
            let afterwards = try QuickStart.fetch(url, in: sandbox)
            #expect(afterwards.status == 0, "the first run's server was stopped, yet GET / answered \(afterwards.status)")
            if afterwards.status == 0 { serverPID = nil }
        }
    }

    @Test func theScriptRefusesUnknownOptions() throws {
        let scratch = try Sandbox.make("quick-start-usage")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try Sandbox.run(Deploy.root + "/" + QuickStart.scriptPath, ["--no-instal"], in: scratch, seconds: 30)
        #expect(result.status == 2 && result.stderr.contains("unknown option \"--no-instal\""), "\(result.output)")
    }
}
