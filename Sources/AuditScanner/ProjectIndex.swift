import AuditModel
import ColorAssets
import Foundation
import SwiftChecks
import Synchronization

/// Repository-level facts: which platforms each folder builds for (nearest Package.swift or
/// Xcode project wins), which localisation keys exist, and the colour sets of every asset catalog.
struct ProjectIndex: Sendable {
    private var platformsByDirectory: [String: PlatformSet] = [:]
    /// The configuration of each file, for the platforms it sets.
    private let configs: ConfigTree
    private let localizedKeys: Set<String>
    private let keysDigest: String
    /// See `ProjectContext.appNames`.
    private(set) var appNames: Set<String> = []
    private var appNamesDigest = ""
    /// Colour sets of every (not excluded, not vendored) asset catalog.
    private(set) var colors = ColorCatalog.empty
    private(set) var colorsDigest = ""
    private(set) var colorSymbols: [String: String] = [:]
    /// Colours the app's Swift files declare on colour types (`ColorTokens`), and their digest
    /// for the per-file cache: a token's new value must re-judge the files that show it.
    private(set) var colorTokens: [String: ColorToken] = [:]
    /// Swift files parsed for their colour tokens, by path: their checks take the tree
    /// instead of parsing the same bytes again.
    let parsedSources = ParsedSources()
    /// Colours named through the app's own types (`ColorNamespaces`), resolved once the
    /// catalogs are read; in `tokensDigest` too.
    private(set) var colorNamespaces = ColorNamespaces.empty
    private var tokensDigest = ""
    /// Colour set names used outside Swift: Interface Builder files and build settings.
    private(set) var colorNamesUsedByProjectFiles: Set<String> = []
    /// File names of the Swift sources the repository's Xcode projects list, or nil when no
    /// project lists them one by one (none committed, none listing a Swift file, or one using
    /// Xcode 16 synchronised folders, which compile whatever the folder holds).
    private var swiftFilesInXcodeProjects: Set<String>? = nil
    /// Folders with a Package.swift: SwiftPM compiles what its targets' folders hold.
    private var packageDirectories: Set<String> = []
    /// Per package folder, the folders its targets compile (see `PackageManifest`); absent or
    /// nil: not known, and no file of the package is judged outside its targets.
    private var packageTargetFolders: [String: [String]?] = [:]
    /// Each package folder's manifest (the first read where a folder has several).
    private var packageManifests: [String: ProjectFiles.PackageManifest] = [:]
    /// The folders holding a `.xcodeproj` that lists Swift files: only files under one of them
    /// can be judged "in no target" (a pod's sources beside an example project are not).
    private var projectRoots: Set<String> = []
    /// Folders of the projects whose build files filter by platform (`platformFilter = ios`).
    private var projectsFilteringByPlatform: Set<String> = []
    /// Each readable project's targets, by the folder holding its `.xcodeproj`, deepest first.
    private var xcodeTargets: [(root: String, targets: XcodeTargets)] = []
    /// Per Swift or Interface Builder file some target builds: the platforms of the non-test
    /// targets that build it (nil: only test bundles do), worked out once at the start.
    private var targetPlatformsByFile: [String: PlatformSet?] = [:]
    /// The deployment targets of the Xcode targets that build each file, where they say.
    private var deploymentTargetsByFile: [String: DeploymentTargets] = [:]
    /// The compilation conditions of the shipping builds of each file, where every target
    /// building it can say.
    private var compilationConditionsByFile: [String: CompilationConditions] = [:]
    /// Whether the accent colour of the targets building each Swift file is set (see
    /// `ProjectContext.accentColorIsSet`), where one of them lists an asset catalog.
    private var accentColorIsSetByFile: [String: Bool] = [:]
    /// The path of that set, where it is.
    private var accentColorSetByFile: [String: String] = [:]
    /// `digest(for:)` of each Swift and Interface Builder file of the input.
    private var contextDigestByPath: [String: String] = [:]
    /// Every Xcode project in scope was read: only then can a file be in none of their targets.
    private var everyProjectRead = true
    /// No project file was too large, unreadable, damaged or synchronised (see `init`).
    private var projectFilesReadable = true

