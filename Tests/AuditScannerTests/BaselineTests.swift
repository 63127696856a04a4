import AuditModel
import AuditScanner
import Foundation
import SwiftChecks
import Testing

/// A baseline written today and read tomorrow reports only what is new, and counts what it
/// holds that no longer matches.
struct BaselineTests {
    static let twoFonts = """
        import SwiftUI

        struct Title: View {
            var body: some View {
                VStack {
                    Text("Hello").font(.system(size: 17))
                    Text("Price").font(.system(size: 20))
                }
            }
        }
        """

    func scan(_ repository: TemporaryRepository) throws -> ScanReport {
        let input = try ScanInput.directory(repository.path, maxFileBytes: 2_000_000)
        return try Scanner().scan(input, root: repository.path)
    }

    @Test func aBaselineReportsOnlyTheFindingAddedSince() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        let today = try scan(repository)
        #expect(today.findings.count == 1)
        // Written and read back, as a file would be.
        let written = try Baseline(findings: today.findings).encoded()
        let baseline = try Baseline(data: written, file: "baseline.json")
        #expect(baseline == Baseline(findings: today.findings))

        // Tomorrow: a new fixed font in the same file, and the old one moved down a line.
        try repository.write("App/Title.swift", "// A comment above moves every line.\n" + Self.twoFonts)
        let tomorrow = try scan(repository)
        #expect(tomorrow.findings.count == 2)
        let gated = baseline.apply(to: tomorrow, file: "baseline.json")
        #expect(gated.findings.map(\.location.line) == [8], "only the new 20 pt font")
        #expect(gated.findings.first?.sourceLine.contains("size: 20") == true)
        #expect(gated.baseline == BaselineOutcome(file: "baseline.json", matched: 1, stale: 0))
        #expect(gated.notes.contains { $0.kind == .baseline && $0.message == "baseline baseline.json: 1 finding left out" })
        #expect(gated.highestSeverity() == .warning)

