import AuditModel
import Dispatch
import Foundation
import Synchronization
import SwiftChecks

public struct ScanOptions: Sendable {
    /// `nil`: read `.a11y-audit.json` from the scanned root (or use defaults). Either way the
    /// `.a11y-audit.json` files of the snapshot's subfolders refine it for the files under them.
    public var config: AuditConfig?
    /// The platforms of every file, whatever any configuration file says (`--platform`).
    public var platforms: PlatformSet?
    /// Files checked at once (Dispatch workers); defaults to the machine's cores.
    public var jobs: Int
    /// A directory for the content-addressed per-file cache; `nil` disables it.
    public var cacheDirectory: String?
    /// Another home for the per-file cache (the worker's, kept in PostgreSQL); wins over
    /// `cacheDirectory`.
    public var cacheStorage: (any ScanCacheStorage)?
    /// Told when each file's check starts and ends, from the Dispatch workers: an isolated scan
    /// reports it to its parent, so a crash or a hang names the file being checked.
    public var progress: (@Sendable (ScanProgress) -> Void)?
    /// Report only these files (`scan View.swift …`); the whole input is still read.
    public var selection: FileSelection?

    public init(config: AuditConfig? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                cacheDirectory: String? = nil) {
        self.config = config
        self.jobs = max(1, jobs)
        self.cacheDirectory = cacheDirectory
    }
}

public enum ScanProgress: Sendable, Equatable {
    case started(path: String)
    case finished(path: String)
    /// A Swift file went through SwiftParser in this run (not a cache hit, not prefiltered out).
    case parsedSwift(path: String)
}

public struct ScanStatistics: Codable, Sendable, Equatable {
    /// Swift files in the snapshot.
    public var swiftFiles = 0
    /// Storyboards and xibs in the snapshot.
    public var interfaceBuilderFiles = 0
    /// Files whose findings were computed or taken from the cache.
    public var filesChecked = 0
    /// Files parsed in this run (cache misses), and their bytes.
    public var filesParsed = 0
    public var bytesParsed = 0
    public var cacheHits = 0
    /// Findings that inline suppressions silenced.
    public var findingsSuppressed = 0
    public var skippedVendored = 0
    public var skippedExcluded = 0
    public var skippedGenerated = 0
    public var skippedWithoutUIImport = 0
    public var skippedUnreadable = 0
    /// Files of test targets (not shipped UI), unless `includeNonShipping`.
    public var skippedTests = 0
    /// Debug screens (`Debug.storyboard`, `HistoryDebugViewController.swift`, a `Debug/` folder)
    /// and example apps of libraries (`Example/`, `MailExample/`, `Demo/`), unless `includeNonShipping`.
    public var skippedDebugScreens = 0
    public var skippedExamples = 0
    /// Swift files no Xcode project lists and no package governs: compiled into nothing.
    public var skippedNotInTarget = 0
    /// Findings left out because they lie in `#if DEBUG` code or previews.
    public var findingsNotShipped = 0
    /// Findings left out because they lie in a member property nothing in the repository reads
    /// or a type nothing in the app names, or judge an Interface Builder setting code replaces.
    public var findingsUnused = 0
    /// Colour sets read from asset catalogs.
    public var colorSets = 0
    /// The platforms the app builds for: the union of those of the Xcode targets and packages
    /// that build its checked UI files; nil where no project or package says.
    public var platforms: PlatformSet? = nil
    public var durationSeconds = 0.0

    /// `platforms` as its bits, 0 for not known (the report's wire form counts in integers).
    var platformBits: Int {
        get { Int(platforms?.rawValue ?? 0) }
        set { platforms = newValue <= 0 || newValue > Int(UInt8.max) ? nil : PlatformSet(rawValue: UInt8(newValue)) }
    }
}

/// The result of scanning one snapshot.
public struct ScanReport: Codable, Sendable {
    public var root: String
    /// The root is an archive file, not a directory: paths are relative to its contents.
    public var rootIsArchive: Bool
    public var findings: [Finding]
    public var notes: [ScanNote]
    public var statistics: ScanStatistics
    public var toolVersion: String
    /// Set when a baseline left findings out (`Baseline.apply`); absent in reports without one.
    public var baseline: BaselineOutcome? = nil
    /// Set when only some files were reported (`ScanOptions.selection`): those files.
    public var reportedFiles: [String]? = nil

    /// The most severe violation, for `--fail-on`; findings that need review count only when asked.
    public func highestSeverity(includingReview: Bool = false) -> Severity? {
        findings.filter { includingReview || $0.certainty == .violation }.map(\.severity).max()
    }
}

/// Audits one repository snapshot: picks the files that matter, checks them in parallel with
/// Dispatch (each parsed once), and merges the results in a deterministic order.
public struct Scanner: Sendable {
    public static let toolVersion = "0.1.0"

    /// Default paths of vendored and generated code (DESIGN.md), skipped unless included.
    public static let vendoredPatterns: [Glob] = [
        "Pods", "Carthage", ".build", "SourcePackages", "DerivedData", "*.pb.swift", "*.generated.swift",
        // Xcode's localization exports: copies of the app's storyboards and strings for
        // translators, which no target builds.
        "*.xcloc",
    ].map(Glob.init)

