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

    /// Platforms from an Xcode project's build settings: `SDKROOT` and `SUPPORTED_PLATFORMS`.
    public static func platforms(fromXcodeProject text: String) -> PlatformSet? {
        var found = PlatformSet()
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            for key in ["SDKROOT", "SUPPORTED_PLATFORMS"] where line.hasPrefix(key + " =") {
                let value = line.dropFirst(key.count + 2).trimmingCharacters(in: CharacterSet(charactersIn: " ;\""))
                for word in value.split(separator: " ") {
                    if let platform = Platform(spelling: String(word)) { found.insert(PlatformSet(platform)) }
                }
            }
        }
        return found.isEmpty ? nil : found
    }

    /// Keys of a `.strings` file (`"key" = "value";`, comments allowed).
    public static func localizedKeys(fromStrings text: String) -> [String] {
        var keys: [String] = []
        var scalars = Array(text.unicodeScalars)[...]
        var expectKey = true
        while let first = scalars.first {
            if first == "/" , scalars.dropFirst().first == "*" {
                if let end = indexOf("*/", in: scalars) { scalars = scalars[(end + 2)...] } else { break }
            } else if first == "/", scalars.dropFirst().first == "/" {
                if let end = scalars.firstIndex(of: "\n") { scalars = scalars[end...] } else { break }
            } else if first == "\"" {
                var value = String.UnicodeScalarView()
                var index = scalars.index(after: scalars.startIndex)
                while index < scalars.endIndex, scalars[index] != "\"" {
                    if scalars[index] == "\\", scalars.index(after: index) < scalars.endIndex {
                        index = scalars.index(after: index)
                    }
                    value.append(scalars[index])
                    index = scalars.index(after: index)
                }
                if expectKey { keys.append(String(value)) }
                expectKey = false
                scalars = index < scalars.endIndex ? scalars[scalars.index(after: index)...] : []
            } else {
                if first == ";" { expectKey = true }
                scalars = scalars.dropFirst()
            }
        }
        return keys
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
            if Array(haystack[index..<(index + pattern.count)]) == pattern { return index }
            index += 1
        }
        return nil
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
