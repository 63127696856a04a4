import AuditModel
import Foundation

public enum BaselineError: Error, CustomStringConvertible, Equatable {
    case notFound(file: String)
    case malformed(file: String, reason: String)
    /// Written by a newer a11y-audit whose fingerprints this one may not compute alike.
    case unsupportedVersion(file: String, version: Int)

    public var description: String {
        switch self {
        case .notFound(let file):
            "\(file): no such baseline file; write one with `a11y-audit scan <directory> --write-baseline \(file)`"
        case .malformed(let file, let reason):
            "\(file): not an a11y-audit baseline (\(InputExcerpt.of(reason, limit: 200))); write it anew with --write-baseline"
        case .unsupportedVersion(let file, let version):
            "\(file): baseline version \(version) is not one this a11y-audit reads (it reads versions \(Baseline.readableVersions.lowerBound)-\(Baseline.readableVersions.upperBound)); "
                + "write it anew with --write-baseline"
        }
    }
}

/// The findings a team has accepted for now, by fingerprint: a scan against a baseline reports
/// only findings it does not hold, so a legacy app can gate new code today and pay the backlog
/// off later. Entries are matched to findings as the history matches them (`FindingMatcher`):
/// by fingerprint, which survives unrelated edits, then by rule, file and code where a
/// neighbouring line changed; an entry stops matching when the code is fixed or changed, and
/// those entries are counted so the file can be pruned. Version 1 files (fingerprints that
/// numbered identical code by order, no code) are still read and matched once through the
/// legacy fingerprints; `--write-baseline` writes version 2.
public struct Baseline: Sendable, Equatable {
    public static let version = 2
    static let readableVersions: ClosedRange<Int> = 1...2

    public struct Entry: Codable, Sendable, Hashable {
        public var fingerprint: String
        public var rule: String
        public var file: String
        /// The finding's normalised code and line when accepted: what recognises it after the
        /// line next to it changed. Absent in version 1 files.
        public var code: String?
        public var line: Int?

        public init(fingerprint: String, rule: String, file: String, code: String? = nil, line: Int? = nil) {
            self.fingerprint = fingerprint
            self.rule = rule
            self.file = file
            self.code = code
            self.line = line
        }

        var identity: FindingIdentity {
            FindingIdentity(fingerprint: fingerprint, ruleID: rule, file: file, snippet: code ?? "", line: line ?? 0)
        }
    }

    /// Sorted by file, rule and fingerprint, so a rewritten baseline diffs cleanly in review.
    public private(set) var entries: [Entry]

    public init(findings: [Finding]) {
        entries = Set(findings.map { Entry(fingerprint: $0.fingerprint, rule: $0.ruleID, file: $0.location.file,
                                           code: $0.snippet, line: $0.location.line) })
            .sorted { ($0.file, $0.rule, $0.fingerprint) < ($1.file, $1.rule, $1.fingerprint) }
    }

