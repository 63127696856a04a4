import AuditModel
import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// The findings and notes of one file.
public struct FileResult: Codable, Sendable, Hashable {
    public var findings: [Finding]
    public var notes: [ScanNote]
    /// Colour sets the file names: the scan decides from all files which sets are unused.
    public var colorUses: [ColorNameUse]
    /// Findings an inline directive suppressed (the repository page shows how many).
    public var suppressedCount: Int
    /// Findings left out because they lie in code that does not ship (`#if DEBUG`, previews).
    public var nonShippingCount: Int
    /// Every name the file's code refers to: the scan keeps a finding with a `requiredUse` only
    /// if some file refers to that name.
    public var referencedNames: Set<String>
    /// Facts other files' findings are settled by: properties the code assigns that can replace
    /// what an Interface Builder document set (`SortBar:titleLabel.font`, `BadgeLabel#font`),
    /// views it constructs under a label (`Row@labelled`), and class-to-superclass pairs
    /// (`EntryCell<:FieldCell`).
    public var assignedMembers: Set<String> = []
    /// The component facts (`ViewComponents`) the views this file shows could stand on: the
    /// scan looks at the file again only where one of them holds.
    public var componentUses: Set<String> = []
    public init(findings: [Finding] = [], notes: [ScanNote] = [], colorUses: [ColorNameUse] = [], suppressedCount: Int = 0,
                nonShippingCount: Int = 0, referencedNames: Set<String> = []) {
        self.findings = findings
        self.notes = notes
        self.colorUses = colorUses
        self.suppressedCount = suppressedCount
        self.nonShippingCount = nonShippingCount
        self.referencedNames = referencedNames
    }

    /// The findings that stand once the repository's references and assignments are known,
    /// handed to review where another file's facts leave them to a person.
    public func findingsInUse(referenced: Set<String>, assigned: Set<String> = [], typeUse: TypeUse? = nil) -> [Finding] {
        let isApp = referenced.contains(Self.entryPointMarker)
        return findings.filter { finding in
            finding.requiredUse.allSatisfy { name in
                if name.hasPrefix(Self.sceneRequirementPrefix) { return Self.isSceneShown(name, isApp: isApp, referenced: referenced) }
                guard name.hasPrefix(Self.typeRequirementPrefix) else { return referenced.contains(name) }
                let type = String(name.dropFirst(Self.typeRequirementPrefix.count))
                if isApp, let typeUse, typeUse.declared.contains(type) { return typeUse.used.contains(type) || typeUse.usedIfFlagged.contains(type) }
                return !isApp || referenced.contains(type)
            } && !finding.overriddenBy.contains(where: assigned.contains)
        }.map { finding in
            guard finding.certainty == .violation else { return finding }
            let flaggedType = isApp ? typeUse.flatMap { typeUse in
                finding.requiredUse.lazy.filter { $0.hasPrefix(Self.typeRequirementPrefix) }
                    .map { String($0.dropFirst(Self.typeRequirementPrefix.count)) }
                    .first(where: typeUse.usedIfFlagged.contains)
            } : nil
            guard flaggedType != nil || finding.reviewIf.contains(where: assigned.contains) else { return finding }
            var handed = finding
            handed.certainty = .review
            handed.severity = .note
            if let flaggedType {
                handed.message += " (only code under an `#if` flag no build configuration of the project sets builds `\(flaggedType)`: it ships only if a build passes the flag)"
            }
            // What hands it to a person is a fact the rule's edit did not weigh.
            handed.correction = nil
            return handed
        }
    }

