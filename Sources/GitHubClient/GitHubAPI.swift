import CurlHTTP
import Foundation

public struct GitHubConfiguration: Sendable, CustomStringConvertible {
    public static let publicAPI = "https://api.github.com"

    /// `https://api.github.com`, or `https://<host>/api/v3` for GitHub Enterprise Server.
    public var apiBaseURL: String
    /// Sent as `Authorization: Bearer <token>`, only to the API's own origin.
    public var token: String?
    /// GitHub refuses requests without a User-Agent.
    public var userAgent: String
    public var connectTimeoutSeconds: Double
    /// For one attempt of one request.
    public var requestTimeoutSeconds: Double
    public var maxResponseBytes: Int
    /// Attempts in all for one request, the first included, whatever made them fail.
    public var maxAttempts: Int
    /// Backoff on 5xx and network errors (exponential, with jitter).
    public var retryBaseDelaySeconds: Double
    public var retryMaxDelaySeconds: Double
    /// The longest wait for a rate limit (until `x-ratelimit-reset`, or `retry-after`); a longer
    /// one fails the call with `GitHubError.rateLimited`, saying when the limit resets.
    public var maxRateLimitWaitSeconds: Double
    /// The wait for a secondary rate limit that gives no `retry-after` (GitHub: at least a minute),
    /// doubled on each further one.
    public var secondaryRateLimitWaitSeconds: Double
    /// Pagination stops with an error beyond this many pages.
    public var maxPages: Int
    /// A PEM bundle of trusted CAs (a GitHub Enterprise host with a private CA).
    public var caBundlePath: String?

    public init(apiBaseURL: String = GitHubConfiguration.publicAPI, token: String? = nil, userAgent: String = "a11y-audit",
                connectTimeoutSeconds: Double = 10, requestTimeoutSeconds: Double = 30, maxResponseBytes: Int = 32 << 20,
                maxAttempts: Int = 5, retryBaseDelaySeconds: Double = 1, retryMaxDelaySeconds: Double = 30,
                maxRateLimitWaitSeconds: Double = 120, secondaryRateLimitWaitSeconds: Double = 60, maxPages: Int = 1000,
                caBundlePath: String? = nil) {
        self.apiBaseURL = apiBaseURL
        self.token = token
        self.userAgent = userAgent
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.maxResponseBytes = max(0, maxResponseBytes)
        self.maxAttempts = max(1, maxAttempts)
        self.retryBaseDelaySeconds = max(0, retryBaseDelaySeconds)
        self.retryMaxDelaySeconds = max(0, retryMaxDelaySeconds)
        self.maxRateLimitWaitSeconds = max(0, maxRateLimitWaitSeconds)
        self.secondaryRateLimitWaitSeconds = max(0, secondaryRateLimitWaitSeconds)
        self.maxPages = max(1, maxPages)
        self.caBundlePath = caBundlePath
    }

    public var description: String {
        "GitHub API \(redactedURL(apiBaseURL)) (token: \(token == nil ? "none" : "<redacted>"), User-Agent: \(userAgent))"
    }
}

/// A response GitHub gave with a 2xx status.
public struct GitHubResponse: Sendable {
    public let endpoint: String
    public let url: String
    public let status: Int
    public let headers: HeaderFields
    public let body: [UInt8]
    public let attempts: Int

    /// Decodes the JSON body; a body that does not fit `T` is a typed error naming the endpoint.
    public func decode<T: Decodable>(_ type: T.Type) throws(GitHubError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw .invalidResponse(endpoint: endpoint, reason: "the JSON body does not match \(T.self): \(error)")
        }
    }
}

/// A failed attempt that will be retried, for logging.
public struct GitHubRetry: Sendable {
    public let endpoint: String
    public let attempt: Int
    public let reason: String
    public let delaySeconds: Double
}

/// GitHub's REST API over libcurl (API version 2022-11-28): a token, retries with backoff on
/// 5xx and network errors, rate limits waited out up to a cap, and typed errors carrying GitHub's
/// own message. Calls block the calling thread; the value is Sendable, so threads may share it.
public struct GitHubAPI: Sendable {
    public static let apiVersion = "2022-11-28"

