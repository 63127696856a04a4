import AuditModel
import AuditReport
import AuditScanner
import Foundation
import SwiftChecks
import Testing
import Synchronization

struct OutputTests {
    func sampleReport() throws -> (TemporaryRepository, ScanReport) {
        let repository = try TemporaryRepository()
        try repository.write("App/Title View.swift", ScannerTests.uiFile)
        try repository.write("App/Broken.swift", "import SwiftUI\nfunc f( {\n")
        let input = try ScanInput.directory(repository.path, maxFileBytes: 2_000_000)
        return (repository, try Scanner().scan(input, root: repository.path))
    }

    @Test func sarifHasTheStructureCodeScanningRequires() throws {
        let (_, report) = try sampleReport()
        let rulesReference = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/rules.md").standardizedFileURL, encoding: .utf8)
        let text = try SARIFReport.render(report)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["version"] as? String == "2.1.0")
        #expect((root["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let runs = try #require(root["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "a11y-audit")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == RuleCatalog.descriptions.count)
        for rule in rules {
            #expect(rule["id"] is String)
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["help"] as? [String: Any])?["text"] is String)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note"].contains(level ?? ""))
            // Help links to the rule's own section of the generated reference, which has it.
            let id = try #require(rule["id"] as? String)
            let helpURI = try #require(rule["helpUri"] as? String)
            #expect(helpURI.hasPrefix("https://") && helpURI.hasSuffix("/docs/rules.md#\(id)"))
            #expect(rulesReference.contains("\n## \(id)\n"), "docs/rules.md has a section for \(id)")
            let description = try #require(RuleCatalog.descriptions.first { $0.id == id })
            let tags = try #require((rule["properties"] as? [String: Any])?["tags"] as? [String])
            #expect(Set(tags).isSuperset(of: ["accessibility", description.kind.rawValue, description.category.rawValue]
                + description.platforms.platforms.map(\.rawValue)), "\(id): \(tags)")
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == report.findings.count && !results.isEmpty)
        for result in results {
            let ruleID = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == ruleID)
            #expect(["error", "warning", "note"].contains(result["level"] as? String ?? ""))
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: Any])
            #expect(artifact["uri"] as? String == "App/Title%20View.swift")
            let region = try #require(location["region"] as? [String: Any])
            #expect((region["startLine"] as? Int ?? 0) >= 1 && (region["startColumn"] as? Int ?? 0) >= 1)
            let fingerprints = try #require(result["partialFingerprints"] as? [String: String])
            #expect(fingerprints[SARIFReport.fingerprintKey]?.count == 32)
        }
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.contains { (($0["message"] as? [String: Any])?["text"] as? String)?.contains("syntax error") == true })
    }

    @Test func jsonRoundTripsTheReport() throws {
        let (_, report) = try sampleReport()
        let decoded = try JSONDecoder().decode(ScanReport.self, from: Data(try JSONReport.render(report).utf8))
        #expect(decoded.findings == report.findings)
        #expect(decoded.notes == report.notes)
    }

    @Test func jsonNamesEachFindingsPlatformsAndStillReadsAnOldBitMask() throws {
        let (_, report) = try sampleReport()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(try JSONReport.render(report).utf8)) as? [String: Any])
        let findings = try #require(root["findings"] as? [[String: Any]])
        try #require(!findings.isEmpty)
        for finding in findings {
            let names = try #require(finding["platforms"] as? [String], "platforms as names: \(finding["platforms"] ?? "nil")")
            #expect(!names.isEmpty && names.allSatisfy { Platform(rawValue: $0) != nil }, "\(names)")
        }
        #expect(try JSONDecoder().decode(PlatformSet.self, from: Data("3".utf8)) == PlatformSet([.iOS, .macOS]))
        #expect(try JSONDecoder().decode(PlatformSet.self, from: Data(#"["watchos", "ios"]"#.utf8)) == PlatformSet([.iOS, .watchOS]))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlatformSet.self, from: Data(#"["android"]"#.utf8)) }
    }

    @Test func textIsColouredOnlyWhenAskedOrOnATerminalAndCountsWhatFixCanDo() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title View.swift", ScannerTests.uiFile)
        // Stated as iOS only, so the fixed size has a text style to become.
        try repository.write(".a11y-audit.json", #"{"platforms": ["ios"]}"#)
        let always = try runProcess(Paths.executable, ["scan", repository.path, "--color", "always", "--fail-on", "none"])
        #expect(always.status == 0)
        #expect(always.stdout.contains("\u{1B}[33mwarning\u{1B}[0m") && always.stdout.contains("\u{1B}[1mApp/Title View.swift\u{1B}[0m"))
        let plain = try runProcess(Paths.executable, ["scan", repository.path, "--color=never", "--fail-on", "none"])
        #expect(!plain.stdout.contains("\u{1B}[") && plain.stdout.contains("  warning  [fixed-font-size]"))
        // Auto: a pipe (as here) gets none; NO_COLOR is respected even when forced to look.
        let piped = try runProcess(Paths.executable, ["scan", repository.path, "--fail-on", "none"])
        #expect(piped.stdout == plain.stdout)
        #expect(ColorChoice.auto.colors(outputIsTerminal: true, environment: [:]))
        #expect(!ColorChoice.auto.colors(outputIsTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.auto.colors(outputIsTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!ColorChoice.auto.colors(outputIsTerminal: false, environment: [:]))
        #expect(ColorChoice.always.colors(outputIsTerminal: false, environment: ["NO_COLOR": "1"]))
        let bad = try runProcess(Paths.executable, ["scan", repository.path, "--color", "sometimes"])
        #expect(bad.status == 2 && bad.stderr.contains("--color must be never, always or auto"))
        // What `fix` would do, per finding and in the summary.
        #expect(plain.stdout.contains("    fixable: "))
        #expect(plain.stdout.hasSuffix(" parsed); 1 fixable with `a11y-audit fix`\n"), "\(plain.stdout)")
    }

    @Test func textGroupsByFileWithCaret() throws {
        let (_, report) = try sampleReport()
        let text = TextReport.render(report)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "App/Title View.swift"))
        #expect(lines[header + 1].hasPrefix("  5:28  warning  [fixed-font-size]"))
        #expect(lines[header + 2] == "    |         Text(\"Hello\").font(.system(size: 17))")
        #expect(lines[header + 3] == "    | " + String(repeating: " ", count: 27) + "^")
        #expect(text.contains("App/Broken.swift:2: Swift syntax error"))
        #expect(text.contains("1 warning in 2 of 2 Swift files"))
    }

    @Test func rulesReferenceIsGeneratedFromTheCatalog() throws {
        let committed = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(committed == RulesReference.markdown(),
                "docs/rules.md is stale: run `swift run a11y-audit rules --format markdown > docs/rules.md`")
        for id in RuleCatalog.allRuleIDs { #expect(committed.contains("## \(id)\n")) }
    }
}