    /// In `assignedMembers`: `Row@grouped`, a custom view some file shows where a nameless image
    /// in it is no element of its own (see `SourceFile.viewsGroupedWhereUsed`).
    public static let groupedMarker = "@grouped"
    /// In `referencedNames`: `imageOnly:Avatar`, a view whose body shows only a nameless picture
    /// (see `SourceFile.imageOnlyViews`); lowercase first, so it is never taken for a type name.
    public static let imageOnlyPrefix = "imageOnly:"
    /// In `assignedMembers`, `Sub<:Super`: a class and its superclass (the first inherited type).
    public static let inheritsMarker = "<:"
    /// In `assignedMembers` (facts the scanner adds): `Base@subclassNib`, a class a subclass of
    /// which has a nib of its own. Loading by class name (`+nib` returning the nib named after
    /// `self.class`) then loads the subclass's, and the base's may never show: its findings go
    /// to a person.
    public static let subclassNibMarker = "@subclassNib"
    /// In `assignedMembers`: `applyBodyStyle()=>font`, a method that sets the property on its
    /// own object (see `SourceFile.styleMethodFacts`).
    public static let styleMethodMarker = "=>"
    /// In `assignedMembers`, as a property: `SortBar:saveButton.restyled`, code restyles the
    /// outlet in ways that change its size (a style helper, a size constraint, a configuration).
    public static let restyledMarker = "restyled"
    /// In `assignedMembers`, as a property: `TapProxyView#hitTest`, the class overrides
    /// `point(inside:with:)` or `hitTest(_:with:)`.
    public static let hitTestMarker = "hitTest"
    /// In `assignedMembers`, as a property: `KeyPadView#loadsNib`, the class loads a nib into
    /// itself, sized to wherever it is placed: the nib's own frames are a design canvas.
    public static let loadsNibMarker = "loadsNib"
    /// In `assignedMembers`, as a property prefix: `Controller#rowSelects:connect`, selecting a
    /// row of the controller's table does what its `connect` method does.
    public static let rowSelectsMarker = "rowSelects:"
    /// In `assignedMembers`, as a property: `HeaderView#unarchivable`, the class's
    /// `init?(coder:)` stops the app, so no storyboard or nib can hold it.
    public static let unarchivableMarker = "unarchivable"
    /// In `assignedMembers`: `IS_CATALYST@catalyst`, a flag set from `isMacCatalystApp`.
    public static let catalystFlagMarker = "@catalyst"
    /// In `assignedMembers`: `SideTabs@gatedBy:IS_CATALYST`, the file constructs the type in a
    /// branch on that name; `SideTabs@ungated`, it also constructs it elsewhere.
    public static let gatedByMarker = "@gatedBy:"
    public static let ungatedMarker = "@ungated"
    /// Added by the scan: `SideTabs@catalystOnly`, every file that names the type constructs it
    /// only in branches on a Mac Catalyst flag.
    public static let catalystOnlyMarker = "@catalystOnly"

    /// In `assignedMembers`: `MacMainWindow@declares`, the file declares or extends the type;
    /// `@topLevel`, it has code outside any type.
    public static let declaresMarker = "@declares"
    public static let topLevelMarker = "@topLevel"

    /// The `catalystOnlyMarker` facts: types that only Mac Catalyst code builds. A file builds a
    /// type only there when it constructs it behind a Catalyst flag (one some file sets from
    /// `isMacCatalystApp`, `isMacCatalystApp` itself, or a flag named for Catalyst: its
    /// definition may sit in a file without UI imports, which the scan does not parse) and
    /// nowhere else, or when everything the file declares is itself Catalyst-only (a Mac window
    /// building its sidebar). A type is Catalyst-only when every other file naming it builds
    /// it only there. `results`: each checked file's result.
    public static func catalystOnlyTypes(_ results: [FileResult], assigned: Set<String>) -> Set<String> {
        guard assigned.contains(where: { ASCII.contains($0, gatedByMarker) }) else { return [] }
        func isCatalystFlag(_ flag: Substring) -> Bool {
            SourceFile.isNamedForCatalyst(flag) || assigned.contains(flag + catalystFlagMarker)
        }
        struct FileFacts {
            var gated = Set<String>(), ungated = Set<String>(), declared = Set<String>(), topLevel = false
            let referenced: Set<String>
        }
        var files: [FileFacts] = []
        var candidates = Set<String>()
        for result in results {
            var facts = FileFacts(referenced: result.referencedNames)
            for entry in result.assignedMembers {
                if ASCII.contains(entry, gatedByMarker), let range = entry.range(of: gatedByMarker) {
                    if isCatalystFlag(entry[range.upperBound...]) { facts.gated.insert(String(entry[..<range.lowerBound])) }
                } else if entry.hasSuffix(ungatedMarker) {
                    facts.ungated.insert(String(entry.dropLast(ungatedMarker.count)))
                } else if entry.hasSuffix(declaresMarker) {
                    facts.declared.insert(String(entry.dropLast(declaresMarker.count)))
                } else if entry == topLevelMarker {
                    facts.topLevel = true
                }
            }
            candidates.formUnion(facts.gated.subtracting(facts.ungated))
            files.append(facts)
        }
        guard !candidates.isEmpty else { return [] }
        var only = Set<String>()
        while true {
            let macFiles = files.indices.filter { !files[$0].topLevel && !files[$0].declared.isEmpty && files[$0].declared.isSubset(of: only) }
            var next = candidates
            for index in macFiles { next.formUnion(files[index].referenced) }
            var grew = false
            for type in next.subtracting(only) {
                var users = 0
                let everyUseOnMac = files.indices.allSatisfy { index in
                    let file = files[index]
                    guard file.referenced.contains(type), !file.declared.contains(type) else { return true }
                    users += 1
                    return (file.gated.contains(type) && !file.ungated.contains(type)) || macFiles.contains(index)
                }
                if everyUseOnMac, users > 0 {
                    only.insert(type)
                    grew = true
                }
            }
            if !grew { break }
        }
        return Set(only.map { $0 + catalystOnlyMarker })
    }

