import AuditModel
import AuditScanner

/// GitHub Actions workflow commands, one line a finding:
/// `::warning file=App/View.swift,line=12,col=5,title=rule-id::message`. The runner turns each into
/// an annotation on the file's line in the job and the pull request's diff; the runner resolves
/// paths against the checkout, so `ReportFormat` hands it paths from the repository's top.
/// Findings that need review are notices.
public enum GitHubReport {
    public static func render(_ report: ScanReport) -> String {
        var out = ""
        for finding in report.findings {
            out += command(level(finding.shownSeverity), [
                ("file", finding.location.file),
                ("line", String(finding.location.line)), ("col", String(finding.location.column)),
                ("title", finding.ruleID),
            ], message: finding.message)
        }
        for note in report.notes where note.kind != .summary {
            var properties: [(String, String)] = []
            if note.file != "." { properties.append(("file", note.file)) }
            if let line = note.line { properties.append(("line", String(line))) }
            properties.append(("title", "a11y-audit \(note.kind.rawValue)"))
            out += command(note.kind.isWarning ? .warning : .notice, properties, message: note.message)
        }
        return out
    }

    enum Command: String { case error, warning, notice }

    static func level(_ severity: Severity) -> Command {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .note: .notice
        }
    }

    static func command(_ name: Command, _ properties: [(String, String)], message: String) -> String {
        let list = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(name.rawValue)\(list.isEmpty ? "" : " " + list)::\(escapeData(message))\n"
    }

    /// As `@actions/core` escapes a command's message (`escapeData` in its command.ts): the
    /// runner reads `%25`, `%0D` and `%0A` back, so a message keeps its line breaks and cannot
    /// end the command early.
    static func escapeData(_ text: String) -> String { escape(text, property: false) }

    /// As `@actions/core` escapes a property value (`escapeProperty`): also `:` and `,`, which
    /// would otherwise end the value or the properties.
    static func escapeProperty(_ text: String) -> String { escape(text, property: true) }

    private static func escape(_ text: String, property: Bool) -> String {
        ReportText.escaping(text) { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            case ":" where property: "%3A"
            case "," where property: "%2C"
            default: nil
            }
        }
    }
}
