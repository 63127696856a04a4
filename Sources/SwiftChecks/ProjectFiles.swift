import AuditModel
import Foundation
import SwiftParser
import SwiftSyntax

/// Reads the repository-level files that decide platforms and localisation. Pure: text in,
/// facts out; the scanner does the reading.
public enum ProjectFiles {
    /// Platforms named in a SwiftPM manifest's `platforms:` list (`.iOS(.v17)`, `.macOS("14")`).
    /// `nil` when the manifest names none: SwiftPM then builds for every platform.
    public static func platforms(fromPackageManifest text: String) -> PlatformSet? {
        let tree = Parser.parse(source: text)
        let finder = PlatformListFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.found.isEmpty ? nil : finder.found
    }

    /// What a SwiftPM manifest says about the files under its folder, from one parse.
    public struct PackageManifest: Codable, Equatable, Sendable {
        /// See `platforms(fromPackageManifest:)`.
        public var platforms: PlatformSet?
        /// The folders (relative to the manifest's, without a trailing slash) that its targets
        /// may compile: a `path:` where given, else every folder SwiftPM would look in
        /// (`Sources/<name>`, `Source/<name>`, `src/<name>`, `srcs/<name>`, `Tests/<name>`,
        /// `Plugins/<name>`). nil when that cannot be read from the text: no target call, or a
        /// name or path that is not a plain string literal (targets built in a loop).
        public var targetFolders: [String]?
        /// Library products by name → the package targets they hold.
        public var products: [String: [String]] = [:]
        /// Each package target's folders and the targets of this package it depends on (by name,
        /// `.target(name:)` or `.byName(name:)`; other packages' products are left out).
        public var targets: [String: PackageTarget] = [:]
    }

    public struct PackageTarget: Codable, Equatable, Sendable {
        public var folders: [String]
        public var dependencies: [String]
    }

    public static func packageManifest(_ text: String) -> PackageManifest {
        let tree = Parser.parse(source: text)
        let platforms = PlatformListFinder(viewMode: .sourceAccurate)
        platforms.walk(tree)
        let targets = PackageTargetFinder(viewMode: .sourceAccurate)
        targets.walk(tree)
        return PackageManifest(platforms: platforms.found.isEmpty ? nil : platforms.found,
                               targetFolders: targets.undecided || targets.folders.isEmpty ? nil : targets.folders,
                               products: targets.products, targets: targets.targets)
    }

    /// Platforms from an Xcode project's build settings: `SDKROOT` and `SUPPORTED_PLATFORMS`.
    public static func platforms(fromXcodeProject text: String) -> PlatformSet? {
        platforms(fromXcodeProject: Array(text.utf8))
    }

