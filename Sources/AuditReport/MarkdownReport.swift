import AuditModel
import AuditScanner

/// A summary for a pull-request or merge-request comment (GitHub-flavoured Markdown): the counts
/// by severity and by rule, then a table of the findings, most severe first, cut at `limit` rows
/// with a line saying how many more there are. Every cell is escaped, so a message or a path
/// cannot break the table, start a link or inject HTML.
public enum MarkdownReport {
    /// Rows of the findings table: enough to act on, short of the size limits of comments.
    public static let defaultLimit = 50

    public static func render(_ report: ScanReport, limit: Int = defaultLimit) -> String {
        var out = "### a11y-audit: \(TextReport.counts(report))\n\n\(cell(TextReport.summary(report)))\n"
        let violations = report.findings.filter { $0.certainty == .violation }
        let review = report.findings.filter { $0.certainty == .review }
        if !report.findings.isEmpty {
            out += "\n| Severity | Findings |\n| --- | ---: |\n"
            for severity in Severity.allCases.reversed() {
                let count = violations.filter { $0.severity == severity }.count
                if count > 0 { out += "| \(severity.rawValue) | \(count) |\n" }
            }
            if !review.isEmpty { out += "| needs review | \(review.count) |\n" }

            out += "\n| Rule | Kind | Findings |\n| --- | --- | ---: |\n"
            var byRule: [String: (kind: RuleKind, count: Int)] = [:]
            for finding in report.findings { byRule[finding.ruleID, default: (finding.kind, 0)].count += 1 }
            for (rule, entry) in byRule.sorted(by: { ($1.value.count, $0.key) < ($0.value.count, $1.key) }) {
                out += "| \(code(rule)) | \(entry.kind.rawValue) | \(entry.count) |\n"
            }

            // Most severe first; findings that need review after every violation.
            let ordered = Severity.allCases.reversed().flatMap { severity in violations.filter { $0.severity == severity } } + review
            out += "\n| Severity | Location | Rule | Message |\n| --- | --- | --- | --- |\n"
            for finding in ordered.prefix(max(0, limit)) {
                let level = finding.certainty == .review ? "review" : finding.severity.rawValue
                let place = "\(finding.location.file):\(finding.location.line):\(finding.location.column)"
                out += "| \(level) | \(cell(place)) | \(code(finding.ruleID)) | \(cell(finding.message)) |\n"
            }
            if ordered.count > limit {
                let more = ordered.count - max(0, limit)
                out += "\n…and \(more) more finding\(more == 1 ? "" : "s"): `--format text` or `--format sarif` lists every one.\n"
            }
        }
        let notes = report.notes.filter { $0.kind != .summary }
        if !notes.isEmpty {
            out += "\n**Notes**\n\n"
            for note in notes.prefix(max(0, limit)) {
                let place = note.file == "." ? "" : cell(note.line.map { "\(note.file):\($0)" } ?? note.file) + ": "
                out += "- \(place)\(cell(note.message))\n"
            }
            if notes.count > limit { out += "- …and \(notes.count - max(0, limit)) more\n" }
        }
        return out
    }

    /// Text for a table cell (or a list item) that reads as it was written: on one line, with
    /// Markdown's punctuation backslash-escaped (`|` would end the cell, a backtick open code,
    /// `*`, `_`, `~`, `[` format or link) and HTML's as entities.
    static func cell(_ text: String) -> String {
        ReportText.escaping(ReportText.oneLine(text)) { scalar in
            switch scalar {
            case "\\", "|", "`", "*", "_", "~", "[", "]", "#", "!": "\\" + String(scalar)
            case "<": "&lt;"
            case ">": "&gt;"
            case "&": "&amp;"
            default: nil
            }
        }
    }

    /// A rule id as code; escaped text if it holds what a code span cannot.
    static func code(_ text: String) -> String {
        text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == ".") }
            ? "`\(text)`" : cell(text)
    }
}
