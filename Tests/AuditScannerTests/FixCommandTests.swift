import AuditFix
import AuditModel
import AuditReport
@testable import AuditScanner
import Foundation
import SwiftChecks
import Testing

/// `a11y-audit fix` on repositories written here and on a copy of the sample app: what it says it
/// fixes is gone when the repository is scanned again, every file it edits still parses, and a
/// file its edits cannot be checked on is left as it was.
@Suite(.serialized) struct FixCommandTests {
    static let files: [String: String] = [
        ".a11y-audit.json": #"{"platforms": ["ios"]}"#,
        "App/ProfileView.swift": """
            import SwiftUI

            struct ProfileView: View {
                let name: String
                var body: some View {
                    VStack {
                        Text(name).font(.system(size: 28))
                        Text("Member since 2020").font(.system(size: 13, weight: .regular))
                        Text("Bio").font(.system(size: 14))
                        Button("Edit") {}
                            .accessibilityLabel("Edit button")
                    }
                }
            }

            """,
        "App/SettingsController.swift": """
            import UIKit

            final class SettingsController: UIViewController {
                private let headerLabel = UILabel()
                private let notes = UITextView()
                @IBOutlet var doneButton: UIButton!

                override func viewDidLoad() {
                    super.viewDidLoad()
                    headerLabel.font = UIFont.systemFont(ofSize: 20)
                    notes.font = .preferredFont(forTextStyle: .body)
                    doneButton.accessibilityTraits = .button
                    headerLabel.accessibilityTraits = [.header, .staticText]
                }
            }

            """,
        // A syntax error the scan reads past: the fix of line 5 cannot be checked, so none is made.
        "App/Broken.swift": """
            import SwiftUI

            struct BrokenView: View {
                var body: some View {
                    Text("Hi").font(.system(size: 17))
                }
                func unfinished( {
            }

            """,
    ]

    static func repository() throws -> TemporaryRepository {
        let repository = try TemporaryRepository()
        for (path, text) in files { try repository.write(path, text) }
        return repository
    }

    static func scan(_ root: String) throws -> ScanReport {
        let result = try runProcess(Paths.executable, ["scan", root, "--format", "json", "--fail-on", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(ScanReport.self, from: Data(result.stdout.utf8))
    }

    /// Findings per (file, rule).
    static func counts(_ findings: [Finding]) -> [String: Int] {
        findings.reduce(into: [:]) { $0[$1.location.file + " " + $1.ruleID, default: 0] += 1 }
    }

    static func contents(_ root: String) throws -> [String: String] {
        try files.keys.reduce(into: [:]) { $0[$1] = try String(contentsOfFile: root + "/" + $1, encoding: .utf8) }
    }

    @Test func fixedFindingsAreGoneEveryEditedFileParsesAndTheUncheckableFileIsUntouched() throws {
        let repository = try Self.repository()
        let before = try Self.scan(repository.path)
        let claimed = before.findings.filter { $0.correction != nil }
        // Every fix kind is offered: the font sizes, the flag, the traits, the label.
        #expect(Set(claimed.map(\.ruleID)) == ["fixed-font-size", "font-not-adjusting-to-content-size",
                                               "accessibility-traits-assigned", "accessibility-label-names-trait"])
        #expect(before.findings.contains { $0.ruleID == "fixed-font-size" && $0.correction == nil }, "14 pt has no text style: a suggestion")

        // A dry run prints the diff and changes nothing.
        let dry = try runProcess(Paths.executable, ["fix", repository.path, "--dry-run"])
        #expect(dry.status == 1, "the broken file is reported as left: \(dry.stderr)")
        #expect(dry.stdout.contains("--- a/App/ProfileView.swift\n+++ b/App/ProfileView.swift\n@@ ")
                && dry.stdout.contains("+        headerLabel.adjustsFontForContentSizeCategory = true\n"), "\(dry.stdout)")
        #expect(try Self.contents(repository.path) == Self.files)

