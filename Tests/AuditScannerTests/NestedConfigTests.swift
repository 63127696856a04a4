import AuditModel
import AuditScanner
import Foundation
import Testing

/// A `.a11y-audit.json` in a subfolder refines the root's for the files under it.
struct NestedConfigTests {
    func scan(_ repository: TemporaryRepository, options: ScanOptions = ScanOptions()) throws -> ScanReport {
        try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
    }

    func findings(_ report: ScanReport) -> [String: Severity] {
        Dictionary(report.findings.filter { $0.ruleID == "fixed-font-size" }.map { ($0.location.file, $0.severity) }) { a, _ in a }
    }

    @Test func aNestedFileDisablesARuleForALegacyFolderAndWhatIsUnderIt() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        try repository.write("Legacy/Old.swift", ScannerTests.uiFile)
        try repository.write("Legacy/Screens/Older.swift", ScannerTests.uiFile)
        // A folder whose name starts like the legacy one's is not under it.
        try repository.write("LegacyKit/New.swift", ScannerTests.uiFile)
        try repository.write("Legacy/.a11y-audit.json", #"{ "disable": ["fixed-font-size"] }"#)
        let report = try scan(repository)
        #expect(findings(report).keys.sorted() == ["App/Title.swift", "LegacyKit/New.swift"])
    }

    @Test func aNestedSeverityOverridesTheRootsForItsFolderOnly() throws {
        let repository = try TemporaryRepository()
        try repository.write(".a11y-audit.json", #"{ "severity": { "fixed-font-size": "error", "hard-coded-color-literal": "error" } }"#)
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        try repository.write("Modules/Feature/Title.swift", ScannerTests.uiFile)
        try repository.write("Modules/Feature/Deep/Title.swift", ScannerTests.uiFile)
        try repository.write("Modules/Feature/.a11y-audit.json", #"{ "severity": { "fixed-font-size": "note" } }"#)
        // Deeper still, a third file refines the second: it restores the root's rule list too.
        try repository.write("Modules/Feature/Strict/Title.swift", ScannerTests.uiFile)
        try repository.write("Modules/Feature/Strict/.a11y-audit.json", #"{ "severity": { "fixed-font-size": "warning" } }"#)
        #expect(findings(try scan(repository)) == [
            "App/Title.swift": .error, "Modules/Feature/Title.swift": .note, "Modules/Feature/Deep/Title.swift": .note,
            "Modules/Feature/Strict/Title.swift": .warning,
        ])
    }

    @Test func aRootOnlyKeyInANestedFileIsAnErrorNamingTheFile() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        try repository.write("Legacy/.a11y-audit.json", #"{ "disable": ["fixed-font-size"], "maxFileBytes": 10 }"#)
        do {
            _ = try scan(repository)
            Issue.record("a nested maxFileBytes was accepted")
        } catch let error as ScanError {
            guard case .config(.rootOnlyKey(let file, let key)) = error else { Issue.record("\(error)"); return }
            #expect(file == "Legacy/.a11y-audit.json" && key == .maxFileBytes)
            #expect(error.description.hasPrefix("Legacy/.a11y-audit.json: \"maxFileBytes\" applies to the whole scan"))
            #expect(error.description.contains("move it there or remove it"))
        }
        // Other mistakes name the nested file too.
        try repository.write("Legacy/.a11y-audit.json", #"{ "disabel": ["fixed-font-size"] }"#)
        #expect(throws: ScanError.self) { try scan(repository) }
        do { _ = try scan(repository) } catch {
            #expect("\(error)".hasPrefix("Legacy/.a11y-audit.json: unknown key \"disabel\""))
        }
    }

    @Test func aNestedFileInAVendoredOrExcludedFolderIsNotRead() throws {
        let repository = try TemporaryRepository()
        try repository.write(".a11y-audit.json", #"{ "exclude": ["Archive/**"] }"#)
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        // A pod's own configuration, with a key only a root may set: not this scan's business.
        try repository.write("Pods/Lib/.a11y-audit.json", #"{ "baseline": "lib-baseline.json" }"#)
        try repository.write("Archive/.a11y-audit.json", #"{ "maxFileBytes": 1 }"#)
        #expect(findings(try scan(repository)).keys.sorted() == ["App/Title.swift"])
    }

    @Test func nestedExcludePatternsAreRelativeToTheirFolder() throws {
        let repository = try TemporaryRepository()
        for path in ["App/Generated/A.swift", "Feature/Generated/A.swift", "Feature/Deep/Generated/A.swift",
                     "Feature/Screens/A.swift", "Feature/Deep/Screens/A.swift", "Generated/A.swift"] {
            try repository.write(path, ScannerTests.uiFile)
        }
        // A name alone matches a folder anywhere below the file's folder; a path, from the folder.
        try repository.write("Feature/.a11y-audit.json", #"{ "exclude": ["Generated", "Screens/*.swift"] }"#)
        let report = try scan(repository)
        #expect(findings(report).keys.sorted() == ["App/Generated/A.swift", "Feature/Deep/Screens/A.swift", "Generated/A.swift"])
        #expect(report.statistics.skippedExcluded == 3)
    }

    @Test func aNestedEnableTurnsBackOnARuleTheRootDisabled() throws {
        let repository = try TemporaryRepository()
        try repository.write(".a11y-audit.json", #"{ "disable": ["fixed-font-size"] }"#)
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        try repository.write("NewCode/Title.swift", ScannerTests.uiFile)
        try repository.write("NewCode/.a11y-audit.json", #"{ "enable": ["fixed-font-size"] }"#)
        let report = try scan(repository)
        #expect(findings(report).keys.sorted() == ["NewCode/Title.swift"])
        // `enable` lists the only rules that run there.
        #expect(report.findings.filter { $0.location.file == "NewCode/Title.swift" }.allSatisfy { $0.ruleID == "fixed-font-size" })
    }

    @Test func theCacheKeepsEachLevelsResultsApart() throws {
        let repository = try TemporaryRepository()
        let cache = try TemporaryRepository()
        try repository.write("App/Title.swift", ScannerTests.uiFile)
        try repository.write("Legacy/Old.swift", ScannerTests.uiFile)
        let options = ScanOptions(cacheDirectory: cache.path)
        #expect(findings(try scan(repository, options: options)).count == 2)
        try repository.write("Legacy/.a11y-audit.json", #"{ "disable": ["fixed-font-size"] }"#)
        let warm = try scan(repository, options: options)
        #expect(findings(warm).keys.sorted() == ["App/Title.swift"])
        #expect(warm.statistics.cacheHits == 1 && warm.statistics.filesParsed == 1)
    }

    @Test func thePlatformFlagWinsOverNestedPlatforms() throws {
        let repository = try TemporaryRepository()
        try repository.write("Watch/.a11y-audit.json", #"{ "platforms": ["watchos"] }"#)
        try repository.write("Watch/Title.swift", ScannerTests.uiFile)
        let nested = try scan(repository)
        #expect(nested.findings.first { $0.location.file == "Watch/Title.swift" }?.platforms == PlatformSet(.watchOS))
        var options = ScanOptions()
        options.platforms = PlatformSet(.iOS)
        let flagged = try scan(repository, options: options)
        #expect(flagged.findings.first { $0.location.file == "Watch/Title.swift" }?.platforms == PlatformSet(.iOS))
    }
}
