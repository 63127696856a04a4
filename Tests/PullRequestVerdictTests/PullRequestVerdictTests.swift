import AuditModel
import PullRequestVerdict
import Testing

/// The pull-request decisions, without a database.
struct PullRequestVerdictTests {
    @Test func theGateDecides() {
        let requirement = Finding(ruleID: "fixed-font-size", kind: .requirement, severity: .error,
                                  location: SourceLocation(file: "A.swift", line: 1, column: 1), message: "", fix: "",
                                  citation: Citation("", ""), platforms: .all, fingerprint: "r", snippet: "")
        var recommendation = requirement
        recommendation.kind = .recommendation
        recommendation.fingerprint = "w"
        #expect(PullRequestGate.requirements.fails(new: [requirement]))
        #expect(!PullRequestGate.requirements.fails(new: [recommendation]))
        #expect(PullRequestGate.any.fails(new: [recommendation]))
        #expect(!PullRequestGate.never.fails(new: [requirement]))
        var review = requirement
        review.certainty = .review
        review.severity = .note
        review.fingerprint = "v"
        #expect(!PullRequestGate.requirements.fails(new: [review]), "a finding a person must decide does not fail the gate")
        #expect(!PullRequestGate.any.fails(new: [review]))
        #expect(PullRequestGate.anyIncludingReview.fails(new: [review]))
        #expect(PullRequestComparison(head: [requirement, review], base: [], changedFiles: ["A.swift"]).summary
                == "1 new accessibility finding (1 requirement), 1 to review")
        let comparison = PullRequestComparison(head: [requirement, recommendation], base: [recommendation], changedFiles: ["A.swift"])
        #expect(comparison.summary == "1 new accessibility finding (1 requirement)")
        let untouched = PullRequestComparison(head: [requirement], base: [], changedFiles: ["B.swift"])
        #expect(untouched.new.isEmpty, "a finding in a file the pull request did not change is not blamed on it")
    }

    /// A pull request that fixes the first of two identical lines fixed that line; the second,
    /// whose fingerprint changed (alone, it no longer names its neighbours), is not new.
    @Test func fixingOneOfTwoIdenticalLinesFixesThatLine() {
        func finding(line: Int) -> Finding {
            Finding(ruleID: "fixed-font-size", kind: .requirement, severity: .error,
                    location: SourceLocation(file: "A.swift", line: line, column: 20), message: "", fix: "",
                    citation: Citation("", ""), platforms: .all, snippet: ".font(.system(size: 12))")
        }
        let neighbours = [9: "Text(\"Terms\")\u{0}Divider()", 11: "Divider()\u{0}}"]
        var base = [finding(line: 9), finding(line: 11)]
        base.assignFingerprints { FingerprintContext(scope: "Footer.body", neighbours: neighbours[$0.location.line] ?? "") }
        var head = [finding(line: 11)]
        head.assignFingerprints { FingerprintContext(scope: "Footer.body", neighbours: neighbours[$0.location.line] ?? "") }
        #expect(head[0].fingerprint != base[1].fingerprint)
        let comparison = PullRequestComparison(head: head, base: base, changedFiles: ["A.swift"])
        #expect(comparison.new.isEmpty)
        #expect(comparison.fixed.map(\.location.line) == [9])
        #expect(comparison.unchangedInChangedFiles.map(\.location.line) == [11])
        #expect(comparison.summary.hasPrefix("No new accessibility findings"))
    }

    @Test func changedFilesAreThoseWhoseContentDiffersOrThatExistOnOneSide() {
        let changed = PullRequestComparison.changedFiles(head: ["A.swift": "1", "B.swift": "2", "New.swift": "3"],
                                                         base: ["A.swift": "1", "B.swift": "9", "Gone.swift": "4"])
        #expect(changed == ["B.swift", "New.swift", "Gone.swift"])
    }

    @Test func theGateGivesTheCheckState() {
        let finding = Finding(ruleID: "fixed-font-size", kind: .requirement, severity: .error,
                              location: SourceLocation(file: "A.swift", line: 1, column: 1), message: "", fix: "",
                              citation: Citation("", ""), platforms: .all, fingerprint: "r", snippet: "")
        #expect(PullRequestGate.requirements.verdict(new: [finding]) == .failure)
        #expect(PullRequestGate.never.verdict(new: [finding]) == .success)
        #expect(PullRequestGate.requirements.verdict(new: []) == .success)
    }

    @Test func theReportPathKeepsTheRepositoryNameToSafeCharacters() {
        let sha = "0123456789abcdef0123456789abcdef01234567"
        #expect(PullRequestReport.path(repository: "acme/ios-app", prNumber: 7, headSHA: sha) == "pulls/acme/ios-app/7-0123456789ab.html")
        #expect(PullRequestReport.path(repository: "acme/a b<script>", prNumber: 7, headSHA: sha) == "pulls/acme/a-b-script-/7-0123456789ab.html")
        #expect(!PullRequestReport.path(repository: "../../etc/passwd", prNumber: 1, headSHA: sha).contains("/../"))
    }
}
