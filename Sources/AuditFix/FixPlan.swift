import AuditModel
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// What `a11y-audit fix` would do to a scanned repository: per file, the findings whose
/// corrections apply together and the file they make, checked to parse, with its diff; and what
/// it leaves alone, and why. Pure: files are read through `contents`, nothing is written.
public struct FixPlan: Sendable {
    /// One file's new text and the findings it fixes.
    public struct Change: Sendable {
        /// Relative to the scanned root, as findings name it.
        public let path: String
        public let original: [UInt8]
        public let edited: [UInt8]
        public let fixed: [Finding]
        /// The unified diff from `original` to `edited`.
        public let diff: String
    }

    /// Findings whose edits were not applied, and why.
    public struct Refusal: Sendable {
        public let path: String
        public let findings: [Finding]
        public let reason: FixRefusal
    }

    public private(set) var changes: [Change] = []
    public private(set) var refusals: [Refusal] = []

    /// `findings`: a scan's, with paths relative to the root `contents` reads from; `rules`: only
    /// these rules' fixes (`nil`: every rule's). Within a file, a finding whose edits conflict with
    /// an earlier finding's is refused and the others go ahead; a file that would not parse
    /// cleanly with its edits is left whole.
    public static func make(_ findings: [Finding], rules: Set<String>? = nil,
                            contents: (String) throws -> [UInt8]) -> FixPlan {
        var plan = FixPlan()
        let fixable = findings.filter { $0.correction != nil && rules?.contains($0.ruleID) != false }
        let byFile = Dictionary(grouping: fixable, by: \.location.file)
        for path in byFile.keys.sorted() {
            let ordered = byFile[path, default: []].sorted { $0.location < $1.location }
            var accepted: [Finding] = []
            for finding in ordered {
                let edits = finding.correction?.edits ?? []
                guard edits.allSatisfy({ $0.file == path }) else {
                    plan.refusals.append(Refusal(path: path, findings: [finding], reason: .stale))
                    continue
                }
                if let earlier = accepted.first(where: { other in
                    edits.contains { edit in other.correction?.edits.contains(where: edit.conflicts) == true }
                }) {
                    plan.refusals.append(Refusal(path: path, findings: [finding], reason: .overlaps(
                        ruleID: earlier.ruleID, line: earlier.location.line, column: earlier.location.column)))
                    continue
                }
                accepted.append(finding)
            }
            guard !accepted.isEmpty else { continue }
            switch change(path, accepted, contents) {
            case .success(let change): plan.changes.append(change)
            case .failure(let reason): plan.refusals.append(Refusal(path: path, findings: accepted, reason: reason))
            }
        }
        return plan
    }

    /// Writes each change to its file under `root`, whole (`FixWriter`); one that cannot be
    /// written, or whose file changed since it was read, moves from `changes` to `refusals`.
    public mutating func write(under root: String) {
        var written: [Change] = []
        for change in changes {
            if let refusal = FixWriter.replace(root + "/" + change.path, with: change.edited, expecting: change.original) {
                refusals.append(Refusal(path: change.path, findings: change.fixed, reason: refusal))
            } else {
                written.append(change)
            }
        }
        changes = written
    }

    /// Every finding the plan fixes.
    public var fixed: [Finding] { changes.flatMap(\.fixed) }

    private static func change(_ path: String, _ findings: [Finding], _ contents: (String) throws -> [UInt8]) -> Result<Change, FixRefusal> {
        let original: [UInt8]
        do { original = try contents(path) } catch { return .failure(.io("cannot read \(path): \(error)")) }
        guard let source = String(validating: original, as: UTF8.self) else { return .failure(.notUTF8) }
        let edited: [UInt8]
        do { edited = try EditApplication.apply(findings.flatMap { $0.correction?.edits ?? [] }, to: original) }
        catch { return .failure(error.refusal) }
        let text = String(decoding: edited, as: UTF8.self)
        if path.hasSuffix(".swift"), let problem = firstSyntaxError(text) {
            let before = firstSyntaxError(source) != nil
            return .failure(.wouldNotParse(line: problem.line, column: problem.column, message: problem.message, brokenBefore: before))
        }
        return .success(Change(path: path, original: original, edited: edited, fixed: findings,
                               diff: UnifiedDiff.render(old: source, new: text, path: path)))
    }

    /// Where SwiftParser first finds `source` wrong, if anywhere.
    public static func firstSyntaxError(_ source: String) -> (line: Int, column: Int, message: String)? {
        let tree = Parser.parse(source: source)
        guard tree.hasError else { return nil }
        let diagnostic = ParseDiagnosticsGenerator.diagnostics(for: tree).first
        let location = SourceLocationConverter(fileName: "", tree: tree).location(for: diagnostic?.position ?? tree.position)
        return (location.line, location.column, diagnostic?.message ?? "syntax error")
    }
}
