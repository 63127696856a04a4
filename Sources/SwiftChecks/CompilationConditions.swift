import Foundation
import SwiftSyntax

/// The compilation conditions (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`, `-D` in
/// `OTHER_SWIFT_FLAGS`) of the builds that ship some code: one set per shipping configuration
/// of each target that builds it. A `#if` on those names is decided where every shipping build
/// agrees: `#else` of `#if FEATURE` when every release configuration sets `FEATURE`, `#if
/// STAGING` when only debug configurations do.
public struct CompilationConditions: Sendable, Equatable, Hashable, Codable {
    /// Each shipping build's conditions.
    public var shipping: [Set<String>]
    /// Every name any configuration of those targets sets, debug ones included: only these are
    /// judged. A name the project never sets may come from a command line or CI script.
    public var mentioned: Set<String>

    public init(shipping: [Set<String>], mentioned: Set<String>) {
        self.shipping = shipping
        self.mentioned = mentioned
    }

    /// Stable text for cache keys.
    public var digest: String {
        shipping.map { $0.sorted().joined(separator: " ") }.joined(separator: ";") + "|" + mentioned.sorted().joined(separator: " ")
    }

    /// A configuration ships unless its name says it is for debugging.
    public static func isShipping(configuration name: String) -> Bool { !name.lowercased().contains("debug") }

    /// The names `SWIFT_ACTIVE_COMPILATION_CONDITIONS` and `OTHER_SWIFT_FLAGS` define, once the
    /// levels are merged; nil when a value holds a variable other than `$(inherited)`.
    public static func names(conditions: String?, otherSwiftFlags: String?) -> Set<String>? {
        var names = Set<String>()
        for word in (conditions ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if word.contains("$(") || word.contains("${") { return nil }
            names.insert(String(word))
        }
        let flags = (otherSwiftFlags ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var index = 0
        while index < flags.count {
            let flag = flags[index]
            if flag.contains("$(") || flag.contains("${") { return nil }
            if flag == "-D", index + 1 < flags.count {
                names.insert(flags[index + 1])
                index += 1
            } else if flag.hasPrefix("-D"), flag.count > 2 {
                names.insert(String(flag.dropFirst(2)))
            }
            index += 1
        }
        return names
    }

    /// A setting's value after a higher level's `value` is applied over `lower`: `$(inherited)`
    /// keeps what the lower level said.
    public static func merge(_ value: String?, over lower: String?) -> String? {
        guard let value else { return lower }
        let inherited = ["$(inherited)", "${inherited}", "$inherited"]
        guard inherited.contains(where: value.contains) else { return value }
        var merged = value
        for spelling in inherited { merged = merged.replacingOccurrences(of: spelling, with: " " + (lower ?? "") + " ") }
        return merged
    }

    /// Whether the `#if` clause never compiles in a shipping build: its condition is false in
    /// every one, or an earlier clause of the same `#if` is true in every one. Without project
    /// knowledge only `#if false` (and `#else` of `#if true`) is decided.
    public static func isClauseNeverShipped(_ clause: IfConfigClauseSyntax, conditions: CompilationConditions?) -> Bool {
        guard let clauses = clause.parent?.as(IfConfigClauseListSyntax.self) else { return false }
        for earlier in clauses {
            if earlier.id == clause.id { break }
            if let condition = earlier.condition, evaluate(condition, conditions) == true { return true }
        }
        if let condition = clause.condition, evaluate(condition, conditions) == false { return true }
        return false
    }

    /// True or false in every shipping build; nil when builds differ or a term is not a name
    /// the project sets (`os(iOS)`, `canImport(…)`, a name set nowhere in the project).
    static func evaluate(_ expression: ExprSyntax, _ conditions: CompilationConditions?) -> Bool? {
        if let literal = expression.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.true) }
        guard let conditions, !conditions.shipping.isEmpty else { return nil }
        var verdict: Bool?
        for build in conditions.shipping {
            guard let value = value(expression, build, conditions.mentioned) else { return nil }
            if let verdict, verdict != value { return nil }
            verdict = value
        }
        return verdict
    }

    private static func value(_ expression: ExprSyntax, _ build: Set<String>, _ mentioned: Set<String>, depth: Int = 0) -> Bool? {
        // Conditions people write are a few terms deep; a deeper one is left undecided.
        guard depth < 32 else { return nil }
        if let literal = expression.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.true) }
        if let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            return mentioned.contains(name) ? build.contains(name) : nil
        }
        if let negated = expression.as(PrefixOperatorExprSyntax.self), negated.operator.text == "!" {
            return value(negated.expression, build, mentioned, depth: depth + 1).map { !$0 }
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return value(inner.expression, build, mentioned, depth: depth + 1)
        }
        guard let sequence = expression.as(SequenceExprSyntax.self) else { return nil }
        // `&&` binds tighter than `||`: an or of and-groups. An unknown term decides nothing
        // unless its group or the whole is settled without it.
        var groups: [[ExprSyntax]] = [[]]
        for element in sequence.elements {
            if let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text {
                if op == "||" { groups.append([]) } else if op != "&&" { return nil }
            } else {
                groups[groups.count - 1].append(element)
            }
        }
        var anyUnknown = false
        for group in groups {
            var groupValue: Bool? = true
            for term in group {
                switch value(term, build, mentioned, depth: depth + 1) {
                case false?: groupValue = false
                case nil: if groupValue == true { groupValue = nil }
                case true?: break
                }
                if groupValue == false { break }
            }
            if groupValue == true { return true }
            if groupValue == nil { anyUnknown = true }
        }
        return anyUnknown ? nil : false
    }
}

