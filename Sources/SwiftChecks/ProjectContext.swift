import AuditModel
import ColorAssets

/// Facts about the whole repository that a single file's checks need. Built by the scanner in
/// one pass over the project files; pure data here.
public struct ProjectContext: Sendable {
    /// Platforms the repository targets (config override, else Package.swift / project.pbxproj);
    /// `nil` when nothing says.
    public var platforms: PlatformSet?
    /// Keys defined in Localizable.strings / .xcstrings: a literal passed where SwiftUI takes a
    /// `LocalizedStringKey` is translated, not spoken as written, when its key is defined.
    public var localizedKeys: Set<String>
    /// Every colour set of the repository's asset catalogs: what `Color("Name")` resolves to.
    public var colors: ColorCatalog

    public init(platforms: PlatformSet? = nil, localizedKeys: Set<String> = [], colors: ColorCatalog = .empty) {
        self.platforms = platforms
        self.localizedKeys = localizedKeys
        self.colors = colors
    }
}
