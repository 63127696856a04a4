import AuditModel
import AuditScanner

/// Human-readable output: findings grouped by file, each with its source line and a caret.
public enum TextReport {
    public static func render(_ report: ScanReport, verbose: Bool = false, color: Bool = false) -> String {
        var out = ""
        let style = Style(enabled: color)
        let violations = report.findings.filter { $0.certainty == .violation }
        let review = report.findings.filter { $0.certainty == .review }
        render(violations, verbose: verbose, style: style, into: &out)
        if !review.isEmpty {
            // Claims a person must decide, apart from the violations so they are never mistaken for them.
            out += (out.isEmpty ? "" : "\n") + style.bold("Needs review (\(review.count)): the code cannot settle these; a person must look.") + "\n\n"
            render(review, verbose: verbose, style: style, into: &out)
        }
        let notes = report.notes.filter { verbose || $0.kind != .summary }
        if !notes.isEmpty {
            out += "\nNotes:\n"
            for note in notes {
                let place = note.line.map { "\(note.file):\($0)" } ?? note.file
                out += "  \(place): \(note.message)\n"
            }
        }
        out += "\n" + summary(report) + "\n"
        return out
    }

    private static func render(_ findings: [Finding], verbose: Bool, style: Style, into out: inout String) {
        var currentFile: String?
        for finding in findings {
            if finding.location.file != currentFile {
                currentFile = finding.location.file
                out += (out.isEmpty || out.hasSuffix("\n\n") ? "" : "\n") + style.bold(finding.location.file) + "\n"
            }
            let where_ = "\(finding.location.line):\(finding.location.column)"
            let label = finding.certainty == .review ? "review" : finding.severity.rawValue
            out += "  \(where_)  \(style.label(label, finding))  \(style.dim("[\(finding.ruleID)]")) \(finding.message)"
            out += " (\(finding.kind.rawValue); \(finding.platforms))\n"
            if !finding.sourceLine.isEmpty {
                let line = finding.sourceLine.replacingOccurrences(of: "\t", with: " ")
                out += "    | \(line)\n"
                out += "    | " + String(repeating: " ", count: max(0, finding.location.column - 1)) + style.caret("^") + "\n"
            }
            out += "    fix: \(finding.fix)\n"
            if let correction = finding.correction { out += "    " + style.dim("fixable: \(correction.summary) (`a11y-audit fix`)") + "\n" }
            if verbose { out += "    why: \(finding.citation.source): \"\(finding.citation.quote)\"\n" }
        }
    }

    /// "2 errors, 1 warning, 3 to review", or "no findings".
    public static func counts(_ report: ScanReport) -> String {
        var counts: [String] = []
        for severity in Severity.allCases.reversed() {
            let count = report.findings.filter { $0.severity == severity && $0.certainty == .violation }.count
            if count > 0 { counts.append("\(count) \(severity.rawValue)\(count == 1 ? "" : "s")") }
        }
        let review = report.findings.filter { $0.certainty == .review }.count
        if review > 0 { counts.append("\(review) to review") }
        return counts.isEmpty ? "no findings" : counts.joined(separator: ", ")
    }

    /// The counts, where they were found, and how many `a11y-audit fix` can make.
    public static func summary(_ report: ScanReport) -> String {
        let fixable = report.findings.filter { $0.correction != nil }.count
        return checkedSummary(report) + (fixable > 0 ? "; \(fixable) fixable with `a11y-audit fix`" : "")
    }

    private static func checkedSummary(_ report: ScanReport) -> String {
        let stats = report.statistics
        var found = counts(report)
        if let baseline = report.baseline { found += " (\(baseline.matched) more in the baseline)" }
        var skipped: [String] = []
        if stats.skippedWithoutUIImport > 0 { skipped.append("\(stats.skippedWithoutUIImport) without UI imports") }
        if stats.skippedVendored > 0 { skipped.append("\(stats.skippedVendored) vendored") }
        if stats.skippedGenerated > 0 { skipped.append("\(stats.skippedGenerated) generated") }
        if stats.skippedTests > 0 { skipped.append("\(stats.skippedTests) test") }
        if stats.skippedDebugScreens > 0 { skipped.append("\(stats.skippedDebugScreens) debug screens") }
        if stats.skippedExamples > 0 { skipped.append("\(stats.skippedExamples) example apps") }
        if stats.skippedNotInTarget > 0 { skipped.append("\(stats.skippedNotInTarget) in no target") }
        if stats.skippedExcluded > 0 { skipped.append("\(stats.skippedExcluded) excluded") }
        if stats.skippedUnreadable > 0 { skipped.append("\(stats.skippedUnreadable) unreadable") }
        let skippedText = skipped.isEmpty ? "" : "; skipped " + skipped.joined(separator: ", ")
        let cache = stats.cacheHits > 0 ? ", \(stats.cacheHits) from cache" : ""
        // The counts are the whole repository's, read for context: not what the reader asked about.
        if let given = report.reportedFiles {
            if given.isEmpty { return "nothing to check: no file given is a Swift file, a storyboard, a xib or a colour set" }
            return "\(found) in the \(given.count) file\(given.count == 1 ? "" : "s") given "
                + "(\(stats.filesChecked) files of the repository checked for context; \(stats.filesParsed) parsed\(cache))"
        }
        if stats.interfaceBuilderFiles > 0 {
            return "\(found) in \(stats.filesChecked) of \(stats.swiftFiles + stats.interfaceBuilderFiles) files "
                + "(\(stats.swiftFiles) Swift, \(stats.interfaceBuilderFiles) Interface Builder; \(stats.filesParsed) parsed\(cache)\(skippedText))"
        }
        return "\(found) in \(stats.filesChecked) of \(stats.swiftFiles) Swift files (\(stats.filesParsed) parsed\(cache)\(skippedText))"
    }
}

/// ANSI styling for a terminal; every method returns its text unchanged when colours are off.
private struct Style {
    let enabled: Bool

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func caret(_ text: String) -> String { wrap(text, "32") }

    /// Red errors, yellow warnings, cyan notes, magenta for what needs review.
    func label(_ text: String, _ finding: Finding) -> String {
        if finding.certainty == .review { return wrap(text, "35") }
        switch finding.severity {
        case .error: return wrap(text, "1;31")
        case .warning: return wrap(text, "33")
        case .note: return wrap(text, "36")
        }
    }
}
