import AuditModel

/// Facts about the whole repository that a single file's checks need. Built by the scanner in
/// one pass over the project files; pure data here.
public struct ProjectContext: Sendable, Hashable {
    /// Platforms the repository targets (config override, else Package.swift / project.pbxproj);
    /// `nil` when nothing says.
    public var platforms: PlatformSet?
    /// Keys defined in Localizable.strings / .xcstrings: a literal passed where SwiftUI takes a
    /// `LocalizedStringKey` is translated, not spoken as written, when its key is defined.
    public var localizedKeys: Set<String>

    public init(platforms: PlatformSet? = nil, localizedKeys: Set<String> = []) {
        self.platforms = platforms
        self.localizedKeys = localizedKeys
    }

    /// Changes whenever a file's findings could change for reasons outside the file.
    public var digest: String {
        Digest.sha256Hex("\(platforms?.rawValue ?? 255)|" + localizedKeys.sorted().joined(separator: "\u{1}"))
    }
}