    /// `isScanned` says whether a path is in scope (config excludes, vendored folders). Each
    /// project file over its limit in `limits` is a note and is not read; Interface Builder files
    /// over `maxFileBytes` are skipped silently here (the scanner notes them).
    /// `cache` keeps each project file's parsed targets (by content), so a warm scan does not
    /// parse the property list again.
    init(input: ScanInput, config: AuditConfig, notes: inout [ScanNote], isScanned: (String) -> Bool = { _ in true },
         limits: ProjectFileLimits = ProjectFileLimits(), cache: (any ScanCacheStorage)? = nil, configs: ConfigTree? = nil,
         facts table: FileFactsTable? = nil) {
        let table = table ?? FileFactsTable(storage: cache, persisting: false, root: "")
        self.configs = configs ?? ConfigTree(root: config)
        var keys: Set<String> = []
        var tokenFiles: [ColorTokenFile] = []
        // Swift files whose imports build only for the Mac, noted while their bytes are read
        // for tokens: a package folder's platforms need them, and reading every file again
        // for that was a tenth of a warm re-scan.
        var macOnlySwiftFiles = Set<String>()
        var assetFiles: [(path: String, bytes: [UInt8])] = []
        var projectSwiftFiles: Set<String> = []
        var listingProjectRoots: Set<String> = []
        var projectsListFiles = true, sawProject = false
        // A table's keys are the same in every language: read the development language's copy
        // (English or Base) where there is one, rather than forty translations of it.
        let developmentTables = Set(input.files.compactMap { file in Self.localizationTable(of: file.path) }
            .filter { ["en", "Base"].contains($0.language) }.map(\.table))
        /// Whether a file too large to read deserves a note: Info.plist files and asset catalogs
        /// are read only in scope, the configuration is the scanner's, and CODEOWNERS is read
        /// only from archives (by the worker), where the reader has already measured it.
        func notesWhenTooLarge(_ kind: ProjectFileKind, _ path: String, inArchive: Bool) -> Bool {
            switch kind {
            case .infoPlist, .assetContents: isScanned(path)
            case .config: false
            case .codeOwners: inArchive
            case .packageManifest, .xcodeProject, .strings, .stringCatalog: true
            }
        }
        for file in input.oversized {
            // A project nobody could read cannot say which files it compiles.
            if ProjectFileKind.of(file.path) == .xcodeProject { projectsListFiles = false }
            guard let kind = ProjectFileKind.of(file.path), notesWhenTooLarge(kind, file.path, inArchive: true) else { continue }
            let own = limits.limit(for: kind)
            notes.append(kind.note(file: file.path, size: file.size, limit: file.size > own ? own : file.limit))
        }
        for file in input.files {
            let kind = ProjectFileKind.of(file.path)
            if let kind, file.size > limits.limit(for: kind) {
                if kind == .xcodeProject { projectsListFiles = false }
                if notesWhenTooLarge(kind, file.path, inArchive: false) {
                    notes.append(kind.note(file: file.path, size: file.size, limit: limits.limit(for: kind)))
                }
                continue
            }
            let directory = Self.directory(of: file.path)
            do {
                switch kind {
                case .assetContents?:
                    guard isScanned(file.path) else { continue }
                    assetFiles.append((file.path, try file.bytes()))
                case .packageManifest?:
                    packageDirectories.insert(directory)
                    let manifest = Self.packageManifest(of: try file.bytes(), cache: cache)
                    if packageManifests[directory] == nil { packageManifests[directory] = manifest }
                    if let set = manifest.platforms {
                        platformsByDirectory[directory, default: PlatformSet()].formUnion(set)
                    }
                    // `Package@swift-5.9.swift` beside `Package.swift`: both must say.
                    switch (packageTargetFolders[directory], manifest.targetFolders) {
                    case (nil, let folders): packageTargetFolders[directory] = .some(folders)
                    case (.some(.some(let known)), .some(let folders)): packageTargetFolders[directory] = .some(known + folders)
                    default: packageTargetFolders[directory] = .some(nil)
                    }
                case .infoPlist?:
                    guard isScanned(file.path) else { continue }
                    colorNamesUsedByProjectFiles.formUnion(Self.colorNames(inInfoPlist: try file.bytes()))
                case .xcodeProject?:
                    // A vendored or excluded project (a Carthage checkout's) says nothing about the app.
                    guard isScanned(file.path) else { continue }
                    // The project's sources sit beside the .xcodeproj folder.
                    let bytes: [UInt8]
                    do { bytes = try file.bytes() } catch {
                        projectsListFiles = false
                        throw error
                    }
                    let facts = Self.projectFacts(of: bytes, cache: cache)
                    if let problem = facts.problem {
                        // A damaged project must not decide which files are compiled.
                        projectsListFiles = false
                        notes.append(ScanNote(kind: .skipped, file: file.path,
                                              message: "Xcode project file is malformed (\(problem)); its platforms and file list are ignored"))
                        continue
                    }
                    // A project that lists no Swift file (resources only, or a stub) says nothing.
                    if let listed = facts.swiftFiles {
                        if listed.contains(where: { $0 != "sourcecode.swift" }) {
                            sawProject = true
                            listingProjectRoots.insert(Self.directory(of: directory))
                        }
                        projectSwiftFiles.formUnion(listed)
                    } else {
                        projectsListFiles = false
                    }
                    colorNamesUsedByProjectFiles.formUnion(facts.colorSettings)
                    if let targets = facts.targets {
                        xcodeTargets.append((Self.directory(of: directory), targets))
                        if facts.filtersFilesByPlatform { projectsFilteringByPlatform.insert(Self.directory(of: directory)) }
                    } else {
                        everyProjectRead = false
                    }
                    if let set = facts.platforms {
                        platformsByDirectory[Self.directory(of: directory), default: PlatformSet()].formUnion(set)
                    }
                case .strings?:
                    if let table = Self.localizationTable(of: file.path), !["en", "Base"].contains(table.language),
                       developmentTables.contains(table.table) { continue }
                    let table = Self.stringsKeys(of: try file.bytes(), cache: cache)
                    keys.formUnion(table.keys)
                    if let problem = table.problem {
                        notes.append(ScanNote(kind: .skipped, file: file.path,
                                              message: "strings file is malformed (\(problem)); keys after that point are ignored"))
                    }
                case .stringCatalog?:
                    if let catalog = ProjectFiles.localizedKeys(fromStringCatalog: Data(try file.bytes())) {
                        keys.formUnion(catalog)
                    } else {
                        notes.append(ScanNote(kind: .skipped, file: file.path,
                                              message: "string catalog is not valid JSON with a \"strings\" object; its keys are ignored"))
                    }
                case .codeOwners?, .config?:
                    continue
                case nil:
                    guard isScanned(file.path), file.size <= config.maxFileBytes else { continue }
                    if ASCII.hasSuffix(file.path, ".swift") {
                        // Read once for the scan (the checks reuse what is learnt here), or not
                        // at all when the file's stamp is the one its facts were recorded under.
                        var bytes: [UInt8]?
                        guard let facts = table.facts(for: file, bytes: &bytes) else { _ = try file.bytes(); continue }
                        if facts.mayDeclareColors {
                            let parsed = parsedSources
                            tokenFiles.append(try Self.colorTokens(ofContentHash: facts.sha256, cache: cache, bytes: { try bytes ?? file.bytes() },
                                                                   parsed: { parsed.keep($0, for: file.path) }))
                        }
                        if facts.header.buildsOnlyForTheMac { macOnlySwiftFiles.insert(file.path) }
                        continue
                    }
                    guard ASCII.hasSuffix(file.path, ".storyboard") || ASCII.hasSuffix(file.path, ".xib") else { continue }
                    colorNamesUsedByProjectFiles.formUnion(Self.namedColors(inInterfaceBuilder: try file.bytes()))
                }
            } catch {
                notes.append(ScanNote(kind: .skipped, file: file.path, message: "\(error)"))
            }
        }
        localizedKeys = keys
        colorTokens = ColorTokens.merge(tokenFiles.map(\.tokens))
        xcodeTargets.sort { ($0.root.count, $0.root) > ($1.root.count, $1.root) }
        projectFilesReadable = projectsListFiles
        targetsDecideEveryFile = everyProjectRead && projectFilesReadable && !xcodeTargets.isEmpty
            && !xcodeTargets.contains(where: { $0.targets.targets.contains { !$0.synchronizedFolders.isEmpty } })
        xcodeTargetsListSwift = targetsDecideEveryFile && xcodeTargets.contains { $0.targets.lists([".swift"]) }
        if sawProject, projectsListFiles {
            swiftFilesInXcodeProjects = projectSwiftFiles
            projectRoots = listingProjectRoots
        }
        keysDigest = Digest.sha256Hex(keys.sorted().joined(separator: "\u{1}"))
        // The app's names: its projects' and its app and extension targets'.
        var names = Set<String>()
        for (_, project) in xcodeTargets {
            for target in project.targets where !target.isTestBundle { names.insert(target.name) }
        }
        for file in input.files where ASCII.hasSuffix(file.path, ".xcodeproj/project.pbxproj") {
            let folder = file.path.split(separator: "/").dropLast().last.map(String.init) ?? ""
            if folder.hasSuffix(".xcodeproj") { names.insert(String(folder.dropLast(".xcodeproj".count))) }
        }
        appNames = Set(names.map(ProjectContext.normalizedAppName).filter { !$0.isEmpty })
        appNamesDigest = appNames.sorted().joined(separator: ",")
        for (directory, platforms) in Self.tuistProjectPlatforms(input.files, isScanned: isScanned)
            .merging(Self.xcodeGenProjectPlatforms(input.files, isScanned: isScanned), uniquingKeysWith: { $0.union($1) })
        where platformsByDirectory[directory] == nil {
            platformsByDirectory[directory] = platforms
        }
        for (folder, platforms) in Self.packageTargetsBuildingOnlyForTheMac(input.files, macOnly: macOnlySwiftFiles, packages: packageTargetFolders,
                                                                            platforms: platformsByDirectory, isScanned: isScanned) {
            platformsByDirectory[folder] = platforms
        }
        for (folder, platforms) in Self.packageTargetsByLinkingApp(packageManifests, xcodeTargets: xcodeTargets,
                                                                   packagePlatforms: platformsByDirectory) {
            platformsByDirectory[folder] = platformsByDirectory[folder].map { $0.intersection(platforms) } ?? platforms
        }
        // The asset catalogs of the targets building each Swift file, for its accent colour.
        var catalogsByFile: [String: [String]] = [:]
        if !xcodeTargets.isEmpty {
            var built: [(file: InputFile, root: String, targets: [XcodeTargets.Target])] = []
            for file in input.files where file.path.hasSuffix(".swift") || file.path.hasSuffix(".storyboard") || file.path.hasSuffix(".xib") {
                let (root, building) = projectTargets(building: file.path)
                if !building.isEmpty { built.append((file, root, building)) }
            }
            let macOnly = Self.targetsBuildingOnlyForTheMac(built, filteringProjects: projectsFilteringByPlatform, isScanned: isScanned,
                                                              facts: table)
            let conditionsOf = Self.compilationConditionsByTarget(xcodeTargets, files: input.files)
            var catalogsByTarget: [String: [String]] = [:]
            for (file, root, building) in built {
                let shipped = building.filter { !$0.isTestBundle }
                // Only an app's (or its extension's) catalogs set the accent colour its views
                // are drawn in; a framework's views take the app's that shows them (unknown
                // here). Catalog paths compare case-folded, as target membership does (Macs'
                // file systems ignore case). An app that lists no catalog and has no
                // synchronised folder has no accent colour of its own: the system's.
                let apps = shipped.allSatisfy { target in
                    ASCII.contains(target.productType, ".application") || ASCII.contains(target.productType, "extension")
                }
                if ASCII.hasSuffix(file.path, ".swift"), !shipped.isEmpty, apps {
                    var catalogs: [String] = []
                    for target in shipped {
                        let key = root + "\u{0}" + target.name
                        if catalogsByTarget[key] == nil {
                            catalogsByTarget[key] = target.filePaths.filter { ASCII.hasSuffix($0.lowercased(), ".xcassets") }
                                .map { (root.isEmpty ? $0 + "/" : root + "/" + $0 + "/").lowercased() }
                        }
                        catalogs += catalogsByTarget[key] ?? []
                    }
                    if !catalogs.isEmpty || shipped.allSatisfy({ $0.synchronizedFolders.isEmpty }) { catalogsByFile[file.path] = catalogs }
                }
                let platforms = shipped.map { target in
                    macOnly.contains(root + "\u{0}" + target.name) ? target.platforms?.intersection(PlatformSet(.macOS)) : target.platforms
                }
                targetPlatformsByFile[file.path] = shipped.isEmpty ? .some(nil) : platforms.compactMap { $0 }.reduce(PlatformSet()) { $0.union($1) }
                if !shipped.isEmpty {
                    let deployment = DeploymentTargets.combining(zip(platforms, shipped).map { ($0, $1.deploymentTargets) })
                    if deployment != .unknown { deploymentTargetsByFile[file.path] = deployment }
                    let conditions = CompilationConditions.combining(shipped.map { conditionsOf[root + "\u{0}" + $0.name] ?? nil })
                    if let conditions { compilationConditionsByFile[file.path] = conditions }
                }
            }
        }
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
        if !catalogsByFile.isEmpty {
            let accents = colors.colors(named: "AccentColor").filter { !$0.values.isEmpty }.sorted { $0.path < $1.path }
            var known: [[String]: String?] = [:]
            for (path, catalogs) in catalogsByFile {
                let set: String?
                if let value = known[catalogs] {
                    set = value
                } else {
                    set = accents.first { set in catalogs.contains { set.path.lowercased().hasPrefix($0) } }?.path
                    known[catalogs] = .some(set)
                }
                accentColorIsSetByFile[path] = set != nil
                if let set { accentColorSetByFile[path] = set }
            }
        }
        let namespaceFacts = tokenFiles.map(\.namespaces).filter { !$0.isEmpty }
        if !namespaceFacts.isEmpty {
            let catalog = colors
            colorNamespaces = ColorNamespaces.resolve(namespaceFacts) { catalog.count(named: $0) > 0 }
        }
        var tokensInput = colorTokens.sorted { $0.key < $1.key }
            .map { $0.key + "=" + $0.value.value.digestInput + "@" + $0.value.owners.sorted().joined(separator: "|") }.joined(separator: "\n")
        if !colorNamespaces.isEmpty { tokensInput += "\n--\n" + colorNamespaces.digestInput }
        tokensDigest = tokensInput.isEmpty ? "" : Digest.sha256Hex(tokensInput)
        // Every cache key hashes its file's context: hashed here once per distinct context,
        // each key then hashes a few short digests (the text ran to kilobytes).
        var digestsByText: [String: String] = [:]
        for file in input.files where Self.hasContextDigest(file.path) {
            let text = contextText(for: file.path)
            if let known = digestsByText[text] {
                contextDigestByPath[file.path] = known
            } else {
                let digest = Digest.sha256Hex(text)
                digestsByText[text] = digest
                contextDigestByPath[file.path] = digest
            }
        }
    }

