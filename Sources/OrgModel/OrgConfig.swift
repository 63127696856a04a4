import AuditModel
import Foundation

public enum OrgConfigError: Error, CustomStringConvertible, Equatable {
    case unreadable(file: String)
    case malformed(file: String, reason: String)
    case unknownKey(file: String, path: String, allowed: [String])
    case badValue(file: String, path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file): "\(file): cannot read the organisation config"
        case .malformed(let file, let reason): "\(file): not valid JSON (\(reason))"
        case .unknownKey(let file, let path, let allowed):
            "\(file): unknown key \(path); allowed here: \(allowed.joined(separator: ", "))"
        case .badValue(let file, let path, let reason): "\(file): \(path): \(reason)"
        }
    }
}

/// The organisation config read by the coordinator: its teams, repositories, schedule, limits
/// and retention. docs/org-config.md documents every key.
public struct OrgConfig: Sendable, Equatable, Codable {
    public struct Team: Sendable, Equatable, Codable {
        public var name: String
        /// CODEOWNERS owners (`@acme/payments`, `@alice`, `alice@example.com`) meaning this team.
        public var owners: [String]?
        public init(name: String, owners: [String]? = nil) { self.name = name; self.owners = owners }
    }

    public enum Provider: String, Sendable, Codable, Equatable { case github, gitlab, url }

    public struct Repository: Sendable, Equatable, Codable {
        /// `owner/name` (GitHub), the project path (GitLab), or any unique name (url).
        public var name: String
        public var team: String
        public var defaultBranch: String?
        public var provider: Provider?
        /// An archive URL (`https://`, `file://`); `{ref}` is replaced by the commit or branch.
        public var archive: String?
        /// This repository's pull-request gate, overriding `pullRequests.gate`.
        public var gate: String?
        public init(name: String, team: String, defaultBranch: String? = nil, provider: Provider? = nil, archive: String? = nil,
                    gate: String? = nil) {
            self.name = name; self.team = team; self.defaultBranch = defaultBranch
            self.provider = provider; self.archive = archive; self.gate = gate
        }
        public var resolvedProvider: Provider { provider ?? (archive != nil ? .url : .github) }
        public var branch: String { defaultBranch ?? "main" }
    }

    public struct ProviderSettings: Sendable, Equatable, Codable {
        /// API base URL (GitHub Enterprise: `https://ghe.example.com/api/v3`).
        public var api: String?
        /// The environment variable holding the token (never the token itself).
        public var tokenEnvironment: String?
        public init(api: String? = nil, tokenEnvironment: String? = nil) { self.api = api; self.tokenEnvironment = tokenEnvironment }
    }

    public struct Providers: Sendable, Equatable, Codable {
        public var github: ProviderSettings?
        public var gitlab: ProviderSettings?
        public init(github: ProviderSettings? = nil, gitlab: ProviderSettings? = nil) { self.github = github; self.gitlab = gitlab }
    }

    public struct Discovery: Sendable, Equatable, Codable {
        /// The GitHub organisation whose repositories are listed through the REST API.
        public var githubOrg: String
        /// The team of discovered repositories that no `repositories` entry names.
        public var team: String
        public var include: [String]?
        public var exclude: [String]?
        public var includeArchived: Bool?
        public var includeForks: Bool?
        public init(githubOrg: String, team: String, include: [String]? = nil, exclude: [String]? = nil,
                    includeArchived: Bool? = nil, includeForks: Bool? = nil) {
            self.githubOrg = githubOrg; self.team = team; self.include = include; self.exclude = exclude
            self.includeArchived = includeArchived; self.includeForks = includeForks
        }
    }

    /// Pull-request checks: when they fail, and whether drafts are checked.
    public struct PullRequests: Sendable, Equatable, Codable {
        /// `requirements` (default): fail on new requirement-level findings; `any`; `never`.
        public var gate: String?
        public var includeDrafts: Bool?
        public init(gate: String? = nil, includeDrafts: Bool? = nil) { self.gate = gate; self.includeDrafts = includeDrafts }
    }

    public static let gates = ["requirements", "any", "any-including-review", "never"]

    public struct Schedule: Sendable, Equatable, Codable {
        public var cron: String
        public var timeZone: String?
        public init(cron: String, timeZone: String? = nil) { self.cron = cron; self.timeZone = timeZone }
    }