/// The executable, run as a user runs it.
struct CommandLineTests {
    @Test func exitCodesFollowFailOn() throws {
        let repository = try TemporaryRepository()
        try repository.write("View.swift", ScannerTests.uiFile)
        // A fixed font is a recommendation (warning): the default --fail-on error lets it pass.
        #expect(try runProcess(Paths.executable, ["scan", repository.path]).status == 0)
        let failing = try runProcess(Paths.executable, ["scan", repository.path, "--fail-on", "warning"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("[fixed-font-size]"))
        #expect(try runProcess(Paths.executable, ["scan", repository.path, "--fail-on", "none"]).status == 0)

        try repository.write("View.swift", "import SwiftUI\nlet f = Font.body\n")
        let clean = try runProcess(Paths.executable, ["scan", repository.path])
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("no findings"))
    }

    /// `--output` to a device or pipe writes into it; renaming a file over it (as root, over
    /// /dev/null) would destroy the device for every other program.
    @Test func outputToAPipeWritesIntoItInsteadOfReplacingIt() throws {
        let repository = try TemporaryRepository()
        try repository.write("View.swift", ScannerTests.uiFile)
        let fifo = repository.path + "/report.fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let received = ReceivedBytes()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.set(handle.readDataToEndOfFile()) }
        }
        reader.start()
        let result = try runProcess(Paths.executable, ["scan", repository.path, "--format", "json", "--output", fifo, "--fail-on", "none"])
        #expect(result.status == 0)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
        for _ in 0..<50 where received.value == nil { Thread.sleep(forTimeInterval: 0.05) }
        #expect(String(decoding: received.value ?? Data(), as: UTF8.self).contains("\"fixed-font-size\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: repository.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func usageAndInputErrorsExitTwoWithAReason() throws {
        let missing = try runProcess(Paths.executable, ["scan", "/nonexistent/repo"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/repo: no such file"))
        let badFlag = try runProcess(Paths.executable, ["scan", ".", "--format", "xml"])
        #expect(badFlag.status == 2 && badFlag.stderr.contains("--format must be"))
        let repository = try TemporaryRepository()
        try repository.write(".a11y-audit.json", "{ not json")
        try repository.write("View.swift", ScannerTests.uiFile)
        let badConfig = try runProcess(Paths.executable, ["scan", repository.path])
        #expect(badConfig.status == 2 && badConfig.stderr.contains(".a11y-audit.json: not valid JSON"))
        let notArchive = try repository.write("fake.tar.gz", "plain text")
        let badArchive = try runProcess(Paths.executable, ["scan", notArchive.path])
        #expect(badArchive.status == 2 && badArchive.stderr.contains("not a readable archive"))
    }

    @Test func everyCommandPrintsItsOwnHelpAndMistakesPointThere() throws {
        // Each command's help: the same from `COMMAND --help`, `-h` and `help COMMAND`, exit 0.
        for command in ["scan", "fix", "rules", "migrate", "schedule", "coordinator", "worker", "status", "cancel", "prune", "render", "serve"] {
            let help = try runProcess(Paths.executable, [command, "--help"])
            #expect(help.status == 0 && help.stdout.hasPrefix("Usage: a11y-audit \(command)"), "\(command): \(help.stdout.prefix(200)) \(help.stderr)")
            #expect(try runProcess(Paths.executable, ["help", command]).stdout == help.stdout)
            #expect(try runProcess(Paths.executable, [command, "-h"]).stdout == help.stdout)
        }
        let scanHelp = try runProcess(Paths.executable, ["scan", "--help"]).stdout
        #expect(scanHelp.contains("Scan options:") && scanHelp.contains("--write-baseline") && !scanHelp.contains("--dry-run"))
        let workerHelp = try runProcess(Paths.executable, ["worker", "--help"]).stdout
        #expect(workerHelp.contains("--retry-backoff") && workerHelp.contains("--job-memory-mb") && !workerHelp.contains("--write-baseline"))

        // A mistake: one line saying what, a guess when one is close, and where to read more.
        let typo = try runProcess(Paths.executable, ["scan", ".", "--fromat", "json"])
        #expect(typo.status == 2)
        #expect(typo.stderr == "a11y-audit: unknown option \"--fromat\"; did you mean \"--format\"?\nsee 'a11y-audit scan --help'\n", "\(typo.stderr)")
        let command = try runProcess(Paths.executable, ["scna", "."])
        #expect(command.status == 2 && command.stderr.contains("did you mean \"scan\"?") && command.stderr.contains("see 'a11y-audit --help'"))
        let worker = try runProcess(Paths.executable, ["worker", "--leese", "2"])
        #expect(worker.status == 2 && worker.stderr.contains("did you mean \"--lease\"?") && worker.stderr.contains("see 'a11y-audit worker --help'"))
        let rule = try runProcess(Paths.executable, ["fix", ".", "--rule", "fixed-font-szie", "--dry-run"])
        #expect(rule.status == 2 && rule.stderr.contains("did you mean \"fixed-font-size\"?"), "\(rule.stderr)")
        let value = try runProcess(Paths.executable, ["scan", ".", "--format", "xml"])
        #expect(value.stderr.hasSuffix("see 'a11y-audit scan --help'\n") && value.stderr.split(separator: "\n").count == 2, "\(value.stderr)")
    }

    @Test func flagsTakeTheirValueAfterAnEqualsSign() throws {
        let repository = try TemporaryRepository()
        try repository.write("View.swift", ScannerTests.uiFile)
        let spaced = try runProcess(Paths.executable, ["scan", repository.path, "--format", "json", "--fail-on", "none"])
        let inline = try runProcess(Paths.executable, ["scan", repository.path, "--format=json", "--fail-on=none"])
        #expect(spaced.status == 0 && inline.status == 0)
        func findings(_ text: String) throws -> NSArray? {
            (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["findings"] as? NSArray
        }
        #expect(inline.stdout.contains("\"fixed-font-size\""))
        #expect(try findings(inline.stdout) == findings(spaced.stdout))
        let switchWithValue = try runProcess(Paths.executable, ["scan", repository.path, "--verbose=yes"])
        #expect(switchWithValue.status == 2 && switchWithValue.stderr.contains("--verbose takes no value"))
    }

    @Test func writesSarifToAFileAndPlatformOverride() throws {
        let repository = try TemporaryRepository()
        try repository.write("View.swift", ScannerTests.uiFile)
        let output = repository.root.appendingPathComponent("out.sarif").path
        let run = try runProcess(Paths.executable, ["scan", repository.path, "--format", "sarif", "--output", output,
                                                    "--fail-on", "warning"])
        #expect(run.status == 1)
        #expect(FileManager.default.contents(atPath: output).map { String(decoding: $0, as: UTF8.self).contains("\"2.1.0\"") } == true)
        let mac = try runProcess(Paths.executable, ["scan", repository.path, "--platform", "macos"])
        #expect(mac.status == 0)
    }
}

final class ReceivedBytes: Sendable {
    private let data = Mutex<Data?>(nil)
    func set(_ data: Data) { self.data.withLock { $0 = data } }
    var value: Data? { data.withLock { $0 } }
}
