/// Whether Apple states an obligation, recommends, or only a person can decide.
public enum RuleKind: String, Codable, Sendable, CaseIterable {
    case requirement, recommendation, advisory
}

/// Ordered from least to most severe, so `--fail-on` can compare.
public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
    case note, warning, error

    var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Whether the rule is sure. A violation is a claim the code and the app model settle; a
/// finding that needs review is one a person must look at (axe-core's "needs review"): it is
/// reported at note severity in its own section and never fails `--fail-on` or a pull-request
/// gate unless asked.
public enum Certainty: String, Codable, Sendable, CaseIterable {
    case violation, review
}

public enum RuleCategory: String, Codable, Sendable, CaseIterable {
    case source
    case colorAsset = "color-asset"
    case layout
}

/// The Apple passage a rule rests on.
public struct Citation: Codable, Sendable, Hashable {
    /// The page, e.g. "HIG › Typography".
    public var source: String
    /// Apple's words, as quoted in `seeds/004`.
    public var quote: String
    public init(_ source: String, _ quote: String) {
        self.source = source
        self.quote = quote
    }
}

public struct SourceLocation: Codable, Sendable, Hashable, Comparable {
    /// Path relative to the scanned root, with `/` separators.
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// One problem found at one place.
public struct Finding: Codable, Sendable, Hashable {
    public var ruleID: String
    public var kind: RuleKind
    public var severity: Severity
    public var certainty: Certainty
    public var location: SourceLocation
    /// Specific: the value found and the threshold it misses.
    public var message: String
    public var fix: String
    public var citation: Citation
    /// Platforms the finding applies to (the code's platforms that the rule covers).
    public var platforms: PlatformSet
    /// Survives unrelated edits: rule id + path + normalised code + its place + occurrence index.
    public var fingerprint: String
    /// The normalised code of the node, kept to compute the fingerprint and to show.
    public var snippet: String
    /// The whole source line the finding points into, for a caret display.
    public var sourceLine: String
    /// Names the finding stands on: the member property it lies in (a palette constant nothing
    /// reads never renders) and the type it lies in (a view nothing constructs never shows).
    /// The scan keeps the finding only if every name is referenced somewhere in the repository,
    /// after every file is checked; not part of reports.
    public var requiredUse: [String] = []
    /// Code that would replace what the finding judges: an Interface Builder view's outlet or
    /// custom class with the property (`titleLabel.font`, `BadgeLabel#font`). The scan drops the
    /// finding when any Swift file assigns one; not part of reports.
    public var overriddenBy: [String] = []
    /// Facts from other files that make the finding one a person must judge: a view whose
    /// callers label, hide or group it (`BadgeRow@labelled`). The scan hands the finding to
    /// review when any file records one; not part of reports.
    public var reviewIf: [String] = []
    /// The mechanical edit that fixes the finding, where one keeps the code compiling and its
    /// default look unchanged (`a11y-audit fix` applies it); `nil` where `fix` stays a suggestion.
    public var correction: Correction?

    public init(ruleID: String, kind: RuleKind, severity: Severity, certainty: Certainty = .violation,
                location: SourceLocation, message: String, fix: String, citation: Citation, platforms: PlatformSet,
                fingerprint: String = "", snippet: String, sourceLine: String = "") {
        self.ruleID = ruleID
        self.kind = kind
        self.severity = severity
        self.certainty = certainty
        self.location = location
        self.message = message
        self.fix = fix
        self.citation = citation
        self.platforms = platforms
        self.fingerprint = fingerprint
        self.snippet = snippet
        self.sourceLine = sourceLine
    }
}

extension Finding {
    private enum CodingKeys: String, CodingKey {
        case ruleID, kind, severity, certainty, location, message, fix, citation, platforms, fingerprint, snippet, sourceLine
        case correction
    }

