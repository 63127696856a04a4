import AuditModel
import Foundation
import Testing

/// The merge rules of a nested `.a11y-audit.json`, key by key.
struct NestedConfigMergeTests {
    let rules: Set<String> = ["a", "b", "c"]

    func nested(_ json: String, folder: String = "Legacy") throws -> NestedAuditConfig {
        try NestedAuditConfig(data: Data(json.utf8), folder: folder, knownRules: rules)
    }

    @Test func theNearerFileWinsPerKeyAndWhatItLeavesOutIsKept() throws {
        var root = AuditConfig()
        root.disabled = ["a"]
        root.severityOverrides = ["a": .error, "b": .error]
        root.platforms = PlatformSet(.iOS)
        root.maxFileBytes = 1234
        let merged = root.refined(by: try nested(#"{ "disable": ["c"], "severity": { "b": "note" }, "platforms": ["macos"], "includeNonShipping": true }"#))
        #expect(merged.disabled == ["a", "c"])
        #expect(merged.severityOverrides == ["a": .error, "b": .note])
        #expect(merged.platforms == PlatformSet(.macOS))
        #expect(merged.includeNonShipping && merged.skipVendored)
        #expect(merged.maxFileBytes == 1234)
        // Nothing set, nothing changed.
        #expect(root.refined(by: try nested("{}")) == root)
    }

    @Test func enableReplacesTheOnlyListAndTurnsItsRulesBackOnButDisableWinsInOneFile() throws {
        var root = AuditConfig()
        root.disabled = ["a", "b"]
        root.onlyEnabled = ["a", "b", "c"]
        let merged = root.refined(by: try nested(#"{ "enable": ["a", "b"], "disable": ["b"] }"#))
        #expect(merged.onlyEnabled == ["a", "b"])
        #expect(merged.isEnabled("a") && !merged.isEnabled("b") && !merged.isEnabled("c"))
        #expect(root.refined(by: try nested(#"{ "enable": [] }"#)).onlyEnabled.isEmpty)
    }

    @Test func excludeAndIncludeAreReadFromTheNestedFilesFolder() throws {
        let merged = AuditConfig().refined(by: try nested(#"{ "exclude": ["Generated", "/Screens/*.swift", "Old/"], "include": ["Pods/Ours/**"] }"#, folder: "App/Legacy"))
        let excluded = merged.exclude.map(Glob.init)
        func isExcluded(_ path: String) -> Bool { Glob.anyMatches(excluded, path) }
        #expect(isExcluded("App/Legacy/Generated/A.swift") && isExcluded("App/Legacy/X/Generated/B.swift"))
        #expect(isExcluded("App/Legacy/Screens/A.swift") && isExcluded("App/Legacy/Old/Deep/A.swift"))
        #expect(!isExcluded("App/Generated/A.swift") && !isExcluded("Generated/A.swift"))
        #expect(!isExcluded("App/Legacy/Deep/Old/A.swift"), "a pattern with a slash is anchored at the nested folder")
        #expect(Glob.anyMatches(merged.include.map(Glob.init), "App/Legacy/Pods/Ours/A.swift"))
        #expect(!Glob.anyMatches(merged.include.map(Glob.init), "Pods/Ours/A.swift"))
    }

    @Test func rootOnlyKeysAreRefusedNamingTheFileAndKey() {
        for key in ["maxFileBytes", "baseline"] {
            let value = key == "baseline" ? "\"b.json\"" : "10"
            #expect(throws: AuditConfigError.rootOnlyKey(file: "Legacy/.a11y-audit.json", key: AuditConfig.Key(rawValue: key)!)) {
                try nested(#"{ "\#(key)": \#(value) }"#)
            }
        }
        let message = AuditConfigError.rootOnlyKey(file: "Legacy/.a11y-audit.json", key: .baseline).description
        #expect(message.contains("root's .a11y-audit.json") && message.contains("may set disable, enable, severity"))
    }
}
