import AuditModel
import Foundation
import GitHubClient
import OrgModel

/// Every repository of a GitHub organisation, listed through the REST API (paginated by `Link`
/// headers), filtered by the config's include/exclude patterns; archived repositories and forks
/// only when asked. The token comes from the environment variable the config names.
public struct GitHubDiscovery: Sendable {
    let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) { self.environment = environment }

    public func repositories(for config: OrgConfig) throws -> [OrgConfig.Repository] {
        guard let discovery = config.discovery else { return [] }
        let variable = config.providers?.github?.tokenEnvironment ?? "GITHUB_TOKEN"
        let api = try GitHubAPI(configuration: GitHubConfiguration(
            apiBaseURL: config.providers?.github?.api ?? "https://api.github.com", token: environment[variable]))
        let include = (discovery.include ?? []).map(Glob.init)
        let exclude = (discovery.exclude ?? []).map(Glob.init)
        return try api.listOrganizationRepositories(discovery.githubOrg).compactMap { found in
            if found.archived && discovery.includeArchived != true { return nil }
            if found.fork && discovery.includeForks != true { return nil }
            if !include.isEmpty && !include.contains(where: { $0.matches(found.name) || $0.matches(found.fullName) }) { return nil }
            if exclude.contains(where: { $0.matches(found.name) || $0.matches(found.fullName) }) { return nil }
            return OrgConfig.Repository(name: found.fullName, team: discovery.team, defaultBranch: found.defaultBranch, provider: .github)
        }
    }
}
