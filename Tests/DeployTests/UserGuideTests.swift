import DatabaseTestSupport
import Foundation
import OrgModel
import Testing

/// The documents against the binary. Every `a11y-audit` command written in them (fenced `sh`
/// blocks and inline code) must name a subcommand and flags that `a11y-audit help` lists for
/// that subcommand; docs/user-guide.md's commands are run for real, in order, in a scratch
/// folder with a throwaway database; its JSON examples are read by the real config parsers.
enum Docs {
    static let checked = ["README.md", "docs/user-guide.md", "docs/operations.md", "docs/pipeline.md", "docs/github.md",
                          "docs/dashboard-server.md", "docs/benchmarks.md"]
    static let sampleApp = TestDatabase.repositoryRoot + "/Tests/Fixtures/SampleApp"

    /// Commands that run until stopped: started, checked to be running, stopped with SIGTERM.
    static func isDaemon(_ words: [String]) -> Bool {
        switch words[1] {
        case "coordinator", "serve": true
        case "worker": !words.contains("--once") && !words.contains("--until-idle")
        default: false
        }
    }

    /// The value after `flag` in a command line.
    static func value(_ flag: String, in words: [String]) -> String? {
        words.firstIndex(of: flag).flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
    }

    /// The JSON examples of a document: (where, the parsed object, the text).
    static func jsonExamples(_ file: String) throws -> [(where_: String, object: [String: Any], text: String)] {
        try MarkdownDocument(file: file).blocks.filter { $0.language == "json" }.map { block in
            let place = "\(file):\(block.firstLine)"
            guard let object = try? JSONSerialization.jsonObject(with: Data(block.text.utf8)) as? [String: Any] else {
                throw DeployFailure("\(place): the json example is not a JSON object")
            }
            return (place, object, block.text)
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct UserGuideTests {
    @Test func everyDocumentedCommandHasItsSubcommandAndFlags() throws {
        let help = HelpFlags(help: try Deploy.help())
        #expect(help.flags["scan"]?.contains("--fail-on") == true && help.flags["serve"]?.contains("--render") == true, "help was read")
        var total = 0
        for file in Docs.checked {
            for command in try MarkdownDocument(file: file).auditCommands {
                total += 1
                for problem in help.problems(command.words) { Issue.record("\(command): \(problem)") }
            }
        }
        #expect(total >= 40, "only \(total) commands found in the documents")
        #expect(try MarkdownDocument(file: "docs/user-guide.md").auditCommands.count >= 12)
        // The Xcode script and the CI jobs are not run here, but their flags are held to help.
        #expect(try MarkdownDocument(file: "docs/user-guide.md").embeddedCommands.count >= 4)
    }

    /// The checker can fail: flags are per subcommand, and synopsis syntax is understood.
    @Test func theCheckerRejectsWhatHelpDoesNotList() throws {
        let help = HelpFlags(help: try Deploy.help())
        #expect(help.problems(["a11y-audit", "scan", "x", "--bogus"]) == ["a11y-audit scan has no flag --bogus"])
        #expect(help.problems(["a11y-audit", "rules", "--output", "x"]) == ["a11y-audit rules has no flag --output"])
        #expect(help.problems(["a11y-audit", "serve", "--concurrency", "2"]) == ["a11y-audit serve has no flag --concurrency"])
        #expect(help.problems(["a11y-audit", "frobnicate"]) == ["unknown subcommand frobnicate"])
        #expect(help.problems(["a11y-audit", "worker", "[--once", "|", "--until-idle]", "[--max-running-jobs", "N]"]).isEmpty)
        #expect(help.problems(["a11y-audit", "status", "|", "grep", "--count"]).isEmpty, "a pipe ends the command")
        let document = MarkdownDocument.stripComment("a11y-audit worker --concurrency 2   # or --once")
        #expect(document == "a11y-audit worker --concurrency 2")
    }

    @Test func jsonExamplesAreReadByTheRealParsers() throws {
        let scratch = try Sandbox.make("guide-json")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var orgConfigs = 0, repositoryConfigs = 0
        for file in ["docs/user-guide.md", "README.md", "docs/pipeline.md"] {
            for example in try Docs.jsonExamples(file) {
                if example.object["org"] != nil {
                    do { _ = try OrgConfig(data: Data(example.text.utf8), file: example.where_) } catch { Issue.record("\(error)") }
                    orgConfigs += 1
                } else {
                    // A repository's .a11y-audit.json: the scanner's own parser, rule ids included.
                    let path = scratch + "/a11y-audit-\(repositoryConfigs).json"
                    try example.text.write(toFile: path, atomically: true, encoding: .utf8)
                    let scan = try Sandbox.run(Deploy.executable, ["scan", Docs.sampleApp, "--config", path, "--fail-on", "none", "--format", "json"],
                                               in: scratch)
                    #expect(scan.status == 0, "\(example.where_): \(scan.stderr)")
                    repositoryConfigs += 1
                }
            }
        }
        #expect(orgConfigs >= 3 && repositoryConfigs >= 2, "\(orgConfigs) org configs, \(repositoryConfigs) repository configs")
        // And the parser is strict, so passing means something.
        #expect(throws: OrgConfigError.self) { try OrgConfig(data: Data(#"{"org": "a", "teams": [], "repositories": [], "schedul": {}}"#.utf8), file: "typo") }
    }

    /// docs/user-guide.md's `sh` blocks, in order, then docs/operations.md's inline commands that
    /// run to completion: `export` lines set the environment (never DATABASE_URL or PATH), other
    /// programs must be what deploy/local/run.sh runs (QuickStartTests runs that script).
    @Test func theUserGuideCommandsRun() throws {
        let guide = try MarkdownDocument(file: "docs/user-guide.md")
        let operations = try MarkdownDocument(file: "docs/operations.md").inlineCommands.filter { !Docs.isDaemon($0.words) }
        let commands = guide.shellCommands + operations
        let script = try String(contentsOfFile: Deploy.root + "/deploy/local/run.sh", encoding: .utf8)
        let examples = try Docs.jsonExamples("docs/user-guide.md")
        let org = try #require(examples.first { $0.object["org"] != nil }, "the guide has an org config")
        let repositoryConfig = try #require(examples.first { $0.object["org"] == nil }, "the guide has a .a11y-audit.json")
        let orgConfig = try OrgConfig(data: Data(org.text.utf8), file: org.where_)

        let sandbox = try Sandbox.make("guide")
        defer { try? FileManager.default.removeItem(atPath: sandbox) }
        try FileManager.default.createDirectory(atPath: sandbox + "/Tests/Fixtures", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Docs.sampleApp, toPath: sandbox + "/Tests/Fixtures/SampleApp")
        try org.text.write(toFile: sandbox + "/org.json", atomically: true, encoding: .utf8)
        try repositoryConfig.text.write(toFile: sandbox + "/.a11y-audit.json", atomically: true, encoding: .utf8)

        var ran: [String: Int] = [:]
        try TestDatabase.with(migrated: false) { database in
            var environment = ["DATABASE_URL": try databaseURL(database), "A11Y_AUDIT_MIGRATIONS": TestDatabase.migrationsDirectory]
            for command in commands {
                let words = command.words
                if words[0] == "export" {
                    for assignment in words.dropFirst() {
                        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                        if parts.count == 2 && !["DATABASE_URL", "PATH"].contains(parts[0]) { environment[parts[0]] = parts[1] }
                    }
                    continue
                }
                guard words[0] == "a11y-audit" else {
                    let line = words.joined(separator: " ")
                    #expect(line == QuickStart.scriptPath || script.contains(line), "\(command): not run by any test (deploy/local/run.sh does not run it)")
                    continue
                }
                ran[words[1], default: 0] += 1
                if Docs.isDaemon(words) {
                    try checkDaemon(command, in: sandbox, environment: environment)
                } else {
                    let result = try Sandbox.run(Deploy.executable, Array(words.dropFirst()), in: sandbox, environment: environment)
                    check(command, result, sandbox: sandbox, org: orgConfig)
                }
            }
        }
        // The guide shows the whole path: scanning, the pipeline, the dashboard, pull-request checks.
        for subcommand in ["scan", "fix", "rules", "migrate", "schedule", "status", "coordinator", "worker", "render", "serve", "prune"] {
            #expect(ran[subcommand, default: 0] > 0, "the guide and operations.md ran no \(subcommand)")
        }
    }

    /// What each finite subcommand must have done.
    func check(_ command: MarkdownDocument.Command, _ result: Sandbox.Result, sandbox: String, org: OrgConfig) {
        let words = command.words
        let failOnNone = Docs.value("--fail-on", in: words) == "none"
        switch words[1] {
        case "scan":
            #expect(result.status == 0 || (result.status == 1 && !failOnNone), "\(command): exit \(result.status)\n\(result.stderr)")
            let report = Docs.value("--output", in: words).flatMap { FileManager.default.contents(atPath: sandbox + "/" + $0) }
                ?? Data(result.stdout.utf8)
            let parsed = try? JSONSerialization.jsonObject(with: report)
            let object = parsed as? [String: Any]
            let text = String(decoding: report, as: UTF8.self)
            if let written = Docs.value("--write-baseline", in: words) {
                let baseline = FileManager.default.contents(atPath: sandbox + "/" + written)
                    .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                #expect(baseline?["version"] as? Int == 2 && (baseline?["findings"] as? [Any])?.isEmpty == false,
                        "\(command): no baseline with findings written")
            }
            // Against a baseline of the same code, what is left is nothing new.
            let baselined = Docs.value("--baseline", in: words) != nil
            switch Docs.value("--format", in: words) ?? "text" {
            case "json": #expect(object?["findings"] is [Any], "\(command): not a JSON report")
            case "sarif": #expect(object?["version"] as? String == "2.1.0" && object?["runs"] is [Any], "\(command): not a SARIF report")
            case "gitlab": #expect((parsed as? [[String: Any]])?.first?["check_name"] is String, "\(command): not a Code Quality report")
            case "junit": #expect(text.contains("<testsuites ") && text.contains("<failure "), "\(command): not a JUnit report with failures")
            case "markdown": #expect(text.hasPrefix("### a11y-audit: ") && text.contains("| Severity |"), "\(command): not a Markdown summary")
            case "github": #expect(text.hasPrefix("::warning file=") || text.hasPrefix("::error file="), "\(command): no workflow commands")
            case "xcode": #expect(text.contains(": warning: ") || text.contains(": error: "), "\(command): no Xcode diagnostics")
            default:
                if baselined {
                    #expect(text.contains("no findings (") && text.contains("more in the baseline)"), "\(command): the baseline left findings in")
                } else {
                    #expect(text.contains(" error") || text.contains(" warning"), "\(command): no findings in the text report")
                }
            }
        case "fix":
            // The guide's fixes are dry runs on the sample app: a diff, and the sample left as it was.
            let dryRun = words.contains("--dry-run")
            #expect(dryRun, "\(command): a fix the guide runs must be a dry run, or the commands after it see other code")
            #expect(result.status == 0 && result.stdout.hasPrefix("--- a/") && result.stdout.contains("\n@@ -")
                    && result.stderr.contains("would fix "), "\(command): \(result.output)")
            let checkout = try? String(contentsOfFile: sandbox + "/Tests/Fixtures/SampleApp/Shared/CheckoutView.swift", encoding: .utf8)
            #expect(checkout?.contains("\"Pay button\"") == true, "\(command): the dry run changed the sample app")
        case "rules":
            #expect(result.status == 0 && result.stdout.contains("fixed-font-size"), "\(command): \(result.output)")
        case "version":
            #expect(result.status == 0 && result.stdout.hasPrefix("a11y-audit "), "\(command): \(result.output)")
        case "migrate":
            #expect(result.status == 0 && (result.output.contains("applied") || result.output.contains("schema is current")), "\(command): \(result.output)")
        case "schedule":
            #expect(result.status == 0 && (result.output.contains("scheduled run") || result.output.contains("already scheduled")), "\(command): \(result.output)")
        case "status":
            #expect(result.status == 0 && org.repositories.allSatisfy { result.stdout.contains($0.name) }, "\(command): \(result.output)")
        case "render":
            let site = Docs.value("--out", in: words) ?? "site"
            #expect(result.status == 0 && FileManager.default.fileExists(atPath: "\(sandbox)/\(site)/index.html"), "\(command): \(result.output)")
        case "prune":
            #expect(result.status == 0 && result.stdout.contains("removed"), "\(command): \(result.output)")
        case "cancel":
            #expect(result.status == 0, "\(command): \(result.output)")
        default:
            Issue.record("\(command): no expectation for a11y-audit \(words[1]) in UserGuideTests: add one")
        }
    }

    /// A long-running command on a database of its own (so a worker finds no job of the guide's
    /// organisation to fetch from GitHub): still running after 3 s, stopped cleanly by SIGTERM.
    /// `serve` gets `--port 0` appended, as 8080 may be taken on a shared machine.
    func checkDaemon(_ command: MarkdownDocument.Command, in sandbox: String, environment: [String: String]) throws {
        var arguments = Array(command.words.dropFirst())
        if arguments.first == "serve" { arguments += ["--port", "0"] }
        try TestDatabase.with { database in
            var environment = environment
            environment["DATABASE_URL"] = try databaseURL(database)
            let log = sandbox + "/daemon-\(UUID().uuidString).log"
            defer { unlink(log) }
            let pid = try Sandbox.start(Deploy.executable, arguments, in: sandbox, environment: environment, stdout: log, stderr: log, seconds: 90)
            Thread.sleep(forTimeInterval: 3)
            var status: Int32 = 0
            let early = waitpid(pid, &status, WNOHANG)
            #expect(early == 0, "\(command): exited at once (status \(status >> 8)): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            guard early == 0 else { return }
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while waitpid(pid, &status, WNOHANG) == 0 {
                guard Date() < deadline else {
                    kill(pid, SIGKILL)
                    _ = ChildProcess.wait(pid)
                    Issue.record("\(command): did not stop within 30 s of SIGTERM")
                    return
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(status & 0x7F == 0 && (status >> 8) & 0xFF == 0, "\(command): stopped with status \(status): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }
}