    /// Modules whose import makes a file UI code worth parsing.
    static let uiModules: Set<String> = ["SwiftUI", "UIKit", "AppKit", "Cocoa", "WatchKit", "TVUIKit"]

    let options: ScanOptions

    public init(options: ScanOptions = ScanOptions()) {
        self.options = options
    }

    public func scan(_ input: ScanInput, root: String) throws -> ScanReport {
        let started = DispatchTime.now()
        if let selection = options.selection, selection.files.isEmpty { return Self.reportOfNothingToCheck(selection, root: root) }
        let configs = try ConfigTree(root: options.config ?? Self.loadConfig(from: input), input: input, platforms: options.platforms)
        let config = configs.root
        var statistics = ScanStatistics()
        var notes = input.notes

        let storage = options.cacheStorage ?? options.cacheDirectory.map { DirectoryCacheStorage(directory: $0) }
        let fileFacts = FileFactsTable(storage: storage, persisting: !input.isArchive, root: root)
        // Each path's skip reason, decided once: the index asks for every file, and so does the
        // choice of candidates below (glob matching was a tenth of a warm re-scan's index).
        var skipReasons: [String: SkipReason] = [:]
        for file in input.files { if let reason = Self.skipReason(file.path, configs) { skipReasons[file.path] = reason } }
        let skipped = skipReasons
        let project = ProjectIndex(input: input, config: config, notes: &notes, isScanned: { path in
            skipped[path] == nil
        }, cache: storage, configs: configs, facts: fileFacts)
        statistics.colorSets = project.colors.sets.count
        // Each file is checked under the configuration of its folder (nested files refine the root's).
        let checkers = LevelCheckers(configs, storage: storage)
        let process: @Sendable (InputFile, Set<String>) -> FileOutcome = { file, reexporting in
            let level = checkers.checkers(for: file.path)
            return FileProcessor.process(file, checker: level.source, documentChecker: level.document, project: project,
                                         cache: level.cache, reexporting: reexporting, facts: fileFacts)
        }

        // Choose the Swift and Interface Builder files to read; both go through the same workers.
        var candidates: [InputFile] = []
        // An archive's files over the limit were never held; their sizes give the same notes.
        for file in input.files + input.oversized.map(\.placeholder)
        where file.path.hasSuffix(".swift") || DocumentChecker.handles(file.path) {
            let isSwift = file.path.hasSuffix(".swift")
            if isSwift { statistics.swiftFiles += 1 } else { statistics.interfaceBuilderFiles += 1 }
            let reason = skipReasons[file.path] ?? (input.oversized.isEmpty ? nil : Self.skipReason(file.path, configs))
            // The skip counts and their summary notes are about Swift files.
            if !isSwift, reason != nil { continue }
            switch reason {
            case .excluded?:
                statistics.skippedExcluded += 1
                continue
            case .vendored?:
                statistics.skippedVendored += 1
                continue
            case .test?:
                statistics.skippedTests += 1
                continue
            case .debugScreen?:
                statistics.skippedDebugScreens += 1
                continue
            case .example?:
                statistics.skippedExamples += 1
                continue
            case nil:
                break
            }
            // A storyboard or xib no target bundles never ships.
            if !isSwift, project.isInterfaceBuilderFileOutsideEveryTarget(file.path) { continue }
            if isSwift, !configs.config(for: file.path).includeNonShipping, project.isOnlyInTestTargets(file.path) {
                statistics.skippedTests += 1
                continue
            }
            if isSwift, project.isOutsideEveryTarget(file.path) {
                statistics.skippedNotInTarget += 1
                continue
            }
            if file.size > config.maxFileBytes {
                statistics.skippedUnreadable += 1
                notes.append(ScanNote(kind: .skipped, file: file.path,
                                      message: "file is \(file.size) bytes, over the \(config.maxFileBytes)-byte limit (maxFileBytes)"))
                continue
            }
            candidates.append(file)
        }

        // First pass: read, prefilter, check. Files without a UI import are remembered with
        // their imports, in case another module re-exports a UI framework.
        var outcomes = run(candidates) { file in process(file, []) }
        let reexporting = Set(outcomes.flatMap(\.reexportedModules))
        if !reexporting.isEmpty {
            let retry = outcomes.indices.filter { index in
                if case .withoutUIImport(let imports) = outcomes[index].status { return !imports.isDisjoint(with: reexporting) }
                return false
            }
            let second = run(retry.map { candidates[$0] }) { file in process(file, reexporting) }
            for (index, outcome) in zip(retry, second) { outcomes[index] = outcome }
        }

        // Second look: a file that shows a view of the app's own whose behaviour another file
        // settles (`ViewComponents`) is checked again with those facts, cached under them.
        // The second look changes findings only: the names each file refers to are the first's.
        var referenced = Set<String>(), referencedPerFile: [Set<String>] = []
        for outcome in outcomes {
            guard case .checked(let result, _) = outcome.status else { continue }
            referenced.formUnion(result.referencedNames)
            referencedPerFile.append(result.referencedNames)
        }
        let componentFacts = ViewComponents.useFacts(referenced, ambiguous: ViewComponents.ambiguousViewNames(referencedPerFile))
        if !componentFacts.isEmpty {
            var again: [(index: Int, facts: Set<String>)] = []
            for (index, outcome) in outcomes.enumerated() where candidates[index].path.hasSuffix(".swift") {
                guard case .checked(let result, _) = outcome.status else { continue }
                let facts = ViewComponents.facts(componentFacts, forUses: result.componentUses, referenced: result.referencedNames)
                if !facts.isEmpty { again.append((index, facts)) }
            }
            let byPath = Dictionary(uniqueKeysWithValues: again.map { (candidates[$0.index].path, $0.facts) })
            let second = run(again.map { candidates[$0.index] }) { file in
                let level = checkers.checkers(for: file.path)
                return FileProcessor.process(file, checker: level.source, documentChecker: level.document, project: project,
                                             cache: level.cache, reexporting: reexporting, componentFacts: byPath[file.path] ?? [],
                                             facts: fileFacts)
            }
            for (entry, outcome) in zip(again, second) {
                // Parsed once for the scan's statistics, whichever look parsed it.
                var replaced = outcome
                if case .checked(let result, nil) = outcome.status, case .checked(_, let first?) = outcomes[entry.index].status {
                    replaced.status = .checked(result, parsedBytes: first)
                }
                outcomes[entry.index] = replaced
            }
        }

        var findings: [Finding] = []
        var usedColorNames = project.colorNamesUsedByProjectFiles
        // What any file refers to decides the findings that hold only if their property is read.
        var assigned = Set<String>()
        for outcome in outcomes {
            if case .checked(let result, _) = outcome.status {
                // Who-uses-which-type facts are many and only `typeUse` reads them.
                assigned.formUnion(result.assignedMembers.lazy.filter { !FileResult.isTypeUseFact($0) })
            }
        }
        assigned.formUnion(Self.objectiveCOutletAssignments(outcomes, input: input, config: configs))
        assigned = FileResult.inheritingAssignments(FileResult.expandingStyleMethods(assigned))
        assigned.formUnion(Self.classesWithSubclassNibs(assigned: assigned, input: input, config: configs))
        let checkedResults = outcomes.compactMap { outcome -> FileResult? in
            if case .checked(let result, _) = outcome.status { return result }
            return nil
        }
        assigned.formUnion(FileResult.catalystOnlyTypes(checkedResults, assigned: assigned))
        // Which of the repository's types running code uses: first from the checked files,
        // then with the names files the scan does not parse give (Objective-C, Info.plist).
        var typeUse = FileResult.typeUse(checkedResults, outsideNames: [])
        let namedOutside = Self.typesNamedOutsideUIFiles(outcomes, candidates: candidates, input: input, config: configs,
                                                         referenced: referenced, typeUse: typeUse, cache: storage, facts: fileFacts)
        referenced.formUnion(namedOutside)
        if !namedOutside.isEmpty { typeUse = FileResult.typeUse(checkedResults, outsideNames: namedOutside) }
        referenced.formUnion(Self.sceneIdentifiersNamedInCode(outcomes, candidates: candidates, input: input, config: configs,
                                                              referenced: referenced))
        let documentCopies = project.documentsWithCopiesAcrossPackages(candidates.map(\.path))
        let builtPlatforms = FileResult.builtPlatforms(checkedResults)
        for (index, outcome) in outcomes.enumerated() {
            notes.append(contentsOf: outcome.notes)
            switch outcome.status {
            case .checked(let result, let parsedBytes):
                statistics.filesChecked += 1
                if let platforms = project.platforms(for: candidates[index].path) {
                    statistics.platforms = (statistics.platforms ?? PlatformSet()).union(platforms)
                }
                let inUse = FileResult.narrowingToBuiltPlatforms(result.findingsInUse(referenced: referenced, assigned: assigned, typeUse: typeUse),
                                                                 builtPlatforms)
                // Settled: what the findings stood on is not part of the report.
                let testScreen = Self.isTestScreenPath(candidates[index].path)
                let copy = documentCopies[candidates[index].path]
                findings.append(contentsOf: inUse.map { finding in
                    var settled = finding
                    if testScreen || copy != nil, settled.certainty == .violation {
                        settled.certainty = .review
                        settled.severity = .note
                        settled.message += copy.map { " (another copy is at \($0): which one loads depends on the bundle the code names)" } ?? Self.testScreenNote
                    }
                    settled.requiredUse = []
                    settled.overriddenBy = []
                    settled.reviewIf = []
                    return settled
                })
                statistics.findingsUnused += result.findings.count - inUse.count
                statistics.findingsNotShipped += result.nonShippingCount
                statistics.findingsSuppressed += result.suppressedCount
                usedColorNames.formUnion(result.colorUses.map(\.name))
                notes.append(contentsOf: result.notes)
                if let parsedBytes {
                    statistics.filesParsed += 1
                    statistics.bytesParsed += parsedBytes
                } else {
                    statistics.cacheHits += 1
                }
            case .withoutUIImport: statistics.skippedWithoutUIImport += 1
            case .generated: statistics.skippedGenerated += 1
            case .unreadable: statistics.skippedUnreadable += 1
            case .testCode: statistics.skippedTests += 1
            }
        }
        // Catalog rules run last: whether a colour set is used is known only after every file.
        findings += checkers.catalogFindings(CatalogFacts(catalog: project.colors, usedNames: usedColorNames))
        findings.sort { ($0.location, $0.ruleID) < ($1.location, $1.ruleID) }
        if let selection = options.selection {
            Self.narrow(&findings, &notes, to: selection, input: input, candidates: candidates, outcomes: outcomes, configs: configs)
        } else {
            notes.append(contentsOf: Self.summaryNotes(statistics))
        }
        notes.sort { ($0.file, $0.line ?? 0, $0.message) < ($1.file, $1.line ?? 0, $1.message) }
        fileFacts.save()
        statistics.durationSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return ScanReport(root: root, rootIsArchive: input.isArchive, findings: findings, notes: notes, statistics: statistics,
                          toolVersion: Self.toolVersion, reportedFiles: options.selection?.files)
    }

