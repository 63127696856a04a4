import Foundation

/// A finding's line on the forge, at the audited commit: GitHub's and GitLab's
/// `blob/<sha>/<path>#L<line>`. The forge is the repository's provider, or read from its archive
/// URL (a GitHub or GitLab archive link given with the `url` provider); none when neither says.
enum ForgeLink {
    struct Forge: Equatable, Sendable {
        enum Kind: Sendable { case github, gitlab }
        var kind: Kind
        /// `https://github.com/owner/name`, `https://gitlab.example.com/group/project`.
        var base: String
    }

    /// The forge holding repository `name`, from its provider and archive URL.
    static func forge(provider: String, name: String, archiveURL: String?) -> Forge? {
        let archive = archiveURL.flatMap(URLComponents.init(string:))
        let host = archive?.host.map { host in archive?.port.map { "\(host):\($0)" } ?? host }
        let scheme = archive?.scheme == "http" ? "http" : "https"
        let segments = (archive?.path ?? "").split(separator: "/").map(String.init)
        switch provider {
        case "github":
            // github.com's archives come from its API or codeload; an Enterprise server's from itself.
            guard let host, !["github.com", "api.github.com", "codeload.github.com"].contains(host) else {
                return Forge(kind: .github, base: "https://github.com/" + name)
            }
            return Forge(kind: .github, base: "\(scheme)://\(host)/\(name)")
        case "gitlab":
            guard let host else { return Forge(kind: .gitlab, base: "https://gitlab.com/" + name) }
            return Forge(kind: .gitlab, base: "\(scheme)://\(host)/\(name)")
        default:
            guard let host, segments.count >= 3 else { return nil }
            // github.com/<owner>/<name>/archive/…, codeload.github.com/<owner>/<name>/tar.gz/…
            if (host == "github.com" && segments[2] == "archive") || host == "codeload.github.com" {
                return Forge(kind: .github, base: "https://github.com/\(segments[0])/\(segments[1])")
            }
            // <gitlab>/<group…>/<project>/-/archive/…
            if let dash = segments.firstIndex(of: "-"), dash >= 2, dash + 1 < segments.count, segments[dash + 1] == "archive" {
                return Forge(kind: .gitlab, base: "\(scheme)://\(host)/" + segments[..<dash].joined(separator: "/"))
            }
            return nil
        }
    }

    /// The link to `path` at `line` of `commit`, or nil when the forge or the commit is unknown.
    static func blob(_ forge: Forge?, commit: String?, path: String, line: Int) -> String? {
        guard let forge, let commit, commit.count == 40, commit.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        let escapedPath = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? String($0) }
            .joined(separator: "/")
        let anchor = line > 0 ? "#L\(line)" : ""
        switch forge.kind {
        case .github: return "\(forge.base)/blob/\(commit)/\(escapedPath)\(anchor)"
        case .gitlab: return "\(forge.base)/-/blob/\(commit)/\(escapedPath)\(anchor)"
        }
    }
}
