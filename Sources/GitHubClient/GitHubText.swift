/// Shortening text to GitHub's field limits without splitting a character.
public enum GitHubText {
    /// At most `limit` UTF-16 code units, cut between grapheme clusters and ended with "…" when
    /// cut. GitHub's "characters" are counted in code points or UTF-16 units depending on the
    /// layer; a UTF-16 count is never below either of the others, so it is safe for both.
    public static func truncated(_ text: String, toCharacters limit: Int) -> String {
        truncated(text, limit: limit, measure: { $0.utf16.count })
    }

    /// At most `limit` bytes of UTF-8, cut between grapheme clusters (GitHub's 64 KB fields).
    public static func truncated(_ text: String, toUTF8Bytes limit: Int) -> String {
        truncated(text, limit: limit, measure: { $0.utf8.count })
    }

    private static func truncated(_ text: String, limit: Int, measure: (String) -> Int) -> String {
        guard limit > 0 else { return "" }
        if measure(text) <= limit { return text }
        let marker = "…"
        let budget = limit - measure(marker)
        guard budget > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let size = measure(String(character))
            guard used + size <= budget else { break }
            used += size
            kept.append(character)
        }
        return kept + marker
    }
}
