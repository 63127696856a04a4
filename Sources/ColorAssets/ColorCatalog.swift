import AuditModel

/// Every colour set of a repository's asset catalogs, by the name code uses.
public struct ColorCatalog: Sendable {
    /// All colour sets read, in path order.
    public let sets: [ColorSet]
    /// Files that could not be read (colour sets, or folder Contents.json that decide names).
    public let errors: [ColorSetError]
    /// Files read in spite of a flaw a strict reader refuses (a trailing comma), for review.
    public let tolerated: [ColorSetError]
    /// Name -> indices into `sets`, in path order (an app and its widget often share names).
    private let index: [String: [Int]]
    /// The folders above each set's `.xcassets` (parallel to `sets`), split once: `color(named:near:)`
    /// compares them for every name several catalogs define.
    private let catalogFolders: [[Substring]]

    public static let empty = ColorCatalog(sets: [], errors: [], tolerated: [], index: [:])

    private init(sets: [ColorSet], errors: [ColorSetError], tolerated: [ColorSetError], index: [String: [Int]]) {
        self.sets = sets
        self.errors = errors
        self.tolerated = tolerated
        self.index = index
        self.catalogFolders = sets.map { Self.catalogFolder(of: $0.path) }
    }

    /// Builds the catalog from the files a scanner found under `*.xcassets` (any others are
    /// ignored). Only `<Name>.colorset/Contents.json` and the Contents.json of the folders above a
    /// colour set are read: a folder whose `properties` say `"provides-namespace": true` prefixes
    /// its children's names ("Folder/Name"). `platform` gives the platform a colour set is built
    /// for (from its path), which decides the idiom; nil picks `universal`.
    /// A malformed file becomes an entry of `errors`, never a crash.
    public static func build(_ files: [(path: String, bytes: [UInt8])], platform: (String) -> Platform?) -> ColorCatalog {
        var byPath: [String: [UInt8]] = [:]
        for file in files { byPath[file.path] = file.bytes }

        var errors: [ColorSetError] = []
        var tolerated: [ColorSetError] = []
        var namespaceCache: [String: Bool] = [:]
        /// Whether the folder at `folderPath` provides a namespace; reads its Contents.json once.
        func providesNamespace(_ folderPath: String) -> Bool {
            if let known = namespaceCache[folderPath] { return known }
            var provides = false
            let contentsPath = folderPath + "/Contents.json"
            if let bytes = byPath[contentsPath] {
                do {
                    let (root, trailingCommaLines) = try JSONReader.parseNotingTrailingCommas(bytes)
                    if let line = trailingCommaLines.first {
                        tolerated.append(ColorSetError(path: contentsPath, line: line, reason: .trailingComma))
                    }
                    if root.members == nil {
                        errors.append(ColorSetError(path: contentsPath, line: root.line, reason: .notAnObject))
                    } else if let flag = root["properties"]?["provides-namespace"] {
                        if let value = flag.bool {
                            provides = value
                        } else {
                            errors.append(ColorSetError(path: contentsPath, line: flag.line,
                                                        reason: .wrongType(key: "provides-namespace", expected: "true or false", found: flag.kind)))
                        }
                    }
                } catch {
                    errors.append(ColorSetError(path: contentsPath, line: error.line, reason: .notJSON(error.message)))
                }
            }
            namespaceCache[folderPath] = provides
            return provides
        }

        var sets: [ColorSet] = []
        for path in byPath.keys.sorted() {
            guard let location = ColorSetLocation(path) else { continue }
            var nameParts: [String] = []
            for folder in location.folders where providesNamespace(folder.path) { nameParts.append(folder.name) }
            nameParts.append(location.setName)
            let name = nameParts.joined(separator: "/")
            do {
                let (set, trailingCommaLine) = try ColorSetParser.parseNotingTrailingCommas(bytes: byPath[path] ?? [], path: path, name: name,
                                                                                           platform: platform(path))
                sets.append(set)
                if let line = trailingCommaLine { tolerated.append(ColorSetError(path: path, line: line, reason: .trailingComma)) }
            } catch {
                errors.append(error)
            }
        }
        errors.sort { ($0.path, $0.line ?? 0) < ($1.path, $1.line ?? 0) }
        tolerated.sort { ($0.path, $0.line ?? 0) < ($1.path, $1.line ?? 0) }

        var index: [String: [Int]] = [:]
        for (position, set) in sets.enumerated() { index[set.name, default: []].append(position) }
        return ColorCatalog(sets: sets, errors: errors, tolerated: tolerated, index: index)
    }