        // The old finding fixed: its entry matches nothing and is counted for pruning.
        try repository.write("App/Title.swift", Self.twoFonts.replacingOccurrences(of: ".font(.system(size: 17))", with: ".font(.body)"))
        let fixed = baseline.apply(to: try scan(repository), file: "baseline.json")
        #expect(fixed.findings.count == 1 && fixed.findings.first?.sourceLine.contains("size: 20") == true)
        #expect(fixed.baseline == BaselineOutcome(file: "baseline.json", matched: 0, stale: 1))
        let note = try #require(fixed.notes.first { $0.kind == .baseline })
        #expect(note.message.contains("1 entry matches no finding any more") && note.message.contains("--write-baseline baseline.json"))
    }

    static let twins = """
        import SwiftUI

        struct Footer: View {
            var body: some View {
                VStack {
                    Text("Top").font(.system(size: 12))
                    Divider()
                    Text("Top").font(.system(size: 12))
                }
            }
        }
        """

    /// A version 1 file (fingerprints numbered identical code by order, no code or line) still
    /// gates today's findings: matched once through the legacy fingerprints.
    @Test func aVersionOneBaselineStillHoldsItsFindings() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Footer.swift", Self.twins)
        let report = try scan(repository)
        #expect(report.findings.count == 2)
        let entries = zip(report.findings, report.findings.legacyFingerprints()).map { finding, legacy in
            #"{"fingerprint": "\#(legacy)", "rule": "\#(finding.ruleID)", "file": "\#(finding.location.file)"}"#
        }
        let old = try Baseline(data: Data(#"{"version": 1, "findings": [\#(entries.joined(separator: ","))]}"#.utf8), file: "old.json")
        let gated = old.apply(to: report, file: "old.json")
        #expect(gated.findings.isEmpty)
        #expect(gated.baseline == BaselineOutcome(file: "old.json", matched: 2, stale: 0))
        // Rewritten, it is version 2 and holds the same findings.
        let rewritten = try Baseline(data: try Baseline(findings: report.findings).encoded(), file: "new.json")
        #expect(rewritten.apply(to: report, file: "new.json").baseline == BaselineOutcome(file: "new.json", matched: 2, stale: 0))
    }

    /// Of two identical accepted lines, the one fixed is the stale entry; an edit next to the
    /// other (which changes its fingerprint) does not make it new.
    @Test func identicalAcceptedLinesStayApart() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Footer.swift", Self.twins)
        let today = try scan(repository)
        let baseline = Baseline(findings: today.findings)
        try repository.write("App/Footer.swift", Self.twins.replacingOccurrences(of: "Text(\"Top\").font(.system(size: 12))\n            Divider()",
                                                                                 with: "Text(\"Top\").font(.body)\n            Divider()"))
        let fixed = try scan(repository)
        #expect(fixed.findings.map(\.location.line) == [8])
        #expect(fixed.findings[0].fingerprint != today.findings[1].fingerprint, "alone, it no longer names its neighbours")
        let gated = baseline.apply(to: fixed, file: "baseline.json")
        #expect(gated.findings.isEmpty)
        #expect(gated.baseline == BaselineOutcome(file: "baseline.json", matched: 1, stale: 1))
        // Both lines back and a third identical one elsewhere: the third is new.
        try repository.write("App/Footer.swift", Self.twins + "\nlet extra = Text(\"Top\").font(.system(size: 12))\n")
        let added = baseline.apply(to: try scan(repository), file: "baseline.json")
        #expect(added.findings.map(\.location.line) == [12])
    }

    @Test func theFileIsSmallVersionedAndSorted() throws {
        let repository = try TemporaryRepository()
        try repository.write("B/Title.swift", Self.twoFonts)
        try repository.write("A/Title.swift", ScannerTests.uiFile)
        let report = try scan(repository)
        let object = try #require(try JSONSerialization.jsonObject(with: try Baseline(findings: report.findings).encoded()) as? [String: Any])
        #expect(object["version"] as? Int == Baseline.version)
        #expect((object["tool"] as? String)?.hasPrefix("a11y-audit ") == true)
        let entries = try #require(object["findings"] as? [[String: Any]])
        #expect(entries.map { $0["file"] as? String ?? "" } == ["A/Title.swift", "B/Title.swift", "B/Title.swift"])
        #expect(entries.allSatisfy { Set($0.keys) == ["fingerprint", "rule", "file", "code", "line"] && $0["rule"] as? String == "fixed-font-size" })
        #expect(entries.allSatisfy { ($0["code"] as? String)?.hasPrefix(".system(size: ") == true && ($0["line"] as? Int ?? 0) > 0 })
    }

    @Test func aMalformedBaselineSaysWhichFileAndWhy() {
        func error(_ text: String) -> BaselineError? {
            do { _ = try Baseline(data: Data(text.utf8), file: "b.json"); return nil } catch { return error as? BaselineError }
        }
        #expect(error("{ not json")?.description.hasPrefix("b.json: not an a11y-audit baseline (not valid JSON") == true)
        #expect(error("[]") == .malformed(file: "b.json", reason: "the top level must be an object"))
        #expect(error(#"{"findings": []}"#) == .malformed(file: "b.json", reason: "\"version\" must be a number"))
        #expect(error(#"{"version": true, "findings": []}"#) == .malformed(file: "b.json", reason: "\"version\" must be a number"))
        #expect(error(#"{"version": 3, "findings": []}"#) == .unsupportedVersion(file: "b.json", version: 3))
        #expect(error(#"{"version": 2, "findings": []}"#) == nil)
        #expect(error(#"{"version": 1}"#) == .malformed(file: "b.json", reason: "\"findings\" must be a list"))
        #expect(error(#"{"version": 1, "findings": [{"rule": "x"}]}"#)
                == .malformed(file: "b.json", reason: "findings[0] has no \"fingerprint\" string"))
        #expect(error(#"{"version": 1, "findings": []}"#) == nil)
    }

    @Test func theConfigKeyIsAPathInsideTheRepository() throws {
        let rules = Set(RuleCatalog.allRuleIDs)
        let config = try AuditConfig(data: Data(#"{"baseline": "ci/a11y-baseline.json"}"#.utf8), file: "c.json", knownRules: rules)
        #expect(config.baseline == "ci/a11y-baseline.json")
        for bad in [#"{"baseline": 3}"#, #"{"baseline": ""}"#, #"{"baseline": "/etc/passwd"}"#, #"{"baseline": "../x.json"}"#] {
            #expect(throws: AuditConfigError.self, "\(bad)") { try AuditConfig(data: Data(bad.utf8), file: "c.json", knownRules: rules) }
        }
        #expect(throws: AuditConfigError.unknownKey(file: "c.json", key: "baselines")) {
            try AuditConfig(data: Data(#"{"baselines": "b.json"}"#.utf8), file: "c.json", knownRules: rules)
        }
    }

    // MARK: The command line

    @Test func writeThenGateFromTheCommandLine() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        let baseline = repository.path + "/a11y-baseline.json"
        let write = try runProcess(Paths.executable, ["scan", repository.path, "--write-baseline", baseline, "--fail-on", "warning"])
        #expect(write.status == 1, "writing a baseline reports as usual")
        let written = try #require(FileManager.default.contents(atPath: baseline))
        #expect(try Baseline(data: written, file: baseline).entries.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: repository.path).filter { $0.contains(".tmp-") }.isEmpty)

        let gated = try runProcess(Paths.executable, ["scan", repository.path, "--baseline", baseline, "--fail-on", "warning"])
        #expect(gated.status == 0, "the backlog no longer fails the gate: \(gated.stdout)")
        #expect(gated.stdout.contains("no findings (1 more in the baseline)"))
        #expect(gated.stderr.contains("a11y-audit: baseline \(baseline): 1 finding left out"))

        try repository.write("App/Title.swift", Self.twoFonts.replacingOccurrences(of: ".font(.system(size: 17))", with: ".font(.body)"))
        let json = try runProcess(Paths.executable, ["scan", repository.path, "--baseline", baseline, "--format", "json", "--fail-on", "warning"])
        #expect(json.status == 1, "a new finding fails it")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["findings"] as? [Any])?.count == 1)
        let outcome = try #require(object["baseline"] as? [String: Any])
        #expect(outcome["matched"] as? Int == 0 && outcome["stale"] as? Int == 1)
        #expect(json.stderr.isEmpty, "standard error carries the note in text mode only")
    }

    @Test func theConfigNamesTheBaselineRelativeToTheRoot() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        let noFolder = try runProcess(Paths.executable, ["scan", repository.path, "--write-baseline", repository.path + "/ci/baseline.json"])
        #expect(noFolder.status == 2 && noFolder.stderr.contains("cannot write the baseline there"), "the folder must exist")
        try FileManager.default.createDirectory(atPath: repository.path + "/ci", withIntermediateDirectories: true)
        #expect(try runProcess(Paths.executable, ["scan", repository.path, "--write-baseline", repository.path + "/ci/baseline.json"]).status == 0)
        try repository.write(".a11y-audit.json", #"{ "baseline": "ci/baseline.json" }"#)
        let gated = try runProcess(Paths.executable, ["scan", repository.path, "--fail-on", "warning"])
        #expect(gated.status == 0 && gated.stdout.contains("1 more in the baseline"), "\(gated.stdout)\(gated.stderr)")
    }

    @Test func anArchiveSaysItsConfiguredBaselineWasNotRead() throws {
        let repository = try TemporaryRepository()
        try repository.write("tree/App/Title.swift", ScannerTests.uiFile)
        try repository.write("tree/.a11y-audit.json", #"{ "baseline": "a11y-audit-baseline.json" }"#)
        let archive = repository.path + "/repo.tar.gz"
        #expect(try runProcess("/bin/tar", ["-czf", archive, "-C", repository.path + "/tree", "."]).status == 0)
        let run = try runProcess(Paths.executable, ["scan", archive, "--fail-on", "none"])
        #expect(run.status == 0 && run.stdout.contains("[fixed-font-size]"), "every finding is reported")
        #expect(run.stdout.contains("baseline a11y-audit-baseline.json is not read from an archive; pass it with --baseline FILE"))
    }

    @Test func aBrokenOrMissingBaselineIsAnInputError() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        let broken = try repository.write("broken.json", #"{"version": 1, "findings": "all"}"#).path
        let bad = try runProcess(Paths.executable, ["scan", repository.path, "--baseline", broken])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("\(broken): not an a11y-audit baseline (\"findings\" must be a list)"), "\(bad.stderr)")
        let missing = try runProcess(Paths.executable, ["scan", repository.path, "--baseline", repository.path + "/none.json"])
        #expect(missing.status == 2 && missing.stderr.contains("none.json: no such baseline file"), "\(missing.stderr)")
        try repository.write(".a11y-audit.json", #"{ "baseline": "ci/missing.json" }"#)
        let configured = try runProcess(Paths.executable, ["scan", repository.path])
        #expect(configured.status == 2 && configured.stderr.contains("ci/missing.json: no such baseline file"), "\(configured.stderr)")
    }
}