    private static func hasContextDigest(_ path: String) -> Bool {
        ASCII.hasSuffix(path, ".swift") || ASCII.hasSuffix(path, ".storyboard") || ASCII.hasSuffix(path, ".xib")
    }

    /// A manifest's platforms and target folders, from the cache when this build parsed the
    /// same bytes before: SwiftParser on every Package.swift was a tenth of a warm re-scan's
    /// project reading.
    /// A Swift file's colour tokens, cached by content: a warm scan does not parse it again.
    static func colorTokens(of bytes: [UInt8], cache: (any ScanCacheStorage)?) -> ColorTokenFile {
        // The closure cannot throw here: the bytes are at hand.
        (try? colorTokens(ofContentHash: Digest.sha256Hex(bytes), cache: cache, bytes: { bytes })) ?? ColorTokenFile()
    }

    /// The same by the content's hash, reading the bytes only when the cache does not hold them.
    /// `parsed` receives the parse where the file had to be parsed.
    static func colorTokens(ofContentHash hash: String, cache: (any ScanCacheStorage)?,
                            bytes: () throws -> [UInt8], parsed: (ParsedSource) -> Void = { _ in }) throws -> ColorTokenFile {
        let kind = "color-tokens-2"
        func read() throws -> ColorTokenFile {
            let source = ParsedSource(String(decoding: try bytes(), as: UTF8.self))
            parsed(source)
            return ColorTokens.read(source)
        }
        guard let cache, !hash.isEmpty else { return try read() }
        let key = Digest.sha256Hex([cache.toolIdentity, kind, hash].joined(separator: "\u{0}"))
        if let entry = cache.entry(forKey: key), let value = try? JSONDecoder().decode(ColorTokenFile.self, from: Data(entry)) {
            return value
        }
        let value = try read()
        if let encoded = try? [UInt8](JSONEncoder().encode(value)) { cache.store(encoded, forKey: key) }
        return value
    }