    /// In `assignedMembers` (see `SourceFile.typeUseFacts`): `List@uses:Row Badge`,
    /// `@uses:Home`, `List@top`, `App@root`.
    public static let usesMarker = "@uses:"
    /// `Owner@flagged:A B`: names used only under an `#if` flag no build configuration sets.
    public static let flaggedUsesMarker = "@flagged:"
    public static let topTypeMarker = "@top"
    public static let rootTypeMarker = "@root"

    /// The repository's top-level types, and those of them some running code uses: a type is in
    /// use when code outside every type names it (top-level code, a storyboard, a file the scan
    /// does not parse: `outsideNames`), when it needs no use (`@root`), or when a type in use
    /// names it. A view only a view nothing creates builds is not in use either.
    public struct TypeUse: Sendable {
        public var declared: Set<String>
        public var used: Set<String>
        /// Types in use only through code under a flag no build configuration sets: they ship
        /// only in a build that passes it.
        public var usedIfFlagged: Set<String> = []
    }

    enum TypeUseFact { case uses(owner: String, names: [Substring]), flagged(owner: String, names: [Substring]), top(String), root(String) }

    /// Reads `Owner@uses:A B`, `Name@top`, `Name@root` by their bytes: called for every fact of
    /// every file on each scan, warm ones included.
    static func typeUseFact(_ entry: String) -> TypeUseFact? {
        let bytes = entry.utf8
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        let rest = bytes[bytes.index(after: at)...]
        if rest.starts(with: "uses:".utf8) {
            return .uses(owner: String(entry[..<at]), names: words(entry[bytes.index(at, offsetBy: 6)...]))
        }
        if rest.starts(with: "flagged:".utf8) {
            return .flagged(owner: String(entry[..<at]), names: words(entry[bytes.index(at, offsetBy: 9)...]))
        }
        if rest.elementsEqual("top".utf8) { return .top(String(entry[..<at])) }
        if rest.elementsEqual("root".utf8) { return .root(String(entry[..<at])) }
        return nil
    }

