/// Path globs as in .gitignore-style configs: `*` and `?` stay within one path component,
/// `**` spans components. A pattern without `/` matches any one component, anywhere.
/// Every file is matched against every pattern, so patterns are pre-split into bytes once.
public struct Glob: Sendable, Hashable {
    public let pattern: String
    private let parts: [[UInt8]]
    private let anchored: Bool
    /// Whether each part is a plain name, compared as bytes (most patterns are).
    private let literal: [Bool]

    private static let globstar = Array("**".utf8)

    public init(_ pattern: String) {
        self.pattern = pattern
        var text = Substring(pattern)
        if text.hasPrefix("/") { text = text.dropFirst() }
        if text.hasSuffix("/") { text = text + "**" }
        anchored = text.contains("/")
        // `**/**` means the same as `**`; collapsing runs keeps matching linear in practice.
        var split: [[UInt8]] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true).map({ Array($0.utf8) }) {
            if part == Self.globstar, split.last == Self.globstar { continue }
            split.append(part)
        }
        parts = split
        literal = split.map { !$0.contains(UInt8(ascii: "*")) && !$0.contains(UInt8(ascii: "?")) }
    }

    public func matches(_ path: String) -> Bool {
        matches(components: Self.components(of: path))
    }

    /// Whether any of `globs` matches `path`, which is split into components once for all.
    public static func anyMatches(_ globs: [Glob], _ path: String) -> Bool {
        guard !globs.isEmpty else { return false }
        let components = components(of: path)
        return globs.contains { $0.matches(components: components) }
    }

    private static func components(of path: String) -> [ArraySlice<UInt8>] {
        Array(path.utf8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
    }

    private func matches(components: [ArraySlice<UInt8>]) -> Bool {
        if !anchored, parts.count == 1 {
            // `Pods` matches a folder named Pods anywhere, and everything under it.
            if literal[0] { return components.contains { Self.equal(parts[0], $0) } }
            return components.contains { Self.match(parts[0], $0) }
        }
        var failed = Set<Int>()
        return match(0, 0, components, &failed)
    }

    /// Whether `parts[part...]` matches `components[component...]`. Failed pairs are
    /// remembered, so a pattern from an untrusted config cannot make matching exponential.
    private func match(_ part: Int, _ component: Int, _ components: [ArraySlice<UInt8>], _ failed: inout Set<Int>) -> Bool {
        let key = part * (components.count + 1) + component
        if failed.contains(key) { return false }
        var result: Bool
        if part == parts.count {
            result = component == components.count
        } else if parts[part] == Self.globstar {
            result = part + 1 == parts.count
            var next = component
            while !result, next <= components.count {
                result = match(part + 1, next, components, &failed)
                next += 1
            }
        } else {
            result = component < components.count
                && (literal[part] ? Self.equal(parts[part], components[component]) : Self.match(parts[part], components[component]))
                && match(part + 1, component + 1, components, &failed)
        }
        if !result { failed.insert(key) }
        return result
    }

    private static func equal(_ name: [UInt8], _ text: ArraySlice<UInt8>) -> Bool {
        guard name.count == text.count else { return false }
        var offset = text.startIndex
        for byte in name {
            if byte != text[offset] { return false }
            offset += 1
        }
        return true
    }

    /// `*` and `?` within one component.
    static func match(_ pattern: [UInt8], _ text: ArraySlice<UInt8>) -> Bool {
        if !pattern.contains(UInt8(ascii: "*")) && !pattern.contains(UInt8(ascii: "?")) {
            return equal(pattern, text)
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
