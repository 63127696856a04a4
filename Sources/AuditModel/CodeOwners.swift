/// A repository's CODEOWNERS file in GitHub's syntax: gitignore-style patterns, each followed by
/// owners (`@user`, `@org/team`, or an email address); the last matching line decides a path's
/// owners, and a matching line without owners leaves the path unowned.
///
/// Lines GitHub would skip as invalid are skipped here too and reported with their line number;
/// they never make the whole file unusable.
public struct CodeOwners: Sendable {
    public struct Rule: Sendable, Equatable {
        public let pattern: String
        public let owners: [String]
        public let line: Int
    }

    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let reason: String

        public var description: String { "\(file):\(line): \(reason); the line is ignored" }
    }

    /// Where GitHub looks, in the order it looks: the first that exists is the one used.
    public static let locations = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]

    /// The CODEOWNERS file GitHub would use among a snapshot's paths, if any.
    public static func governingFile<Paths: Sequence>(among paths: Paths) -> String? where Paths.Element == String {
        let present = Set(paths)
        return locations.first { present.contains($0) }
    }

    public let file: String
    public private(set) var rules: [Rule] = []
    public private(set) var problems: [Problem] = []
    private var matchers: [PathPattern] = []

    public init(text: String, file: String = "CODEOWNERS") {
        self.file = file
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            switch Self.parse(rawLine) {
            case .nothing:
                continue
            case .problem(let reason):
                problems.append(Problem(file: file, line: number, reason: reason))
            case .rule(let pattern, let owners):
                rules.append(Rule(pattern: pattern, owners: owners, line: number))
                matchers.append(PathPattern(pattern))
            }
        }
    }

    /// The owners of a file (path relative to the repository root); empty when no line matches
    /// or the last matching line names no owners.
    public func owners(of path: String) -> [String] {
        rule(for: path)?.owners ?? []
    }

    /// The line that decides a path's owners: the last one whose pattern matches.
    public func rule(for path: String) -> Rule? {
        let components = Array(path.utf8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .filter { !$0.elementsEqual([UInt8(ascii: ".")]) }
        guard !components.isEmpty else { return nil }
        for index in matchers.indices.reversed() where matchers[index].matches(components) {
            return rules[index]
        }
        return nil
    }

    private enum Line {
        case nothing
        case rule(pattern: String, owners: [String])
        case problem(String)
    }

    private static func parse(_ line: Substring) -> Line {
        let tokens = tokenize(line)
        guard let first = tokens.first else { return .nothing }
        // A comment starts with an unescaped `#`; `\#` starts a pattern.
        if first.raw.hasPrefix("#") { return .nothing }
        let pattern = first.text
        if pattern.hasPrefix("!") { return .problem("negated pattern \"\(pattern)\": GitHub does not support \"!\" in CODEOWNERS") }
        if first.raw.contains("[") || first.raw.contains("]") {
            return .problem("pattern \"\(pattern)\" uses [ ] character ranges, which GitHub does not support in CODEOWNERS")
        }
        if pattern == "/" || pattern.isEmpty { return .problem("pattern \"\(pattern)\" matches nothing") }
        var owners: [String] = []
        for token in tokens.dropFirst() {
            if token.raw.hasPrefix("#") { break }      // inline comment
            guard isOwner(token.text) else {
                return .problem("\"\(token.text)\" is not an owner (expected @user, @org/team or an email address)")
            }
            owners.append(token.text)
        }
        return .rule(pattern: pattern, owners: owners)
    }

    /// Whitespace-separated tokens; a backslash makes the next character literal (`\#`, `\ `).
    private static func tokenize(_ line: Substring) -> [(raw: String, text: String)] {
        var tokens: [(raw: String, text: String)] = []
        var raw = "", text = ""
        var escaping = false
        for character in line {
            if escaping {
                raw.append(character)
                text.append(character)
                escaping = false
            } else if character == "\\" {
                raw.append(character)
                escaping = true
            } else if character.isWhitespace {
                if !raw.isEmpty { tokens.append((raw, text)) }
                raw = ""
                text = ""
            } else {
                raw.append(character)
                text.append(character)
            }
        }
        if !raw.isEmpty { tokens.append((raw, text)) }
        return tokens
    }

    /// `@user`, `@org/team-name`, or `someone@example.com`.
    static func isOwner(_ token: String) -> Bool {
        func isNameCharacter(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_" || character == ".")
        }
        if token.hasPrefix("@") {
            let parts = token.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            return (parts.count == 1 || parts.count == 2) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(isNameCharacter) }
        }
        let halves = token.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, !halves[0].contains(where: \.isWhitespace) else { return false }
        let domain = halves[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty && $0.allSatisfy(isNameCharacter) }
    }
}

/// One CODEOWNERS pattern, pre-split into components.
///
/// - A leading `/`, or a `/` inside the pattern, anchors it at the root; otherwise it may match
///   at any depth.
/// - A trailing `/` matches a directory: everything under it, never a file of that name.
/// - A match also covers what lies under a matched directory (`/apps/github` owns
///   `apps/github/x`), except when the last component is a lone `*`: `docs/*` owns
///   `docs/a.md`, not `docs/guides/a.md`.
/// - `*` and `?` stay within a component; `**` spans any number of components.
struct PathPattern: Sendable {
    private let parts: [[UInt8]]
    private let directoryOnly: Bool
    private let exactDepth: Bool
    private static let globstar = Array("**".utf8)

    init(_ pattern: String) {
        var text = Substring(pattern)
        let leadingSlash = text.hasPrefix("/")
        if leadingSlash { text = text.dropFirst() }
        directoryOnly = text.hasSuffix("/")
        if directoryOnly { text = text.dropLast() }
        var split = text.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
        let anchored = leadingSlash || split.count > 1
        if !anchored, split.first != Self.globstar { split.insert(Self.globstar, at: 0) }
        exactDepth = split.last == Array("*".utf8)
        parts = split
    }

    func matches(_ components: [ArraySlice<UInt8>]) -> Bool {
        // Lengths of leading runs of components that the whole pattern matches.
        for length in stride(from: components.count, through: 1, by: -1) {
            if directoryOnly, length == components.count { continue }
            if exactDepth, length != components.count { continue }
            var failed = Set<Int>()
            if match(0, 0, components[0..<length], &failed, length) { return true }
        }
        return false
    }

    /// Whether `parts[part...]` matches `components[component..<end]`; failures are memoised so
    /// a file's `**` patterns stay polynomial.
    private func match(_ part: Int, _ component: Int, _ components: ArraySlice<ArraySlice<UInt8>>,
                       _ failed: inout Set<Int>, _ end: Int) -> Bool {
        let key = part * (end + 1) + component
        if failed.contains(key) { return false }
        var result: Bool
        if part == parts.count {
            result = component == end
        } else if parts[part] == Self.globstar {
            // A trailing `**` needs at least one component under the directory before it.
            var next = part + 1 == parts.count ? component + 1 : component
            result = false
            while !result, next <= end {
                result = match(part + 1, next, components, &failed, end)
                next += 1
            }
        } else {
            result = component < end && Glob.match(parts[part], components[components.startIndex + component])
                && match(part + 1, component + 1, components, &failed, end)
        }
        if !result { failed.insert(key) }
        return result
    }
}