    static func packageManifest(of bytes: [UInt8], cache: (any ScanCacheStorage)?) -> ProjectFiles.PackageManifest {
        cachedByContent(bytes, kind: "package-manifest", cache: cache,
                        compute: { ProjectFiles.packageManifest(String(decoding: bytes, as: UTF8.self)) },
                        encode: { try? [UInt8](JSONEncoder().encode($0)) },
                        decode: { try? JSONDecoder().decode(ProjectFiles.PackageManifest.self, from: Data($0)) })
    }

    /// What the index reads from a `project.pbxproj`, read in one go and cached by content: a
    /// warm re-scan of an app with a large project otherwise spends as long on its four passes
    /// over the project (damage, Swift file list, colour settings, platforms) as on the cache.
    struct ProjectFacts: Codable, Equatable {
        var problem: String?
        /// nil: the project's file list could not be read.
        var swiftFiles: Set<String>?
        var colorSettings: Set<String>
        /// nil: the targets could not be read.
        var targets: XcodeTargets?
        var platforms: PlatformSet?
        /// Build files carry `platformFilter`s: a file may be compiled for one platform only.
        var filtersFilesByPlatform: Bool = false
    }

    static func projectFacts(of bytes: [UInt8], cache: (any ScanCacheStorage)?) -> ProjectFacts {
        cachedByContent(bytes, kind: "xcode-project", cache: cache, compute: { () -> ProjectFacts in
            if let problem = ProjectFiles.xcodeProjectProblem(bytes) {
                return ProjectFacts(problem: problem, swiftFiles: nil, colorSettings: [], targets: nil, platforms: nil)
            }
            return ProjectFacts(problem: nil, swiftFiles: ProjectFiles.swiftFileNames(inXcodeProject: bytes),
                                colorSettings: colorBuildSettings(bytes), targets: XcodeTargets.parse(bytes),
                                platforms: ProjectFiles.platforms(fromXcodeProject: bytes),
                                filtersFilesByPlatform: ProjectFiles.occurs(Array("platformFilter".utf8), in: bytes))
        }, encode: { try? [UInt8](JSONEncoder().encode($0)) },
           decode: { try? JSONDecoder().decode(ProjectFacts.self, from: Data($0)) })
    }

