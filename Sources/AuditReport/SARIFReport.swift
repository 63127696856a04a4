import AuditModel
import AuditScanner
import Foundation
import SwiftChecks

/// SARIF 2.1.0, as GitHub code scanning ingests it: one run, the rule catalog as the driver's
/// rules (with help text), results with levels and `partialFingerprints`, and skipped files
/// and parse errors as tool execution notifications.
public enum SARIFReport {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURL = "https://github.com/a11y-audit/a11y-audit"
    /// docs/rules.md, generated from the catalog; each rule is a `## rule-id` section of it.
    static let rulesReferenceURL = informationURL + "/blob/main/docs/rules.md"
    public static let fingerprintKey = "a11yAuditFingerprint/v\(Finding.fingerprintVersion)"

    public static func render(_ report: ScanReport, rules: [RuleDescription] = RuleCatalog.descriptions) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: document(report, rules: rules),
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    public static func document(_ report: ScanReport, rules: [RuleDescription]) -> [String: Any] {
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let results: [[String: Any]] = report.findings.map { finding in
            var result: [String: Any] = [
                "ruleId": finding.ruleID,
                "level": level(finding.severity),
                "message": ["text": finding.message],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": uri(finding.location.file), "uriBaseId": "%SRCROOT%"],
                        "region": ["startLine": finding.location.line, "startColumn": finding.location.column],
                    ],
                ]],
                "partialFingerprints": [fingerprintKey: finding.fingerprint],
                "properties": [
                    "kind": finding.kind.rawValue,
                    "platforms": finding.platforms.platforms.map(\.rawValue),
                    // A finding that needs review is a note a person must look at, as axe-core's
                    // "needs review"; code-scanning tools filter on the property.
                    "review": finding.certainty == .review,
                ],
            ]
            if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = index }
            if let correction = finding.correction { result["fixes"] = [fix(correction)] }
            return result
        }
        let notifications: [[String: Any]] = report.notes.map { note in
            var notification: [String: Any] = [
                "level": note.kind.isWarning ? "warning" : "note",
                "message": ["text": note.message],
                "descriptor": ["id": note.kind.rawValue],
            ]
            if note.file != "." {
                var physical: [String: Any] = ["artifactLocation": ["uri": uri(note.file), "uriBaseId": "%SRCROOT%"]]
                if let line = note.line { physical["region"] = ["startLine": line] }
                notification["locations"] = [["physicalLocation": physical]]
            }
            return notification
        }
        let driver: [String: Any] = [
            "name": "a11y-audit",
            "semanticVersion": report.toolVersion,
            "informationUri": informationURL,
            "rules": rules.map(rule),
        ]
        var run: [String: Any] = [
            "tool": ["driver": driver],
            "columnKind": "unicodeCodePoints",
            "results": results,
            "invocations": [[
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            ]],
        ]
        // SARIF wants an absolute directory URI here; an archive's contents have none.
        if !report.rootIsArchive, report.root.hasPrefix("/") {
            run["originalUriBaseIds"] = ["%SRCROOT%": ["uri": rootURI(report.root)]]
        }
        return ["$schema": schema, "version": "2.1.0", "runs": [run]]
    }

    static func rule(_ description: RuleDescription) -> [String: Any] {
        let citations = description.citations.map { "\($0.source): \"\($0.quote)\"" }
        let markdown = """
            **\(description.title)** (\(description.kind.rawValue), \(description.platforms))

            \(description.rationale)

            **Fix:** \(description.fix)

            **Apple says:** \(citations.map { "\n- " + $0 }.joined())

            **Limits:** \(description.limitations)
            """
        return [
            "id": description.id,
            "name": description.id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(),
            "shortDescription": ["text": description.title],
            "fullDescription": ["text": description.rationale],
            "help": ["text": "\(description.fix)\n\n\(citations.joined(separator: "\n"))", "markdown": markdown],
            // The rule's section of the generated reference (GitHub anchors a heading by its text).
            "helpUri": rulesReferenceURL + "#" + description.id,
            "defaultConfiguration": ["level": level(description.severity)],
            "properties": [
                "tags": ["accessibility", description.category.rawValue, description.kind.rawValue]
                    + description.platforms.platforms.map(\.rawValue),
                "kind": description.kind.rawValue,
                "platforms": description.platforms.platforms.map(\.rawValue),
            ],
        ]
    }

    /// A finding's correction as a SARIF `fix`: per file, its replacements. An insertion deletes
    /// an empty region (start and end the same). Columns are code points, as the run says.
    static func fix(_ correction: Correction) -> [String: Any] {
        let files = Dictionary(grouping: correction.edits, by: \.file)
        return [
            "description": ["text": correction.summary],
            "artifactChanges": files.keys.sorted().map { file in
                [
                    "artifactLocation": ["uri": uri(file), "uriBaseId": "%SRCROOT%"],
                    "replacements": files[file, default: []].map { edit in
                        [
                            "deletedRegion": ["startLine": edit.start.line, "startColumn": edit.start.column,
                                              "endLine": edit.end.line, "endColumn": edit.end.column],
                            "insertedContent": ["text": edit.replacement],
                        ] as [String: Any]
                    },
                ] as [String: Any]
            },
        ]
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// Relative paths as URI references: each segment percent-encoded.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":?#[]@")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }

    static func rootURI(_ root: String) -> String {
        URL(fileURLWithPath: root, isDirectory: true).absoluteString
    }
}