    enum SkipReason { case excluded, vendored, test, debugScreen, example }

    /// In an app, the types some finding stands on that no checked file names, which a Swift
    /// file without UI imports (module members need no import: a Foundation-only extension can
    /// show a banner view) or an Objective-C source (`[SPHistoryViewController new]`) does
    /// name. Searched only for those few names, as bytes: a name in a comment counts too, which
    /// can only keep a finding; a name inside a longer identifier (`DeviceView` in
    /// `MXKDeviceView`) does not.
    static func typesNamedOutsideUIFiles(_ outcomes: [FileOutcome], candidates: [InputFile], input: ScanInput,
                                         config: ConfigTree, referenced: Set<String>, typeUse: FileResult.TypeUse? = nil,
                                         cache: (any ScanCacheStorage)? = nil, facts: FileFactsTable? = nil) -> Set<String> {
        guard referenced.contains(FileResult.entryPointMarker) else { return [] }
        var wanted = Set<String>()
        for outcome in outcomes {
            guard case .checked(let result, _) = outcome.status else { continue }
            for finding in result.findings {
                for name in finding.requiredUse where name.hasPrefix(FileResult.typeRequirementPrefix) {
                    let type = String(name.dropFirst(FileResult.typeRequirementPrefix.count))
                    let inUse = typeUse.map { $0.declared.contains(type) ? $0.used.contains(type) : referenced.contains(type) } ?? referenced.contains(type)
                    if !inUse { wanted.insert(type) }
                }
            }
        }
        guard !wanted.isEmpty else { return [] }
        // A type named only outside (an Info.plist's scene delegate) is a root of what it
        // constructs: the types findings stand on may be reached through it, though no finding
        // stands on it.
        if let typeUse { wanted.formUnion(typeUse.declared.subtracting(typeUse.used)) }
        // Objective-C sources, and Info.plist files (an extension's NSExtensionPrincipalClass).
        let sources = swiftFilesNotChecked(outcomes, candidates)
            + unparsedSources(input, config) { objectiveCSuffixes.contains(where: $0.hasSuffix) || $0.hasSuffix("Info.plist") }
        // The answer for the same names wanted in the same bytes, cached: on a warm re-scan the
        // stamps say which bytes these are, and none of them is read.
        var searchKey: String?
        if let cache, let facts, facts.hashes {
            var identity = [cache.toolIdentity, "types-named-outside-1"] + wanted.sorted()
            for file in sources {
                var bytes: [UInt8]?
                guard let known = facts.facts(for: file, bytes: &bytes), !known.sha256.isEmpty else { identity = []; break }
                identity += [file.path, known.sha256]
            }
            if !identity.isEmpty {
                let key = Digest.sha256Hex(identity.joined(separator: "\u{0}"))
                if let entry = cache.entry(forKey: key) {
                    return Set(String(decoding: entry, as: UTF8.self).split(separator: "\n").map(String.init))
                }
                searchKey = key
            }
        }
        let lengths = Set(wanted.map(\.utf8.count))
        var found = Set<String>()
        // One pass per file over its identifiers, each looked up in the set of names wanted:
        // linear in the file whatever it holds and however many names are wanted (every type
        // nothing reaches is one).
        for file in sources {
            guard let bytes = try? file.bytes() else { continue }
            let baseName = file.path.split(separator: "/").last?.split(separator: ".").first.map(String.init) ?? ""
            let isObjectiveC = objectiveCSuffixes.contains(where: file.path.hasSuffix)
            var start = 0
            while start < bytes.count {
                guard Self.isIdentifierByte(bytes[start]) else { start += 1; continue }
                var end = start
                while end < bytes.count, Self.isIdentifierByte(bytes[end]) { end += 1 }
                defer { start = end }
                // Only runs as long as some wanted name, starting with a letter or `_`: most
                // identifiers of a large Objective-C file never become a string.
                guard lengths.contains(end - start), !(0x30...0x39).contains(bytes[start]) else { continue }
                let name = String(decoding: bytes[start..<end], as: UTF8.self)
                guard wanted.contains(name), !found.contains(name) else { continue }
                // A class's own header and implementation, and `#import "X.h"` or `@class X`
                // lines (an umbrella header imports every class), do not use it.
                if isObjectiveC, baseName == name || Self.isDeclarationLine(bytes, around: end) { continue }
                // `enum FacetView` in a Swift strings file declares a name, nested or not.
                if !isObjectiveC, Self.followsDeclarationKeyword(bytes, at: start) { continue }
                found.insert(name)
            }
            if found.count == wanted.count { break }
        }
        if let cache, let searchKey { cache.store(Array(found.sorted().joined(separator: "\n").utf8), forKey: searchKey) }
        return found
    }

