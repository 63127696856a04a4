import AuditModel
import AuditScanner

/// The renderings `a11y-audit scan --format` offers, each a pure function of the report.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif, xcode, github, gitlab, junit, markdown

    /// Build settings Xcode exports to every Run Script build phase (and to nothing a developer
    /// runs in a terminal). SwiftLint prints Xcode's format by default everywhere; projects that
    /// pick a reporter by context (`[[ -z "$XCODE_VERSION_ACTUAL" ]]`) key on these.
    public static let xcodeBuildVariables = ["XCODE_VERSION_ACTUAL", "XCODE_PRODUCT_BUILD_VERSION"]

    /// The format when none is asked for: Xcode's inside an Xcode build phase, so the findings
    /// land in the issue navigator without any flag; text anywhere else.
    public static func automatic(environment: [String: String]) -> ReportFormat {
        xcodeBuildVariables.contains { !(environment[$0] ?? "").isEmpty } ? .xcode : .text
    }

    /// "text, json, … or markdown", for usage errors.
    public static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    public func render(_ report: ScanReport, options: ReportOptions = ReportOptions()) throws -> String {
        switch self {
        case .text: TextReport.render(report, verbose: options.verbose, color: options.color)
        case .json: try JSONReport.render(report)
        case .sarif: try SARIFReport.render(report)
        case .xcode: XcodeReport.render(report)
        case .github: GitHubReport.render(report.inRepository(options.repositoryPath))
        case .gitlab: try GitLabReport.render(report.inRepository(options.repositoryPath))
        case .junit: JUnitReport.render(report.inRepository(options.repositoryPath))
        case .markdown: MarkdownReport.render(report.inRepository(options.repositoryPath))
        }
    }
}

extension ScanReport {
    /// The report with its paths from the repository's top: `folder` is the scanned root's
    /// path inside the repository. Notes about the whole input (`.`) keep it.
    func inRepository(_ folder: String) -> ScanReport {
        guard !folder.isEmpty else { return self }
        var moved = self
        for index in moved.findings.indices {
            moved.findings[index].location.file = ReportText.joined(folder, moved.findings[index].location.file)
        }
        for index in moved.notes.indices where moved.notes[index].file != "." {
            moved.notes[index].file = ReportText.joined(folder, moved.notes[index].file)
        }
        return moved
    }
}

public struct ReportOptions: Sendable {
    /// Citations and skip summaries in text output.
    public var verbose: Bool
    /// The scanned folder's path inside its repository (`""` at the top, or for an archive):
    /// CI annotations and code-quality reports name files from the repository's top, as the
    /// checkout does, whatever folder was scanned.
    public var repositoryPath: String
    /// ANSI colours in text output (a terminal that wants them; see `ColorChoice`).
    public var color: Bool

    public init(verbose: Bool = false, repositoryPath: String = "", color: Bool = false) {
        self.verbose = verbose
        self.repositoryPath = repositoryPath
        self.color = color
    }
}

extension Finding {
    /// The level a finding is shown at: a violation at its severity; a finding that needs
    /// review as a note whatever its rule's severity, since a person has to decide it.
    var shownSeverity: Severity { certainty == .review ? .note : severity }
}

extension ScanNote.Kind {
    /// Whether the note says the scan could not check something (a warning in CI output), as
    /// opposed to information about what it did. Summaries are left out of CI output.
    var isWarning: Bool {
        switch self {
        case .skipped, .parseError, .inputError: true
        case .summary, .duplicateColorName, .baseline: false
        }
    }
}

enum ReportText {
    /// `text` on one line: a line break inside a message would start a new entry in a line-based
    /// format (Xcode's, a log), which a repository's file names and strings must not be able to do.
    static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasBreak = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                if !previousWasBreak { out.append(" ") }
                previousWasBreak = true
            default:
                out.append(scalar)
                previousWasBreak = false
            }
        }
        return String(out)
    }

    /// `text` with each scalar `replacement` gives a string for replaced by it. By scalar, not by
    /// character: `"\r\n"` is one Swift character, which a character-wise `"\r"` would miss.
    static func escaping(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `relative` under `prefix` (a folder path, with or without its trailing slash).
    static func joined(_ prefix: String, _ relative: String) -> String {
        guard !prefix.isEmpty else { return relative }
        return prefix.hasSuffix("/") ? prefix + relative : prefix + "/" + relative
    }
}

/// `--color never|always|auto`. Auto colours a terminal unless `NO_COLOR` is set (no-color.org)
/// or `TERM` is `dumb`; a file or a pipe never gets escape codes.
public enum ColorChoice: String, CaseIterable, Sendable {
    case never, always, auto

    public func colors(outputIsTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .never: false
        case .always: true
        case .auto: outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}
