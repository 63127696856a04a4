import AuditModel
import ColorAssets

/// What catalog rules see: every colour set, and which of them anything in the repository uses.
public struct CatalogFacts: Sendable {
    public var catalog: ColorCatalog
    /// Colour set names used by Swift (literals and generated symbols), Interface Builder files
    /// (`<namedColor name=…>`) and build settings (the global accent colour).
    public var usedNames: Set<String>

    public init(catalog: ColorCatalog, usedNames: Set<String> = []) {
        self.catalog = catalog
        self.usedNames = usedNames
    }
}

/// A check over the repository's asset catalogs (not over one Swift file). Runs once per scan,
/// after every Swift file has been checked.
public protocol CatalogRule: Sendable {
    var description: RuleDescription { get }
    func check(_ facts: CatalogFacts, _ sink: inout CatalogFindingSink)
}

/// What a catalog rule reports: a Contents.json file, a line in it, and a message.
public struct CatalogFindingSink {
    struct Item {
        let path: String
        let line: Int
        let message: String
        /// Identifies the finding across runs: the colour set's name and what is wrong.
        let snippet: String
        /// `.review` when the catalog cannot settle the claim; nil: the rule's own certainty.
        let certainty: Certainty?
    }
    private(set) var items: [Item] = []

    public mutating func report(path: String, line: Int?, _ message: String, snippet: String, certainty: Certainty? = nil) {
        items.append(Item(path: path, line: max(line ?? 1, 1), message: message, snippet: snippet, certainty: certainty))
    }
}

/// Runs every enabled catalog rule over one catalog and makes findings of what they report.
public struct CatalogChecker: Sendable {
    public let rules: [any CatalogRule]
    public let config: AuditConfig

    public init(rules: [any CatalogRule] = RuleCatalog.catalogRules, config: AuditConfig = AuditConfig()) {
        self.rules = rules.filter { config.isEnabled($0.description.id) }
        self.config = config
    }

    public func check(_ facts: CatalogFacts) -> [Finding] {
        var findings: [Finding] = []
        for rule in rules {
            let description = rule.description
            var sink = CatalogFindingSink()
            rule.check(facts, &sink)
            for item in sink.items {
                let verdict = description.verdict(item.certainty, severityOverride: config.severityOverrides[description.id])
                findings.append(Finding(
                    ruleID: description.id, kind: description.kind, severity: verdict.severity, certainty: verdict.certainty,
                    location: SourceLocation(file: item.path, line: item.line, column: 1), message: item.message,
                    fix: description.fix, citation: description.citation, platforms: description.platforms,
                    snippet: item.snippet))
            }
        }
        findings.assignFingerprints()
        return findings
    }
}