    /// The colour set code means by `name` ("Brand", "Folder/Brand"); the first by path when
    /// several catalogs define it.
    public func color(named name: String) -> ColorSet? {
        index[name]?.first.map { sets[$0] }
    }

    /// The colour set the Swift file at `path` means by `name`. When several define the name,
    /// the one whose `.xcassets` sits in the folder sharing the most leading folders with the
    /// file: Xcode compiles only the target's own catalogs into its bundle, and an app and its
    /// extensions keep their catalogs beside their sources (`App/…`, `Widget/…`). Target
    /// membership itself is not read; equally near sets go by path, as `color(named:)` does.
    public func color(named name: String, near path: String) -> ColorSet? {
        guard let positions = index[name], let first = positions.first else { return nil }
        guard positions.count > 1 else { return sets[first] }
        let fileFolders = path.split(separator: "/").dropLast()
        var best = first, bestShared = -1
        for position in positions {
            let shared = zip(fileFolders, catalogFolders[position]).prefix { $0 == $1 }.count
            if shared > bestShared { (best, bestShared) = (position, shared) }
        }
        return sets[best]
    }

    /// How many colour sets define `name`.
    public func count(named name: String) -> Int { index[name]?.count ?? 0 }

    /// Names more than one colour set defines, sorted, each with its sets in path order.
    public var duplicates: [(name: String, sets: [ColorSet])] {
        index.filter { $0.value.count > 1 }.keys.sorted().map { name in (name, colors(named: name)) }
    }

    /// Folders holding the `.xcassets` a colour set belongs to ("App" for
    /// "App/Assets.xcassets/Brand.colorset/Contents.json").
    static func catalogFolder(of path: String) -> [Substring] {
        let parts = path.split(separator: "/")
        guard let catalog = parts.lastIndex(where: { $0.lowercased().hasSuffix(".xcassets") }) else { return [] }
        return Array(parts[..<catalog])
    }

    /// The `.xcassets` folder of a colour set's path ("App/Assets.xcassets").
    public static func catalogPath(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let catalog = parts.lastIndex(where: { $0.lowercased().hasSuffix(".xcassets") }) else { return path }
        return parts[...catalog].joined(separator: "/")
    }

    /// Every colour set with this name, in path order.
    public func colors(named name: String) -> [ColorSet] {
        (index[name] ?? []).map { sets[$0] }
    }

    /// All names, sorted.
    public var names: [String] { index.keys.sorted() }
}

/// Where a `.colorset/Contents.json` sits: its name and the folders between it and its catalog.
struct ColorSetLocation {
    struct Folder {
        let name: String
        let path: String
    }

    let setName: String
    /// Folders inside the `.xcassets`, outermost first.
    let folders: [Folder]

    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 1] == "Contents.json" else { return nil }
        let setFolder = parts[parts.count - 2]
        guard setFolder.lowercased().hasSuffix(".colorset"), setFolder.count > ".colorset".count else { return nil }
        guard let catalog = parts[..<(parts.count - 2)].lastIndex(where: { $0.lowercased().hasSuffix(".xcassets") }) else {
            return nil
        }
        setName = String(setFolder.dropLast(".colorset".count))
        var folders: [Folder] = []
        var index = catalog + 1
        while index < parts.count - 2 {
            folders.append(Folder(name: String(parts[index]), path: parts[...index].joined(separator: "/")))
            index += 1
        }
        self.folders = folders
    }
}
