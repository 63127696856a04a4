import CurlHTTP
import Foundation

/// A repository as `GET /orgs/{org}/repos` lists it (the fields discovery needs).
public struct GitHubRepository: Sendable, Equatable, Decodable {
    public let id: Int
    public let name: String
    /// `owner/name`.
    public let fullName: String
    /// Absent for an empty repository.
    public let defaultBranch: String?
    public let archived: Bool
    public let fork: Bool
    /// `public`, `private` or `internal` (Enterprise).
    public let visibility: String?

    public init(id: Int, name: String, fullName: String, defaultBranch: String?, archived: Bool, fork: Bool, visibility: String?) {
        self.id = id
        self.name = name
        self.fullName = fullName
        self.defaultBranch = defaultBranch
        self.archived = archived
        self.fork = fork
        self.visibility = visibility
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, archived, fork, visibility
        case fullName = "full_name"
        case defaultBranch = "default_branch"
    }

    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: CodingKeys.self)
        id = try object.decode(Int.self, forKey: .id)
        name = try object.decode(String.self, forKey: .name)
        fullName = try object.decode(String.self, forKey: .fullName)
        defaultBranch = try object.decodeIfPresent(String.self, forKey: .defaultBranch)
        archived = try object.decodeIfPresent(Bool.self, forKey: .archived) ?? false
        fork = try object.decodeIfPresent(Bool.self, forKey: .fork) ?? false
        visibility = try object.decodeIfPresent(String.self, forKey: .visibility)
    }
}

extension GitHubAPI {
    /// Every repository of an organisation (`type=all`, 100 a page), following the `Link`
    /// header's `rel="next"` until there is none.
    public func listOrganizationRepositories(_ organization: String) throws(GitHubError) -> [GitHubRepository] {
        let org = try Self.pathSegment(organization, what: "organisation")
        return try paginate(url("/orgs/\(org)/repos", query: [("per_page", "100"), ("type", "all")]), of: GitHubRepository.self)
    }

    /// GETs `firstURL` and every `rel="next"` page after it, concatenating the JSON arrays.
    public func paginate<Element: Decodable>(_ firstURL: String, of element: Element.Type) throws(GitHubError) -> [Element] {
        let session = try makeSession()
        var items: [Element] = []
        var seen: Set<String> = []
        var next: String? = firstURL
        while let page = next {
            guard seen.count < configuration.maxPages else {
                throw .tooManyPages(endpoint: "GET \(redactedURL(firstURL))", limit: configuration.maxPages)
            }
            guard seen.insert(page).inserted else {
                throw .invalidResponse(endpoint: "GET \(redactedURL(page))", reason: "the next-page link points back to a page already read")
            }
            let response = try send(.get, url: page, body: nil, session: session)
            items += try response.decode([Element].self)
            next = LinkHeader.target(of: "next", in: response.headers.values(for: "Link"), relativeTo: page)
            if let link = next, URLOrigin(link) != URLOrigin(base) {
                throw .foreignLink(endpoint: response.endpoint, link: redactedURL(link))
            }
        }
        return items
    }
}
