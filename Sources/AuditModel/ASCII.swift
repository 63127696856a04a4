import CBytes

/// Character classes of ASCII alone, for identifiers that come from outside (a webhook's commit
/// SHA, a repository name). Swift's `Character.isHexDigit`, `isNumber` and `isLetter` follow
/// Unicode: 40 fullwidth "ａ" pass `isHexDigit`, and Arabic-Indic digits pass `isNumber`.
/// Everything here reads UTF-8 bytes, so a combining mark cannot hide behind a letter either.
public enum ASCII {
    public static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    public static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    public static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// A plain ASCII identifier: letters, digits and `_`, not starting with a digit
    /// (`SettingsScene`, a storyboard identifier code could name as a word).
    public static func isIdentifier(_ text: some StringProtocol) -> Bool {
        guard let first = text.utf8.first, !isDigit(first) else { return false }
        return text.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// `text` with its runs of whitespace made one space and none at either end, cut after
    /// `limit` characters: what `split(whereSeparator: \.isWhitespace).joined(separator: " ")`
    /// gives, read as bytes. Nil when the text is not all ASCII (Unicode spaces and grapheme
    /// clusters are then the caller's), so the two ways always agree.
    public static func collapsingWhitespace(_ text: some Collection<UInt8>, limit: Int = .max) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(Swift.min(text.count, limit))
        var pendingSpace = false
        for byte in text {
            guard byte < 0x80 else { return nil }
            // Unicode's White_Space among ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !out.isEmpty
                continue
            }
            if out.count == limit { continue }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
                if out.count == limit { continue }
            }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A full git commit id: 40 hexadecimal digits, either case.
    public static func isCommitSHA(_ text: String) -> Bool { text.utf8.count == 40 && text.utf8.allSatisfy(isHexDigit) }

    /// Whether `text` holds `needle`, compared byte for byte. Foundation's `contains` on Linux
    /// goes through CFString (a tenth of a warm re-scan went to path tests alone); a path test
    /// for an ASCII word needs no Unicode comparison.
    public static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { occurs($0, in: haystack) } }
    }

    /// Whether `text` ends with the bytes of `suffix`: for paths and file names, asked of every
    /// file of a checkout, where `String.hasSuffix` compares grapheme by grapheme.
    public static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        let bytes = text.utf8, tail = suffix.utf8
        return bytes.count >= tail.count && bytes.reversed().starts(with: tail.reversed())
    }

    /// A path's last component, as a slice of it.
    public static func fileName(_ path: String) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...] }
        return path[path.utf8.index(after: slash)...]
    }

    /// Whether the bytes of `needle` occur in `bytes`, in order.
    public static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstMatch(needle, in: bytes, from: 0) != nil
    }

    /// Whether `needle` occurs in `text`, byte for byte. Foundation's `contains` on strings
    /// goes through NSString and a locale-aware search, which on the short names rules ask
    /// about per reference costs a hundred times the byte search.
    public static func contains(_ text: some StringProtocol, _ needle: String) -> Bool {
        var text = String(text), needle = needle
        return text.withUTF8 { bytes in needle.withUTF8 { occurs($0, in: bytes) } }
    }

    /// Where the first occurrence of `needle` at or after `start` begins. glibc's memmem is
    /// linear in the bytes whatever a hostile needle or file holds, and vectorised.
    public static func firstMatch(_ needle: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= bytes.count ? start : nil }
        guard let base = bytes.baseAddress, start >= 0, bytes.count - start >= needle.count else { return nil }
        guard let found = memmem(base + start, bytes.count - start, needle.baseAddress, needle.count) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Letters, digits and the bytes in `extra`, at least one of them.
    public static func isToken(_ text: String, extra: String = "") -> Bool {
        let extra = Array(extra.utf8)
        return !text.isEmpty && text.utf8.allSatisfy { isLetter($0) || isDigit($0) || extra.contains($0) }
    }
}