    /// The space-separated type names of a fact, split as bytes: every scan, warm ones too,
    /// reads all files' facts, and a split by Characters was a fifth of a warm re-scan.
    private static func words(_ text: Substring) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: " ")).map { Substring($0) }
    }

    /// Whether `entry` is one of `typeUseFact`'s, which only `typeUse` reads.
    public static func isTypeUseFact(_ entry: String) -> Bool {
        let bytes = entry.utf8
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let rest = bytes[bytes.index(after: at)...]
        return rest.starts(with: "uses:".utf8) || rest.starts(with: "flagged:".utf8) || rest.elementsEqual("top".utf8)
            || rest.elementsEqual("root".utf8)
    }

    public static func typeUse(_ results: [FileResult], outsideNames: Set<String>) -> TypeUse {
        var declared = Set<String>(), roots = Set<String>(), edges: [String: Set<String>] = [:], flaggedEdges = edges
        for result in results {
            var hasFacts = false
            for entry in result.assignedMembers {
                switch typeUseFact(entry) {
                case .uses(let owner, let names)?:
                    hasFacts = true
                    for name in names {
                        if owner.isEmpty { roots.insert(String(name)) } else { edges[owner, default: []].insert(String(name)) }
                    }
                case .flagged(let owner, let names)?: flaggedEdges[owner, default: []].formUnion(names.lazy.map(String.init))
                case .top(let name)?: declared.insert(name)
                case .root(let name)?: roots.insert(name)
                case nil: break
                }
            }
            // A storyboard or xib names classes it builds; they run if the document loads.
            if !hasFacts { for name in result.referencedNames where name.first?.isUppercase == true { roots.insert(name) } }
        }
        roots.formUnion(outsideNames)
        // Uses of names the frameworks share are not recorded: such a type counts as used.
        roots.formUnion(declared.lazy.filter(SourceFile.frameworkTypeNames.contains))
        let used = reachable(from: roots, edges, declared: declared)
        // The same walk again, with what flagged code names.
        for (owner, names) in flaggedEdges { edges[owner, default: []].formUnion(names) }
        let usedWithFlags = reachable(from: roots.union(flaggedEdges[""] ?? []), edges, declared: declared)
        return TypeUse(declared: declared, used: used, usedIfFlagged: usedWithFlags.subtracting(used))
    }

    /// `roots` and every name a type among them names, transitively. An extension of a type the
    /// repository does not declare (`extension UIViewController`) can run from anywhere: what
    /// it names is in use.
    private static func reachable(from roots: Set<String>, _ edges: [String: Set<String>], declared: Set<String>) -> Set<String> {
        var used = Set<String>(), pending: [String] = []
        func use(_ name: String) { if used.insert(name).inserted { pending.append(name) } }
        roots.forEach(use)
        for (owner, names) in edges where !declared.contains(owner) { names.forEach(use) }
        while let owner = pending.popLast() {
            for name in edges[owner] ?? [] { use(name) }
        }
        return used
    }

    /// In `assignedMembers`: `@platforms:<mask>`, the platforms a Swift file builds for, and
    /// `Sidebar@builtFor:<mask>`, the platforms on which the file builds the type (see
    /// `SourceFile.constructionPlatformFacts`).
    public static let platformsMarker = "@platforms:"
    public static let builtForMarker = "@builtFor:"

    /// The platforms each type can appear on, from the files that name it: the union, over
    /// every checked file that names the type, of where that file builds it (its `@builtFor:`
    /// fact, else the file's own platforms; everything for a file that says neither, such as a
    /// storyboard naming a class). A view in a shared folder that only `#if os(macOS)` code and
    /// Mac-only files build appears only on the Mac. Types the repository does not declare, and
    /// types no checked file names, are left out.
    public static func builtPlatforms(_ results: [FileResult]) -> [String: PlatformSet] {
        // One pass over every file's facts (a warm re-scan reads them all): only entries with
        // an `@` can be a marker.
        var declared = Set<String>()
        var perFile: [(platforms: PlatformSet, built: [String: PlatformSet])] = []
        perFile.reserveCapacity(results.count)
        var anyBuilt = false
        for result in results {
            var filePlatforms = PlatformSet.all
            var built: [String: PlatformSet] = [:]
            for entry in result.assignedMembers where entry.utf8.contains(UInt8(ascii: "@")) {
                if ASCII.hasSuffix(entry, declaresMarker) {
                    declared.insert(String(entry.dropLast(declaresMarker.count)))
                } else if entry.utf8.starts(with: platformsMarker.utf8), let raw = UInt8(entry.dropFirst(platformsMarker.count)) {
                    filePlatforms = PlatformSet(rawValue: raw)
                } else if ASCII.contains(entry, builtForMarker) {
                    anyBuilt = true
                    if let range = entry.range(of: builtForMarker), let raw = UInt8(entry[range.upperBound...]) {
                        built[String(entry[..<range.lowerBound])] = PlatformSet(rawValue: raw)
                    }
                }
            }
            perFile.append((filePlatforms, built))
        }
        guard anyBuilt else { return [:] }
        // Only the repository's own types: a framework class (`UITableViewHeaderFooterView`)
        // one file builds under `#if os(tvOS)` is not thereby a tvOS class.
        var platforms: [String: PlatformSet] = [:]
        for (result, facts) in zip(results, perFile) {
            for name in result.referencedNames where name.first?.isUppercase == true && declared.contains(name) {
                platforms[name, default: PlatformSet()].formUnion(facts.built[name] ?? facts.platforms)
            }
        }
        return platforms
    }

    /// `findings` with each one's platforms narrowed to those its type can appear on (its
    /// `T:` requirement, see `builtPlatforms`); those left with none are dropped.
    public static func narrowingToBuiltPlatforms(_ findings: [Finding], _ built: [String: PlatformSet]) -> [Finding] {
        guard !built.isEmpty else { return findings }
        return findings.compactMap { finding in
            guard let requirement = finding.requiredUse.first(where: { $0.hasPrefix(typeRequirementPrefix) }),
                  let allowed = built[String(requirement.dropFirst(typeRequirementPrefix.count))] else { return finding }
            var narrowed = finding
            narrowed.platforms = finding.platforms.intersection(allowed)
            return narrowed.platforms.isEmpty ? nil : narrowed
        }
    }

    /// In `requiredUse`: a name no file records, for a finding in a private property its own
    /// file never reads.
    public static let unreadPrivateMarker = "\u{0}unread private property"

    /// `assigned` with each call of a style method on an outlet (`SortBar:titleLabel.applyBodyStyle()`)
    /// counted as the assignments that method makes (`SortBar:titleLabel.font`). Methods are
    /// matched by name across the repository: a helper is usually an extension in another file.
    public static func expandingStyleMethods(_ assigned: Set<String>) -> Set<String> {
        var sets: [String: [String]] = [:]
        for entry in assigned {
            guard ASCII.contains(entry, styleMethodMarker), let range = entry.range(of: styleMethodMarker) else { continue }
            sets[String(entry[..<range.lowerBound]), default: []].append(String(entry[range.upperBound...]))
        }
        guard !sets.isEmpty else { return assigned }
        var result = assigned
        for entry in assigned where entry.hasSuffix("()") && !ASCII.contains(entry, styleMethodMarker) {
            guard let dot = entry.lastIndex(of: "."), let properties = sets[String(entry[entry.index(after: dot)...])] else { continue }
            for property in properties { result.insert(entry[...dot] + property) }
        }
        return result
    }

    /// `assigned` with each class's assignments (`Super:outlet.font`, `Super#font`) also
    /// credited to its subclasses, through any depth: an outlet a storyboard connects to a
    /// subclass is restyled by code its superclass runs.
    public static func inheritingAssignments(_ assigned: Set<String>) -> Set<String> {
        var subclasses: [String: [String]] = [:]
        for entry in assigned {
            guard ASCII.contains(entry, inheritsMarker), let range = entry.range(of: inheritsMarker) else { continue }
            subclasses[String(entry[range.upperBound...]), default: []].append(String(entry[..<range.lowerBound]))
        }
        guard !subclasses.isEmpty else { return assigned }
        var result = assigned
        for entry in assigned where !ASCII.contains(entry, inheritsMarker) {
            guard let separator = entry.firstIndex(where: { $0 == ":" || $0 == "#" }) else { continue }
            let owner = String(entry[..<separator]), rest = entry[separator...]
            var pending = subclasses[owner] ?? [], seen = Set<String>()
            while let sub = pending.popLast(), seen.insert(sub).inserted {
                result.insert(sub + rest)
                pending += subclasses[sub] ?? []
            }
        }
        return result
    }

    /// In `referencedNames`: the file declares the app's entry point (never an identifier).
    public static let entryPointMarker = "@main"
    /// A `requiredUse` entry naming the type a finding lies in.
    public static let typeRequirementPrefix = "T:"
    /// A `requiredUse` entry for a storyboard scene no segue leads to: `S:identifier|Class`,
    /// shown only if code asks for that storyboard identifier or names the scene's class (which
    /// may build the identifier from its own name); `S:|Class`, a scene without an identifier,
    /// which nothing can show. In `referencedNames`, `S:identifier`: code or another
    /// storyboard names the identifier (the scan adds it for code, see
    /// `Scanner.sceneIdentifiersNamedInCode`).
    public static let sceneRequirementPrefix = "S:"

    public static func sceneRequirement(identifier: String?, sceneClass: String?) -> String {
        sceneRequirementPrefix + (identifier ?? "") + "|" + (sceneClass ?? "")
    }

    /// The identifier a scene requirement waits for; nil for a scene without one.
    public static func sceneIdentifier(ofRequirement name: String) -> String? {
        guard name.hasPrefix(sceneRequirementPrefix), let bar = name.lastIndex(of: "|") else { return nil }
        let identifier = name[name.index(name.startIndex, offsetBy: sceneRequirementPrefix.count)..<bar]
        return identifier.isEmpty ? nil : String(identifier)
    }

    /// The scene's class, "" when the scene has none.
    public static func sceneClass(ofRequirement name: String) -> String {
        name.lastIndex(of: "|").map { String(name[name.index(after: $0)...]) } ?? ""
    }

    static func isSceneShown(_ name: String, isApp: Bool, referenced: Set<String>) -> Bool {
        // Judged in apps only, whose code is all here: a framework's storyboard is opened by the
        // apps that embed it.
        guard isApp else { return true }
        guard let identifier = sceneIdentifier(ofRequirement: name) else { return false }
        return referenced.contains(sceneRequirementPrefix + identifier)
    }

    /// The assignments an Interface Builder finding can be overridden by (see `Finding.overriddenBy`).
    static let overridableProperties: Set<String> = [
        "font", "adjustsFontForContentSizeCategory", "accessibilityLabel", "isAccessibilityElement",
        "accessibilityTraits", "attributedText", "title", "attributedTitle", "image",
        "leftBarButtonItem", "rightBarButtonItem", "leftBarButtonItems", "rightBarButtonItems",
    ]
}

