import AuditModel
import AuditStore
import Foundation
import OrgModel
import PostgresClient
import PullRequestVerdict

/// A generated organisation history written through the real pipeline tables: the org config is
/// saved, each night is scheduled, every job is claimed and completed with synthetic findings by
/// `HistoryWriter` (the worker's own writer). Deterministic for a given seed.
public struct FixtureHistory {
    public let teams: Int
    public let repositories: Int
    public let nights: Int
    public let seed: UInt64
    /// Extra findings planted in the first repository on the last night.
    public var planted: [Finding] = []
    /// Adds a checked pull request of the first repository.
    public var withPullRequest = false
    /// Data as real organisations have it, for layout checks: long team and repository names,
    /// a first repository with about a thousand open findings (some needing review), forge
    /// archive URLs, and a manual run on the last night's date.
    public var realistic = false

    public init(teams: Int = 3, repositories: Int = 12, nights: Int = 30, seed: UInt64 = 7) {
        self.teams = teams; self.repositories = repositories; self.nights = nights; self.seed = seed
    }

    public static let rules: [(id: String, kind: RuleKind, severity: Severity)] = [
        ("fixed-font-size", .requirement, .error), ("accessibility-label-raw-identifier", .requirement, .error),
        ("insufficient-contrast", .requirement, .error), ("text-below-minimum-size", .recommendation, .warning),
        ("tap-gesture-missing-trait", .recommendation, .warning), ("hard-coded-color-literal", .recommendation, .warning),
        ("sf-symbol-default-label", .advisory, .note), ("color-only-status", .requirement, .error),
    ]

    public var config: OrgConfig {
        let names = realistic
            ? ["Payments and Checkout Experience", "Design System & Shared Components", "Growth, Onboarding and Retention", "Platform Infrastructure"]
            : ["Payments", "Design System", "Growth & Retention", "Platform"]
        let teamNames = (0..<teams).map { names[$0 % 4] + ($0 >= 4 ? " \($0)" : "") }
        var config = OrgConfig(
            org: "fixture",
            teams: teamNames.map { OrgConfig.Team(name: $0, owners: ["@fixture/\(OrgConfig.slug($0))"]) },
            repositories: (0..<repositories).map { index in
                let name = realistic ? "fixture/" + Self.realisticNames[index % Self.realisticNames.count] + "-\(index)" : "fixture/app-\(index)"
                return OrgConfig.Repository(name: name, team: teamNames[index % teamNames.count],
                                            archive: realistic ? "https://github.com/\(name)/archive/{ref}.tar.gz" : "file:///fixtures/app-\(index).tar.gz")
            })
        config.limits = .init(maxAttempts: 2)
        return config
    }

    static let realisticNames = ["payments-checkout-experience-ios", "DesignSystemComponentsCatalogue", "growth-onboarding-and-retention-flows",
                                 "platform-shared-networking-kit", "ConsumerBankingMobileApplication"]

    /// The date of night `index` (0-based), counting from 2026-10-01.
    public static func date(_ index: Int) -> String {
        // 2026-10-01T12:00:00Z plus whole days: UTC has no daylight-saving shifts.
        let day = Date(timeIntervalSince1970: 1_790_856_000 + Double(index) * 86_400)
        return CronSchedule.localDate(of: day, in: TimeZone(secondsFromGMT: 0) ?? .current)
    }

    /// Findings of repository `repository` on night `night`: a stable core, a few that come and
    /// go, and one that is fixed halfway through.
    public func findings(repository: Int, night: Int) -> [Finding] {
        var list: [Finding] = []
        let core = 3 + repository % 4
        for index in 0..<core {
            let rule = Self.rules[(repository + index) % Self.rules.count]
            list.append(Self.finding(rule, file: "App/Screen\(index).swift", line: 10 + index, code: "core-\(index)"))
        }
        if night < nights / 2 {
            list.append(Self.finding(Self.rules[1], file: "App/Legacy.swift", line: 4, code: "legacy"))
        }
        for index in 0..<3 where (night + repository + index) % 5 == 0 {
            list.append(Self.finding(Self.rules[(index + 3) % Self.rules.count], file: "App/Churn\(index).swift", line: 7, code: "churn-\(index)"))
        }
        if repository == 0 && night == nights - 1 { list += planted }
        if realistic && repository == 0 {
            // A large legacy app: about a thousand open findings over sixty files.
            for index in 0..<1000 {
                let rule = Self.rules[index % Self.rules.count]
                var finding = Self.finding(rule, file: "Sources/LegacyCheckoutFlow/Screens/CheckoutStep\(index % 60)ViewController.swift",
                                           line: 20 + index, code: "legacy-\(index)",
                                           message: "\(rule.id): `Text(\"legacy-\(index)\")` in CheckoutStep\(index % 60)ViewController")
                if index % 9 == 0 { finding.certainty = .review; finding.severity = .note }
                if rule.id == "fixed-font-size", index % 2 == 0 { Self.addFontCorrection(to: &finding) }
                list.append(finding)
            }
        }
        list.assignFingerprints()
        return list
    }

    public static func finding(_ rule: (id: String, kind: RuleKind, severity: Severity), file: String, line: Int, code: String,
                               message: String? = nil) -> Finding {
        Finding(ruleID: rule.id, kind: rule.kind, severity: rule.severity, location: SourceLocation(file: file, line: line, column: 9),
                message: message ?? "\(rule.id) in \(file)", fix: "", citation: Citation("HIG", ""), platforms: .all,
                snippet: "Text(\"\(code)\")", sourceLine: "        Text(\"\(code)\")")
    }

