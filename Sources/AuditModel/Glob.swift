/// Path globs as in .gitignore-style configs: `*` and `?` stay within one path component,
/// `**` spans components. A pattern without `/` matches the last component anywhere.
public struct Glob: Sendable, Hashable {
    public let pattern: String
    private let parts: [Substring]
    private let anchored: Bool

    public init(_ pattern: String) {
        self.pattern = pattern
        var text = Substring(pattern)
        if text.hasPrefix("/") { text = text.dropFirst() }
        if text.hasSuffix("/") { text = text + "**" }
        anchored = text.contains("/")
        parts = text.split(separator: "/", omittingEmptySubsequences: true)
    }

    public func matches(_ path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        if !anchored, let only = parts.first, parts.count == 1 {
            // `Pods` matches a folder named Pods anywhere, and everything under it.
            return components.contains { Self.match(Array(only.utf8), Array($0.utf8)) }
        }
        return Self.match(parts[...], components[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return true }
            var remaining = path
            while true {
                if match(rest, remaining) { return true }
                if remaining.isEmpty { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let component = path.first, match(Array(head.utf8), Array(component.utf8)) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// `*` and `?` within one component.
    static func match(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var p = 0, t = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
