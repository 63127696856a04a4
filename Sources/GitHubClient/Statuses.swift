import Foundation

/// A commit status to set (`POST /repos/{owner}/{repo}/statuses/{sha}`).
public struct CommitStatus: Sendable, Equatable {
    public enum State: String, Sendable, Codable {
        case pending, success, failure, error
    }

    /// GitHub's limit on a status description.
    public static let maxDescriptionCharacters = 140

    public var state: State
    public var targetURL: String?
    /// Cut to 140 characters (on a character boundary, ending in "…") when sent.
    public var description: String?
    public var context: String

    public init(state: State, targetURL: String? = nil, description: String? = nil, context: String = "a11y-audit") {
        self.state = state
        self.targetURL = targetURL
        self.description = description
        self.context = context
    }
}

/// What GitHub recorded for a status it created.
public struct CreatedCommitStatus: Sendable, Equatable, Decodable {
    public let id: Int
    public let state: CommitStatus.State
    public let description: String?
    public let targetURL: String?
    public let context: String

    private enum CodingKeys: String, CodingKey {
        case id, state, description, context
        case targetURL = "target_url"
    }
}

private struct CommitStatusBody: Encodable, Sendable {
    let state: CommitStatus.State
    let targetURL: String?
    let description: String?
    let context: String

    enum CodingKeys: String, CodingKey {
        case state, description, context
        case targetURL = "target_url"
    }
}

extension GitHubAPI {
    @discardableResult
    public func createCommitStatus(owner: String, repository: String, sha: String,
                                   _ status: CommitStatus) throws(GitHubError) -> CreatedCommitStatus {
        let path = "/repos/\(try Self.pathSegment(owner, what: "owner"))/\(try Self.pathSegment(repository, what: "repository"))"
            + "/statuses/\(try Self.pathSegment(sha, what: "commit sha"))"
        let body = CommitStatusBody(state: status.state, targetURL: status.targetURL,
                                    description: status.description.map {
                                        GitHubText.truncated($0, toCharacters: CommitStatus.maxDescriptionCharacters)
                                    },
                                    context: status.context)
        return try send(.post, path, body: body).decode(CreatedCommitStatus.self)
    }
}
