import AuditModel
import AuditReport
import AuditScanner
import Foundation
import SwiftChecks
import Testing

/// Storyboards and xibs go through the same workers, cache, config and outputs as Swift files.
struct InterfaceBuilderScanTests {
    static let fixtures = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/InterfaceBuilder")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    func scan(_ repository: TemporaryRepository, options: ScanOptions = ScanOptions()) throws -> ScanReport {
        try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
    }

    func repository() throws -> TemporaryRepository {
        let repository = try TemporaryRepository()
        try repository.write("App/Checkout.storyboard", bytes: try Self.fixture("Checkout.storyboard"))
        try repository.write("App/Inspector.xib", bytes: try Self.fixture("Inspector.xib"))
        try repository.write("App/Broken.storyboard", bytes: try Self.fixture("Malformed.storyboard"))
        try repository.write("App/Laughs.xib", bytes: try Self.fixture("BillionLaughs.xib"))
        try repository.write("App/Title.swift", "import SwiftUI\nstruct T: View { var body: some View { Text(\"a\").font(.system(size: 17)) } }\n")
        return repository
    }

    @Test func unreadableDocumentsAreNotesAndEverythingElseIsChecked() throws {
        let repository = try repository()
        let report = try scan(repository, options: ScanOptions(jobs: 2))
        let files = Set(report.findings.map(\.location.file))
        #expect(files == ["App/Checkout.storyboard", "App/Inspector.xib", "App/Title.swift"])
        let broken = try #require(report.notes.first { $0.file == "App/Broken.storyboard" })
        #expect(broken.kind == .skipped && broken.line == 12 && broken.message.contains("not well-formed XML"))
        let laughs = try #require(report.notes.first { $0.file == "App/Laughs.xib" })
        #expect(laughs.line == 2 && laughs.message.contains("<!DOCTYPE"))
        #expect(report.statistics.interfaceBuilderFiles == 4 && report.statistics.skippedUnreadable == 2)
        #expect(report.statistics.filesChecked == 3)
        // Platforms come from the runtime: the Mac xib's findings are macOS only.
        #expect(report.findings.filter { $0.location.file == "App/Inspector.xib" }.allSatisfy { $0.platforms == PlatformSet(.macOS) })
        #expect(report.findings.contains { $0.location.file == "App/Checkout.storyboard" && $0.ruleID == "ib-fixed-font" })

        // The same findings through SARIF and text, with rule help and the XML line.
        let sarif = try SARIFReport.render(report)
        #expect(sarif.contains("\"ruleId\" : \"ib-image-control-label\"") || sarif.contains("\"ruleId\":\"ib-image-control-label\""))
        let text = TextReport.render(report)
        #expect(text.contains("Checkout.storyboard") && text.contains("id=\"Del-BT-001\""))
        #expect(text.contains(", 4 Interface Builder;"))
    }

    @Test func configDisablesAndRegradesDocumentRules() throws {
        let repository = try repository()
        try repository.write(".a11y-audit.json", """
            { "disable": ["ib-fixed-font"], "severity": { "hit-region-too-small": "note" } }
            """)
        let report = try scan(repository)
        #expect(!report.findings.contains { $0.ruleID == "ib-fixed-font" })
        let hits = report.findings.filter { $0.ruleID == "hit-region-too-small" }
        #expect(!hits.isEmpty && hits.allSatisfy { $0.severity == .note })
    }

    @Test func documentsAreCachedAndFingerprintsSurviveUnrelatedEdits() throws {
        let repository = try repository()
        let cache = try TemporaryRepository()
        let options = ScanOptions(jobs: 2, cacheDirectory: cache.path)
        let cold = try scan(repository, options: options)
        let warm = try scan(repository, options: options)
        #expect(warm.statistics.filesParsed == 0 && warm.statistics.cacheHits == 3)
        #expect(warm.findings == cold.findings)

        // Lines inserted above an element move it but keep its fingerprint.
        var text = String(decoding: try Self.fixture("Checkout.storyboard"), as: UTF8.self)
        text = text.replacingOccurrences(of: "    <scenes>\n", with: "    <scenes>\n        <!--Moved-->\n        <!--Down-->\n")
        try repository.write("App/Checkout.storyboard", text)
        let edited = try scan(repository, options: options)
        #expect(edited.statistics.filesParsed == 1)
        func prints(_ report: ScanReport) -> [String: Int] {
            Dictionary(report.findings.filter { $0.location.file == "App/Checkout.storyboard" }.map { ($0.fingerprint, $0.location.line) },
                       uniquingKeysWith: { first, _ in first })
        }
        let before = prints(cold), after = prints(edited)
        #expect(Set(before.keys) == Set(after.keys))
        #expect(before.allSatisfy { after[$0.key] == $0.value + 2 })
    }

    @Test func hiddenDTDsAndWideEncodingsAreNotesNamingTheFileAndWhy() throws {
        let repository = try TemporaryRepository()
        let storyboard = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?x <!-- ?>\n<!DOCTYPE document [<!ENTITY e \"Injected\">]>\n<!-- -->\n"
            + "<document targetRuntime=\"iOS.CocoaTouch\"><objects><label text=\"&e;\" id=\"L\"/></objects></document>\n"
        try repository.write("App/Hidden.storyboard", storyboard)
        try repository.write("App/Wide.xib", bytes: [0xFF, 0xFE] + Array(storyboard.replacingOccurrences(of: "UTF-8", with: "UTF-16")
            .data(using: .utf16LittleEndian)!))
        let report = try scan(repository)
        let notes = Dictionary(report.notes.filter { $0.kind == .skipped }.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(notes["App/Hidden.storyboard"]?.line == 3 && notes["App/Hidden.storyboard"]?.message.hasPrefix("<!DOCTYPE declaration") == true)
        #expect(notes["App/Wide.xib"]?.message.hasPrefix("encoded as UTF-16 LE (byte-order mark), not UTF-8") == true)
        #expect(report.findings.isEmpty && report.statistics.skippedUnreadable == 2)
    }
}
