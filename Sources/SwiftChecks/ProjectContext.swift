import Foundation
import AuditModel
import ColorAssets

/// Facts about the whole repository that a single file's checks need. Built by the scanner in
/// one pass over the project files; pure data here.
public struct ProjectContext: Sendable {
    /// Platforms the repository targets (config override, else Package.swift / project.pbxproj);
    /// `nil` when nothing says.
    public var platforms: PlatformSet?
    /// The oldest OS versions the file is built for: code behind `#available` checks those
    /// versions always pass never runs.
    public var deploymentTargets: DeploymentTargets
    /// The compilation conditions of the builds that ship the file; nil when unknown.
    public var compilationConditions: CompilationConditions?
    /// Keys defined in Localizable.strings / .xcstrings: a literal passed where SwiftUI takes a
    /// `LocalizedStringKey` is translated, not spoken as written, when its key is defined.
    public var localizedKeys: Set<String>
    /// Every colour set of the repository's asset catalogs: what `Color("Name")` resolves to.
    public var colors: ColorCatalog
    /// Xcode's generated asset symbols (`brandPrimary`) → colour set names, built once per scan.
    public var colorSymbols: [String: String]
    /// The app's names (its Xcode projects' and targets'), normalized: an image asset named
    /// after the app is most likely its logo, for which the name is a fine label.
    public var appNames: Set<String>
    /// Colours the app declares on colour types in its Swift files (`ColorTokens`), by name.
    public var colorTokens: [String: ColorToken] = [:]
    /// Colours the app names through its own types (`ColorNamespaces`): `Palette.text`,
    /// `BeamColor.Niobium.swiftUI`.
    public var colorNamespaces: ColorNamespaces = .empty
    /// What the app's own views that this file shows do (`ViewComponents`), known only once
    /// every file was read: the scan checks a file again with them when it shows such a view.
    public var componentFacts: Set<String> = []
    /// Whether the `AccentColor` set of a catalog the Xcode targets building this file compile
    /// has a colour (the tint of its buttons); nil where no such target lists a catalog, and
    /// the nearest set decides.
    public var accentColorIsSet: Bool? = nil
    /// Where `accentColorIsSet`: the path of that colour set.
    public var accentColorSetPath: String? = nil

    /// `Octo Pod`, `octo-pod`, `OctoPod` → `octopod`.
    public static func normalizedAppName(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }

    public init(platforms: PlatformSet? = nil, deploymentTargets: DeploymentTargets = .unknown,
                compilationConditions: CompilationConditions? = nil, localizedKeys: Set<String> = [],
                colors: ColorCatalog = .empty, colorSymbols: [String: String]? = nil, appNames: Set<String> = [],
                colorTokens: [String: ColorToken] = [:], colorNamespaces: ColorNamespaces = .empty,
                accentColorIsSet: Bool? = nil, accentColorSetPath: String? = nil) {
        self.accentColorIsSet = accentColorIsSet
        self.accentColorSetPath = accentColorSetPath
        self.appNames = appNames
        self.colorTokens = colorTokens
        self.colorNamespaces = colorNamespaces
        self.platforms = platforms
        self.deploymentTargets = deploymentTargets
        self.compilationConditions = compilationConditions
        self.localizedKeys = localizedKeys
        self.colors = colors
        self.colorSymbols = colorSymbols ?? Self.symbols(of: colors)
    }

    public static func symbols(of colors: ColorCatalog) -> [String: String] {
        var symbols: [String: String] = [:]
        for set in colors.sets {
            for symbol in ColorSymbols.generated(for: set.name) where symbols[symbol] == nil { symbols[symbol] = set.name }
        }
        return symbols
    }
}