/// Reads the two compilation-condition settings of an `.xcconfig` file and the files it
/// includes. Pure: `load` gives a file's bytes by its path (relative to the project folder).
public enum ConfigurationFileSettings {
    static let keys = ["SWIFT_ACTIVE_COMPILATION_CONDITIONS", "OTHER_SWIFT_FLAGS"]
    /// Include chains deeper than this are not what people write (and may loop).
    static let includeDepth = 8

    /// The settings by key, or nil when a file cannot be read, an include it requires is
    /// missing, or it sets a conditional variant of a key (`…[config=Release]`).
    public static func settings(of path: String, load: (String) -> [UInt8]?, depth: Int = 0) -> [String: String]? {
        guard depth < includeDepth, let bytes = load(path) else { return nil }
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        var settings: [String: String] = [:]
        for rawLine in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#include") {
                let optional = trimmed.hasPrefix("#include?")
                guard let open = trimmed.firstIndex(where: { $0 == "\"" || $0 == "<" }) else { continue }
                let name = trimmed[trimmed.index(after: open)...].prefix { $0 != "\"" && $0 != ">" }
                let included = name.hasPrefix("/") ? nil : ProjectPath.normalized(folder.isEmpty ? String(name) : folder + "/" + name)
                guard let included, let nested = Self.settings(of: included, load: load, depth: depth + 1) else {
                    if optional { continue }
                    return nil
                }
                for (key, value) in nested { settings[key] = CompilationConditions.merge(value, over: settings[key]) }
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let bracket = key.firstIndex(of: "[") {
                if keys.contains(String(key[..<bracket])) { return nil }
                continue
            }
            guard keys.contains(key) else { continue }
            settings[key] = CompilationConditions.merge(value, over: settings[key])
        }
        return settings
    }
}

enum ProjectPath {
    /// `App/../Config/Base.xcconfig` → `Config/Base.xcconfig`; nil when it leaves the folder.
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard parts.popLast() != nil else { return nil }
            } else {
                parts.append(part)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}

extension CompilationConditions {
    /// The conditions of one target's builds: its configurations merged with the project's of
    /// the same name and both levels' `.xcconfig` files (target over its file over the project
    /// over its file). Nil when any of that cannot be read. `settingsOf`: a configuration
    /// file's settings (`ConfigurationFileSettings.settings`), read once per file by the caller.
    public static func of(_ target: XcodeTargets.Target, project: [XcodeTargets.ConditionSettings],
                          settingsOf: (String) -> [String: String]?) -> CompilationConditions? {
        guard let configurations = target.configurations, !configurations.isEmpty else { return nil }
        var shipping: [Set<String>] = [], mentioned = Set<String>()
        for configuration in configurations {
            var levels = [configuration]
            if let projectLevel = project.first(where: { $0.name == configuration.name }) { levels.append(projectLevel) }
            var conditions: String?, flags: String?
            // Lowest level first: the project's file, the project, the target's file, the target.
            for level in levels.reversed() {
                guard !level.hasConditionalVariant else { return nil }
                if let file = level.configurationFile {
                    guard !file.isEmpty, let fileSettings = settingsOf(file) else { return nil }
                    conditions = merge(fileSettings[ConfigurationFileSettings.keys[0]], over: conditions)
                    flags = merge(fileSettings[ConfigurationFileSettings.keys[1]], over: flags)
                }
                conditions = merge(level.conditions, over: conditions)
                flags = merge(level.otherSwiftFlags, over: flags)
            }
            guard let names = self.names(conditions: conditions, otherSwiftFlags: flags) else { return nil }
            mentioned.formUnion(names)
            if isShipping(configuration: configuration.name) { shipping.append(names) }
        }
        return shipping.isEmpty ? nil : CompilationConditions(shipping: shipping, mentioned: mentioned)
    }

    /// Code several targets build: every target's shipping builds; unknown if one is.
    public static func combining(_ targets: [CompilationConditions?]) -> CompilationConditions? {
        guard !targets.isEmpty else { return nil }
        var combined = CompilationConditions(shipping: [], mentioned: [])
        for target in targets {
            guard let target else { return nil }
            combined.shipping += target.shipping
            combined.mentioned.formUnion(target.mentioned)
        }
        return combined
    }
}