    /// `S:identifier` for each storyboard identifier that some finding's scene waits for and
    /// that code names: a string literal of a checked file (`instantiateViewController(withIdentifier:
    /// "Settings")`, recorded with its result), a name it references in the same or lower-first
    /// case (an enum case whose raw value is its name, R.swift's `R.storyboard.main.settings()`),
    /// a Swift class it names that some such scene has (the class may build the identifier from
    /// its own name), or, for what is left, the identifier as a word in a Swift file without UI
    /// imports or an Objective-C file (a constants file), searched with memmem.
    static func sceneIdentifiersNamedInCode(_ outcomes: [FileOutcome], candidates: [InputFile], input: ScanInput,
                                            config: ConfigTree, referenced: Set<String>) -> Set<String> {
        guard referenced.contains(FileResult.entryPointMarker) else { return [] }
        var wanted: [String: Set<String>] = [:]
        for outcome in outcomes {
            guard case .checked(let result, _) = outcome.status else { continue }
            for finding in result.findings {
                for name in finding.requiredUse {
                    guard let identifier = FileResult.sceneIdentifier(ofRequirement: name),
                          !referenced.contains(FileResult.sceneRequirementPrefix + identifier) else { continue }
                    let sceneClass = FileResult.sceneClass(ofRequirement: name)
                    wanted[identifier, default: []].formUnion(sceneClass.isEmpty ? [] : [sceneClass])
                }
            }
        }
        guard !wanted.isEmpty else { return [] }
        // Storyboards name every scene's class, so only Swift's names count here.
        var namedInSwift = Set<String>()
        for (index, outcome) in outcomes.enumerated() where candidates[index].path.hasSuffix(".swift") {
            if case .checked(let result, _) = outcome.status { namedInSwift.formUnion(result.referencedNames) }
        }
        var found = Set<String>()
        for (identifier, classes) in wanted {
            let lowerFirst = identifier.prefix(1).lowercased() + identifier.dropFirst()
            if namedInSwift.contains(identifier) || namedInSwift.contains(lowerFirst) || !classes.isDisjoint(with: namedInSwift) {
                found.insert(FileResult.sceneRequirementPrefix + identifier)
                wanted[identifier] = nil
            }
        }
        guard !wanted.isEmpty else { return found }
        let sources = swiftFilesNotChecked(outcomes, candidates) + unparsedSources(input, config) { objectiveCSuffixes.contains(where: $0.hasSuffix) }
        let patterns = wanted.keys.flatMap { identifier in
            [identifier, identifier.prefix(1).lowercased() + identifier.dropFirst()].map { (identifier, BytePattern($0)) }
        }
        var remaining = Set(wanted.keys)
        for file in sources where !remaining.isEmpty {
            guard let bytes = try? file.bytes() else { continue }
            for (identifier, pattern) in patterns where remaining.contains(identifier) {
                pattern.forEachMatch(in: bytes) { end in
                    let start = end - pattern.needle.count
                    if start > 0, isIdentifierByte(bytes[start - 1]) { return end }
                    if end < bytes.count, isIdentifierByte(bytes[end]) { return end }
                    found.insert(FileResult.sceneRequirementPrefix + identifier)
                    remaining.remove(identifier)
                    return bytes.count
                }
            }
        }
        return found
    }

