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
        // Built over bytes: a whole render exports millions of fields.
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 256)
        func field(_ text: String) {
            out.append(0x22)
            for byte in text.utf8 {
                if byte == 0x22 { out.append(0x22) }
                out.append(byte)
            }
            out.append(0x22)
        }
        func line(_ fields: [String]) {
            for (index, value) in fields.enumerated() {
                if index > 0 { out.append(0x2C) }
                field(value)
            }
            out.append(contentsOf: [0x0D, 0x0A])
        }
        line(columns)
        for row in rows { line(row.fields) }
        return String(decoding: out, as: UTF8.self)
    }

    static func json(_ rows: [Row]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 384)
        func string(_ text: String) {
            out.append(0x22)
            for byte in text.utf8 {
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0..<0x20: out.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
                default: out.append(byte)
                }
            }
            out.append(0x22)
        }
        // Keys sorted, as JSONSerialization's .sortedKeys wrote them.
        let order = columns.enumerated().sorted { $0.element < $1.element }
        out.append(0x5B)
        for (rowIndex, row) in rows.enumerated() {
            out.append(contentsOf: Array((rowIndex == 0 ? "\n  {" : ",\n  {").utf8))
            let fields = row.fields
            for (position, (index, key)) in order.enumerated() {
                out.append(contentsOf: Array(((position == 0 ? "\n    " : ",\n    ") + "\"\(key)\" : ").utf8))
                let value = fields[index]
                switch key {
                case "line", "column", "first_seen_run": out.append(contentsOf: Array(String(Int(value) ?? 0).utf8))
                case "fixed_in_run": out.append(contentsOf: Array((value.isEmpty ? "null" : String(Int(value) ?? 0)).utf8))
                case "link": if value.isEmpty { out.append(contentsOf: Array("null".utf8)) } else { string(value) }
                default: string(value)
                }
            }
            out.append(contentsOf: Array("\n  }".utf8))
        }
        out.append(contentsOf: Array((rows.isEmpty ? "]\n" : "\n]\n").utf8))
        return String(decoding: out, as: UTF8.self)
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