    /// Settings of the jobs the coordinator enqueues. (How many jobs run at once, leases and
    /// archive size caps are the workers' flags: workers never read this file.)
    public struct Limits: Sendable, Equatable, Codable {
        /// Attempts per job before it is dead.
        public var maxAttempts: Int?
        /// Wall-clock seconds one job's checks may take (both snapshots of a pull request
        /// together) before the worker stops them; unset: the worker's `--job-seconds`.
        public var jobSeconds: Int?
        /// Resident memory one job's checks may use; unset: the worker's `--job-memory-mb`.
        public var jobMemoryMB: Int?
        public init(maxAttempts: Int? = nil, jobSeconds: Int? = nil, jobMemoryMB: Int? = nil) {
            self.maxAttempts = maxAttempts
            self.jobSeconds = jobSeconds
            self.jobMemoryMB = jobMemoryMB
        }
    }

    public var org: String
    public var teams: [Team]
    public var repositories: [Repository]
    public var providers: Providers?
    public var discovery: Discovery?
    public var schedule: Schedule?
    public var limits: Limits?
    public var pullRequests: PullRequests?
    public var retentionDays: Int?

    /// The gate of a repository's pull requests.
    public func gate(for repository: String) -> String {
        repositories.first { $0.name == repository }?.gate ?? pullRequests?.gate ?? "requirements"
    }

    public var maxAttempts: Int { limits?.maxAttempts ?? 5 }
    public var timeZone: TimeZone { schedule?.timeZone.flatMap(TimeZone.init(identifier:)) ?? Self.utc }

    static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

    public func team(named name: String) -> Team? { teams.first { $0.name == name } }

    /// The allowed keys at each level, checked before decoding so a typo is an error, not a
    /// silently ignored setting.
    static let schema: [String: [String]] = [
        "": ["org", "teams", "repositories", "providers", "discovery", "schedule", "limits", "pullRequests", "retentionDays"],
        "pullRequests": ["gate", "includeDrafts"],
        "teams[]": ["name", "owners"],
        "repositories[]": ["name", "team", "defaultBranch", "provider", "archive", "gate"],
        "providers": ["github", "gitlab"],
        "providers.github": ["api", "tokenEnvironment"],
        "providers.gitlab": ["api", "tokenEnvironment"],
        "discovery": ["githubOrg", "team", "include", "exclude", "includeArchived", "includeForks"],
        "schedule": ["cron", "timeZone"],
        "limits": ["maxAttempts", "jobSeconds", "jobMemoryMB"],
    ]

    public static func load(path: String) throws -> OrgConfig {
        guard let data = FileManager.default.contents(atPath: path) else { throw OrgConfigError.unreadable(file: path) }
        return try OrgConfig(data: data, file: path)
    }

