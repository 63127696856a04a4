import AuditModel
import Foundation

// The pull-request decisions, pure: which findings a pull request added or fixed, whether its
// check fails, what the commit status says and where its report page lives. Tested without a
// database (Tests/PullRequestVerdictTests); the storage layer keeps their results.

/// A pull-request check's state, as stored and as reported to GitHub.
public enum CheckState: String, Sendable, Codable, CaseIterable {
    /// Waiting for the job's verdict.
    case pending
    case success, failure
    /// The job died: no verdict will come.
    case error
    /// A newer push superseded the check, or its job was cancelled.
    case cancelled
}

/// When a pull request's check fails.
public enum PullRequestGate: String, Sendable, Codable, CaseIterable {
    /// New requirement-level findings (Apple states an obligation) fail the check.
    case requirements
    /// Any new violation fails it.
    case any
    /// Any new finding fails it, those that need review too.
    case anyIncludingReview = "any-including-review"
    /// Report only.
    case never

    /// Findings that need review fail a check only when the gate asks for them: a person has
    /// to decide them, and a gate that fails on guesses gets turned off.
    public func verdict(new: [Finding]) -> CheckState { fails(new: new) ? .failure : .success }

    public func fails(new: [Finding]) -> Bool {
        switch self {
        case .requirements: new.contains { $0.kind == .requirement && $0.certainty == .violation }
        case .any: new.contains { $0.certainty == .violation }
        case .anyIncludingReview: !new.isEmpty
        case .never: false
        }
    }
}

/// A pull request's findings against its base, matched as the history matches them (`FindingMatcher`). Only files the pull
/// request changed can hold new findings: a finding that appears in an untouched file (a rule
/// changed, or another file's change reached it) is not the pull request's doing.
public struct PullRequestComparison: Sendable {
    public var new: [Finding]
    public var fixed: [Finding]
    /// Findings in both, in files the pull request changed (shown on the report page).
    public var unchangedInChangedFiles: [Finding]
    /// All findings in both (and head findings in untouched files).
    public var unchangedCount: Int
    public var changedFiles: Set<String>

    public init(head: [Finding], base: [Finding], changedFiles: Set<String>) {
        // A base scanned by an older build holds version 1 fingerprints: the legacy ones map it.
        let matches = FindingMatcher.match(previous: base.map(FindingIdentity.init), current: head.map(FindingIdentity.init),
                                           legacy: head.legacyFingerprints())
        let continued = Set(matches.compactMap { $0 })
        self.changedFiles = changedFiles
        new = head.indices.filter { matches[$0] == nil && changedFiles.contains(head[$0].location.file) }.map { head[$0] }
        fixed = base.indices.filter { !continued.contains($0) }.map { base[$0] }
        unchangedInChangedFiles = head.indices.filter { matches[$0] != nil && changedFiles.contains(head[$0].location.file) }.map { head[$0] }
        unchangedCount = head.count - new.count
    }

    /// Paths whose content differs between the two snapshots, or that exist in only one.
    public static func changedFiles(head: [String: String], base: [String: String]) -> Set<String> {
        var changed = Set<String>()
        for (path, digest) in head where base[path] != digest { changed.insert(path) }
        for path in base.keys where head[path] == nil { changed.insert(path) }
        return changed
    }

    /// "2 new accessibility findings (1 requirement), 1 fixed": the commit status description.
    public var summary: String {
        let violations = new.filter { $0.certainty == .violation }
        let requirements = violations.filter { $0.kind == .requirement }.count
        let review = new.count - violations.count
        var text = violations.isEmpty ? "No new accessibility findings"
            : "\(violations.count) new accessibility \(violations.count == 1 ? "finding" : "findings")"
        if requirements > 0 { text += " (\(requirements) \(requirements == 1 ? "requirement" : "requirements"))" }
        if review > 0 { text += ", \(review) to review" }
        if !fixed.isEmpty { text += ", \(fixed.count) fixed" }
        return text
    }
}

/// Where a check's report page lives: rendered by the dashboard, linked from the commit status
/// the worker posts.
public enum PullRequestReport {
    /// The page's path under the dashboard's root; the repository's name is kept to safe characters.
    public static func path(repository: String, prNumber: Int, headSHA: String) -> String {
        let segments = repository.split(separator: "/").map { segment in
            // "." and ".." would climb out of pulls/ where a page is written or served.
            segment == "." || segment == ".." ? "-" : String(segment.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "-"
            })
        }
        return "pulls/" + segments.joined(separator: "/") + "/\(prNumber)-\(headSHA.prefix(12)).html"
    }
}
