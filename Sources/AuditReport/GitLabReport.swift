import AuditModel
import AuditScanner
import Foundation

/// GitLab's Code Quality report (`artifacts:reports:codequality`): a JSON array with one object
/// per finding holding exactly the properties GitLab's "Implement a custom tool" section lists
/// (description, check_name, fingerprint, severity, location.path, location.lines.begin). GitLab
/// matches findings between the merge request's pipeline and the target branch's by
/// fingerprint, and ours survive unrelated edits, so moved code is not reported as new.
public enum GitLabReport {
    /// GitLab's scale is info, minor, major, critical, blocker. Blocker is never used: nothing
    /// a static check finds is known to block a release.
    enum Level: String, Encodable {
        case info, minor, major, critical
    }

    struct Issue: Encodable {
        let description: String
        let checkName: String
        let fingerprint: String
        let severity: Level
        let location: Location

        enum CodingKeys: String, CodingKey {
            case description, fingerprint, severity, location
            case checkName = "check_name"
        }
    }

    struct Location: Encodable {
        struct Lines: Encodable { let begin: Int }
        let path: String
        let lines: Lines
    }

    public static func render(_ report: ScanReport) throws -> String {
        let issues = report.findings.map { finding in
            Issue(description: finding.message, checkName: finding.ruleID, fingerprint: finding.fingerprint,
                  severity: severity(finding),
                  location: Location(path: finding.location.file,
                                     lines: Location.Lines(begin: finding.location.line)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(issues), as: UTF8.self) + "\n"
    }

    /// Findings that need review are information; a violation by its severity, an error of a
    /// rule where Apple states an obligation one step above other errors.
    static func severity(_ finding: Finding) -> Level {
        guard finding.certainty == .violation else { return .info }
        switch finding.severity {
        case .note: return .info
        case .warning: return .minor
        case .error: return finding.kind == .requirement ? .critical : .major
        }
    }
}
