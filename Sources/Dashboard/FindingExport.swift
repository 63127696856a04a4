import AuditStore
import Foundation

/// Findings as files beside the pages, for spreadsheets and scripts: CSV (RFC 4180: every field
/// quoted, quotes doubled, CRLF line ends) and JSON (an array of objects, keys sorted). Each row
/// carries its change (`open`, `new`, `fixed`) and, where the forge is known, the link to its line.
enum FindingExport {
    static let columns = ["change", "repository", "path", "line", "column", "rule", "kind", "severity", "certainty", "message",
                          "snippet", "first_seen_run", "fixed_in_run", "link"]

    struct Row {
        var change: String
        var finding: DashboardQueries.Finding
        var link: String?

        var fields: [String] {
            [change, finding.repository, finding.path, String(finding.line), String(finding.column), finding.ruleID, finding.kind.rawValue,
             finding.severity.rawValue, finding.certainty.rawValue, finding.message, finding.snippet, String(finding.firstSeenRun),
             finding.fixedInRun.map(String.init) ?? "", link ?? ""]
        }
    }

    static func csv(_ rows: [Row]) -> String {
        func quoted(_ field: String) -> String { "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var text = columns.map(quoted).joined(separator: ",") + "\r\n"
        for row in rows { text += row.fields.map(quoted).joined(separator: ",") + "\r\n" }
        return text
    }

    static func json(_ rows: [Row]) -> String {
        let objects = rows.map { row -> [String: Any] in
            var object: [String: Any] = [:]
            for (key, value) in zip(columns, row.fields) {
                switch key {
                case "line", "column", "first_seen_run": object[key] = Int(value) ?? 0
                case "fixed_in_run", "link": object[key] = value.isEmpty ? NSNull() : (key == "link" ? value : Int(value) as Any)
                default: object[key] = value
                }
            }
            return object
        }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `repos/acme/app.html` -> `repos/acme/app.csv`.
    static func path(of page: String, extension suffix: String) -> String {
        (page.hasSuffix(".html") ? String(page.dropLast(5)) : page) + "." + suffix
    }
}

extension SiteRenderer {
    /// Writes `rows` as CSV and JSON beside `page`; returns the page's paragraph linking them.
    func writeExports(_ rows: [FindingExport.Row], beside page: String, what: String) throws -> String {
        let csv = FindingExport.path(of: page, extension: "csv"), json = FindingExport.path(of: page, extension: "json")
        try write(csv, FindingExport.csv(rows))
        try write(json, FindingExport.json(rows))
        return "<p class=\"exports\">Download \(HTML.breakable(what)): \(anchor(page, csv, "CSV")), \(anchor(page, json, "JSON")) "
            + "(\(HTML.number(rows.count)) \(rows.count == 1 ? "finding" : "findings"))</p>"
    }

    /// A finding's export row, linked at `commit` when its repository's forge is known.
    func exportRow(_ finding: DashboardQueries.Finding, change: String, commit: String?) -> FindingExport.Row {
        FindingExport.Row(change: change, finding: finding,
                          link: ForgeLink.blob(forges[finding.repositoryID], commit: commit, path: finding.path, line: finding.line))
    }
}