    /// Gives a fixed-size text finding the mechanical fix the scanner offers: its line reads
    /// `.font(.system(size: 17))`, and the fix makes it `.font(.body)`.
    static func addFontCorrection(to finding: inout Finding) {
        let prefix = finding.sourceLine + ".font("
        finding.sourceLine = prefix + ".system(size: 17))"
        let start = prefix.unicodeScalars.count + 1
        finding.correction = Correction(summary: "Use `.body`: the text style whose default size is 17 pt", edits: [
            TextEdit(file: finding.location.file, start: TextPoint(offset: 0, line: finding.location.line, column: start),
                     end: TextPoint(offset: 17, line: finding.location.line, column: start + 17), replacement: ".body"),
        ])
    }

    /// Writes every night; returns the run ids, oldest first.
    @discardableResult
    public func write(to connection: PostgresConnection) throws -> [Int] {
        let config = self.config
        try OrgStore(connection: connection).sync(config)
        let teamIDs = try OrgStore(connection: connection).teamIDs(org: config.org)
        var runs: [Int] = []
        for night in 0..<nights {
            guard case .created(let run, _) = try OrgStore(connection: connection).scheduleRun(
                config, date: Self.date(night), createdBy: "fixture", archiveURL: { repository, _ in repository.archive ?? "" }) else { continue }
            runs.append(run)
            let queue = JobQueue(connection: connection)
            while let job = try queue.claim(worker: "fixture") {
                let index = Int(job.repositoryName.split(separator: "-").last.map(String.init) ?? "") ?? 0
                // The last repository fails on the last night: the dashboard shows a dead job.
                if index == repositories - 1 && night == nights - 1 {
                    _ = try queue.fail(job, error: "HTTP 404 from the archive host: repository not found", retryable: false)
                    continue
                }
                let team = teamIDs[config.repositories[index].team]
                let results = JobResults(findings: findings(repository: index, night: night).map { .init(finding: $0, teamID: team) },
                                         filesScanned: 20, filesParsed: night == 0 ? 20 : 1, cacheHits: night == 0 ? 0 : 19,
                                         suppressed: index % 3, fetchMilliseconds: 12, scanMilliseconds: 80,
                                         commitSHA: String(repeating: String(format: "%x", index % 16), count: 40))
                _ = try queue.complete(job) { try HistoryWriter(connection: $0).write(results, for: job) }
            }
        }
        if realistic, nights > 0 {
            // A second run on the last night's date, started by a person.
            guard case .created(let run, _) = try OrgStore(connection: connection).scheduleRun(
                config, date: Self.date(nights - 1), kind: .manual, createdBy: "fixture",
                archiveURL: { repository, _ in repository.archive ?? "" }) else { return runs }
            runs.append(run)
            let queue = JobQueue(connection: connection)
            while let job = try queue.claim(worker: "fixture") {
                let index = Int(job.repositoryName.split(separator: "-").last.map(String.init) ?? "") ?? 0
                var findings = findings(repository: index, night: nights - 1)
                if index == 1 { findings.append(Self.finding(Self.rules[2], file: "App/ManualRun.swift", line: 3, code: "manual")) }
                findings.assignFingerprints()
                let team = teamIDs[config.repositories[index].team]
                let results = JobResults(findings: findings.map { .init(finding: $0, teamID: team) }, filesScanned: 20, filesParsed: 1,
                                         cacheHits: 19, commitSHA: String(repeating: String(format: "%x", (index + 3) % 16), count: 40))
                _ = try queue.complete(job) { try HistoryWriter(connection: $0).write(results, for: job) }
            }
        }
        if withPullRequest { try writePullRequest(connection) }
        return runs
    }

    /// A checked pull request of the first repository: one new finding, one fixed.
    func writePullRequest(_ connection: PostgresConnection) throws {
        guard let name = config.repositories.first?.name,
              let repository = try OrgStore(connection: connection).repositoryID(org: config.org, name: name) else { return }
        let headSHA = String(repeating: "e", count: 40), baseSHA = String(repeating: "d", count: 40)
        let queue = JobQueue(connection: connection)
        _ = try queue.enqueue(JobRequest(runID: nil, repositoryID: repository, kind: .pr, commitRef: headSHA, archiveURL: "file:///head",
                                         priority: 100, prNumber: 42, baseSHA: baseSHA, baseRef: "main", baseArchiveURL: "file:///base"))
        guard let job = try queue.claim(worker: "fixture") else { return }
        let base = findings(repository: 0, night: nights - 1)
        var head = Array(base.dropFirst())
        head.append(Self.finding(Self.rules[0], file: "App/Checkout.swift", line: 12, code: "pr-new"))
        head.assignFingerprints()
        let comparison = PullRequestComparison(head: head, base: base, changedFiles: ["App/Checkout.swift", base[0].location.file])
        _ = try queue.complete(job) { connection in
            try HistoryWriter(connection: connection).write(JobResults(findings: head.map { .init(finding: $0, teamID: nil) },
                                                                       filesScanned: 20, filesParsed: 2, cacheHits: 18), for: job)
            try PullRequestStore(connection: connection).complete(job, comparison: comparison)
        }
    }
}
