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
        let results = (check.resultsJSON.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]) ?? [:]
        let summary = results["summary"] as? String ?? ""
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
        let new = results["new"] as? [[String: Any]] ?? []
        let annotations = new.compactMap { finding -> CheckRunAnnotation? in
            guard let path = finding["path"] as? String, let line = finding["line"] as? Int else { return nil }
            let level: CheckRunAnnotation.Level = switch finding["severity"] as? String {
            case "error": .failure
            case "warning": .warning
            default: .notice
            }
            return CheckRunAnnotation(path: path, startLine: line, endLine: line, level: level,
                                      message: finding["message"] as? String ?? "", title: finding["rule"] as? String)
        }
        let conclusion: CheckRunConclusion = check.state == .failure ? .failure : (new.isEmpty ? .success : .neutral)
        let output = CheckRunOutput(title: summary.isEmpty ? "No new accessibility findings" : summary,
                                    summary: "\(check.newCount ?? 0) new, \(check.fixedCount ?? 0) fixed, \(check.unchangedCount ?? 0) unchanged. Gate: \(check.gate.rawValue)."
                                        + (target.map { " Report: \($0)" } ?? ""),
                                    annotations: annotations)
        let run = try checks.createCheckRun(owner: parts[0], repository: parts[1], NewCheckRun(
            name: Self.context, headSHA: check.headSHA, status: .completed, conclusion: conclusion, detailsURL: target, output: output))
        return run.id
    }
}