/// Parses one Swift file once, builds its index once, and runs every enabled rule over it.
public struct SourceChecker: Sendable {
    public let rules: [any SourceRule]
    /// Each rule's description, made once: some build their examples on every access.
    let descriptions: [RuleDescription]
    public let config: AuditConfig
    let reference: ReferenceData
    let shapeLimits: SourceShape.Limits

    public init(rules: [any SourceRule] = RuleCatalog.sourceRules, config: AuditConfig = AuditConfig(),
                reference: ReferenceData = .shared, shapeLimits: SourceShape.Limits = SourceShape.Limits()) {
        self.shapeLimits = shapeLimits
        self.rules = rules.filter { config.isEnabled($0.description.id) }
        self.descriptions = self.rules.map(\.description)
        self.config = config
        self.reference = reference
    }

    /// Checks `source` as the file at `path` (relative to the repository root).
    /// `parsed`: where the scan already parsed this file (used only if it is of the same text).
    public func check(path: String, source: String, context: ProjectContext, parsed: ParsedSource? = nil) -> FileResult {
        // A shape the parser or a syntax walk cannot survive is refused before parsing: a crash
        // here would take every other file of the scan (and a worker's other jobs) with it.
        if let excess = SourceShape.measure(source, limits: shapeLimits).excess {
            return FileResult(notes: [ScanNote(kind: .skipped, file: path, line: excess.line, message: "not checked: \(excess)")])
        }
        let tree = parsed.flatMap { $0.source == source ? $0.tree : nil } ?? Parser.parse(source: source)
        let file = SourceFile(path: path, tree: tree, context: context, platformOverride: config.platforms,
                              reference: reference)
        let lines = LineTable(source)
        var result = FileResult()

        if tree.hasError {
            let diagnostics = ParseDiagnosticsGenerator.diagnostics(for: tree)
            if let first = diagnostics.first {
                let position = lines.position(of: first.position.utf8Offset)
                let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : ""
                result.notes.append(ScanNote(kind: .parseError, file: path, line: position.line,
                                             message: "Swift syntax error at \(position.line):\(position.column): \(first.message)\(more); the rest of the file was still checked"))
            }
        }

        var suppressions = Suppressions(source: source) { offset in
            // The marker is in a comment when it lies in a token's trivia, not its text.
            guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)) else { return true }
            return offset < token.positionAfterSkippingLeadingTrivia.utf8Offset
                || offset >= token.endPositionBeforeTrailingTrivia.utf8Offset
        }
        suppressions.extendNextDirectives { line in lines.lastLineOfStatement(startingOn: line, in: tree) }
        // The app's own views this file declares: what other files see, and what its private
        // and nested ones do, which only this file's uses can stand on.
        let components = file.componentFacts()
        if !components.local.isEmpty {
            file.context.componentFacts.formUnion(ViewComponents.useFacts(components.local.union(components.shared)))
        }
        for (rule, description) in zip(rules, descriptions) {
            var sink = FindingSink()
            rule.check(file, &sink)
            for item in sink.items {
                let platforms = (item.platforms ?? file.platforms(at: item.node)).intersection(description.platforms)
                guard !platforms.isEmpty else { continue }
                let position = lines.position(of: (item.position ?? item.node.positionAfterSkippingLeadingTrivia).utf8Offset)
                if suppressions.suppresses(description.id, line: position.line) {
                    result.suppressedCount += 1
                    continue
                }
                if !config.includeNonShipping, file.isNonShipping(item.node) {
                    result.nonShippingCount += 1
                    continue
                }
                // A claim about iPhone and iPad in a branch only a Mac Catalyst app runs: the
                // branch tests `isMacCatalystApp` or a flag named for it (one set from it in
                // another file, or a view only such code builds, is settled by the scan's facts).
                let claimed = description.verdict(item.certainty, severityOverride: config.severityOverrides[description.id]).certainty == .violation
                let gate = claimed && !platforms.contains(.macOS) ? file.catalystGate(around: item.node) : nil
                let onlyOnMac = gate.map { $0.direct || $0.names.contains(where: SourceFile.isNamedForCatalyst) } ?? false
                let onlyOnTV = claimed && description.isUnsettledOnTVOS(platforms)
                let unsetFlag = claimed ? file.flagNoConfigurationSets(around: item.node) : nil
                var finding = makeFinding(description, path: path, line: position.line, column: position.column,
                                          message: item.message + (onlyOnMac ? " (this code runs only in the Mac Catalyst app: judge it by the Mac's figures)" : "")
                                              + (onlyOnTV ? RuleDescription.tvOSDynamicTypeNote : "")
                                              + (unsetFlag.map { " (under `#if \($0)`, which no build configuration of the project sets: it ships only if a build passes it)" } ?? ""),
                                          certainty: onlyOnMac || onlyOnTV || unsetFlag != nil ? .review : item.certainty, platforms: platforms,
                                          snippet: lines.snippet(of: item.node), sourceLine: lines.text(ofLine: position.line))
                finding.requiredUse = [file.memberPropertyRequiringUse(around: item.node), file.memberFunctionRequiringUse(around: item.node),
                                       file.typeRequiringUse(around: item.node)]
                    .compactMap { $0 }
                // No file records this name: the scan leaves the finding out and counts it unused.
                if file.isInUnreadPrivateProperty(item.node) { finding.requiredUse.append(FileResult.unreadPrivateMarker) }
                if let gate {
                    finding.reviewIf = gate.names.map { $0 + FileResult.catalystFlagMarker }
                    if let type = Syntax(item.node).enclosingTypeDecl?.declaredTypeName {
                        finding.reviewIf.append(type + FileResult.catalystOnlyMarker)
                    }
                }
                finding.reviewIf += item.reviewIf
                finding.requiredUse += item.requiredUse
                // An edit stands for the claim the rule made; one handed to a person here is not fixed mechanically.
                if let correction = item.correction, !onlyOnMac, !onlyOnTV, unsetFlag == nil {
                    finding.correction = Correction(summary: correction.summary, edits: correction.edits.map { edit in
                        TextEdit(file: path, start: lines.point(edit.range.lowerBound), end: lines.point(edit.range.upperBound),
                                 replacement: edit.replacement)
                    })
                }
                result.findings.append(finding)
            }
        }
        reportSuppressionProblems(suppressions, path: path, lines: lines, into: &result)
        result.colorUses = file.colorNameUses(lines)
        result.referencedNames = Set(file.referencesOutsidePreviews.keys).union(file.index.typeReferences)
        if file.declaresEntryPoint { result.referencedNames.insert(FileResult.entryPointMarker) }
        result.referencedNames.formUnion(file.targetsGivenInCode())
        result.referencedNames.formUnion(file.imageOnlyViews())
        result.referencedNames.formUnion(components.shared)
        result.componentUses = file.componentUses()
        result.referencedNames.formUnion(file.index.identifierLiterals.map { FileResult.sceneRequirementPrefix + $0 })
        result.assignedMembers = file.overridingAssignments(FileResult.overridableProperties)
            .union(file.viewsLabelledWhereUsed()).union(file.viewsGroupedWhereUsed()).union(file.superclassFacts()).union(file.rowSelectionFacts())
            .union(file.styleMethodFacts(FileResult.overridableProperties))
            .union(file.catalystGatedTypeFacts()).union(file.declarationFacts()).union(file.renderingSurfaceFacts())
            .union(file.constructionPlatformFacts()).union(file.typeUseFacts())
        result.findings.assignFingerprints(scope: { lines.fingerprintScope(of: $0.location, in: tree) },
                                           neighbours: { lines.fingerprintNeighbours(of: $0.location) })
        return result
    }

    private func makeFinding(_ description: RuleDescription, path: String, line: Int, column: Int, message: String,
                             certainty: Certainty? = nil, platforms: PlatformSet, snippet: String, sourceLine: String = "") -> Finding {
        let verdict = description.verdict(certainty, severityOverride: config.severityOverrides[description.id])
        return Finding(ruleID: description.id, kind: description.kind, severity: verdict.severity, certainty: verdict.certainty,
                location: SourceLocation(file: path, line: line, column: column), message: message,
                fix: description.fix, citation: description.citation, platforms: platforms, snippet: snippet,
                sourceLine: sourceLine)
    }

    private func reportSuppressionProblems(_ suppressions: Suppressions, path: String, lines: LineTable,
                                           into result: inout FileResult) {
        guard config.isEnabled(UnusedSuppressionRule.id),
              !suppressions.directives.isEmpty || !suppressions.malformed.isEmpty else { return }
        let description = UnusedSuppressionRule().description
        let known = Set(RuleCatalog.allRuleIDs)
        let enabled = Set(rules.map(\.description.id))
        for directive in suppressions.directives {
            for id in directive.ruleIDs where !directive.used.contains(id) {
                let message: String
                if id != "all" && !known.contains(id) {
                    message = "suppression names unknown rule \"\(id)\"; `a11y-audit rules` lists the catalog"
                } else if id != "all" && !enabled.contains(id) {
                    continue // the rule is off in the config, so the directive has nothing to do
                } else {
                    message = "suppression of \(id) suppresses nothing on line\(directive.lines.count > 1 ? "s \(directive.lines.lowerBound)-\(directive.lines.upperBound)" : " \(directive.lines.lowerBound)")"
                }
                result.findings.append(makeFinding(description, path: path, line: directive.line, column: directive.column,
                                                   message: message, platforms: .all,
                                                   snippet: "a11y-audit:\(id)", sourceLine: lines.text(ofLine: directive.line)))
            }
        }
        for problem in suppressions.malformed {
            result.findings.append(makeFinding(description, path: path, line: problem.line, column: problem.column,
                                               message: problem.message, platforms: .all, snippet: problem.message,
                                               sourceLine: lines.text(ofLine: problem.line)))
        }
    }
}

