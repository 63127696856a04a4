/// A code sample a rule must or must not flag. In a triggering example each `↓` marks where a
/// finding is expected (SwiftLint's convention); the marker is removed before the check runs.
public struct RuleExample: Sendable, Hashable {
    public var code: String
    /// Platforms the example is checked for; `nil` lets the file's imports and `#if`s decide.
    public var platforms: PlatformSet?
    public var file: String
    /// Other files of the example's repository, by path: asset catalog Contents.json files a
    /// Swift example refers to, Swift files that use a catalog example's colours, or strings
    /// tables whose keys are translated.
    public var assets: [String: String]
    public init(_ code: String, platforms: PlatformSet? = nil, file: String = "Example.swift", assets: [String: String] = [:]) {
        self.code = code
        self.platforms = platforms
        self.file = file
        self.assets = assets
    }
}

/// What `a11y-audit fix` makes of some code the rule reports: `output` is the whole file after
/// the rule's edits; `nil` where the rule reports the code but leaves the fix a suggestion (the
/// edit would not keep it compiling, or would change its default look). The input carries no
/// `↓` markers.
public struct CorrectionExample: Sendable, Hashable {
    public var input: RuleExample
    public var output: String?

    public init(_ code: String, _ output: String, platforms: PlatformSet? = nil, file: String = "Example.swift",
                assets: [String: String] = [:]) {
        input = RuleExample(code, platforms: platforms, file: file, assets: assets)
        self.output = output
    }

    /// Code the rule reports without an edit.
    public static func suggestionOnly(_ code: String, platforms: PlatformSet? = nil, file: String = "Example.swift",
                                      assets: [String: String] = [:]) -> CorrectionExample {
        var example = CorrectionExample(code, code, platforms: platforms, file: file, assets: assets)
        example.output = nil
        return example
    }
}

/// Everything a rule says about itself; the catalog, docs/rules.md and SARIF read this.
public struct RuleDescription: Sendable {
    public var id: String
    public var title: String
    public var category: RuleCategory
    /// Platforms the rule applies to; a finding's platforms are the code's platforms within these.
    public var platforms: PlatformSet
    public var kind: RuleKind
    public var severity: Severity
    /// `.review` for a rule that can only point a person at code (every finding needs review).
    public var certainty: Certainty
    /// What the rule looks for and why it matters.
    public var rationale: String
    public var citations: [Citation]
    public var fix: String
    /// What a static reader cannot decide for this rule.
    public var limitations: String
    public var triggering: [RuleExample]
    public var nonTriggering: [RuleExample]
    /// Code the rule reports but cannot settle: each `↓` marks a finding handed to a person.
    /// In a rule whose certainty is `.violation`, triggering examples must be violations.
    public var needsReview: [RuleExample]
    /// The rule's mechanical fixes, input and output (the rule-example test applies them).
    public var corrections: [CorrectionExample]
    /// The claim is that text does not follow the text size people choose (Dynamic Type).
    public var concernsDynamicType: Bool

    public init(id: String, title: String, category: RuleCategory = .source, platforms: PlatformSet = .all,
                kind: RuleKind, severity: Severity? = nil, certainty: Certainty = .violation, rationale: String, citations: [Citation],
                fix: String, limitations: String, triggering: [RuleExample], nonTriggering: [RuleExample],
                needsReview: [RuleExample] = [], corrections: [CorrectionExample] = [], concernsDynamicType: Bool = false) {
        self.id = id
        self.title = title
        self.category = category
        self.platforms = platforms
        self.kind = kind
        self.severity = severity ?? kind.defaultSeverity
        self.certainty = certainty
        self.rationale = rationale
        self.citations = citations
        self.fix = fix
        self.limitations = limitations
        self.triggering = triggering
        self.nonTriggering = nonTriggering
        self.needsReview = needsReview
        self.corrections = corrections
        self.concernsDynamicType = concernsDynamicType
    }

    public var citation: Citation { citations[0] }
}

extension RuleDescription {
    /// A Dynamic Type claim about code that only tvOS runs goes to a person: Apple lists tvOS
    /// among the platforms with Dynamic Type but publishes a single size per text style for it
    /// (no per-size table, unlike every other such platform), so the sources cannot say how far
    /// tvOS text moves.
    public func isUnsettledOnTVOS(_ platforms: PlatformSet) -> Bool {
        concernsDynamicType && platforms == PlatformSet(.tvOS)
    }

    public static let tvOSDynamicTypeNote = " (tvOS only: Apple lists Dynamic Type for tvOS but publishes one size per text style there; check on an Apple TV whether the text size can change)"

    /// A reported finding's certainty and severity. A rule whose every finding needs a person
    /// says so in its description; any other rule may hand one case to a person. Review findings are notes whatever the
    /// configured severity, which applies to violations.
    public func verdict(_ reported: Certainty?, severityOverride: Severity?) -> (certainty: Certainty, severity: Severity) {
        let certainty: Certainty = self.certainty == .review ? .review : reported ?? .violation
        return (certainty, certainty == .review ? .note : severityOverride ?? severity)
    }
}

extension RuleKind {
    /// Requirements fail a build by default, recommendations warn, advisories are notes.
    public var defaultSeverity: Severity {
        switch self {
        case .requirement: .error
        case .recommendation: .warning
        case .advisory: .note
        }
    }
}