    /// A strings table's keys, cached by content: one line, the problem (empty for none) first.
    static func stringsKeys(of bytes: [UInt8], cache: (any ScanCacheStorage)?) -> (keys: [String], problem: String?) {
        cachedByContent(bytes, kind: "strings-keys", cache: cache, compute: { ProjectFiles.localizedKeys(fromStringsFile: bytes) }, encode: { table in Array(ScanReportWire.line([table.problem ?? ""] + table.keys).utf8) }, decode: { entry in
            guard entry.last == UInt8(ascii: "\n") else { return nil }
            let fields = ScanReportWire.fields(of: entry.dropLast())
            guard let problem = fields.first else { return nil }
            return (Array(fields.dropFirst()), problem.isEmpty ? nil : problem)
        })
    }

    /// What `compute` makes of a project file, kept in the scan cache under the file's content:
    /// an entry that does not decode is computed again.
    private static func cachedByContent<Value>(_ bytes: [UInt8], kind: String, cache: (any ScanCacheStorage)?,
                                               compute: () -> Value, encode: (Value) -> [UInt8]?,
                                               decode: ([UInt8]) -> Value?) -> Value {
        guard let cache else { return compute() }
        let key = Digest.sha256Hex([cache.toolIdentity, kind, Digest.sha256Hex(bytes)].joined(separator: "\u{0}"))
        if let entry = cache.entry(forKey: key), let value = decode(entry) { return value }
        let value = compute()
        if let encoded = encode(value) { cache.store(encoded, forKey: key) }
        return value
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
            // Names and paths are the repository's to choose: a few of them, each excerpted.
            let listed = paths.prefix(5).map { InputExcerpt.of($0) }.joined(separator: ", ")
                + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
            return ScanNote(kind: .duplicateColorName, file: paths[0],
                            message: "colour set name \"\(InputExcerpt.of(duplicate.name))\" is defined \(paths.count) times "
                                + "(\(listed)); \(consequence)")
        }
    }

    /// `App/fr.lproj/Localizable.strings` → language "fr", table "App/Localizable.strings".
    static func localizationTable(of path: String) -> (language: String, table: String)? {
        guard ASCII.hasSuffix(path, ".strings"), let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folder = path[..<slash]
        let name = path[path.utf8.index(after: slash)...]
        guard ASCII.hasSuffix(String(folder), ".lproj") else { return nil }
        let folderStart = folder.utf8.lastIndex(of: UInt8(ascii: "/"))
        let language = folder[(folderStart.map(folder.utf8.index(after:)) ?? folder.startIndex)...].dropLast(".lproj".count)
        return (String(language), folderStart.map { String(path[..<$0]) + "/" + name } ?? String(name))
    }

    /// A Swift file no Xcode project of the repository lists and no Package.swift governs: on
    /// disk but compiled into nothing (a file dropped from its target, a draft, an example).
    /// Only decided where the projects list their files one by one. Where every project parsed
    /// and none synchronises a folder, a file is listed where its groups put it (a copy of a
    /// listed file in another folder is not); else by name anywhere in a project.
    func isOutsideEveryTarget(_ path: String) -> Bool {
        guard ASCII.hasSuffix(path, ".swift") else { return false }
        let name = String(ASCII.fileName(path))
        if isOutsidePackageTargets(path) {
            // Unless an Xcode project compiles it: by its targets' paths, or by name where those
            // do not decide.
            if targetPlatformsByFile[path] != nil { return false }
            return targetsDecideEveryFile || swiftFilesInXcodeProjects?.contains(name) != true
        }
        guard let listed = swiftFilesInXcodeProjects else { return false }
        if targetsDecideEveryFile, xcodeTargetsListSwift {
            if targetPlatformsByFile[path] != nil { return false }
        } else if listed.contains(name) {
            return false
        }
        return isUnderProject(path, roots: projectRoots)
    }

    /// In the nearest package around `path`, whose manifest names its targets' folders: whether
    /// `path` lies in none of them (a stray copy beside a package's `Sources`).
    private func isOutsidePackageTargets(_ path: String) -> Bool {
        // The manifest itself is in no target, and is no app code either.
        guard ProjectFileKind.of(path) != .packageManifest, let package = enclosingPackage(of: path),
              case .some(.some(let folders)) = packageTargetFolders[package] else { return false }
        let relative = package.isEmpty ? path : String(path.dropFirst(package.count + 1))
        return !folders.contains { $0.isEmpty || relative.hasPrefix($0 + "/") }
    }

    /// The package folder nearest around `path`; nil outside every package.
    private func enclosingPackage(of path: String) -> String? {
        var directory = Self.directory(of: path)
        while true {
            if packageDirectories.contains(directory) { return directory }
            if directory.isEmpty { return nil }
            directory = Self.directory(of: directory)
        }
    }

    /// Storyboards and xibs that have a same-named copy on the other side of a package
    /// boundary (the app's folder and a package's resources, or two packages), mapped to one
    /// such copy: `UIStoryboard(name:bundle:)` loads whichever the bundle names, and code
    /// usually names one, so which of them people see takes a person to read.
    /// Language folders (`en.lproj`) are variants of one document, not copies.
    func documentsWithCopiesAcrossPackages(_ paths: [String]) -> [String: String] {
        var byName: [String: [String]] = [:]
        for path in paths where path.hasSuffix(".storyboard") || path.hasSuffix(".xib") {
            byName[String(ASCII.fileName(path)), default: []].append(path)
        }
        var copies: [String: String] = [:]
        for group in byName.values where group.count > 1 {
            let owned = group.map { (path: $0, package: enclosingPackage(of: $0)) }
            for (path, package) in owned {
                if let other = owned.first(where: { $0.package != package }) { copies[path] = other.path }
            }
        }
        return copies
    }

    /// Every Xcode project parsed, and none adds a folder's files wholesale (a synchronised
    /// folder), so the targets' lists are the whole story. Settled once the projects are read:
    /// every Swift file's target test asks it.
    private var targetsDecideEveryFile = false
    /// Where the targets decide every file: some project's targets list a Swift file by name
    /// or path (asked per file as well).
    private var xcodeTargetsListSwift = false

    /// Whether `path` lies under one of `roots` (folders holding a `.xcodeproj`) with no
    /// Package.swift on the way: SwiftPM, not the project, decides what a package's folder holds.
    private func isUnderProject(_ path: String, roots: Set<String>) -> Bool {
        var directory = Self.directory(of: path)
        var underProject = false
        while true {
            if packageDirectories.contains(directory) { return false }
            if roots.contains(directory) { underProject = true }
            if directory.isEmpty { return underProject }
            directory = Self.directory(of: directory)
        }
    }

    /// The targets of the nearest enclosing Xcode project that build `path`; empty when no
    /// project around it lists it.
    func targets(building path: String) -> [XcodeTargets.Target] { projectTargets(building: path).targets }

    /// The same with the folder of the project they belong to.
    private func projectTargets(building path: String) -> (root: String, targets: [XcodeTargets.Target]) {
        for (root, project) in xcodeTargets where root.isEmpty || path.hasPrefix(root + "/") {
            let found = project.targets(building: root.isEmpty ? path : String(path.dropFirst(root.count + 1)))
            if !found.isEmpty { return (root, found) }
        }
        return ("", [])
    }

    /// Each target's compilation conditions (by `root NUL name`), reading the `.xcconfig`
    /// files its configurations and the project's are based on.
    private static func compilationConditionsByTarget(_ projects: [(root: String, targets: XcodeTargets)],
                                                      files: [InputFile]) -> [String: CompilationConditions?] {
        var configurationFiles: [String: InputFile] = [:]
        for file in files where ASCII.hasSuffix(file.path, ".xcconfig") && file.size <= 1_000_000 { configurationFiles[file.path] = file }
        var found: [String: CompilationConditions?] = [:]
        for (root, project) in projects {
            let load: (String) -> [UInt8]? = { path in
                configurationFiles[root.isEmpty ? path : root + "/" + path].flatMap { try? $0.bytes() }
            }
            // Every target's configurations name the same few files: each is read once.
            var read: [String: [String: String]?] = [:]
            func settings(_ path: String) -> [String: String]? {
                if let known = read[path] { return known }
                let parsed = ConfigurationFileSettings.settings(of: path, load: load)
                read[path] = .some(parsed)
                return parsed
            }
            for target in project.targets where !target.isTestBundle {
                found[root + "\u{0}" + target.name] = CompilationConditions.of(target, project: project.projectConfigurations, settingsOf: settings)
            }
        }
        return found
    }

    /// Targets (`root NUL name`) that list the Mac among several platforms while a Swift file
    /// they compile imports AppKit outside any `#if`: that file cannot build elsewhere, so
    /// neither can the target (a macOS app whose `SUPPORTED_PLATFORMS` also names `xros`).
    /// Not decided in a project whose build files filter by platform, where such a file may
    /// be compiled for the Mac alone. Reads only the files of such targets.
    private static func targetsBuildingOnlyForTheMac(_ built: [(file: InputFile, root: String, targets: [XcodeTargets.Target])],
                                                     filteringProjects: Set<String>, isScanned: (String) -> Bool,
                                                     facts table: FileFactsTable) -> Set<String> {
        var found = Set<String>()
        for (file, root, building) in built where file.path.hasSuffix(".swift") {
            guard !filteringProjects.contains(root) else { continue }
            let candidates = building.filter { target in
                guard let platforms = target.platforms else { return false }
                return platforms.contains(.macOS) && platforms.platforms.count > 1 && !found.contains(root + "\u{0}" + target.name)
            }
            var bytes: [UInt8]?
            guard !candidates.isEmpty, isScanned(file.path), let facts = table.facts(for: file, bytes: &bytes) else { continue }
            guard facts.header.buildsOnlyForTheMac else { continue }
            for target in candidates { found.insert(root + "\u{0}" + target.name) }
        }
        return found
    }

    /// Tuist projects (a `Project.swift` importing ProjectDescription, with no .xcodeproj in the
    /// repository until Tuist generates it): the platforms their targets' `destinations:` (or
    /// older `platform:`) name, in the manifest and its `Tuist/ProjectDescriptionHelpers`.
    static func tuistProjectPlatforms(_ files: [InputFile], isScanned: (String) -> Bool) -> [String: PlatformSet] {
        let manifests = files.filter { ASCII.fileName($0.path) == "Project.swift" && isScanned($0.path) }
        guard !manifests.isEmpty else { return [:] }
        var found: [String: PlatformSet] = [:]
        for manifest in manifests {
            guard let bytes = try? manifest.bytes(), ProjectFiles.occurs(Array("import ProjectDescription".utf8), in: bytes) else { continue }
            let directory = directory(of: manifest.path)
            let helpers = directory.isEmpty ? "Tuist/" : directory + "/Tuist/"
            var sources = [bytes]
            for file in files where file.path.hasPrefix(helpers) && ASCII.hasSuffix(file.path, ".swift") {
                if let helper = try? file.bytes() { sources.append(helper) }
            }
            var platforms = PlatformSet()
            for source in sources { platforms.formUnion(tuistDestinations(in: source)) }
            if !platforms.isEmpty { found[directory] = platforms }
        }
        return found
    }

    /// An XcodeGen project (`project.yml`, from which the `.xcodeproj` is generated and often not
    /// checked in): the platforms its targets name (`platform: macOS`, `platform: [iOS, tvOS]`,
    /// `supportedDestinations: [iOS, macOS]`), for the folder holding it.
    static func xcodeGenProjectPlatforms(_ files: [InputFile], isScanned: (String) -> Bool) -> [String: PlatformSet] {
        var found: [String: PlatformSet] = [:]
        for file in files where ["project.yml", "project.yaml"].contains(ASCII.fileName(file.path)) && isScanned(file.path)
            && file.size <= 1_000_000 {
            guard let bytes = try? file.bytes(), ProjectFiles.occurs(Array("targets:".utf8), in: bytes) else { continue }
            var platforms = PlatformSet()
            for key in ["platform:", "supportedDestinations:"] {
                BytePattern(key).forEachMatch(in: bytes) { end in
                    var lineEnd = end
                    while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n"), lineEnd - end < 200 { lineEnd += 1 }
                    for word in String(decoding: bytes[end..<lineEnd], as: UTF8.self).split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
                        if let platform = tuistPlatformNames[String(word)] { platforms.formUnion(PlatformSet(platform)) }
                    }
                    return lineEnd
                }
            }
            if !platforms.isEmpty { found[directory(of: file.path)] = platforms }
        }
        return found
    }

    /// `destinations: .macOS`, `destinations: [.iPhone, .iPad]`, `platform: .iOS`: the platforms
    /// named on the rest of each such line.
    static func tuistDestinations(in bytes: [UInt8]) -> PlatformSet {
        var platforms = PlatformSet()
        for key in ["destinations:", "platform:"] {
            BytePattern(key).forEachMatch(in: bytes) { end in
                var lineEnd = end
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n"), lineEnd - end < 200 { lineEnd += 1 }
                let rest = String(decoding: bytes[end..<lineEnd], as: UTF8.self)
                for word in rest.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "." }) where word.hasPrefix(".") {
                    if let platform = tuistPlatformNames[String(word.dropFirst())] { platforms.formUnion(PlatformSet(platform)) }
                }
                return lineEnd
            }
        }
        return platforms
    }

    /// Tuist's `Destination` cases and the older `Platform` cases, by the platform they build for.
    private static let tuistPlatformNames: [String: Platform] = [
            "iOS": .iOS, "iPhone": .iOS, "iPad": .iOS, "macWithiPadDesign": .iOS, "macCatalyst": .iOS,
            "macOS": .macOS, "mac": .macOS, "watchOS": .watchOS, "appleWatch": .watchOS, "tvOS": .tvOS, "appleTv": .tvOS,
            "visionOS": .visionOS, "appleVision": .visionOS, "appleVisionWithiPadDesign": .visionOS,
    ]

    /// Folders of the targets of a local package that the repository's Xcode projects reference,
    /// with the platforms of the app targets that link them (through a product, directly or as
    /// a dependency of a linked target), within the package's own list: a module the package
    /// lists for iOS but only the Mac app links is built for the Mac alone. Decided only for a
    /// package some project references and some target links; its unlinked targets are left.
    static func packageTargetsByLinkingApp(_ manifests: [String: ProjectFiles.PackageManifest],
                                           xcodeTargets: [(root: String, targets: XcodeTargets)],
                                           packagePlatforms: [String: PlatformSet]) -> [String: PlatformSet] {
        var found: [String: PlatformSet] = [:]
        for (package, manifest) in manifests where !manifest.products.isEmpty && !manifest.targets.isEmpty {
            var linked: [String: PlatformSet] = [:]
            var referenced = false, unknown = false
            for (root, project) in xcodeTargets {
                guard project.localPackages.contains(where: { normalized(root.isEmpty ? $0 : root + "/" + $0) == package }) else { continue }
                referenced = true
                for target in project.targets where !target.isTestBundle {
                    var pending = target.packageProducts.flatMap { manifest.products[$0] ?? [] }, seen = Set<String>()
                    guard !pending.isEmpty else { continue }
                    // A target linking the package whose platforms nobody states decides nothing.
                    guard let platforms = target.platforms else { unknown = true; break }
                    while let name = pending.popLast() {
                        guard seen.insert(name).inserted else { continue }
                        linked[name, default: PlatformSet()].formUnion(platforms)
                        pending += manifest.targets[name]?.dependencies ?? []
                    }
                }
            }
            guard referenced, !unknown, !linked.isEmpty else { continue }
            for (name, platforms) in linked {
                let within = packagePlatforms[package].map { $0.intersection(platforms) } ?? platforms
                guard !within.isEmpty else { continue }
                for folder in manifest.targets[name]?.folders ?? [] {
                    found[package.isEmpty ? folder : package + "/" + folder] = within
                }
            }
        }
        return found
    }

    /// `App/../Modules` → `Modules`; `./Modules/` → `Modules`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", !parts.isEmpty { parts.removeLast() } else if part != ".." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    /// Folders of package targets (`Modules/Sources/Agent`) in a package that lists the Mac among
    /// several platforms, where a Swift file imports AppKit outside any `#if`: that target cannot
    /// build elsewhere, so its files are judged for the Mac alone.
    private static func packageTargetsBuildingOnlyForTheMac(_ files: [InputFile], macOnly: Set<String>, packages: [String: [String]?],
                                                           platforms: [String: PlatformSet],
                                                           isScanned: (String) -> Bool) -> [String: PlatformSet] {
        var found: [String: PlatformSet] = [:]
        var folders: [(folder: String, prefix: [UInt8], platforms: PlatformSet)] = []
        for (package, listed) in packages {
            guard case .some(let targets) = listed, let set = platforms[package], set.contains(.macOS), set.platforms.count > 1 else { continue }
            for target in targets where !target.isEmpty {
                let folder = package.isEmpty ? target : package + "/" + target
                folders.append((folder, Array((folder + "/").utf8), set))
            }
        }
        guard !folders.isEmpty else { return [:] }
        for file in files where ASCII.hasSuffix(file.path, ".swift") {
            guard macOnly.contains(file.path),
                  let (folder, _, set) = folders.first(where: { file.path.utf8.starts(with: $0.prefix) }), found[folder] == nil,
                  isScanned(file.path) else { continue }
            found[folder] = set.intersection(PlatformSet(.macOS))
        }
        return found
    }

    /// A storyboard or xib that no target of the repository's Xcode projects bundles (a backup
    /// `Profiles~.storyboard`, a nib left behind), under a project's folder and in no package.
    /// Not decided when no project could be read or one uses synchronised folders.
    func isInterfaceBuilderFileOutsideEveryTarget(_ path: String) -> Bool {
        guard targetsDecideEveryFile, targetPlatformsByFile[path] == nil,
              // A project that lists no resources at all says nothing about them.
              xcodeTargets.contains(where: { $0.targets.lists([".storyboard", ".xib"]) })
        else { return false }
        return isUnderProject(path, roots: Set(xcodeTargets.map(\.root)))
    }

    /// A file only test bundles build: not shipped UI, whatever its folder is called.
    func isOnlyInTestTargets(_ path: String) -> Bool {
        if case .some(.none) = targetPlatformsByFile[path] { return true }
        return false
    }

    /// Platforms for a file: the config override, else those of the Xcode targets that build
    /// it (an iPhone app's file is not judged for the watch app of the same project), else
    /// the nearest enclosing package's or project's.
    func platforms(for path: String) -> PlatformSet? {
        if let configured = configs.config(for: path).platforms { return configured }
        if case .some(.some(let building)) = targetPlatformsByFile[path], !building.isEmpty { return building }
        var directory = Self.directory(of: path)
        while true {
            if let set = platformsByDirectory[directory] { return set }
            if directory.isEmpty { return nil }
            directory = Self.directory(of: directory)
        }
    }

    func context(for path: String) -> ProjectContext {
        ProjectContext(platforms: platforms(for: path), deploymentTargets: deploymentTargets(for: path),
                       compilationConditions: compilationConditionsByFile[path], localizedKeys: localizedKeys,
                       colors: colors, colorSymbols: colorSymbols, appNames: appNames, colorTokens: colorTokens,
                       colorNamespaces: colorNamespaces, accentColorIsSet: accentColorIsSetByFile[path],
                       accentColorSetPath: accentColorSetByFile[path])
    }

    /// The oldest OS versions the file ships for (unknown where the config sets the platforms:
    /// the project's targets are then not what decides).
    func deploymentTargets(for path: String) -> DeploymentTargets {
        configs.config(for: path).platforms == nil ? deploymentTargetsByFile[path] ?? .unknown : .unknown
    }

    /// The digest of the context a file is checked in, for cache keys.
    func digest(for path: String) -> String {
        contextDigestByPath[path] ?? Digest.sha256Hex(contextText(for: path))
    }

    private func contextText(for path: String) -> String {
        "\(platforms(for: path)?.rawValue ?? 255)-\(deploymentTargets(for: path).digest)-\(compilationConditionsByFile[path]?.digest ?? "")-\(accentColorIsSetByFile[path].map { $0 ? "a" + (accentColorSetByFile[path] ?? "") : "n" } ?? "")-" + sharedDigest
    }

    /// The part of `digest(for:)` every file shares; the app names are sorted once.
    private var sharedDigest: String { keysDigest + "-" + colorsDigest + "-" + tokensDigest + "-" + appNamesDigest }

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
    /// (`NSAccentColorName`) named in an XML Info.plist. One pass per key (the substring
    /// search it replaces copied the rest of the file at every match: quadratic).
    static func colorNames<Bytes: RandomAccessCollection<UInt8>>(inInfoPlist bytes: Bytes) -> Set<String> where Bytes.Index == Int {
        var names: Set<String> = []
        let open = Array("<string>".utf8), close = Array("</string>".utf8)
        for key in [BytePattern("<key>UIColorName</key>"), BytePattern("<key>NSAccentColorName</key>")] {
            key.forEachMatch(in: bytes) { afterKey in
                var index = afterKey
                while index < bytes.endIndex, BytePattern.isXMLSpace(bytes[index]) { index += 1 }
                guard BytePattern.matches(open, in: bytes, at: index) else { return index }
                let start = index + open.count
                // A string's text holds no `<`: its end is the first one.
                var end = start
                while end < bytes.endIndex, bytes[end] != UInt8(ascii: "<") { end += 1 }
                if BytePattern.matches(close, in: bytes, at: end) {
                    names.insert(String(decoding: bytes[start..<end], as: UTF8.self))
                }
                return end
            }
        }
        return names
    }

    static func colorNames(inInfoPlist text: String) -> Set<String> { colorNames(inInfoPlist: Array(text.utf8)) }

    /// The global accent and widget background colours named in build settings, in one pass per
    /// key; a value runs to its `;` or the end of its line.
    static func colorBuildSettings<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Set<String> where Bytes.Index == Int {
        var names: Set<String> = []
        for key in ["ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME", "ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME"] {
            BytePattern(key + " = ").forEachMatch(in: bytes) { start in
                var end = start
                while end < bytes.endIndex, bytes[end] != UInt8(ascii: ";"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                var first = start, last = end
                let trimmed: (UInt8) -> Bool = { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: " ") }
                while first < last, trimmed(bytes[first]) { first += 1 }
                while last > first, trimmed(bytes[last - 1]) { last -= 1 }
                names.insert(String(decoding: bytes[first..<last], as: UTF8.self))
                return end
            }
        }
        return names
    }

    static func colorBuildSettings(_ text: String) -> Set<String> { colorBuildSettings(Array(text.utf8)) }

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

/// The parses the project index made, each handed once to the file's checks. A tree takes
/// many times its source's memory: beyond `budget` bytes of source held, a parse is not kept
/// (its file is parsed again when checked), so a repository of many colour files cannot make
/// the scan hold all their trees.
final class ParsedSources: Sendable {
    private struct Held {
        var sources: [String: ParsedSource] = [:]
        var bytes = 0
    }
    private let held = Mutex(Held())
    let budget: Int

    init(budget: Int = 4 << 20) { self.budget = budget }

    func keep(_ source: ParsedSource, for path: String) {
        let size = source.source.utf8.count
        held.withLock { held in
            guard held.sources[path] == nil, held.bytes + size <= budget else { return }
            held.sources[path] = source
            held.bytes += size
        }
    }

    /// The parse of `path`, given up: a tree is held only until its file is checked.
    func take(_ path: String) -> ParsedSource? {
        held.withLock { held in
            guard let source = held.sources.removeValue(forKey: path) else { return nil }
            held.bytes -= source.source.utf8.count
            return source
        }
    }
}
