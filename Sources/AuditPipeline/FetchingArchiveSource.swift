import ArchiveFetch
import AuditStore
import Foundation

/// Downloads a job's archive with libcurl (`https://`, `http://`, `file://`) into the job's
/// private folder. GitHub and GitLab archives get the provider's token from the worker's
/// environment (`GITHUB_TOKEN`, `GITLAB_TOKEN`): workers hold the credentials, the database never does.
public struct FetchingArchiveSource: ArchiveSource {
    let fetcher: ArchiveFetcher
    let tokens: [String: String]

    public init(options: FetchOptions = FetchOptions(), environment: [String: String] = ProcessInfo.processInfo.environment,
                onRetry: (@Sendable (FetchRetry) -> Void)? = nil) {
        fetcher = ArchiveFetcher(options: options, onRetry: onRetry)
        var tokens: [String: String] = [:]
        if let token = environment["GITHUB_TOKEN"], !token.isEmpty { tokens["github"] = token }
        if let token = environment["GITLAB_TOKEN"], !token.isEmpty { tokens["gitlab"] = token }
        self.tokens = tokens
    }

    public func fetch(_ url: String, provider: String, into directory: String) throws -> String {
        do {
            let location = try ArchiveLocation.url(url)
            let credential: FetchCredential? = switch provider {
            case "github": tokens["github"].map(FetchCredential.githubToken)
            case "gitlab": tokens["gitlab"].map(FetchCredential.gitlabToken)
            default: nil
            }
            let fetched = try fetcher.fetch(location, credential: credential, to: .file(directory: directory))
            switch fetched.content {
            case .file(let path): return path
            case .memory(let bytes):
                let path = directory + "/archive"
                guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                    throw JobFailure("cannot write the archive \(redactedURL(url)) into \(directory)", retryable: true)
                }
                return path
            }
        } catch let error as FetchError {
            throw JobFailure(error.description, retryable: Self.isRetryable(error))
        }
    }

    /// The fetcher already retried what a quick retry can fix; a later attempt of the job helps
    /// with outages (5xx, timeouts, network), not with a wrong URL, a missing repository or a
    /// too-large archive.
    static func isRetryable(_ error: FetchError) -> Bool {
        switch error {
        case .httpStatus(_, let status, _): return status >= 500 || status == 408 || status == 429
        case .timedOut, .network, .retryAfterTooLong, .setup, .destination: return true
        case .invalidURL, .unsupportedScheme, .tooLarge, .tooManyRedirects, .forbiddenRedirect, .redirectWithoutLocation,
             .tls, .fileNotReadable: return false
        }
    }
}
