/// Path globs as in .gitignore-style configs: `*` and `?` stay within one path component,
/// `**` spans components. A pattern without `/` matches any one component, anywhere.
/// Every file is matched against every pattern, so patterns are pre-split into bytes once.
public struct Glob: Sendable, Hashable {
    public let pattern: String
    private let parts: [[UInt8]]
    private let anchored: Bool

    private static let globstar = Array("**".utf8)

    public init(_ pattern: String) {
        self.pattern = pattern
        var text = Substring(pattern)
        if text.hasPrefix("/") { text = text.dropFirst() }
        if text.hasSuffix("/") { text = text + "**" }
        anchored = text.contains("/")
        parts = text.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
    }

    public func matches(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        if !anchored, parts.count == 1 {
            // `Pods` matches a folder named Pods anywhere, and everything under it.
            return components.contains { Self.match(parts[0], $0) }
        }
        return Self.match(parts[...], components[...])
    }

    private static func match(_ pattern: ArraySlice<[UInt8]>, _ path: ArraySlice<ArraySlice<UInt8>>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == globstar {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return true }
            var remaining = path
            while true {
                if match(rest, remaining) { return true }
                if remaining.isEmpty { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let component = path.first, match(head, component) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// `*` and `?` within one component.
    static func match(_ pattern: [UInt8], _ text: ArraySlice<UInt8>) -> Bool {
        if !pattern.contains(UInt8(ascii: "*")) && !pattern.contains(UInt8(ascii: "?")) {
            return pattern.elementsEqual(text)
        }
        var p = 0, t = text.startIndex, star = -1, mark = text.startIndex
        while t < text.endIndex {
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