        let fix = try runProcess(Paths.executable, ["fix", repository.path])
        #expect(fix.status == 1 && fix.stdout == dry.stdout, "\(fix.stderr)")
        let fixedHere = claimed.filter { $0.location.file != "App/Broken.swift" }
        #expect(fix.stderr.contains("fixed \(fixedHere.count) findings in 2 files"), "\(fix.stderr)")
        #expect(fix.stderr.contains("not fixed in App/Broken.swift (5:25 fixed-font-size): the file does not parse cleanly"), "\(fix.stderr)")
        let edited = try Self.contents(repository.path)
        #expect(edited["App/Broken.swift"] == Self.files["App/Broken.swift"], "left byte for byte")
        #expect(edited["App/ProfileView.swift"]?.contains("Text(name).font(.title)\n") == true
                && edited["App/ProfileView.swift"]?.contains(".accessibilityLabel(\"Edit\")") == true)
        #expect(edited["App/SettingsController.swift"]?.contains("""
                    headerLabel.font = UIFont.preferredFont(forTextStyle: .title3)
                    headerLabel.adjustsFontForContentSizeCategory = true
                    notes.font = .preferredFont(forTextStyle: .body)
                    notes.adjustsFontForContentSizeCategory = true
                    doneButton.accessibilityTraits.insert(.button)
                    headerLabel.accessibilityTraits.formUnion([.header, .staticText])
            """) == true, "\(edited["App/SettingsController.swift"] ?? "")")
        for path in ["App/ProfileView.swift", "App/SettingsController.swift"] {
            #expect(FixPlan.firstSyntaxError(edited[path] ?? "") == nil, "\(path) does not parse")
        }

        // Scanned again: exactly the fixed findings are gone, and nothing left has a fix.
        let after = try Self.scan(repository.path)
        var expected = Self.counts(before.findings)
        for (key, count) in Self.counts(fixedHere) { expected[key, default: 0] -= count }
        // The 28 pt name became `.title` and opens its stack: now it reads as a title, and
        // whether it heads the profile is a person's call (heading-missing-trait, review).
        expected["App/ProfileView.swift heading-missing-trait", default: 0] += 1
        #expect(after.findings.filter { $0.ruleID == "heading-missing-trait" }.allSatisfy { $0.certainty == .review })
        #expect(Self.counts(after.findings) == expected.filter { $0.value > 0 })
        #expect(after.findings.filter { $0.correction != nil }.map(\.location.file) == ["App/Broken.swift"])

        let again = try runProcess(Paths.executable, ["fix", repository.path])
        #expect(again.stdout.isEmpty && again.stderr.contains("fixed 0 findings in 0 files"), "\(again.stderr)")
    }

    @Test func ruleAndFileArgumentsNarrowTheFixes() throws {
        let repository = try Self.repository()
        let result = try runProcess(Paths.executable, ["fix", repository.path + "/App/SettingsController.swift",
                                                       repository.path + "/App/Broken.swift",
                                                       "--rule", "accessibility-traits-assigned"])
        #expect(result.status == 0 && result.stderr.contains("fixed 2 findings in 1 file"), "\(result.stderr)")
        let edited = try Self.contents(repository.path)
        #expect(edited["App/SettingsController.swift"]?.contains("doneButton.accessibilityTraits.insert(.button)") == true)
        #expect(edited["App/SettingsController.swift"]?.contains("UIFont.systemFont(ofSize: 20)") == true, "other rules' fixes wait")
        #expect(edited["App/ProfileView.swift"] == Self.files["App/ProfileView.swift"], "a file not named is not touched")

        let unknown = try runProcess(Paths.executable, ["fix", repository.path, "--rule", "fixed-font-sise"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown rule \"fixed-font-sise\""), "\(unknown.stderr)")
        try repository.write("App.tar.gz", bytes: [0x1F, 0x8B])
        let archive = try runProcess(Paths.executable, ["fix", repository.path + "/App.tar.gz"])
        #expect(archive.status == 2 && archive.stderr.contains("not the archive"), "\(archive.stderr)")
    }

    /// The sample app: what `fix` claims it fixes is gone on the next scan, and its files parse.
    @Test func theSampleAppLosesWhatFixClaims() throws {
        let copy = try TemporaryRepository()
        try FileManager.default.removeItem(at: copy.root)
        try FileManager.default.copyItem(atPath: Paths.packageRoot.appendingPathComponent("Tests/Fixtures/SampleApp").path, toPath: copy.path)
        let before = try Self.scan(copy.path)
        let claimed = before.findings.filter { $0.correction != nil }
        #expect(!claimed.isEmpty)
        let fix = try runProcess(Paths.executable, ["fix", copy.path])
        #expect(fix.status == 0 && fix.stderr.contains("fixed \(claimed.count) findings"), "\(fix.stderr)")
        let after = try Self.scan(copy.path)
        var expected = Self.counts(before.findings)
        for (key, count) in Self.counts(claimed) { expected[key, default: 0] -= count }
        #expect(Self.counts(after.findings) == expected.filter { $0.value > 0 })
        for path in Set(claimed.map(\.location.file)) {
            #expect(FixPlan.firstSyntaxError(try String(contentsOfFile: copy.path + "/" + path, encoding: .utf8)) == nil, "\(path)")
        }
    }

    /// SARIF's `fixes` name the same edits by line and column (code points): replayed on the
    /// text they give what `fix` writes, non-ASCII text before an edit included.
    @Test func sarifFixesReplayToWhatFixWrites() throws {
        let repository = try Self.repository()
        try repository.write("App/Menu.swift", """
            import SwiftUI
            struct Menu: View {
                var body: some View { Text("Café ☕️").font(.system(size: 12)); Text("Crème").accessibilityLabel("Crème icon") }
            }

            """)
        let report = try Scanner().scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(try SARIFReport.render(report).utf8)) as? [String: Any])
        let results = try #require(((root["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(results.filter { $0["fixes"] != nil }.count == report.findings.filter { $0.correction != nil }.count)
        let plan = FixPlan.make(report.findings) { [UInt8](try Data(contentsOf: repository.root.appendingPathComponent($0))) }
        for change in plan.changes {
            var lines = String(decoding: change.original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .map { Array($0.unicodeScalars) }
            var replacements: [(line: Int, start: Int, end: Int, text: String)] = []
            for result in results {
                for fix in result["fixes"] as? [[String: Any]] ?? [] {
                    let description = try #require((fix["description"] as? [String: Any])?["text"] as? String)
                    #expect(!description.isEmpty)
                    for artifact in fix["artifactChanges"] as? [[String: Any]] ?? [] {
                        let location = try #require(artifact["artifactLocation"] as? [String: Any])
                        guard location["uri"] as? String == change.path, location["uriBaseId"] as? String == "%SRCROOT%" else { continue }
                        for replacement in try #require(artifact["replacements"] as? [[String: Any]]) {
                            let region = try #require(replacement["deletedRegion"] as? [String: Int])
                            let text = try #require((replacement["insertedContent"] as? [String: Any])?["text"] as? String)
                            let (line, start, end) = (try #require(region["startLine"]), try #require(region["startColumn"]), try #require(region["endColumn"]))
                            #expect(region["endLine"] == line, "the fixes here replace within a line")
                            replacements.append((line - 1, start - 1, end - 1, text))
                        }
                    }
                }
            }
            #expect(!replacements.isEmpty)
            for item in replacements.sorted(by: { ($0.line, $0.start) > ($1.line, $1.start) }) {
                lines[item.line].replaceSubrange(item.start..<item.end, with: Array(item.text.unicodeScalars))
            }
            let replayed = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
            #expect(replayed == String(decoding: change.edited, as: UTF8.self), "\(change.path)")
        }
        let menu = plan.changes.first { $0.path == "App/Menu.swift" }.map { String(decoding: $0.edited, as: UTF8.self) }
        #expect(menu?.contains(#"Text("Café ☕️").font(.caption)"#) == true && menu?.contains(#"accessibilityLabel("Crème")"#) == true, "\(menu ?? "")")
    }

    /// Warm scans keep corrections: the cache's lines carry them, and old reports without them still decode.
    @Test func correctionsSurviveTheCacheAndOldReportsDecode() throws {
        let repository = try Self.repository()
        let report = try Self.scan(repository.path)
        let result = FileResult(findings: report.findings)
        let decoded = try #require(ScanCache.Entry.decode(Array(ScanCache.Entry.encode(result).utf8)))
        #expect(decoded.findings.map(\.correction) == report.findings.map(\.correction))
        #expect(decoded.findings.contains { $0.correction?.edits.contains { $0.replacement.contains("\n") } == true })

        let finding = try #require(report.findings.first { $0.correction != nil })
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(finding)) as? [String: Any])
        #expect(object["correction"] != nil)
        object["correction"] = nil
        let old = try JSONDecoder().decode(Finding.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.correction == nil && old.fingerprint == finding.fingerprint)
    }
}
