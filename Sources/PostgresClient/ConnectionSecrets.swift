import CPostgres
import Foundation

/// Finding and hiding the secrets of a connection string.
///
/// libpq's own messages quote what they could not parse: the whole URI ("IPv6 host address may
/// not be empty in URI: \"postgresql://u:pw@[]/db\""), a password that is not valid
/// percent-encoding, or a piece of a password that spilled into another field (an unencoded
/// "/" in it makes its start the port, an "@" makes its end part of the host name). Every such
/// message passes through `redact` before it becomes a `DatabaseError`, so no caller can print
/// the password, whatever it does with the error.
extension ConnectionSettings: CustomStringConvertible, CustomReflectable {
    static let mask = "***"
    /// Keywords whose values are secrets: the server password and the SSL key's passphrase.
    static let secretKeywords: Set<String> = ["password", "sslpassword"]

    /// The connection string with every secret replaced by `***`.
    public var description: String { redactedConninfo }

    /// `dump` and debuggers see the redacted string too.
    public var customMirror: Mirror { Mirror(self, children: ["conninfo": redactedConninfo]) }

    public var redactedConninfo: String {
        let ranges = Self.secretRanges(Array(conninfo.utf8))
        guard !ranges.isEmpty else { return conninfo }
        var bytes = Array(conninfo.utf8)
        for range in ranges.reversed() { bytes.replaceSubrange(range, with: Array(Self.mask.utf8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `message` (from libpq, about this connection string) without any secret of it. A quoted
    /// value that shares a piece of a secret and does not appear in the redacted string is
    /// replaced by `***`, so the message still says which part was wrong ("invalid integer value
    /// \"***\" for connection option \"port\"").
    public func redact(_ message: String) -> String {
        let secrets = self.secrets
        guard !secrets.isEmpty else { return message }
        let redacted = redactedConninfo
        var text = message.replacingOccurrences(of: conninfo, with: redacted)
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: Self.mask) }
        // libpq puts every value it quotes in double quotes: the odd pieces are those values.
        var pieces = text.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
        for index in stride(from: 1, to: pieces.count - 1, by: 2) where isTainted(pieces[index], secrets: secrets, redacted: redacted) {
            pieces[index] = Self.mask
        }
        return pieces.joined(separator: "\"")
    }

    /// One field of the parsed connection string (a host, a user), or `***` when it holds part
    /// of a secret.
    func redactedField(_ value: String) -> String {
        let secrets = self.secrets
        return isTainted(value, secrets: secrets, redacted: redactedConninfo) ? Self.mask : value
    }

    /// Part of a secret: the secret itself, or text that contains a stretch of 3 of its
    /// characters (all of it when shorter), or is a stretch of 2 or more of them. Text that is
    /// in the redacted string anyway (a host name, a keyword) is not.
    private func isTainted(_ text: String, secrets: [String], redacted: String) -> Bool {
        guard !text.isEmpty, !redacted.contains(text) else { return false }
        return secrets.contains { secret in
            if text.count >= 2 && secret.contains(text) { return true }
            let characters = Array(secret), width = min(3, characters.count)
            return (0...(characters.count - width)).contains { text.contains(String(characters[$0..<($0 + width)])) }
        }
    }

    /// Every secret of the connection string as written and as libpq reads it (percent-decoded
    /// in a URI, backslash escapes removed in key=value form), longest first.
    var secrets: [String] {
        let bytes = Array(conninfo.utf8)
        var found = Set<String>()
        let isURI = Self.uriPrefixLength(bytes) != nil
        for range in Self.secretRanges(bytes) {
            let raw = Array(bytes[range])
            found.insert(String(decoding: raw, as: UTF8.self))
            found.insert(String(decoding: isURI ? Self.percentDecoded(raw) : Self.unescaped(raw), as: UTF8.self))
        }
        // And what libpq itself parses out, when it can.
        var error: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(conninfo, &error) {
            var option = options
            while let keyword = option.pointee.keyword {
                if Self.secretKeywords.contains(String(cString: keyword)), let value = option.pointee.val {
                    found.insert(String(cString: value))
                }
                option = option.advanced(by: 1)
            }
            PQconninfoFree(options)
        }
        if let error { PQfreemem(error) }
        return found.filter { !$0.isEmpty }.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    // MARK: Where the secrets are

    /// Byte ranges of the secrets, sorted and not overlapping. The string is read the way libpq
    /// reads it, but leniently, so that a malformed one still has its secret found: a URI's user
    /// information runs to its last "@", an unquoted password to the next `keyword=`.
    static func secretRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        let ranges = uriPrefixLength(bytes).map { uriSecretRanges(bytes, from: $0) } ?? keywordSecretRanges(bytes)
        var merged: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    static func uriPrefixLength(_ bytes: [UInt8]) -> Int? {
        for prefix in ["postgresql://", "postgres://"] where bytes.starts(with: prefix.utf8) { return prefix.utf8.count }
        return nil
    }

    private static func uriSecretRanges(_ bytes: [UInt8], from start: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        // user:password@ — libpq stops at the first "@" or "/", but a password holding either
        // has its remainder quoted as a host or port, so everything up to the last "@" counts.
        if let at = bytes[start...].lastIndex(of: UInt8(ascii: "@")),
           let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")) {
            ranges.append((colon + 1)..<at)
        }
        // ?password=…&sslpassword=…, keys percent-decoded as libpq does.
        var index = start
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "&") else { continue }
            let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            guard let equals = bytes[(index + 1)..<end].firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: percentDecoded(Array(bytes[(index + 1)..<equals])), as: UTF8.self)
            if secretKeywords.contains(key.lowercased()) { ranges.append((equals + 1)..<end) }
        }
        return ranges
    }

    /// `keyword = value` pairs as libpq's conninfo_parse reads them; keywords compared without
    /// case, since a misspelt `PASSWORD=` still holds the password.
    private static func keywordSecretRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func skipSpaces(_ index: inout Int) { while index < bytes.count && isSpace(bytes[index]) { index += 1 } }
        var ranges: [Range<Int>] = []
        var index = 0
        while true {
            skipSpaces(&index)
            guard index < bytes.count else { break }
            let keywordStart = index
            while index < bytes.count && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: "=") { index += 1 }
            let keyword = String(decoding: bytes[keywordStart..<index], as: UTF8.self).lowercased()
            skipSpaces(&index)
            // libpq stops at a keyword without "=": nothing after it is read.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { break }
            index += 1
            skipSpaces(&index)
            var valueStart = index, valueEnd: Int
            if index < bytes.count && bytes[index] == UInt8(ascii: "'") {
                index += 1
                valueStart = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "'") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                valueEnd = min(index, bytes.count)
                index += 1
            } else {
                while index < bytes.count && !isSpace(bytes[index]) { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                valueEnd = min(index, bytes.count)
                if secretKeywords.contains(keyword) {
                    // An unquoted password with a space in it: libpq reads its second word as a
                    // keyword and quotes it ("missing \"=\" after ..."), so it belongs to the secret.
                    while true {
                        var next = valueEnd
                        skipSpaces(&next)
                        guard next < bytes.count else { break }
                        var wordEnd = next
                        while wordEnd < bytes.count && !isSpace(bytes[wordEnd]) && bytes[wordEnd] != UInt8(ascii: "=") { wordEnd += 1 }
                        var after = wordEnd
                        skipSpaces(&after)
                        if after < bytes.count && bytes[after] == UInt8(ascii: "=") && wordEnd > next { break }
                        valueEnd = max(wordEnd, next + 1)
                        index = valueEnd
                    }
                }
            }
            if secretKeywords.contains(keyword) { ranges.append(valueStart..<min(valueEnd, bytes.count)) }
        }
        return ranges
    }

    /// %XX sequences decoded; anything else (a malformed escape included) kept as it is.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var decoded: [UInt8] = [], index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return decoded
    }

    /// A key=value value as libpq stores it: each backslash takes the next byte literally.
    static func unescaped(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [], index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
            result.append(bytes[index])
            index += 1
        }
        return result
    }
}