    public init(data: Data, file: String) throws {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw OrgConfigError.malformed(file: file, reason: (error as NSError).localizedDescription)
        }
        try Self.checkKeys(object, schemaPath: "", displayPath: "", file: file)
        do {
            self = try JSONDecoder().decode(OrgConfig.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw OrgConfigError.badValue(file: file, path: Self.path(context.codingPath + [key]), reason: "is required")
        } catch let DecodingError.typeMismatch(type, context) {
            throw OrgConfigError.badValue(file: file, path: Self.path(context.codingPath), reason: "expected \(Self.describe(type))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw OrgConfigError.badValue(file: file, path: Self.path(context.codingPath), reason: "expected \(Self.describe(type)), found null")
        } catch let DecodingError.dataCorrupted(context) {
            throw OrgConfigError.badValue(file: file, path: Self.path(context.codingPath), reason: context.debugDescription)
        }
        try validate(file: file)
    }

    public init(org: String, teams: [Team], repositories: [Repository], schedule: Schedule? = nil) {
        self.org = org; self.teams = teams; self.repositories = repositories; self.schedule = schedule
    }

    private func validate(file: String) throws {
        func bad(_ path: String, _ reason: String) -> OrgConfigError { .badValue(file: file, path: path, reason: reason) }
        guard !org.isEmpty else { throw bad("org", "must not be empty") }
        var teamNames = Set<String>()
        for (index, team) in teams.enumerated() {
            guard !team.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw bad("teams[\(index)].name", "must not be empty") }
            guard teamNames.insert(team.name).inserted else { throw bad("teams[\(index)].name", "team \"\(team.name)\" is listed twice") }
            guard !Self.slug(team.name).isEmpty else { throw bad("teams[\(index)].name", "needs at least one letter or digit") }
        }
        let slugs = Dictionary(grouping: teams, by: { Self.slug($0.name) })
        if let clash = slugs.first(where: { $0.value.count > 1 }) {
            throw bad("teams", "teams \(clash.value.map { "\"\($0.name)\"" }.joined(separator: " and ")) have the same URL name \"\(clash.key)\"")
        }
        var repositoryNames = Set<String>()
        for (index, repository) in repositories.enumerated() {
            let path = "repositories[\(index)]"
            guard !repository.name.isEmpty else { throw bad("\(path).name", "must not be empty") }
            guard repositoryNames.insert(repository.name).inserted else {
                throw bad("\(path).name", "repository \"\(repository.name)\" is listed twice")
            }
            guard teamNames.contains(repository.team) else {
                throw bad("\(path).team", "\"\(repository.team)\" is not one of the teams (\(teams.map(\.name).joined(separator: ", ")))")
            }
            switch repository.resolvedProvider {
            case .url:
                guard let archive = repository.archive, let url = URL(string: archive),
                      ["https", "http", "file"].contains(url.scheme ?? "") else {
                    throw bad("\(path).archive", "needs an https://, http:// or file:// URL")
                }
            case .github, .gitlab:
                guard repository.name.contains("/") else {
                    throw bad("\(path).name", "a \(repository.resolvedProvider.rawValue) repository is named owner/name")
                }
            }
        }
        if let discovery {
            guard teamNames.contains(discovery.team) else { throw bad("discovery.team", "\"\(discovery.team)\" is not one of the teams") }
        }
        if let schedule {
            do { _ = try CronSchedule(schedule.cron) } catch let error as CronSchedule.ParseError {
                throw bad("schedule.cron", error.description)
            }
            if let zone = schedule.timeZone, TimeZone(identifier: zone) == nil {
                throw bad("schedule.timeZone", "\"\(zone)\" is not an IANA time zone (like \"Europe/Berlin\" or \"UTC\")")
            }
        }
        if let attempts = limits?.maxAttempts, attempts <= 0 || attempts > 100 {
            throw bad("limits.maxAttempts", "must be between 1 and 100")
        }
        if let seconds = limits?.jobSeconds, seconds < 1 || seconds > 86_400 {
            throw bad("limits.jobSeconds", "must be between 1 and 86400 (a day)")
        }
        if let megabytes = limits?.jobMemoryMB, megabytes < 64 || megabytes > 1_048_576 {
            throw bad("limits.jobMemoryMB", "must be between 64 and 1048576")
        }
        for (index, repository) in repositories.enumerated() {
            if let gate = repository.gate, !Self.gates.contains(gate) {
                throw bad("repositories[\(index)].gate", "\"\(gate)\" is not one of \(Self.gates.joined(separator: ", "))")
            }
        }
        if let gate = pullRequests?.gate, !Self.gates.contains(gate) {
            throw bad("pullRequests.gate", "\"\(gate)\" is not one of \(Self.gates.joined(separator: ", "))")
        }
        if let retentionDays, retentionDays <= 0 { throw bad("retentionDays", "must be a positive number of days") }
    }

    /// The team's name as it appears in dashboard URLs: lowercase ASCII letters, digits and dashes.
    public static func slug(_ name: String) -> String {
        var slug = ""
        // "Équipe Über" → "equipe-uber": accents folded first, anything else non-ASCII separates.
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        for scalar in folded.lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    private static func checkKeys(_ value: Any, schemaPath: String, displayPath: String, file: String) throws {
        if let object = value as? [String: Any] {
            if let allowed = schema[schemaPath] {
                for key in object.keys.sorted() where !allowed.contains(key) {
                    throw OrgConfigError.unknownKey(file: file, path: displayPath.isEmpty ? key : "\(displayPath).\(key)", allowed: allowed)
                }
            }
            for (key, child) in object {
                let childSchema = schemaPath.isEmpty ? key : "\(schemaPath).\(key)"
                try checkKeys(child, schemaPath: childSchema, displayPath: displayPath.isEmpty ? key : "\(displayPath).\(key)", file: file)
            }
        } else if let array = value as? [Any] {
            for (index, child) in array.enumerated() {
                try checkKeys(child, schemaPath: schemaPath + "[]", displayPath: "\(displayPath)[\(index)]", file: file)
            }
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return text.isEmpty ? "(top level)" : text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "a value of the documented kind"
        }
    }
}

extension OrgConfig {
    /// The URL of a repository's archive at `ref`: GitHub's and GitLab's archive endpoints (API
    /// base configurable for GitHub Enterprise and self-hosted GitLab), or the configured URL
    /// with `{ref}` filled in.
    public func archiveURL(for repository: Repository, ref: String) -> String {
        let encodedRef = ref.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? ref
        switch repository.resolvedProvider {
        case .github:
            let api = providers?.github?.api ?? "https://api.github.com"
            return "\(Self.trimmedBase(api))/repos/\(repository.name)/tarball/\(encodedRef)"
        case .gitlab:
            let api = providers?.gitlab?.api ?? "https://gitlab.com/api/v4"
            let project = repository.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? repository.name
            return "\(Self.trimmedBase(api))/projects/\(project)/repository/archive.tar.gz?sha=\(encodedRef)"
        case .url:
            return (repository.archive ?? "").replacingOccurrences(of: "{ref}", with: encodedRef)
        }
    }

    private static func trimmedBase(_ url: String) -> String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
