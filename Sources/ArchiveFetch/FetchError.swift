import CurlHTTP
import Foundation

/// Why an archive could not be fetched. Every URL in a message has its credentials removed.
public enum FetchError: Error, CustomStringConvertible, Equatable {
    case invalidURL(String, reason: String)
    case unsupportedScheme(url: String)
    /// libcurl itself could not be set up (global init or a handle).
    case setup(reason: String)
    case httpStatus(url: String, status: Int, attempts: Int)
    case timedOut(url: String, seconds: Double, attempts: Int)
    /// `declared` is the Content-Length when the server announced one over the limit.
    case tooLarge(url: String, limit: Int, declared: Int?)
    case tooManyRedirects(url: String, limit: Int)
    /// A redirect to another scheme than allowed (https to http, or anything to file://).
    case forbiddenRedirect(url: String, to: String)
    case redirectWithoutLocation(url: String, status: Int)
    case tls(url: String, reason: String)
    case network(url: String, reason: String, attempts: Int)
    /// The server asked to be retried later than the configured cap allows waiting.
    case retryAfterTooLong(url: String, seconds: Int, cap: Int)
    case fileNotReadable(url: String, reason: String)
    case destination(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "\(url): not a valid archive URL (\(reason))"
        case .unsupportedScheme(let url):
            "\(url): only https://, http:// and file:// archive URLs are supported"
        case .setup(let reason):
            "cannot set up libcurl (\(reason))"
        case .httpStatus(let url, let status, let attempts):
            "\(url): HTTP \(status)\(Self.hint(status)) \(Self.after(attempts))"
        case .timedOut(let url, let seconds, let attempts):
            "\(url): timed out after \(Self.format(seconds)) s \(Self.after(attempts))"
        case .tooLarge(let url, let limit, let declared?):
            "\(url): archive is \(declared) bytes (Content-Length), over the \(limit)-byte limit; not downloaded"
        case .tooLarge(let url, let limit, nil):
            "\(url): archive is over the \(limit)-byte limit; download stopped there"
        case .tooManyRedirects(let url, let limit):
            "\(url): more than \(limit) redirects"
        case .forbiddenRedirect(let url, let target):
            "\(url): redirects to \(target), which is not allowed (only to https, or http from http)"
        case .redirectWithoutLocation(let url, let status):
            "\(url): HTTP \(status) redirect without a Location header"
        case .tls(let url, let reason):
            "\(url): TLS failure (\(reason)); certificate verification is always on"
        case .network(let url, let reason, let attempts):
            "\(url): \(reason) \(Self.after(attempts))"
        case .retryAfterTooLong(let url, let seconds, let cap):
            "\(url): server asks to retry after \(seconds) s, longer than the \(cap)-second cap"
        case .fileNotReadable(let url, let reason):
            "\(url): local archive cannot be read (\(reason))"
        case .destination(let path, let reason):
            "\(path): cannot write the downloaded archive (\(reason))"
        }
    }

    private static func after(_ attempts: Int) -> String {
        attempts == 1 ? "(1 attempt)" : "(after \(attempts) attempts)"
    }

    private static func hint(_ status: Int) -> String {
        switch status {
        case 401: " Unauthorized: the token is missing, wrong or expired"
        case 403: " Forbidden: the token lacks access to this repository, or a rate limit was hit"
        case 404: " Not Found: check the repository name and ref (private repositories answer 404 without a valid token)"
        case 429: " Too Many Requests"
        case 500...599: " (server error)"
        default: ""
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}

/// A URL safe to print: no user:password, and the values of query parameters that carry
/// secrets replaced. (Kept here so `import ArchiveFetch` still offers it; the shared layer owns it.)
public func redactedURL(_ url: String) -> String {
    CurlHTTP.redactedURL(url)
}