    /// Reports written before certainty existed hold violations only; those written before
    /// corrections existed hold none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(ruleID: try container.decode(String.self, forKey: .ruleID), kind: try container.decode(RuleKind.self, forKey: .kind),
                  severity: try container.decode(Severity.self, forKey: .severity),
                  certainty: try container.decodeIfPresent(Certainty.self, forKey: .certainty) ?? .violation,
                  location: try container.decode(SourceLocation.self, forKey: .location),
                  message: try container.decode(String.self, forKey: .message), fix: try container.decode(String.self, forKey: .fix),
                  citation: try container.decode(Citation.self, forKey: .citation),
                  platforms: try container.decode(PlatformSet.self, forKey: .platforms),
                  fingerprint: try container.decode(String.self, forKey: .fingerprint),
                  snippet: try container.decode(String.self, forKey: .snippet),
                  sourceLine: try container.decodeIfPresent(String.self, forKey: .sourceLine) ?? "")
        correction = try container.decodeIfPresent(Correction.self, forKey: .correction)
    }

    /// Whether `--fail-on` and pull-request gates count it: violations always, findings that
    /// need review only when asked.
    public func counts(atLeast threshold: Severity, includingReview: Bool = false) -> Bool {
        (certainty == .violation || includingReview) && severity >= threshold
    }
}

extension Finding {
    /// The fingerprints' scheme: 1 numbered identical code by order within a file, so fixing the
    /// first of two identical lines read as fixing the second; 2 names the code's place as well
    /// (`context`). A store or baseline holding version 1 fingerprints maps them once through
    /// `legacyFingerprints()` (see `FindingMatcher`).
    public static let fingerprintVersion = 2
}

/// Where a finding's code sits in its file, for its fingerprint.
public struct FingerprintContext: Sendable, Equatable {
    /// The declarations around it, outermost first (`SettingsView.body`).
    public var scope: String
    /// The nearest lines above and below that differ from its own.
    public var neighbours: String
    public init(scope: String = "", neighbours: String = "") { self.scope = scope; self.neighbours = neighbours }
}

extension Array where Element == Finding {
    /// Sorts by position and assigns fingerprints from the rule, the file, the normalised code
    /// and the code's place in the file (`context`; for Swift the enclosing declarations,
    /// `SettingsView.body`), so inserting lines above a finding leaves its fingerprint alone and
    /// two identical lines in different declarations keep apart. Identical code in one place is
    /// told apart by its neighbouring distinct lines, and what those still do not tell apart
    /// (identical adjacent lines) by order. Neighbours are used only there: any edit next to a
    /// finding would otherwise change its fingerprint.
    public mutating func assignFingerprints(context: (Finding) -> FingerprintContext = { _ in FingerprintContext() }) {
        assignFingerprints(scope: { context($0).scope }, neighbours: { context($0).neighbours })
    }

    /// As `assignFingerprints(context:)`, with the neighbours asked for only where the rule,
    /// file, code and scope are not enough: most findings never need them.
    public mutating func assignFingerprints(scope: (Finding) -> String, neighbours: (Finding) -> String) {
        sort { ($0.location, $0.ruleID) < ($1.location, $1.ruleID) }
        let keys = indices.map { self[$0].ruleID + "\u{0}" + self[$0].location.file + "\u{0}" + self[$0].snippet + "\u{0}" + scope(self[$0]) }
        var counts: [String: Int] = [:]
        for key in keys { counts[key, default: 0] += 1 }
        var occurrences: [String: Int] = [:]
        for index in indices {
            var key = keys[index]
            if counts[key, default: 0] > 1 { key += "\u{0}" + neighbours(self[index]) }
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            self[index].fingerprint = String(Digest.sha256Hex("v2\u{0}" + key + "\u{0}\(occurrence)").prefix(32))
        }
    }

    /// The version 1 fingerprint of each finding, in this array's order: rule, file, normalised
    /// code and the occurrence index among earlier identical ones. Only for matching what an
    /// older build stored.
    public func legacyFingerprints() -> [String] {
        let order = indices.sorted { (self[$0].location, self[$0].ruleID) < (self[$1].location, self[$1].ruleID) }
        var occurrences: [String: Int] = [:]
        var result = [String](repeating: "", count: count)
        for index in order {
            let finding = self[index]
            let key = finding.ruleID + "\u{0}" + finding.location.file + "\u{0}" + finding.snippet
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            result[index] = String(Digest.sha256Hex(key + "\u{0}\(occurrence)").prefix(32))
        }
        return result
    }
}
