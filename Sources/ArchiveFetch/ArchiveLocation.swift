import Foundation

/// A header carrying a secret; its value never appears in descriptions or errors.
public struct FetchCredential: Sendable, Equatable, CustomStringConvertible {
    public let headerName: String
    public let value: String

    public init(headerName: String, value: String) {
        self.headerName = headerName
        self.value = value
    }

    /// GitHub's REST API: `Authorization: Bearer <token>`.
    public static func githubToken(_ token: String) -> FetchCredential {
        FetchCredential(headerName: "Authorization", value: "Bearer \(token)")
    }

    /// GitLab's API: `PRIVATE-TOKEN: <token>`.
    public static func gitlabToken(_ token: String) -> FetchCredential {
        FetchCredential(headerName: "PRIVATE-TOKEN", value: token)
    }

    public var description: String { "\(headerName): <redacted>" }
}

/// Where a repository's archive is downloaded from, and how a token is presented there.
public struct ArchiveLocation: Sendable, Equatable, CustomStringConvertible {
    public enum Provider: String, Sendable {
        case github, gitlab, plain
    }

    public let provider: Provider
    public let url: String

    public static let githubAPI = "https://api.github.com"
    public static let gitlabAPI = "https://gitlab.com/api/v4"

    /// `<api>/repos/<owner>/<repo>/tarball/<ref>`; GitHub answers 302 to codeload.github.com.
    /// `apiBase` is `https://<host>/api/v3` for GitHub Enterprise Server.
    public static func github(owner: String, repository: String, ref: String, apiBase: String = githubAPI) throws -> ArchiveLocation {
        for (what, value) in [("owner", owner), ("repository", repository)] where value.isEmpty || value.contains("/") || value == "." || value == ".." {
            throw FetchError.invalidURL("\(owner)/\(repository)", reason: "GitHub \(what) \"\(value)\" must be one non-empty path segment")
        }
        try checkRef(ref)
        let base = try apiRoot(apiBase)
        return ArchiveLocation(provider: .github,
                               url: "\(base)/repos/\(encode(owner))/\(encode(repository))/tarball/\(encode(ref, keepingSlashes: true))")
    }

    /// `<api>/projects/<url-encoded path>/repository/archive.tar.gz?sha=<ref>`. `project` is the
    /// full path (`group/subgroup/name`) or the numeric project id.
    public static func gitlab(project: String, ref: String, apiBase: String = gitlabAPI) throws -> ArchiveLocation {
        let segments = project.split(separator: "/", omittingEmptySubsequences: false)
        guard !project.isEmpty, !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw FetchError.invalidURL(project, reason: "GitLab project path must be group/…/name with no empty or dot segments")
        }
        try checkRef(ref)
        let base = try apiRoot(apiBase)
        return ArchiveLocation(provider: .gitlab,
                               url: "\(base)/projects/\(encode(project))/repository/archive.tar.gz?sha=\(encode(ref))")
    }

    /// Any https://, http:// or file:// URL to a tar or zip archive.
    public static func url(_ url: String) throws -> ArchiveLocation {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw FetchError.invalidURL(redactedURL(url), reason: "it does not parse as a URL")
        }
        guard ["https", "http", "file"].contains(scheme) else { throw FetchError.unsupportedScheme(url: redactedURL(url)) }
        if scheme != "file", (components.host ?? "").isEmpty {
            throw FetchError.invalidURL(redactedURL(url), reason: "no host")
        }
        return ArchiveLocation(provider: .plain, url: url)
    }

    /// A file on this machine, as a file:// URL.
    public static func file(_ path: String) -> ArchiveLocation {
        ArchiveLocation(provider: .plain, url: URL(fileURLWithPath: path).absoluteString)
    }

    /// The header a token is sent in for this provider; plain URLs use a bearer token.
    public func credential(token: String) -> FetchCredential {
        provider == .gitlab ? .gitlabToken(token) : .githubToken(token)
    }

    public var description: String { redactedURL(url) }

    private static func checkRef(_ ref: String) throws {
        // git-check-ref-format forbids these; refusing them here keeps the URL unambiguous.
        guard !ref.isEmpty, !ref.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == ".." }),
              !ref.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw FetchError.invalidURL(ref, reason: "not a usable git ref (empty, whitespace, or empty or .. segments)")
        }
    }

    private static func apiRoot(_ apiBase: String) throws -> String {
        let trimmed = apiBase.hasSuffix("/") ? String(apiBase.dropLast()) : apiBase
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", !(components.host ?? "").isEmpty else {
            throw FetchError.invalidURL(redactedURL(apiBase), reason: "API base must be an http(s) URL with a host")
        }
        return trimmed
    }

    /// RFC 3986 unreserved characters stay; everything else (including `/` unless kept) is %-encoded.
    private static func encode(_ value: String, keepingSlashes: Bool = false) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        if keepingSlashes { allowed.insert("/") }
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