    /// Reads a baseline file's bytes; `file` names it in errors.
    public init(data: Data, file: String) throws {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw BaselineError.malformed(file: file, reason: "not valid JSON: \((error as NSError).localizedDescription)")
        }
        guard let root = object as? [String: Any] else {
            throw BaselineError.malformed(file: file, reason: "the top level must be an object")
        }
        guard let version = root["version"] as? Int, !AuditConfig.isJSONBoolean(root["version"] as Any) else {
            throw BaselineError.malformed(file: file, reason: "\"version\" must be a number")
        }
        guard Self.readableVersions.contains(version) else { throw BaselineError.unsupportedVersion(file: file, version: version) }
        guard let list = root["findings"] as? [Any] else {
            throw BaselineError.malformed(file: file, reason: "\"findings\" must be a list")
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            guard let fields = item as? [String: Any], let fingerprint = fields["fingerprint"] as? String, !fingerprint.isEmpty else {
                throw BaselineError.malformed(file: file, reason: "findings[\(index)] has no \"fingerprint\" string")
            }
            entries.append(Entry(fingerprint: fingerprint, rule: fields["rule"] as? String ?? "", file: fields["file"] as? String ?? "",
                                 code: fields["code"] as? String, line: (fields["line"] as? Int).flatMap { $0 > 0 ? $0 : nil }))
        }
        self.entries = entries
    }

    /// The file's bytes: pretty-printed with sorted keys, one entry a few lines, ending in a newline.
    public func encoded() throws -> Data {
        struct File: Encodable {
            let version: Int
            let tool: String
            let findings: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(File(version: Self.version, tool: "a11y-audit \(Scanner.toolVersion)", findings: entries)) + Data("\n".utf8)
    }

    /// The report without the findings this baseline holds, with a note saying how many were
    /// left out and how many entries match no finding any more; `file` names the baseline there.
    /// A report of some files only (`reportedFiles`) can say that only of those files' entries.
    public func apply(to report: ScanReport, file: String) -> ScanReport {
        let matches = FindingMatcher.match(previous: entries.map(\.identity), current: report.findings.map(FindingIdentity.init),
                                           legacy: report.findings.legacyFingerprints())
        let matched = Set(matches.compactMap { $0 })
        let reported = report.reportedFiles.map(Set.init)
        let stale = entries.indices.filter { !matched.contains($0) && (reported?.contains(entries[$0].file) ?? true) }.count
        var filtered = report
        filtered.findings = report.findings.indices.filter { matches[$0] == nil }.map { report.findings[$0] }
        let outcome = BaselineOutcome(file: file, matched: report.findings.count - filtered.findings.count, stale: stale)
        filtered.baseline = outcome
        filtered.notes.append(ScanNote(kind: .baseline, file: ".", message: outcome.message))
        return filtered
    }
}

extension Baseline {
    /// The baseline a scan is held to, read and checked before the scan runs.
    public enum Choice: Sendable {
        /// Read; `name` is how the report names it (as given on the command line or in the config).
        case file(Baseline, name: String)
        /// The config names one, but an archive's files are not on disk, and an archive scan
        /// keeps only the files it checks.
        case notReadFromArchive(name: String)

        public func apply(to report: ScanReport) -> ScanReport {
            switch self {
            case .file(let baseline, let name):
                return baseline.apply(to: report, file: name)
            case .notReadFromArchive(let name):
                var noted = report
                noted.notes.append(ScanNote(kind: .baseline, file: AuditConfig.fileName,
                                            message: "baseline \(name) is not read from an archive; pass it with --baseline FILE"))
                return noted
            }
        }
    }

    /// `--baseline`'s file (`flag`, a path as given), else the config's (`configured`, relative
    /// to the scanned root), else none. A file that is named but missing is an error: a typo
    /// must not quietly turn the gate into one on the whole backlog.
    public static func choose(flag: String?, configured: String?, root: String, rootIsDirectory: Bool) throws -> Choice? {
        let path: String
        let name: String
        if let flag {
            (path, name) = (flag, flag)
        } else if let configured {
            guard rootIsDirectory else { return .notReadFromArchive(name: configured) }
            (path, name) = (root + "/" + configured, configured)
        } else {
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw BaselineError.notFound(file: path) }
        return .file(try Baseline(data: data, file: path), name: name)
    }
}

/// What a baseline did to one report.
public struct BaselineOutcome: Codable, Sendable, Equatable {
    /// The baseline file, as given.
    public var file: String
    /// Findings left out because the baseline holds them.
    public var matched: Int
    /// Baseline entries no finding matches any more: fixed, or the code changed. Writing the
    /// baseline again drops them.
    public var stale: Int

    public init(file: String, matched: Int, stale: Int) {
        self.file = file
        self.matched = matched
        self.stale = stale
    }

    public var message: String {
        let left = "baseline \(file): \(matched) finding\(matched == 1 ? "" : "s") left out"
        guard stale > 0 else { return left }
        return left + "; \(stale) entr\(stale == 1 ? "y matches" : "ies match") no finding any more (fixed or changed): "
            + "--write-baseline \(file) prunes \(stale == 1 ? "it" : "them")"
    }
}