    /// The same from the file's bytes, in one pass: a line is looked at only when it starts
    /// (after indentation) with one of the two keys.
    public static func platforms<Bytes: RandomAccessCollection<UInt8>>(fromXcodeProject bytes: Bytes) -> PlatformSet?
    where Bytes.Index == Int {
        let keys = [Array("SDKROOT =".utf8), Array("SUPPORTED_PLATFORMS =".utf8)]
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        func isValueEdge(_ byte: UInt8) -> Bool { isBlank(byte) || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "\"") }
        var found = PlatformSet()
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            var lineEnd = lineStart
            while lineEnd < bytes.endIndex, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var start = lineStart
            while start < lineEnd, isBlank(bytes[start]) { start += 1 }
            if let key = keys.first(where: { key in lineEnd - start >= key.count && key.indices.allSatisfy { bytes[start + $0] == key[$0] } }) {
                var first = start + key.count, last = lineEnd
                while first < last, isValueEdge(bytes[first]) { first += 1 }
                while last > first, isValueEdge(bytes[last - 1]) { last -= 1 }
                for word in bytes[first..<last].split(separator: UInt8(ascii: " ")) {
                    if let platform = Platform(spelling: String(decoding: word, as: UTF8.self)) { found.insert(PlatformSet(platform)) }
                }
            }
            lineStart = lineEnd + 1
        }
        return found.isEmpty ? nil : found
    }

    /// The `.swift` file names an Xcode project lists (`path = Row.swift;`, `"My Row.swift"`),
    /// or nil when it uses synchronised folders (Xcode 16), whose members are not listed.
    public static func swiftFileNames(inXcodeProject bytes: [UInt8]) -> Set<String>? {
        if occurs(Array("PBXFileSystemSynchronizedRootGroup".utf8), in: bytes) { return nil }
        var names = Set<String>()
        let suffix = Array(".swift".utf8)
        var index = 0
        while index + suffix.count <= bytes.count {
            guard bytes[index] == UInt8(ascii: "."), bytes[index..<(index + suffix.count)].elementsEqual(suffix) else {
                index += 1
                continue
            }
            let end = index + suffix.count
            // A name ends at the suffix: `Row.swift;` or `Row.swift"`, not `Row.swiftinterface`.
            if end < bytes.count, bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: "\""),
               bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: ",") {
                index = end
                continue
            }
            var start = index
            // Names are short: looking back further than this cannot find one's start, and a
            // hostile one-line project must not cost a backward walk per match.
            let floor = max(0, index - 512)
            let quoted = start > 0 && bytes[floor..<start].last(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "=") }) == UInt8(ascii: "\"")
            while start > floor {
                let byte = bytes[start - 1]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "=") { break }
                if !quoted, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { break }
                start -= 1
            }
            var name = String(decoding: bytes[start..<end], as: UTF8.self)
            while name.first == " " { name.removeFirst() }
            if !name.isEmpty { names.insert(name) }
            index = end
        }
        return names
    }

    /// Whether `needle` occurs in `bytes`, stopping at the first match: full comparison starts
    /// only where its first byte occurs.
    public static func occurs(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        needle.withUnsafeBufferPointer { needle in bytes.withUnsafeBufferPointer { ASCII.occurs(needle, in: $0) } }
    }

    /// Why an Xcode project file cannot be trusted, or nil: its braces (outside quoted strings
    /// and comments) do not balance, as in a file cut short or a merge left half-resolved.
    public static func xcodeProjectProblem(_ bytes: [UInt8]) -> String? {
        var depth = 0, line = 1, index = 0
        var deepestOpen: Int?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"): line += 1
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 } else if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                if index >= bytes.count { return "a quoted string that starts before line \(line) is never closed" }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                if index + 1 >= bytes.count { return "a comment that starts before line \(line) is never closed" }
                index += 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                line += 1
            case UInt8(ascii: "{"):
                if depth == 0 { deepestOpen = line }
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth < 0 { return "line \(line) closes a brace that was never opened" }
            default: break
            }
            index += 1
        }
        if depth > 0 { return "\(depth) brace\(depth == 1 ? "" : "s") opened (from line \(deepestOpen ?? 1)) never close: the file is cut short" }
        return nil
    }

    /// Keys of a `.strings` file: text (`"key" = "value";`, comments allowed) or a compiled
    /// property list (binary or XML), with why the file cannot be read whole when it cannot.
    /// Keys before the problem are kept.
    public static func localizedKeys(fromStringsFile file: [UInt8]) -> (keys: [String], problem: String?) {
        // A UTF-8 byte-order mark is not part of the table.
        let bytes = file.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(file.dropFirst(3)) : file
        if bytes.starts(with: Array("bplist".utf8)) || bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) {
            guard let list = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
                  let table = list as? [String: Any] else {
                return ([], "property list is not readable as a dictionary of strings")
            }
            return (Array(table.keys), nil)
        }
        // Text tables are UTF-8 or UTF-16; Foundation detects UTF-16's byte order from its mark.
        guard let text = String(validating: bytes, as: UTF8.self) ?? String(data: Data(bytes), encoding: .utf16) else {
            return ([], "neither UTF-8 nor UTF-16 text")
        }
        return localizedKeysAndProblem(fromStrings: text)
    }

    /// Keys of a text `.strings` table (`"key" = "value";`, comments allowed).
    static func localizedKeysAndProblem(fromStrings text: String) -> (keys: [String], problem: String?) {
        var keys: [String] = []
        var line = 1
        var scalars = Array(text.unicodeScalars)[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var expectKey = true
        while let first = scalars.first {
            if first == "/" , scalars.dropFirst().first == "*" {
                guard let end = indexOf("*/", in: scalars) else { return (keys, "a comment that starts on line \(line) is never closed") }
                line += scalars[scalars.startIndex..<end].filter { $0 == "\n" }.count
                scalars = scalars[(end + 2)...]
            } else if first == "/", scalars.dropFirst().first == "/" {
                if let end = scalars.firstIndex(of: "\n") { scalars = scalars[end...] } else { break }
            } else if first == "\"" {
                var value = String.UnicodeScalarView()
                let startLine = line
                var index = scalars.index(after: scalars.startIndex)
                while index < scalars.endIndex, scalars[index] != "\"" {
                    if scalars[index] == "\\", scalars.index(after: index) < scalars.endIndex {
                        index = scalars.index(after: index)
                    }
                    if scalars[index] == "\n" { line += 1 }
                    value.append(scalars[index])
                    index = scalars.index(after: index)
                }
                guard index < scalars.endIndex else { return (keys, "a string that starts on line \(startLine) is never closed") }
                if expectKey { keys.append(String(value)) }
                expectKey = false
                scalars = scalars[scalars.index(after: index)...]
            } else if Self.isBareWordScalar(first) {
                // Old-style property lists allow unquoted words: `CFBundleDisplayName = "Shop";`.
                let word = scalars.prefix(while: Self.isBareWordScalar)
                if expectKey { keys.append(String(String.UnicodeScalarView(word))) }
                expectKey = false
                scalars = scalars.dropFirst(word.count)
            } else {
                if first == ";" { expectKey = true }
                if first == "\n" { line += 1 }
                if !(first.properties.isWhitespace || first == ";" || first == "=") {
                    return (keys, "unexpected \"\(Character(first))\" on line \(line): entries look like \"key\" = \"value\";")
                }
                scalars = scalars.dropFirst()
            }
        }
        return (keys, nil)
    }

    private static func isBareWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_$.:/-".unicodeScalars.contains(scalar)
    }

    /// Keys of an Xcode string catalog (`.xcstrings`, JSON with a `strings` object).
    public static func localizedKeys(fromStringCatalog data: Data) -> [String]? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let strings = object["strings"] as? [String: Any] else { return nil }
        return Array(strings.keys)
    }

    private static func indexOf(_ needle: String, in haystack: ArraySlice<Unicode.Scalar>) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        var index = haystack.startIndex
        while index + pattern.count <= haystack.endIndex {
            // Compared in place: a copy of the window at every position made a long file slow.
            if haystack[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}

/// The folders of a manifest's targets (`.target(name: "Kit")`, `.testTarget(name:, path:)`).
/// A dependency's `.target(name:)` adds its folders too: one folder too many only keeps files.
private final class PackageTargetFinder: SyntaxVisitor {
    var folders: [String] = []
    var undecided = false
    static let kinds: Set<String> = ["target", "executableTarget", "testTarget", "macro", "plugin", "systemLibrary", "binaryTarget"]
    static let defaultRoots = ["Sources", "Source", "src", "srcs", "Tests", "Plugins"]

    var products: [String: [String]] = [:]
    var targets: [String: ProjectFiles.PackageTarget] = [:]

    /// String literals of an array argument (`targets: ["A", "B"]`), and the `name:` of
    /// `.target(name:)`/`.byName(name:)` elements.
    static func names(in expression: ExprSyntax?) -> [String] {
        guard let list = expression?.as(ArrayExprSyntax.self) else { return [] }
        return list.elements.compactMap { element in
            if let literal = element.expression.as(StringLiteralExprSyntax.self) { return plain(literal) }
            guard let call = element.expression.as(FunctionCallExprSyntax.self),
                  let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                  ["target", "byName"].contains(member.declName.baseName.text),
                  let name = call.arguments.first(where: { $0.label?.text == "name" })?.expression.as(StringLiteralExprSyntax.self)
            else { return nil }
            return plain(name)
        }
    }

    static func plain(_ literal: StringLiteralExprSyntax) -> String? {
        guard literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }

    /// Inside a `dependencies:` list: `.target(name:)` names a dependency, not a declaration.
    static func isDependency(_ node: FunctionCallExprSyntax) -> Bool {
        var current = node.parent
        while let parent = current {
            if let labeled = parent.as(LabeledExprSyntax.self), labeled.label?.text == "dependencies" { return true }
            if parent.is(FunctionCallExprSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil else { return .visitChildren }
        if member.declName.baseName.text == "library",
           let name = node.arguments.first(where: { $0.label?.text == "name" })?.expression.as(StringLiteralExprSyntax.self).flatMap(Self.plain) {
            products[name, default: []] += Self.names(in: node.arguments.first(where: { $0.label?.text == "targets" })?.expression)
            return .visitChildren
        }
        guard Self.kinds.contains(member.declName.baseName.text), !Self.isDependency(node) else { return .visitChildren }
        func literal(_ label: String) -> String?? {
            guard let argument = node.arguments.first(where: { $0.label?.text == label }) else { return .some(nil) }
            guard let string = argument.expression.as(StringLiteralExprSyntax.self), let text = Self.plain(string) else { return nil }
            return .some(text)
        }
        guard let name = literal("name"), let path = literal("path"), let name else {
            undecided = true
            return .visitChildren
        }
        let own: [String]
        if let path {
            var folder = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            while folder.hasSuffix("/") { folder.removeLast() }
            own = [folder == "." ? "" : folder]
        } else {
            own = Self.defaultRoots.map { "\($0)/\(name)" }
        }
        folders += own
        targets[name] = ProjectFiles.PackageTarget(
            folders: own, dependencies: Self.names(in: node.arguments.first(where: { $0.label?.text == "dependencies" })?.expression))
        return .visitChildren
    }
}

private final class PlatformListFinder: SyntaxVisitor {
    var found = PlatformSet()

    override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.label?.text == "platforms", let list = node.expression.as(ArrayExprSyntax.self) else {
            return .visitChildren
        }
        for element in list.elements {
            if let name = element.expression.memberName, let platform = Platform(spelling: name) {
                found.insert(PlatformSet(platform))
            }
        }
        return .skipChildren
    }
}
