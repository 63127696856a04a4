import AuditModel
import SwiftChecks
import Testing

/// The generic example test runs with no strings tables; these cases need a project that defines
/// keys: a SwiftUI literal that is a defined key is read as its translation, not as written.
struct LabelRulesLocalizationTests {
    static let source = """
        import SwiftUI
        struct Cart: View {
            var body: some View {
                Image("cart.badge.plus")
                Button(action: {}) { Image(systemName: "play.fill") }
                    .accessibilityLabel("play.fill")
                Image("x").accessibilityLabel(Text("Profile image"))
                Image("y").accessibilityLabel(Text(verbatim: "play.fill"))
                Button("❤️") {}
            }
        }
        """

    static func findings(keys: Set<String>) -> [Finding] {
        SourceChecker().check(path: "Cart.swift", source: source, context: ProjectContext(localizedKeys: keys)).findings
    }

    @Test("Without strings tables, keys are spoken as written")
    func undefinedKeys() {
        let found = Self.findings(keys: [])
        let summary = found.map { "\($0.ruleID) \($0.location.line):\($0.location.column) \($0.message)" }
        #expect(found.filter { $0.ruleID == "accessibility-label-raw-identifier" }.count == 2, "\(summary)")
        #expect(found.contains { $0.ruleID == "image-asset-name-spoken" && $0.message.contains("\"cart.badge.plus\"") }, "\(summary)")
        #expect(found.contains { $0.ruleID == "accessibility-label-names-trait" && $0.message.contains("\"Profile image\"") }, "\(summary)")
        #expect(found.contains { $0.ruleID == "accessibility-label-empty-or-emoji" && $0.message.contains("\"❤️\"") }, "\(summary)")
    }

    @Test("Defined keys are translated; Text(verbatim:) is not")
    func definedKeys() {
        let found = Self.findings(keys: ["cart.badge.plus", "play.fill", "Profile image", "❤️"])
        let summary = found.map { "\($0.ruleID) \($0.location.line):\($0.location.column) \($0.message)" }
        let raw = found.filter { $0.ruleID == "accessibility-label-raw-identifier" }
        #expect(raw.count == 1 && raw.first?.location.line == 8, "\(summary)")
        #expect(!found.contains { $0.ruleID == "image-asset-name-spoken" }, "\(summary)")
        #expect(!found.contains { $0.ruleID == "accessibility-label-names-trait" }, "\(summary)")
        #expect(!found.contains { $0.ruleID == "accessibility-label-empty-or-emoji" }, "\(summary)")
    }
}