/// UTF-8 offset → 1-based line and column, the column counted in Unicode scalars (SARIF's
/// `unicodeCodePoints`), so a caret lines up under non-ASCII text.
struct LineTable {
    private let bytes: [UInt8]
    private var starts: [Int] = [0]

    init(_ source: String) {
        bytes = Array(source.utf8)
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
    }

    /// The code that identifies a finding, whitespace collapsed and capped: for a modifier call
    /// only the modifier (`.onTapGesture { … }`), so edits to the view it is applied to keep the
    /// fingerprint. Sliced from the source bytes; printing syntax nodes is far slower.
    func snippet(of node: Syntax) -> String {
        var start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        if let call = node.as(FunctionCallExprSyntax.self),
           let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil {
            start = member.period.positionAfterSkippingLeadingTrivia.utf8Offset
        }
        let end = min(node.endPositionBeforeTrailingTrivia.utf8Offset, start + 1000, bytes.count)
        guard start < end else { return "" }
        if let ascii = ASCII.collapsingWhitespace(bytes[start..<end], limit: 240) { return ascii }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        // `isWhitespace` also covers "\r\n", one Character in Swift: CRLF and LF checkouts
        // of the same code get the same snippet and fingerprint.
        return String(text.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ").prefix(240))
    }

    /// The last line of the expression or simple declaration whose first token is on `line`
    /// (`line` itself when nothing starts there).
    func lastLineOfStatement(startingOn line: Int, in tree: SourceFileSyntax) -> Int {
        guard line >= 1, line <= starts.count,
              let token = tree.token(at: AbsolutePosition(utf8Offset: starts[line - 1])),
              position(of: token.positionAfterSkippingLeadingTrivia.utf8Offset).line == line else { return line }
        let start = token.positionAfterSkippingLeadingTrivia
        var node = Syntax(token)
        while let parent = node.parent, parent.positionAfterSkippingLeadingTrivia == start,
              !parent.is(CodeBlockItemSyntax.self), !parent.is(MemberBlockItemSyntax.self) {
            // A declaration with a body (a function, a type, a computed property) is more than
            // "the next line"; stop below it.
            if let variable = parent.as(VariableDeclSyntax.self),
               variable.bindings.contains(where: { $0.accessorBlock != nil }) { break }
            if parent.is(DeclSyntax.self) && !parent.is(VariableDeclSyntax.self) { break }
            node = parent
        }
        return position(of: node.endPositionBeforeTrailingTrivia.utf8Offset).line
    }

    /// Where a finding's code sits, for its fingerprint: the declarations around it
    /// (`SettingsView.body`), so two identical lines in different declarations stay apart.
    func fingerprintScope(of location: AuditModel.SourceLocation, in tree: SourceFileSyntax) -> String {
        guard location.line >= 1, location.line <= starts.count else { return "" }
        var offset = starts[location.line - 1], scalars = 1
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") {
            if (bytes[offset] & 0xC0) != 0x80 {
                if scalars == location.column { break }
                scalars += 1
            }
            offset += 1
        }
        var scope: [String] = []
        var node = tree.token(at: AbsolutePosition(utf8Offset: offset)).map(Syntax.init)
        while let current = node {
            if let name = Self.declarationName(current) { scope.append(name) }
            node = current.parent
        }
        return scope.reversed().joined(separator: ".")
    }

