import AuditModel
import ColorAssets
import Foundation
import SwiftChecks

/// Repository-level facts: which platforms each folder builds for (nearest Package.swift or
/// Xcode project wins), which localisation keys exist, and the colour sets of every asset catalog.
struct ProjectIndex: Sendable {
    private var platformsByDirectory: [String: PlatformSet] = [:]
    private let configPlatforms: PlatformSet?
    private let localizedKeys: Set<String>
    private let keysDigest: String
    /// Colour sets of every (not excluded, not vendored) asset catalog.
    private(set) var colors = ColorCatalog.empty
    private(set) var colorsDigest = ""
    private(set) var colorSymbols: [String: String] = [:]
    /// Colour set names used outside Swift: Interface Builder files and build settings.
    private(set) var colorNamesUsedByProjectFiles: Set<String> = []

    /// `isScanned` says whether a path is in scope (config excludes, vendored folders).
    init(input: ScanInput, config: AuditConfig, notes: inout [ScanNote], isScanned: (String) -> Bool = { _ in true }) {
        configPlatforms = config.platforms
        var keys: Set<String> = []
        var assetFiles: [(path: String, bytes: [UInt8])] = []
        for file in input.files {
            if file.path.contains(".xcassets/"), file.path.hasSuffix("/Contents.json") {
                guard isScanned(file.path) else { continue }
                do { assetFiles.append((file.path, try file.bytes())) } catch {
                    notes.append(ScanNote(kind: .skipped, file: file.path, message: "\(error)"))
                }
                continue
            }
            let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
            let directory = Self.directory(of: file.path)
            do {
                if name == "Package.swift" {
                    let text = String(decoding: try file.bytes(), as: UTF8.self)
                    if let set = ProjectFiles.platforms(fromPackageManifest: text) {
                        platformsByDirectory[directory, default: PlatformSet()].formUnion(set)
                    }
                } else if name.hasSuffix("Info.plist") {
                    guard isScanned(file.path) else { continue }
                    colorNamesUsedByProjectFiles.formUnion(Self.colorNames(inInfoPlist: String(decoding: try file.bytes(), as: UTF8.self)))
                } else if name.hasSuffix(".storyboard") || name.hasSuffix(".xib") {
                    guard isScanned(file.path) else { continue }
                    colorNamesUsedByProjectFiles.formUnion(Self.namedColors(inInterfaceBuilder: try file.bytes()))
                } else if file.path.hasSuffix(".xcodeproj/project.pbxproj") {
                    // The project's sources sit beside the .xcodeproj folder.
                    let text = String(decoding: try file.bytes(), as: UTF8.self)
                    colorNamesUsedByProjectFiles.formUnion(Self.colorBuildSettings(text))
                    if let set = ProjectFiles.platforms(fromXcodeProject: text) {
                        platformsByDirectory[Self.directory(of: directory), default: PlatformSet()].formUnion(set)
                    }
                } else if name.hasSuffix(".strings") {
                    let bytes = try file.bytes()
                    // .strings files are often UTF-16; Foundation detects the encoding from the BOM.
                    let text = String(validating: bytes, as: UTF8.self)
                        ?? String(data: Data(bytes), encoding: .utf16) ?? ""
                    keys.formUnion(ProjectFiles.localizedKeys(fromStrings: text))
                } else if name.hasSuffix(".xcstrings") {
                    if let catalog = ProjectFiles.localizedKeys(fromStringCatalog: Data(try file.bytes())) {
                        keys.formUnion(catalog)
                    } else {
                        notes.append(ScanNote(kind: .skipped, file: file.path,
                                              message: "string catalog is not valid JSON with a \"strings\" object; its keys are ignored"))
                    }
                }
            } catch {
                notes.append(ScanNote(kind: .skipped, file: file.path, message: "\(error)"))
            }
        }
        localizedKeys = keys
        keysDigest = Digest.sha256Hex(keys.sorted().joined(separator: "\u{1}"))
        if !assetFiles.isEmpty {
            let index = self
            // Idioms are chosen for the platform the catalog's project builds for; iOS when it
            // builds for several including iOS, since most multi-platform catalogs are iOS-first.
            colors = ColorCatalog.build(assetFiles) { path in
                guard let platforms = index.platforms(for: path) else { return nil }
                return platforms.contains(.iOS) ? .iOS : platforms.platforms.first
            }
            // One hash over every path and its bytes (length-prefixed, so no two inputs collide)
            // rather than a hash per file: the cache key changes whenever any of them does.
            var digestInput: [UInt8] = []
            digestInput.reserveCapacity(assetFiles.reduce(0) { $0 + $1.path.utf8.count + $1.bytes.count + 16 })
            for file in assetFiles.sorted(by: { $0.path < $1.path }) {
                digestInput += Array(file.path.utf8) + [0] + Array(String(file.bytes.count).utf8) + [0]
                digestInput += file.bytes
            }
            colorsDigest = Digest.sha256Hex(digestInput)
            colorSymbols = ProjectContext.symbols(of: colors)
            notes += Self.duplicateNotes(colors)
        }
    }

