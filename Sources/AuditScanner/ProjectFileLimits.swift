import AuditModel

/// The repository files read for facts rather than checked: each kind has its own size limit,
/// because each is read differently (Package.swift by SwiftParser, whose cost grows fast with
/// size; a string catalog by JSONSerialization; the rest by byte scans).
public enum ProjectFileKind: Sendable, CaseIterable {
    case packageManifest, xcodeProject, infoPlist, strings, stringCatalog, assetContents, codeOwners, config

    /// The kind of a path, or nil for Swift sources and Interface Builder files (which are
    /// checked, under `maxFileBytes`) and anything else.
    public static func of(_ path: String) -> ProjectFileKind? {
        // Asked of every file of the snapshot on every scan: the name is a slice, not a split.
        let name = ASCII.fileName(path).utf8
        if ASCII.hasSuffix(path, ".swift") {
            return name.elementsEqual("Package.swift".utf8) ? .packageManifest : nil
        }
        if ASCII.hasSuffix(path, ".xcodeproj/project.pbxproj") { return .xcodeProject }
        if ASCII.hasSuffix(path, "Info.plist") { return .infoPlist }
        if ASCII.hasSuffix(path, ".strings") { return .strings }
        if ASCII.hasSuffix(path, ".xcstrings") { return .stringCatalog }
        if name.elementsEqual("Contents.json".utf8), ASCII.contains(path, ".xcassets/") { return .assetContents }
        if name.elementsEqual("CODEOWNERS".utf8) { return .codeOwners }
        if name.elementsEqual(AuditConfig.fileName.utf8) { return .config }
        return nil
    }

    /// What the limit is called in a note: "over the N-byte limit for …".
    var plural: String {
        switch self {
        case .packageManifest: "Swift package manifests"
        case .xcodeProject: "Xcode project files"
        case .infoPlist: "Info.plist files"
        case .strings: ".strings files"
        case .stringCatalog: "string catalogs"
        case .assetContents: "asset catalog Contents.json files"
        case .codeOwners: "CODEOWNERS files"
        case .config: "configuration files"
        }
    }

    /// What the scan does without the file.
    var consequence: String {
        switch self {
        case .packageManifest: "its platforms were not read"
        case .xcodeProject: "its platforms and colour build settings were not read"
        case .infoPlist: "the colour names it sets were not read"
        case .strings, .stringCatalog: "its localisation keys were not read"
        case .assetContents: "the colour set or folder it describes was not read"
        case .codeOwners: "findings are not attributed to owners by it"
        case .config: "it was not read"
        }
    }

    func note(file: String, size: Int, limit: Int) -> ScanNote {
        ScanNote(kind: .skipped, file: file, message: "file is \(size) bytes, over the \(limit)-byte limit for \(plural); \(consequence)")
    }
}

/// Size limits of the project files, by kind. Real files are far smaller than these (a large
/// app's project.pbxproj is a few megabytes, its Package.swift tens of kilobytes); the limits
/// are there so that a hostile repository cannot make one file cost minutes or gigabytes.
public struct ProjectFileLimits: Sendable, Equatable {
    public var packageManifest: Int
    public var xcodeProject: Int
    public var infoPlist: Int
    public var strings: Int
    public var stringCatalog: Int
    public var assetContents: Int
    /// CODEOWNERS and `.a11y-audit.json`.
    public var other: Int

    public init(packageManifest: Int = 512 << 10, xcodeProject: Int = 32 << 20, infoPlist: Int = 1 << 20,
                strings: Int = 16 << 20, stringCatalog: Int = 32 << 20, assetContents: Int = 1 << 20, other: Int = 1 << 20) {
        self.packageManifest = packageManifest
        self.xcodeProject = xcodeProject
        self.infoPlist = infoPlist
        self.strings = strings
        self.stringCatalog = stringCatalog
        self.assetContents = assetContents
        self.other = other
    }

    public func limit(for kind: ProjectFileKind) -> Int {
        switch kind {
        case .packageManifest: packageManifest
        case .xcodeProject: xcodeProject
        case .infoPlist: infoPlist
        case .strings: strings
        case .stringCatalog: stringCatalog
        case .assetContents: assetContents
        case .codeOwners, .config: other
        }
    }

    /// What may be held of a file at `path`: its kind's limit, or `maxFileBytes` for the files
    /// that are checked. Package.swift is both (parsed for platforms, checked as Swift), so it
    /// gets the larger; each reader applies its own.
    func holdLimit(for path: String, maxFileBytes: Int) -> Int {
        switch ProjectFileKind.of(path) {
        case .packageManifest?: max(maxFileBytes, packageManifest)
        case let kind?: limit(for: kind)
        case nil: maxFileBytes
        }
    }
}
