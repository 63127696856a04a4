import AuditModel
import Foundation

/// What a pull-request check stores of its comparison (`pr_checks.results`), read back by the
/// reporter (commit status, check-run annotations) and by the dashboard's report page. One
/// Codable shape for all three, so a field the page shows cannot be one the store never wrote.
public struct PullRequestResults: Codable, Sendable, Equatable {
    /// A finding as the check keeps it. The keys are those of the rows written before this type
    /// existed; fields those rows lack decode to what they meant then.
    public struct Item: Codable, Sendable, Equatable {
        public var rule: String
        public var kind: RuleKind
        public var severity: Severity
        public var certainty: Certainty
        public var path: String
        public var line: Int
        public var column: Int
        public var message: String
        public var snippet: String
        public var sourceLine: String
        public var fingerprint: String
        /// The mechanical fix `a11y-audit fix` would apply, if the finding has one.
        public var correction: Correction?

        public init(_ finding: Finding) {
            rule = finding.ruleID
            kind = finding.kind
            severity = finding.severity
            certainty = finding.certainty
            // PostgreSQL's jsonb refuses the \u0000 escape, as text columns refuse NUL.
            path = finding.location.file.replacingNUL
            line = finding.location.line
            column = finding.location.column
            message = finding.message.replacingNUL
            snippet = finding.snippet.replacingNUL
            sourceLine = finding.sourceLine.replacingNUL
            fingerprint = finding.fingerprint
            correction = finding.correction
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rule = try container.decode(String.self, forKey: .rule)
            kind = try container.decode(RuleKind.self, forKey: .kind)
            severity = try container.decode(Severity.self, forKey: .severity)
            // Rows from before certainty was stored held only what the gate counted.
            certainty = try container.decodeIfPresent(Certainty.self, forKey: .certainty) ?? .violation
            path = try container.decode(String.self, forKey: .path)
            line = try container.decode(Int.self, forKey: .line)
            column = try container.decodeIfPresent(Int.self, forKey: .column) ?? 0
            message = try container.decode(String.self, forKey: .message)
            snippet = try container.decodeIfPresent(String.self, forKey: .snippet) ?? ""
            sourceLine = try container.decodeIfPresent(String.self, forKey: .sourceLine) ?? ""
            fingerprint = try container.decodeIfPresent(String.self, forKey: .fingerprint) ?? ""
            correction = try container.decodeIfPresent(Correction.self, forKey: .correction)
        }
    }

    public var new: [Item]
    public var fixed: [Item]
    public var unchangedInChangedFiles: [Item]
    public var changedFiles: [String]
    public var summary: String

    public init(_ comparison: PullRequestComparison) {
        new = comparison.new.map(Item.init)
        fixed = comparison.fixed.map(Item.init)
        unchangedInChangedFiles = comparison.unchangedInChangedFiles.map(Item.init)
        changedFiles = comparison.changedFiles.sorted()
        summary = comparison.summary
    }

    public init(new: [Item] = [], fixed: [Item] = [], unchangedInChangedFiles: [Item] = [], changedFiles: [String] = [], summary: String = "") {
        self.new = new
        self.fixed = fixed
        self.unchangedInChangedFiles = unchangedInChangedFiles
        self.changedFiles = changedFiles
        self.summary = summary
    }

    /// The stored form: sorted keys, so equal results are equal text.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a number or an array of them: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    public init(json: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
    }
}
