import AuditModel
import AuditScanner

/// Xcode's diagnostic lines, as compilers print them: `/path/File.swift:12:5: warning: message
/// (rule-id)`. Xcode turns each line of a build phase's output in this shape into an issue in the
/// issue navigator and the editor, so the path is absolute (a build phase runs in the project's
/// folder, not necessarily the scanned one). Findings that need review are notes; notes about
/// files the scan could not check are warnings on those files.
public enum XcodeReport {
    public static func render(_ report: ScanReport) -> String {
        var out = ""
        for finding in report.findings {
            let place = "\(path(finding.location.file, in: report)):\(finding.location.line):\(finding.location.column)"
            out += "\(place): \(finding.shownSeverity.rawValue): \(ReportText.oneLine(finding.message)) (\(finding.ruleID))\n"
        }
        for note in report.notes where note.kind != .summary {
            let level = note.kind.isWarning ? Severity.warning : .note
            // Xcode also takes a bare `warning: …` line, for what concerns no one file.
            let place = note.file == "." ? "" : path(note.file, in: report) + (note.line.map { ":\($0)" } ?? "") + ": "
            out += "\(place)\(level.rawValue): \(ReportText.oneLine(note.message))\n"
        }
        return out
    }

    /// Absolute for a folder's files; an archive's have no place on disk, so they stay relative.
    static func path(_ relative: String, in report: ScanReport) -> String {
        ReportText.oneLine(report.rootIsArchive ? relative : ReportText.joined(report.root, relative))
    }
}
