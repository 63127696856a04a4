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

    /// A full git commit id: 40 hexadecimal digits, either case.
    public static func isCommitSHA(_ text: String) -> Bool { text.utf8.count == 40 && text.utf8.allSatisfy(isHexDigit) }

    /// Whether `text` holds `needle`, compared byte for byte. Foundation's `contains` on Linux
    /// goes through CFString (a tenth of a warm re-scan went to path tests alone); a path test
    /// for an ASCII word needs no Unicode comparison.
    public static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { occurs($0, in: haystack) } }
    }

    /// Whether the bytes of `needle` occur in `bytes`, in order.
    public static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= bytes.count else { return false }
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < needle.count && bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    /// Letters, digits and the bytes in `extra`, at least one of them.
    public static func isToken(_ text: String, extra: String = "") -> Bool {
        let extra = Array(extra.utf8)
        return !text.isEmpty && text.utf8.allSatisfy { isLetter($0) || isDigit($0) || extra.contains($0) }
    }
}
