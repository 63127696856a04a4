import CCrypto
import Foundation

/// Who may read the pages and who may use the admin endpoints. Secrets are held here only:
/// `description` and every log line say which kinds of access are set, never their values.
public struct AccessPolicy: Sendable, CustomStringConvertible {
    /// A bearer token for reading (also accepted as the password of HTTP Basic with any user
    /// name, so a browser can send it).
    public var readToken: String?
    /// HTTP Basic credentials for reading.
    public var basicUser: String?
    public var basicPassword: String?
    /// A bearer token for the admin endpoints; without one they do not exist (404).
    public var adminToken: String?

    public init(readToken: String? = nil, basicUser: String? = nil, basicPassword: String? = nil, adminToken: String? = nil) {
        self.readToken = readToken.flatMap { $0.isEmpty ? nil : $0 }
        self.basicUser = basicUser
        self.basicPassword = basicPassword
        self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `user:password` as given to `--basic-auth`; the password may contain colons.
    public static func parseBasic(_ text: String) -> (user: String, password: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let user = String(text[..<colon])
        let password = String(text[text.index(after: colon)...])
        guard !user.isEmpty, !password.isEmpty else { return nil }
        return (user, password)
    }

    public var readIsRestricted: Bool { readToken != nil || basicUser != nil }
    public var adminIsEnabled: Bool { adminToken != nil }

    public var description: String {
        var read: [String] = []
        if readToken != nil { read.append("bearer token") }
        if basicUser != nil { read.append("basic auth") }
        return "read access: " + (read.isEmpty ? "open" : read.joined(separator: " or "))
            + "; admin endpoints: " + (adminIsEnabled ? "enabled (bearer token)" : "disabled")
    }

    public enum Decision: Equatable, Sendable {
        case allowed
        /// No usable credentials: 401 with a challenge.
        case unauthorized
        /// Credentials recognised, but they do not grant this (a read credential on an admin endpoint): 403.
        case forbidden
    }

    public func readDecision(authorization: String?) -> Decision {
        guard readIsRestricted else { return .allowed }
        guard let credentials = Credentials(authorization) else { return .unauthorized }
        return grantsRead(credentials) ? .allowed : .unauthorized
    }

    public func adminDecision(authorization: String?) -> Decision {
        guard let adminToken, let credentials = Credentials(authorization) else { return .unauthorized }
        if case .bearer(let token) = credentials, constantTimeEqual(token, adminToken) { return .allowed }
        return grantsRead(credentials) ? .forbidden : .unauthorized
    }

    /// The `WWW-Authenticate` challenges for a 401 on a page.
    public var readChallenges: [String] {
        var challenges: [String] = []
        if basicUser != nil || readToken != nil { challenges.append("Basic realm=\"a11y-audit\", charset=\"UTF-8\"") }
        if readToken != nil { challenges.append("Bearer realm=\"a11y-audit\"") }
        return challenges
    }

    private func grantsRead(_ credentials: Credentials) -> Bool {
        switch credentials {
        case .bearer(let token):
            // Evaluate both comparisons always: no early exit that times which one matched.
            let read = readToken.map { constantTimeEqual(token, $0) } ?? false
            let admin = adminToken.map { constantTimeEqual(token, $0) } ?? false
            return read || admin
        case .basic(let user, let password):
            var granted = false
            if let basicUser, let basicPassword {
                let userMatches = constantTimeEqual(user, basicUser)
                let passwordMatches = constantTimeEqual(password, basicPassword)
                granted = userMatches && passwordMatches
            }
            if let readToken, constantTimeEqual(password, readToken) { granted = true }
            return granted
        }
    }

    private enum Credentials {
        case bearer(String)
        case basic(user: String, password: String)

        init?(_ header: String?) {
            guard let header else { return nil }
            let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2 else { return nil }
            let scheme = parts[0].lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if scheme == "bearer" {
                self = .bearer(value)
            } else if scheme == "basic", let data = Data(base64Encoded: value),
                      let decoded = String(data: data, encoding: .utf8),
                      let colon = decoded.firstIndex(of: ":") {
                self = .basic(user: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
            } else {
                return nil
            }
        }
    }
}

/// Compares two secrets in time independent of where they differ and of their lengths: both
/// are hashed to SHA-256 first and the digests compared with OpenSSL's CRYPTO_memcmp.
public func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    // Fails closed: if hashing fails (no memory), nothing matches.
    guard let left = sha256(Array(a.utf8)), let right = sha256(Array(b.utf8)) else { return false }
    return left.withUnsafeBytes { l in right.withUnsafeBytes { r in CRYPTO_memcmp(l.baseAddress, r.baseAddress, 32) == 0 } }
}

func sha256(_ bytes: [UInt8]) -> [UInt8]? {
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { buffer in
        EVP_Digest(buffer.baseAddress, buffer.count, &output, &length, EVP_sha256(), nil)
    }
    return ok == 1 && length == 32 ? Array(output.prefix(32)) : nil
}