    /// A colour name several sets define. Across catalogs that is usual (an app and its widget
    /// each with an "AccentColor") and each Swift file is judged against the nearest; within one
    /// catalog Xcode's choice is not defined.
    static func duplicateNotes(_ colors: ColorCatalog) -> [ScanNote] {
        colors.duplicates.map { duplicate in
            let paths = duplicate.sets.map(\.path)
            let catalogs = paths.map(ColorCatalog.catalogPath(of:))
            let sameCatalog = Set(catalogs).count < catalogs.count
            let consequence = sameCatalog
                ? "two of them are in the same catalog, where which one the app gets is not defined: rename or delete one"
                : "each Swift file is judged against the set in the catalog nearest to it in the folder tree "
                    + "(target membership is not read)"
            return ScanNote(kind: .duplicateColorName, file: paths[0],
                            message: "colour set name \"\(duplicate.name)\" is defined \(paths.count) times "
                                + "(\(paths.joined(separator: ", "))); \(consequence)")
        }
    }

    /// Platforms for a file: the config override, else the nearest enclosing project's.
    func platforms(for path: String) -> PlatformSet? {
        if let configPlatforms { return configPlatforms }
        var directory = Self.directory(of: path)
        while true {
            if let set = platformsByDirectory[directory] { return set }
            if directory.isEmpty { return nil }
            directory = Self.directory(of: directory)
        }
    }

    func context(for path: String) -> ProjectContext {
        ProjectContext(platforms: platforms(for: path), localizedKeys: localizedKeys, colors: colors, colorSymbols: colorSymbols)
    }

    /// Cheap digest of the context for cache keys (the key set is hashed once).
    func digest(for path: String) -> String {
        "\(platforms(for: path)?.rawValue ?? 255)-\(keysDigest)-\(colorsDigest)"
    }

    /// `<namedColor name="Brand">` and `<color key="textColor" name="Brand"/>`: the colours an
    /// Interface Builder document names. A byte scan for two tags, not an XML parse: only the
    /// names matter here.
    static func namedColors(inInterfaceBuilder bytes: [UInt8]) -> Set<String> {
        var names: Set<String> = []
        let tags = [Array("<namedColor ".utf8), Array("<color ".utf8)]
        let attribute = Array(" name=\"".utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), let tag = tags.first(where: { bytes[index...].starts(with: $0) }) else {
                index += 1
                continue
            }
            var cursor = index + tag.count - 1
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ">") {
                if bytes[cursor...].starts(with: attribute) {
                    let start = cursor + attribute.count
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                    names.insert(String(decoding: bytes[start..<end], as: UTF8.self))
                    cursor = end
                }
                cursor += 1
            }
            index = cursor
        }
        return names
    }

    /// The launch screen's background (`UILaunchScreen` › `UIColorName`) and the accent colour
    /// (`NSAccentColorName`) named in an XML Info.plist.
    static func colorNames(inInfoPlist text: String) -> Set<String> {
        var names: Set<String> = []
        for key in ["<key>UIColorName</key>", "<key>NSAccentColorName</key>"] {
            var rest = Substring(text)
            while let range = rest.range(of: key) {
                rest = rest[range.upperBound...]
                let afterKey = rest.drop { $0.isWhitespace }
                guard afterKey.hasPrefix("<string>"), let end = afterKey.range(of: "</string>") else { continue }
                names.insert(String(afterKey[afterKey.index(afterKey.startIndex, offsetBy: 8)..<end.lowerBound]))
            }
        }
        return names
    }

    /// The global accent and widget background colours named in build settings.
    static func colorBuildSettings(_ text: String) -> Set<String> {
        var names: Set<String> = []
        for key in ["ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME", "ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME"] {
            var rest = Substring(text)
            while let range = rest.range(of: key + " = ") {
                let value = rest[range.upperBound...].prefix { $0 != ";" && $0 != "\n" }
                names.insert(value.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
                rest = rest[range.upperBound...]
            }
        }
        return names
    }

    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// SwiftPM's convention (`Sources/<Module>/…`), else the file's folder name.
    static func moduleName(of path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        if let sources = parts.firstIndex(of: "Sources"), sources + 2 < parts.count { return parts[sources + 1] }
        return parts.count >= 2 ? parts[parts.count - 2] : ""
    }
}
