/// What a message may quote of the scanned input. Names, values and paths inside a repository
/// are the attacker's to choose: a 5 MB colour component or a 20,000-character link target
/// quoted whole would make every report, log line and database row carrying the message as
/// large. Every place that quotes input into a finding, a note or an error goes through here.
public enum InputExcerpt {
    /// Unicode scalars quoted before the ellipsis. Scalars rather than characters: one
    /// character can hold any number of combining scalars.
    public static let maxScalars = 80

    /// `text` as it may appear in a message: at most `limit` scalars, then "…" when there was
    /// more; control and bidirectional-override characters written as `\u{…}` escapes, so that
    /// quoted input can neither start a new line in a log nor reorder the text around it.
    public static func of<Text: StringProtocol>(_ text: Text, limit: Int = maxScalars) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result.append("…")
                break
            }
            count += 1
            if isUnsafe(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The excerpt of bytes that should be UTF-8 (invalid sequences become U+FFFD), reading
    /// only as many bytes as it can use: a scalar takes at most 4 bytes, so `limit + 1`
    /// scalars' worth also tells whether there was more.
    public static func of<Bytes: Collection<UInt8>>(utf8 bytes: Bytes, limit: Int = maxScalars) -> String {
        of(String(decoding: bytes.prefix((limit + 1) * 4), as: UTF8.self), limit: limit)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true                      // C0 and C1 controls, DEL
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks and overrides
        case 0x2028, 0x2029: true                                 // line and paragraph separators
        default: false
        }
    }
}