    /// `Class:outlet.font` for each assignment an Objective-C class makes through its own
    /// outlet or instance variable (`self.titleLabel.font = …`, `_titleLabel.font = …`,
    /// `[self.titleLabel setFont:…]`), as Swift assignments are recorded: a storyboard label
    /// whose font the class replaces is not judged by its document font. Read only when some
    /// Interface Builder finding could be replaced so.
    static func objectiveCOutletAssignments(_ outcomes: [FileOutcome], input: ScanInput, config: ConfigTree) -> Set<String> {
        let wanted = outcomes.contains { outcome in
            if case .checked(let result, _) = outcome.status { return result.findings.contains { !$0.overriddenBy.isEmpty } }
            return false
        }
        guard wanted else { return [] }
        var found = Set<String>()
        for file in unparsedSources(input, config, { $0.hasSuffix(".m") || $0.hasSuffix(".mm") }) {
            guard let bytes = try? file.bytes() else { continue }
            found.formUnion(objectiveCOutletAssignments(bytes))
        }
        return found
    }

    static let objectiveCOverridable = ["font", "adjustsFontForContentSizeCategory", "accessibilityLabel", "isAccessibilityElement", "accessibilityTraits"]

    static func objectiveCOutletAssignments(_ bytes: [UInt8]) -> Set<String> {
        var implementations: [(offset: Int, name: String)] = []
        BytePattern("@implementation").forEachMatch(in: bytes) { end in
            var index = end
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            let start = index
            while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
            if index > start { implementations.append((end, String(decoding: bytes[start..<index], as: UTF8.self))) }
            return index
        }
        guard !implementations.isEmpty else { return [] }
        func owner(at offset: Int) -> String? { implementations.last { $0.offset <= offset }?.name }
        /// The outlet written just before `index` (exclusive) as `self.name` or `_name`.
        func outlet(endingAt index: Int) -> String? {
            var start = index
            while start > 0, isIdentifierByte(bytes[start - 1]) { start -= 1 }
            guard start < index else { return nil }
            let name = bytes[start..<index]
            if name.first == UInt8(ascii: "_") { return String(decoding: name.dropFirst(), as: UTF8.self) }
            guard start >= 5, bytes[(start - 5)..<start].elementsEqual("self.".utf8),
                  start == 5 || !isIdentifierByte(bytes[start - 6]) else { return nil }
            return String(decoding: name, as: UTF8.self)
        }
        var found = Set<String>()
        // Attributed text replaces the font where the file builds it with one.
        let setsFontsInText = ProjectFiles.occurs(Array("NSFontAttributeName".utf8), in: bytes)
        for property in objectiveCOverridable + (setsFontsInText ? ["attributedText"] : []) {
            let recorded = property == "attributedText" ? "font" : property
            // `self.titleLabel.font = …` (not `==`).
            let dotted = BytePattern("." + property)
            dotted.forEachMatch(in: bytes) { end in
                var index = end
                while index < bytes.count, bytes[index] == 0x20 { index += 1 }
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "="), bytes[index + 1] != UInt8(ascii: "=") else { return end }
                let dot = end - dotted.needle.count
                if let name = outlet(endingAt: dot), !name.isEmpty, let type = owner(at: dot) { found.insert(type + ":" + name + "." + recorded) }
                return end
            }
            // `[self.titleLabel setFont:…]`.
            let setter = BytePattern(" set" + property.prefix(1).uppercased() + property.dropFirst() + ":")
            setter.forEachMatch(in: bytes) { end in
                let start = end - setter.needle.count
                if let name = outlet(endingAt: start), !name.isEmpty, let type = owner(at: start) { found.insert(type + ":" + name + "." + recorded) }
                return end
            }
        }
        return found
    }

    /// Swift files the scan did not check (no UI import, generated): other files' facts may
    /// still be searched for in them.
    static func swiftFilesNotChecked(_ outcomes: [FileOutcome], _ candidates: [InputFile]) -> [InputFile] {
        outcomes.indices.compactMap { index in
            switch outcomes[index].status {
            case .withoutUIImport, .generated: candidates[index]
            default: nil
            }
        }
    }

    /// The snapshot's files the scan never parses (Objective-C, Info.plist) whose path `matches`,
    /// in scope and within the size limit.
    static func unparsedSources(_ input: ScanInput, _ config: ConfigTree, _ matches: (String) -> Bool) -> [InputFile] {
        input.files.filter { file in matches(file.path) && skipReason(file.path, config) == nil && file.size <= config.maxFileBytes }
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    /// Whether the line holding byte `index` is an Objective-C `#import`, `#include` or `@class`.
    static func isDeclarationLine(_ bytes: [UInt8], around index: Int) -> Bool {
        var start = min(index, bytes.count)
        // Lines are short; a hostile one-line file must not cost a long walk per match.
        let floor = max(0, start - 1024)
        while start > floor, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        return ["#import", "#include", "@class"].contains { BytePattern.matches(Array($0.utf8), in: bytes, at: start) }
    }

    /// Whether the word before `start` (past spaces) is a Swift keyword declaring a type.
    static func followsDeclarationKeyword(_ bytes: [UInt8], at start: Int) -> Bool {
        var end = start
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard end < start else { return false }
        return ["enum", "struct", "class", "actor", "protocol", "typealias"].contains { keyword in
            let word = Array(keyword.utf8)
            let wordStart = end - word.count
            return wordStart >= 0 && BytePattern.matches(word, in: bytes, at: wordStart)
                && (wordStart == 0 || !isIdentifierByte(bytes[wordStart - 1]))
        }
    }

    static let objectiveCSuffixes = [".m", ".mm", ".h"]

    /// `Base@subclassNib` for each class a direct subclass of which has a xib named after it:
    /// Swift subclasses from the files' facts (`Sub<:Base`), Objective-C ones from
    /// `@interface Sub : Base` in headers.
    static func classesWithSubclassNibs(assigned: Set<String>, input: ScanInput, config: ConfigTree) -> Set<String> {
        let nibs = Set(input.files.compactMap { file -> String? in
            guard file.path.hasSuffix(".xib"), skipReason(file.path, config) == nil else { return nil }
            return file.path.split(separator: "/").last.map { String($0.dropLast(".xib".count)) }
        })
        guard !nibs.isEmpty else { return [] }
        var pairs: [(sub: String, base: String)] = []
        for entry in assigned {
            guard let range = entry.range(of: FileResult.inheritsMarker) else { continue }
            pairs.append((String(entry[..<range.lowerBound]), String(entry[range.upperBound...])))
        }
        for file in input.files where file.path.hasSuffix(".h") && skipReason(file.path, config) == nil && file.size <= config.maxFileBytes {
            guard let bytes = try? file.bytes() else { continue }
            pairs += objectiveCInterfaces(bytes)
        }
        return Set(pairs.filter { nibs.contains($0.sub) }.map { $0.base + FileResult.subclassNibMarker })
    }

    /// `@interface Sub : Base` declarations (not categories or class extensions), in one pass.
    static func objectiveCInterfaces(_ bytes: [UInt8]) -> [(sub: String, base: String)] {
        let isIdentifier = isIdentifierByte
        var found: [(String, String)] = []
        BytePattern("@interface").forEachMatch(in: bytes) { end in
            var index = end
            func skipSpace() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
            func identifier() -> String? {
                let start = index
                while index < bytes.count, isIdentifier(bytes[index]) { index += 1 }
                return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
            }
            skipSpace()
            guard let sub = identifier() else { return index }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return index }
            index += 1
            skipSpace()
            if let base = identifier() { found.append((sub, base)) }
            return index
        }
        return found
    }

    /// Why a path is out of scope: the config's `exclude` (unless `include`d), or the default
    /// vendored and generated folders.
    static func skipReason(_ path: String, _ config: AuditConfig) -> SkipReason? {
        if config.include.contains(where: { Glob($0).matches(path) }) { return nil }
        if config.exclude.contains(where: { Glob($0).matches(path) }) { return .excluded }
        if config.skipVendored, Glob.anyMatches(vendoredPatterns, path) { return .vendored }
        if !config.includeNonShipping {
            if isTestPath(path) { return .test }
            // Most paths hold none of the words: a substring test spares splitting every path.
            if ASCII.contains(path, "ample") || ASCII.contains(path, "emo"), isExamplePath(path) { return .example }
            if ASCII.contains(path, "ebug"), isDebugScreenPath(path) { return .debugScreen }
        }
        return nil
    }

    /// A debug screen, by the names teams give them: a folder whose name has the word `Debug`
    /// (`Debug/`, `DebugMenu/`, `debug/`), an Interface Builder file so named (`Debug.storyboard`),
    /// or a Swift file whose name is a screen's and has the word (`BookmarksDebugViewController`,
    /// `DebugMenuView`). A `Debug.swift` or `DebugLogger.swift` may hold release code: not these.
    static func isDebugScreenPath(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard let file = components.last else { return false }
        if components.dropLast().contains(where: { $0 == "debug" || hasWord("Debug", in: $0) }) { return true }
        let base = file.split(separator: ".").first ?? file
        guard hasWord("Debug", in: base) else { return false }
        if !file.hasSuffix(".swift") { return true }
        return screenSuffixes.contains { base.hasSuffix($0) }
    }

    static let screenSuffixes = ["ViewController", "Controller", "View", "Screen", "Menu", "Sheet", "Panel", "Window", "Cell", "Page", "Overlay"]

    /// A screen named for a test (`FileRecoveryTestView`, `GestureTestViewController`): usually
    /// a developer's, unlocked by a hidden switch, but a speed or hearing test ships. Its
    /// findings go to a person, who knows whether people reach it.
    static func isTestScreenPath(_ path: String) -> Bool {
        guard path.hasSuffix(".swift"), ASCII.contains(path, "Test"), let file = path.split(separator: "/").last else { return false }
        let base = file.dropLast(".swift".count)
        return hasWord("Test", in: base) && screenSuffixes.contains { base.hasSuffix($0) }
    }

    static let testScreenNote = " (in a screen named as a test: check whether people can reach it)"

    /// A library's example or demo app (not the product): a folder named `Example`, `Examples`,
    /// `Demo`, `Demos`, or a name ending in one of those words (`MailExample`, `SwipeCell-Demo`,
    /// `ExampleApp`); a folder named `SampleApps`, `sampleapps`, `Samples`.
    static func isExamplePath(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { folder in
            let lowered = folder.lowercased()
            return ["Example", "Examples", "Demo", "Demos"].contains { word in
                lowered == word.lowercased() || hasWord(word, in: folder)
            } || sampleFolders.contains(lowered)
        }
    }

    /// Folders of sample apps, by their whole name only (`SampleKit` may be the product).
    static let sampleFolders: Set<String> = ["sampleapp", "sampleapps", "samples", "sample-apps"]

    /// Whether `word` (capitalised) appears in `name` as a word of its CamelCase or
    /// separated spelling: not followed by a lowercase letter (`Debugger` is not `Debug`).
    static func hasWord(_ word: String, in name: Substring) -> Bool {
        // Bytes, not Foundation's `range(of:)`: this runs for every path of every scan.
        let needle = word.utf8, haystack = name.utf8
        guard let first = needle.first else { return false }
        var index = haystack.startIndex
        while let start = haystack[index...].firstIndex(of: first) {
            var probe = start, matched = true
            for byte in needle {
                guard probe < haystack.endIndex, haystack[probe] == byte else { matched = false; break }
                probe = haystack.index(after: probe)
            }
            if matched, probe == haystack.endIndex || !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(haystack[probe]) { return true }
            index = haystack.index(after: start)
        }
        return false
    }

    /// Test targets by Xcode's and SwiftPM's naming: a folder `Tests`, `UITests`, `AppTests`,
    /// `AppUITests`, `Specs`, `TestSupport`; a file `*Tests.swift`. (`SpeedTest.swift` may be a
    /// screen; a test file that is named so imports a test framework, which the reader checks.)
    static func isTestPath(_ path: String) -> Bool {
        // Most paths name no test folder: a substring test spares splitting every path.
        guard ASCII.contains(path, "Test") || ASCII.contains(path, "Spec") else { return false }
        let components = path.split(separator: "/")
        for folder in components.dropLast() where folder.hasSuffix("Tests") || folder.hasSuffix("Specs")
            || folder.hasSuffix("TestSupport") { return true }
        return components.last?.hasSuffix("Tests.swift") == true
    }

    /// Modules only test code imports.
    static let testModules: Set<String> = ["XCTest", "Testing", "Quick", "Nimble", "SnapshotTesting", "ViewInspector"]

    /// Runs `work` over `files` on `options.jobs` Dispatch workers; results keep input order.
    private func run(_ files: [InputFile], _ work: @escaping @Sendable (InputFile) -> FileOutcome) -> [FileOutcome] {
        guard !files.isEmpty else { return [] }
        let slots = ResultSlots(count: files.count)
        let workers = min(options.jobs, files.count)
        let progress = options.progress
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = slots.claimNext() {
                progress?(.started(path: files[index].path))
                let outcome = work(files[index])
                if case .checked(_, let parsedBytes?) = outcome.status, parsedBytes >= 0, files[index].path.hasSuffix(".swift") {
                    progress?(.parsedSwift(path: files[index].path))
                }
                slots.store(outcome, at: index)
                progress?(.finished(path: files[index].path))
            }
        }
        return slots.results
    }

    /// The root's `.a11y-audit.json`, or defaults when there is none.
    public static func loadConfig(from input: ScanInput) throws -> AuditConfig {
        guard let file = input.files.first(where: { $0.path == AuditConfig.fileName }) else { return AuditConfig() }
        do {
            return try AuditConfig(data: Data(try file.bytes()), file: AuditConfig.fileName,
                                   knownRules: Set(RuleCatalog.allRuleIDs))
        } catch let error as AuditConfigError {
            throw ScanError.config(error)
        }
    }

    /// The rules a scan under the root configuration `configJSON` checks (nil: the defaults),
    /// sorted; nil when the configuration does not parse (the scan then failed with the reason).
    public static func rulesChecked(configJSON: String?) -> [String]? {
        let config: AuditConfig
        if let configJSON {
            guard let parsed = try? AuditConfig(data: Data(configJSON.utf8), file: AuditConfig.fileName,
                                                knownRules: Set(RuleCatalog.allRuleIDs)) else { return nil }
            config = parsed
        } else {
            config = AuditConfig()
        }
        return RuleCatalog.allRuleIDs.filter(config.isEnabled).sorted()
    }

    static func summaryNotes(_ statistics: ScanStatistics) -> [ScanNote] {
        let counted: [(Int, String)] = [
            (statistics.skippedVendored, "vendored or generated Swift files skipped (Pods/, Carthage/, .build/, SourcePackages/, *.pb.swift, *.generated.swift, *.xcloc exports); \"include\" patterns or \"skipVendored\": false scan them"),
            (statistics.skippedTests, "test files skipped (test targets are not shipped UI); \"includeNonShipping\": true scans them"),
            (statistics.skippedDebugScreens, "Swift files of debug screens skipped (a Debug folder, or a screen named with Debug: not shipped UI); \"includeNonShipping\": true scans them"),
            (statistics.skippedExamples, "Swift files of example or demo apps skipped (an Example or Demo folder: a library's sample, not the product); \"includeNonShipping\": true scans them"),
            (statistics.skippedNotInTarget, "Swift files skipped because no Xcode project lists them and no package target's folder holds them: they are compiled into nothing"),
            (statistics.findingsNotShipped, "findings left out in #if DEBUG code, previews and Interface Builder views hidden for good; \"includeNonShipping\": true reports them"),
            (statistics.findingsUnused, "findings left out in properties nothing in the repository reads, types nothing in the app constructs, or Interface Builder settings that code replaces"),
            (statistics.skippedGenerated, "Swift files skipped because their header says they are generated"),
            (statistics.skippedWithoutUIImport, "Swift files skipped because they import none of SwiftUI, UIKit, AppKit, WatchKit, TVUIKit"),
            (statistics.skippedExcluded, "Swift files skipped by \"exclude\" patterns in \(AuditConfig.fileName)"),
        ]
        return counted.filter { $0.0 > 0 }.map { ScanNote(kind: .summary, file: ".", message: "\($0.0) \($0.1)") }
    }
}

/// Fixed-size result storage shared by Dispatch workers; each slot is written once.
private final class ResultSlots: Sendable {
    private struct State {
        var next = 0
        var slots: [FileOutcome?]
    }
    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(slots: Array(repeating: nil, count: count))) }

    func claimNext() -> Int? {
        state.withLock { state in
            guard state.next < state.slots.count else { return nil }
            state.next += 1
            return state.next - 1
        }
    }

    func store(_ outcome: FileOutcome, at index: Int) {
        state.withLock { $0.slots[index] = outcome }
    }

    var results: [FileOutcome] {
        state.withLock { $0.slots.map { $0 ?? FileOutcome(status: .unreadable) } }
    }
}
