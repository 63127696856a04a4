import AuditModel
import AuditReport
import AuditScanner
import Foundation
import SwiftChecks
import Testing

/// Findings that need review are apart from violations everywhere a user meets them.
struct CertaintyTests {
    /// An icon-only button (sf-symbol-default-label: every finding needs review) and a fixed
    /// font (a violation) in one file.
    static let source = """
        import SwiftUI
        struct ShareCard: View {
            var body: some View {
                Button(action: {}) { Image(systemName: "square.and.arrow.up") }.padding()
                Text("Title").font(.system(size: 17))
            }
        }
        """

    func scan() throws -> (TemporaryRepository, ScanReport) {
        let repository = try TemporaryRepository()
        try repository.write("App/Toolbar.swift", Self.source)
        try repository.write("App.xcodeproj/project.pbxproj", "SDKROOT = iphoneos;\n")
        let input = try ScanInput.directory(repository.path, maxFileBytes: 2_000_000)
        return (repository, try Scanner().scan(input, root: repository.path))
    }

    @Test func reviewFindingsAreNotesInTheirOwnSectionAndDoNotFail() throws {
        let (_, report) = try scan()
        let review = report.findings.filter { $0.certainty == .review }
        let violations = report.findings.filter { $0.certainty == .violation }
        #expect(review.map(\.ruleID) == ["sf-symbol-default-label"])
        #expect(review.allSatisfy { $0.severity == .note })
        #expect(violations.map(\.ruleID) == ["fixed-font-size"])

        var onlyReview = report
        onlyReview.findings = review
        #expect(onlyReview.highestSeverity() == nil, "--fail-on never counts review findings unless asked")
        #expect(onlyReview.highestSeverity(includingReview: true) == .note)

        let text = TextReport.render(report)
        let section = try #require(text.range(of: "Needs review (1)"))
        #expect(text.range(of: "[fixed-font-size]")!.lowerBound < section.lowerBound)
        #expect(text.range(of: "[sf-symbol-default-label]")!.lowerBound > section.lowerBound)
        #expect(TextReport.summary(report).contains(", 1 to review in "))

        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(try SARIFReport.render(report).utf8)) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        for result in results {
            let properties = try #require(result["properties"] as? [String: Any])
            let isReview = result["ruleId"] as? String == "sf-symbol-default-label"
            #expect(properties["review"] as? Bool == isReview)
            if isReview { #expect(result["level"] as? String == "note") }
        }
    }

    @Test func aConfiguredSeverityDoesNotTurnAReviewIntoAnError() throws {
        let description = try #require(RuleCatalog.descriptions.first { $0.id == "sf-symbol-default-label" })
        let verdict = description.verdict(nil, severityOverride: .error)
        #expect(verdict.certainty == .review && verdict.severity == .note)
        let fixed = try #require(RuleCatalog.descriptions.first { $0.id == "fixed-font-size" })
        #expect(fixed.verdict(.review, severityOverride: .error) == (.review, .note))
        #expect(fixed.verdict(nil, severityOverride: .error) == (.violation, .error))
    }

    @Test func reportsWrittenBeforeCertaintyReadAsViolations() throws {
        let json = """
            {"ruleID":"fixed-font-size","kind":"requirement","severity":"error","location":{"file":"A.swift","line":1,"column":1},
             "message":"m","fix":"f","citation":{"source":"s","quote":"q"},"platforms":1,"fingerprint":"x","snippet":"s"}
            """
        let finding = try JSONDecoder().decode(Finding.self, from: Data(json.utf8))
        #expect(finding.certainty == .violation)
        let again = try JSONDecoder().decode(Finding.self, from: try JSONEncoder().encode(Finding(
            ruleID: "r", kind: .advisory, severity: .note, certainty: .review, location: finding.location, message: "", fix: "",
            citation: finding.citation, platforms: .all, snippet: "")))
        #expect(again.certainty == .review)
    }
}
