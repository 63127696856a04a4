import AuditStore
import Foundation
import GitHubClient
import PostgresClient
import PullRequestVerdict

/// Reports pull-request checks back to GitHub: a commit status (`a11y-audit` context) for every
/// state change, and, when an installation token for a GitHub App is configured, a check run with
/// the new findings as annotations. The verdict is already stored when this runs, so a failed
/// report loses nothing: it is retried on the next sweep until GitHub has it.
public struct PullRequestReporter: Sendable {
    public static let context = "a11y-audit"

    let statuses: GitHubAPI
    let checks: GitHubAPI?
    /// The dashboard's public address, for the status's link to the pull-request report page.
    let publicURL: String?

    public init(statuses: GitHubAPI, checks: GitHubAPI? = nil, publicURL: String? = nil) {
        self.statuses = statuses
        self.checks = checks
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// Reports every check whose state GitHub has not seen yet; returns how many were reported.
    /// Each check is taken for the time of its report, so two reporters never post the same state,
    /// and no database lock is held while GitHub is called.
    /// `shouldContinue` is asked before each check (a worker stopping ends the sweep early).
    @discardableResult
    public func sweep(_ connection: PostgresConnection, limit: Int = 50, shouldContinue: () -> Bool = { true }) throws -> Int {
        var reported = 0
        for _ in 0..<limit {
            guard shouldContinue() else { break }
            let store = PullRequestStore(connection: connection)
            guard let check = try connection.retryingAfterReconnect({ try PullRequestStore(connection: $0).takeDue() }) else { break }
            do {
                let checkRunID = try report(check)
                try store.markReported(check.id, state: check.state, checkRunID: checkRunID)
                reported += 1
            } catch let error as DatabaseError {
                throw error
            } catch {
                try store.markReportFailed(check.id, error: "\(error)")
            }
        }
        return reported
    }

    func report(_ check: PullRequestStore.Check) throws -> Int? {
        let parts = check.repository.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw GitHubError.invalidArgument("repository \(check.repository) is not owner/name") }
        let results = check.results ?? PullRequestResults()
        let summary = results.summary
        let target = publicURL.map { $0 + "/" + PullRequestReport.path(repository: check.repository, prNumber: check.prNumber, headSHA: check.headSHA) }
        let (state, description): (CommitStatus.State, String) = switch check.state {
        case .pending: (.pending, "Accessibility check queued")
        case .success: (.success, summary.isEmpty ? "No new accessibility findings" : summary)
        case .failure: (.failure, summary)
        case .cancelled: (.error, "Superseded by a newer push; this commit was not checked")
        case .error: (.error, "The accessibility check could not run; see the report")
        }
        try statuses.createCommitStatus(owner: parts[0], repository: parts[1], sha: check.headSHA,
                                        CommitStatus(state: state, targetURL: state == .pending ? nil : target,
                                                     description: description, context: Self.context))
        guard let checks, check.state == .success || check.state == .failure else { return nil }
        let new = results.new
        let annotations = new.map(Self.annotation)
        let fixable = new.filter { $0.correction != nil }.count
        let conclusion: CheckRunConclusion = check.state == .failure ? .failure : (new.isEmpty ? .success : .neutral)
        let output = CheckRunOutput(title: summary.isEmpty ? "No new accessibility findings" : summary,
                                    summary: "\(check.newCount ?? 0) new, \(check.fixedCount ?? 0) fixed, \(check.unchangedCount ?? 0) unchanged. Gate: \(check.gate.rawValue)."
                                        + Self.fixableSentence(fixable, of: new.count)
                                        + (target.map { " Report: \($0)" } ?? ""),
                                    annotations: annotations)
        let run = try checks.createCheckRun(owner: parts[0], repository: parts[1], NewCheckRun(
            name: Self.context, headSHA: check.headSHA, status: .completed, conclusion: conclusion, detailsURL: target, output: output))
        return run.id
    }

    /// A new finding as GitHub shows it on the changed file: violations at their severity's level,
    /// findings that need review as notices (a person decides them; a failure mark would claim a
    /// defect the rule could not settle), and a mechanical fix in the details.
    static func annotation(_ finding: PullRequestResults.Item) -> CheckRunAnnotation {
        let level: CheckRunAnnotation.Level = switch (finding.certainty, finding.severity) {
        case (.review, _), (_, .note): .notice
        case (.violation, .warning): .warning
        case (.violation, .error): .failure
        }
        let title = finding.certainty == .review ? "\(finding.rule) (needs review)" : finding.rule
        // GitHub refuses an annotation before line 1; a finding about a whole file (a colour set's) marks its first.
        let line = max(finding.line, 1)
        return CheckRunAnnotation(path: finding.path, startLine: line, endLine: line, level: level,
                                  message: finding.message, title: title, rawDetails: suggestion(finding))
    }

    /// " 2 of the 5 new findings have a mechanical fix (`a11y-audit fix`)."
    static func fixableSentence(_ fixable: Int, of count: Int) -> String {
        switch (fixable, count) {
        case (0, _): ""
        case (1, 1): " The new finding has a mechanical fix (`a11y-audit fix`)."
        case (_, _) where fixable == count: " All \(count) new findings have a mechanical fix (`a11y-audit fix`)."
        default: " \(fixable) of the \(count) new findings \(fixable == 1 ? "has" : "have") a mechanical fix (`a11y-audit fix`)."
        }
    }

    /// "Suggested fix: …" with the line before and after, for a finding `a11y-audit fix` can fix.
    static func suggestion(_ finding: PullRequestResults.Item) -> String? {
        guard let correction = finding.correction else { return nil }
        var text = "Suggested fix: \(correction.summary) (`a11y-audit fix` applies it)"
        if let edited = correction.editedLine(finding.sourceLine, number: finding.line) {
            text += "\n\n- " + finding.sourceLine.trimmingCharacters(in: .whitespaces) + "\n+ " + edited.trimmingCharacters(in: .whitespaces)
        }
        for edit in correction.editsElsewhere(than: finding.line) { text += "\n" + edit }
        return text
    }
}