    /// The nearest lines above and below that differ from a finding's own: what tells identical
    /// lines of one declaration apart, so fixing one leaves the other's identity alone.
    func fingerprintNeighbours(of location: AuditModel.SourceLocation) -> String {
        guard location.line >= 1, location.line <= starts.count else { return "" }
        let own = Self.normalised(text(ofLine: location.line))
        func neighbour(step: Int) -> String {
            var line = location.line + step, looked = 0
            while line >= 1, line <= starts.count, looked < 50 {
                let text = Self.normalised(self.text(ofLine: line))
                if !text.isEmpty && text != own { return text }
                line += step; looked += 1
            }
            return ""
        }
        return neighbour(step: -1) + "\u{0}" + neighbour(step: 1)
    }

    private static func normalised(_ line: String) -> String {
        ASCII.collapsingWhitespace(line.utf8) ?? line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func declarationName(_ node: Syntax) -> String? {
        // Most ancestors are expressions: their kind rules them out before any cast.
        switch node.kind {
        case .structDecl, .classDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl, .functionDecl, .initializerDecl,
             .subscriptDecl, .variableDecl: break
        default: return nil
        }
        if let decl = node.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ActorDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ProtocolDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ExtensionDeclSyntax.self) { return decl.extendedType.sourceText }
        if let decl = node.as(FunctionDeclSyntax.self) { return decl.name.text }
        if node.is(InitializerDeclSyntax.self) { return "init" }
        if node.is(SubscriptDeclSyntax.self) { return "subscript" }
        if let decl = node.as(VariableDeclSyntax.self) {
            return decl.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        return nil
    }

    /// The text of a 1-based line, without its newline (capped for minified sources).
    func text(ofLine line: Int) -> String {
        guard line >= 1, line <= starts.count else { return "" }
        let start = starts[line - 1]
        var end = line < starts.count ? starts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<min(end, start + 400)], as: UTF8.self)
    }

    /// `offset` with its line and column.
    func point(_ offset: Int) -> TextPoint {
        let position = position(of: offset)
        return TextPoint(offset: offset, line: position.line, column: position.column)
    }

    func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let start = starts[low]
        let end = min(max(offset, start), bytes.count)
        // Count scalars: every byte that is not a UTF-8 continuation byte starts one.
        let column = bytes[start..<end].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) } + 1
        return (low + 1, column)
    }
}
