import Foundation

/// Which of GitHub's rate limits stopped a request.
public enum GitHubRateLimit: String, Sendable, Equatable {
    /// The hourly request budget (`x-ratelimit-remaining: 0`, resets at `x-ratelimit-reset`).
    case primary
    /// Abuse protection (`retry-after`, or a message saying so).
    case secondary
}

/// Why a GitHub API call failed. `endpoint` is the method and URL, never the token.
public indirect enum GitHubError: Error, CustomStringConvertible, Equatable {
    case invalidConfiguration(String)
    case invalidArgument(String)
    /// GitHub answered with an error status; `message` and `documentationURL` are GitHub's own,
    /// `details` the `errors` of a 422.
    case http(endpoint: String, status: Int, message: String?, documentationURL: String?, details: [String], attempts: Int)
    /// A rate limit that lasts longer than we may wait (or still holds after every attempt).
    case rateLimited(endpoint: String, limit: GitHubRateLimit, resetsAt: Date, message: String?)
    case transport(endpoint: String, reason: String, attempts: Int)
    case responseTooLarge(endpoint: String, limit: Int)
    case invalidResponse(endpoint: String, reason: String)
    /// A pagination link to another host: following it would send the token there.
    case foreignLink(endpoint: String, link: String)
    case tooManyPages(endpoint: String, limit: Int)
    /// A check run was created but not every annotation batch reached it. The run exists
    /// (`checkRunID`); the remaining annotations can be sent with `updateCheckRun`.
    case checkRunIncomplete(checkRunID: Int, annotationsSent: Int, annotationsTotal: Int, cause: GitHubError)

    public var description: String {
        switch self {
        case .invalidConfiguration(let reason):
            return "GitHub client configuration: \(reason)"
        case .invalidArgument(let reason):
            return "GitHub request not sent: \(reason)"
        case .http(let endpoint, let status, let message, let documentationURL, let details, let attempts):
            var text = "\(endpoint): HTTP \(status)"
            if let message, !message.isEmpty { text += ": \(message)" }
            if !details.isEmpty { text += " (\(details.joined(separator: "; ")))" }
            text += Self.hint(status)
            if let documentationURL, !documentationURL.isEmpty { text += " See \(documentationURL)" }
            if attempts > 1 { text += " (after \(attempts) attempts)" }
            return text
        case .rateLimited(let endpoint, let limit, let resetsAt, let message):
            let formatter = ISO8601DateFormatter()
            let seconds = max(0, Int(resetsAt.timeIntervalSinceNow.rounded(.up)))
            var text = "\(endpoint): GitHub's \(limit.rawValue) rate limit is exhausted; it resets at \(formatter.string(from: resetsAt)) (in \(seconds) s)"
            if let message, !message.isEmpty { text += ". GitHub says: \(message)" }
            return text
        case .transport(let endpoint, let reason, let attempts):
            return "\(endpoint): \(reason)\(attempts > 1 ? " (after \(attempts) attempts)" : "")"
        case .responseTooLarge(let endpoint, let limit):
            return "\(endpoint): response is over the \(limit)-byte limit"
        case .invalidResponse(let endpoint, let reason):
            return "\(endpoint): unexpected response from GitHub (\(reason))"
        case .foreignLink(let endpoint, let link):
            return "\(endpoint): the next page is on another host (\(link)); not followed, so the token stays with the API host"
        case .tooManyPages(let endpoint, let limit):
            return "\(endpoint): more than \(limit) pages; stopped"
        case .checkRunIncomplete(let id, let sent, let total, let cause):
            return "check run \(id) was created but only \(sent) of \(total) annotations were sent: \(cause)"
        }
    }

    private static func hint(_ status: Int) -> String {
        switch status {
        case 401: ". The token is missing, wrong or expired."
        case 403: ". The token lacks a permission or scope this call needs."
        case 404: ". Check the owner, repository and sha; GitHub also answers 404 when the token cannot see a private resource."
        case 422: ". GitHub refused the request's content."
        default: ""
        }
    }
}

/// GitHub's error body: `{"message": "...", "documentation_url": "...", "errors": [...]}`.
struct GitHubErrorBody: Decodable {
    let message: String?
    let documentationURL: String?
    let errors: [Detail]?

    /// An entry of `errors`: an object (`resource`, `field`, `code`, `message`) or, on some
    /// endpoints, a bare string.
    struct Detail: Decodable {
        let text: String

        private enum Keys: String, CodingKey { case resource, field, code, message }

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer().decode(String.self) {
                text = single
                return
            }
            let object = try decoder.container(keyedBy: Keys.self)
            if let message = try object.decodeIfPresent(String.self, forKey: .message) {
                text = message
            } else {
                text = try [Keys.resource, .field, .code].compactMap { try object.decodeIfPresent(String.self, forKey: $0) }
                    .joined(separator: " ")
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case message, errors
        case documentationURL = "documentation_url"
    }

    static func parse(_ body: [UInt8]) -> GitHubErrorBody? {
        try? JSONDecoder().decode(GitHubErrorBody.self, from: Data(body))
    }
}