    public let configuration: GitHubConfiguration
    public var onRetry: (@Sendable (GitHubRetry) -> Void)?
    /// The API base without a trailing slash.
    let base: String

    public init(configuration: GitHubConfiguration, onRetry: (@Sendable (GitHubRetry) -> Void)? = nil) throws(GitHubError) {
        var base = configuration.apiBaseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", !(components.host ?? "").isEmpty,
              components.query == nil, components.fragment == nil, components.user == nil else {
            throw .invalidConfiguration("API base URL \(redactedURL(configuration.apiBaseURL)) must be an http(s) URL with a host and no query, e.g. https://api.github.com or https://ghe.example.com/api/v3")
        }
        if let token = configuration.token, token.isEmpty || token.contains(where: { $0.isNewline || $0 == "\r" || $0 == "\n" }) {
            throw .invalidConfiguration("the token is empty or contains a line break")
        }
        if configuration.userAgent.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidConfiguration("GitHub requires a User-Agent; the configured one is empty")
        }
        self.configuration = configuration
        self.onRetry = onRetry
        self.base = base
    }

    /// One call: `path` is relative to the API base (`/repos/o/r/statuses/sha`), its segments
    /// already encoded (see `pathSegment`). `body` is sent as JSON. Returns the 2xx response.
    public func send(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [],
                     body: (any Encodable & Sendable)? = nil) throws(GitHubError) -> GitHubResponse {
        let session = try makeSession()
        return try send(method, url: url(path, query: query), body: body, session: session)
    }

    /// `value` as one %-encoded path segment; refuses what cannot be one (empty, `.`, `..`, `/`).
    public static func pathSegment(_ value: String, what: String) throws(GitHubError) -> String {
        guard !value.isEmpty, value != ".", value != "..", !value.contains("/") else {
            throw .invalidArgument("\(what) \"\(value)\" must be one non-empty path segment")
        }
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    func url(_ path: String, query: [(String, String)] = []) -> String {
        var text = base + (path.hasPrefix("/") ? path : "/" + path)
        if !query.isEmpty {
            let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
            text += "?" + query.map { name, value in
                (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "="
                    + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
            }.joined(separator: "&")
        }
        return text
    }

    func makeSession() throws(GitHubError) -> CurlSession {
        do { return try CurlSession() } catch { throw .transport(endpoint: "GitHub API", reason: error.description, attempts: 0) }
    }

    /// One call to an absolute URL on the API's origin, retried as the configuration says.
    func send(_ method: HTTPMethod, url: String, body: (any Encodable & Sendable)?, session: CurlSession) throws(GitHubError) -> GitHubResponse {
        let endpoint = "\(method.rawValue) \(redactedURL(url))"
        guard URLOrigin(url) == URLOrigin(base) else { throw .foreignLink(endpoint: endpoint, link: redactedURL(url)) }
        var headers: HeaderFields = [
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": Self.apiVersion,
        ]
        if let token = configuration.token { headers.add("Authorization", "Bearer \(token)") }
        var payload: [UInt8]?
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            do { payload = Array(try encoder.encode(body)) } catch {
                throw .invalidArgument("\(endpoint): the request body cannot be encoded as JSON (\(error))")
            }
            headers.add("Content-Type", "application/json; charset=utf-8")
        }
        let request = CurlRequest(method: method, url: url, headers: headers, body: payload)
        let options = CurlOptions(connectTimeoutSeconds: configuration.connectTimeoutSeconds,
                                  totalTimeoutSeconds: configuration.requestTimeoutSeconds,
                                  maxResponseBytes: configuration.maxResponseBytes, allowedSchemes: ["https", "http"],
                                  caBundlePath: configuration.caBundlePath, userAgent: configuration.userAgent)
        let backoff = RetryBackoff(baseSeconds: configuration.retryBaseDelaySeconds, maxSeconds: configuration.retryMaxDelaySeconds)
        var secondaryLimitsSeen = 0
        var attempt = 0
        while true {
            attempt += 1
            let outcome = session.perform(request, options: options)
            let delay: Double, reason: String
            switch outcome {
            case .failure(let failure):
                if case .tooLarge(let limit, _) = failure.kind { throw .responseTooLarge(endpoint: endpoint, limit: limit) }
                guard failure.isTransient, attempt < configuration.maxAttempts else {
                    throw .transport(endpoint: endpoint, reason: failure.reason, attempts: attempt)
                }
                delay = backoff.delay(afterAttempt: attempt)
                reason = failure.reason
            case .success(let response):
                if (200..<300).contains(response.status) {
                    return GitHubResponse(endpoint: endpoint, url: url, status: response.status, headers: response.headers,
                                          body: response.body, attempts: attempt)
                }
                let errorBody = GitHubErrorBody.parse(response.body)
                let httpError = GitHubError.http(endpoint: endpoint, status: response.status, message: errorBody?.message,
                                                 documentationURL: errorBody?.documentationURL,
                                                 details: errorBody?.errors?.map(\.text) ?? [], attempts: attempt)
                if let limited = rateLimitWait(response, message: errorBody?.message, secondaryLimitsSeen: secondaryLimitsSeen) {
                    if limited.limit == .secondary { secondaryLimitsSeen += 1 }
                    let resetsAt = Date().addingTimeInterval(limited.seconds)
                    guard limited.seconds <= configuration.maxRateLimitWaitSeconds, attempt < configuration.maxAttempts else {
                        throw .rateLimited(endpoint: endpoint, limit: limited.limit, resetsAt: resetsAt, message: errorBody?.message)
                    }
                    delay = limited.seconds
                    reason = "HTTP \(response.status): \(limited.limit.rawValue) rate limit"
                } else if response.status >= 500 {
                    guard attempt < configuration.maxAttempts else { throw httpError }
                    // A 503 may say when to come back; otherwise back off.
                    if let retryAfter = Self.retryAfter(response.head), Double(retryAfter) <= configuration.maxRateLimitWaitSeconds {
                        delay = Double(retryAfter)
                    } else {
                        delay = backoff.delay(afterAttempt: attempt)
                    }
                    reason = "HTTP \(response.status)"
                } else {
                    throw httpError
                }
            }
            onRetry?(GitHubRetry(endpoint: endpoint, attempt: attempt, reason: reason, delaySeconds: delay))
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        }
    }

    /// How long a 403/429 asks us to wait, following GitHub's rules in order: `retry-after`;
    /// else `x-ratelimit-remaining: 0` until `x-ratelimit-reset`; else, for a 429 or a message
    /// naming a rate limit, a minute doubling each time. Nil when it is no rate limit at all.
    private func rateLimitWait(_ response: CurlResponse, message: String?,
                               secondaryLimitsSeen: Int) -> (limit: GitHubRateLimit, seconds: Double)? {
        guard response.status == 403 || response.status == 429 else { return nil }
        if let retryAfter = Self.retryAfter(response.head) {
            return (.secondary, Double(retryAfter))
        }
        let headers = response.headers
        if headers["x-ratelimit-remaining"]?.trimmingCharacters(in: .whitespaces) == "0",
           let reset = headers["x-ratelimit-reset"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) {
            // The reset is in whole epoch seconds; a second more covers the rounding and a little clock skew.
            return (.primary, max(0, reset - Date().timeIntervalSince1970) + 1)
        }
        if response.status == 429 || (message?.lowercased().contains("rate limit") ?? false) {
            let doubling = pow(2, Double(min(secondaryLimitsSeen, 16)))
            return (.secondary, configuration.secondaryRateLimitWaitSeconds * doubling)
        }
        return nil
    }

    /// `Retry-After` in seconds: the delta form read here (0 included), the HTTP-date form by libcurl.
    private static func retryAfter(_ head: CurlResponseHead) -> Int? {
        guard let value = head.headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return max(0, seconds) }
        return head.retryAfterSeconds ?? 0
    }
}
