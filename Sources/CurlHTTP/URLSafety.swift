import Foundation

/// A URL safe to print: no user:password, and the values of query parameters that carry
/// secrets (codeload's `token`, S3's signatures) replaced.
public func redactedURL(_ url: String) -> String {
    guard var components = URLComponents(string: url) else { return "<unparseable URL>" }
    if components.user != nil || components.password != nil {
        components.user = nil
        components.password = nil
    }
    if let items = components.queryItems {
        components.queryItems = items.map { item in
            let name = item.name.lowercased()
            let secret = ["token", "key", "signature", "secret", "password", "credential"].contains { name.contains($0) }
            return secret ? URLQueryItem(name: item.name, value: "REDACTED") : item
        }
    }
    return components.string ?? "<unparseable URL>"
}

/// Scheme, host and port: what decides whether a credential may be sent to a URL.
public struct URLOrigin: Sendable, Equatable {
    public let scheme: String
    public let host: String
    public let port: Int?

    public init(_ url: String) {
        let components = URLComponents(string: url)
        scheme = components?.scheme?.lowercased() ?? ""
        host = components?.host?.lowercased() ?? ""
        port = components?.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }
}

/// Exponential backoff with jitter: the delay before retry n is `base * 2^(n-1)`, capped at
/// `max`, times a random factor in 0.5...1 so clients that failed together do not retry together.
public struct RetryBackoff: Sendable, Equatable {
    public var baseSeconds: Double
    public var maxSeconds: Double

    public init(baseSeconds: Double, maxSeconds: Double) {
        self.baseSeconds = Swift.max(0, baseSeconds)
        self.maxSeconds = Swift.max(0, maxSeconds)
    }

    /// `attempt` is the attempt that just failed, counting from 1.
    public func delay(afterAttempt attempt: Int) -> Double {
        let exponential = baseSeconds * pow(2, Double(Swift.max(0, Swift.min(attempt - 1, 62))))
        return Swift.min(maxSeconds, exponential) * Double.random(in: 0.5...1)
    }
}
