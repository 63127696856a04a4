import AuditModel
import Foundation
import SwiftChecks
import Testing

/// The catalog is written by hand (as SwiftLint's and swift-format's registries are generated,
/// so nothing is forgotten): these tests keep it complete and keep the ids other code names real.
struct RuleCatalogTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `struct X: …SourceRule…` (or `extension X: DocumentRule`) in Sources/SwiftChecks/Rules.
    static func declaredRules(conformingTo kind: String) throws -> [String] {
        let folder = packageRoot.appendingPathComponent("Sources/SwiftChecks/Rules")
        var names: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { " :,{".contains($0) }).map(String.init)
                guard let keyword = words.firstIndex(where: { $0 == "struct" || $0 == "extension" }),
                      keyword + 1 < words.count, words[(keyword + 2)...].contains(kind) else { continue }
                names.append(words[keyword + 1])
            }
        }
        return names
    }

    @Test(arguments: ["SourceRule", "DocumentRule", "CatalogRule"])
    func everyRuleTypeIsRegisteredOnce(kind: String) throws {
        let registered: [String] = switch kind {
        case "SourceRule": RuleCatalog.sourceRules.map { String(describing: type(of: $0)) }
        case "DocumentRule": RuleCatalog.documentRules.map { String(describing: type(of: $0)) }
        default: RuleCatalog.catalogRules.map { String(describing: type(of: $0)) }
        }
        let declared = try Self.declaredRules(conformingTo: kind)
        #expect(!declared.isEmpty, "the scan of Sources/SwiftChecks/Rules found no \(kind)")
        #expect(Set(declared) == Set(registered), "declared but not registered: \(Set(declared).subtracting(registered).sorted()); registered but not declared: \(Set(registered).subtracting(declared).sorted())")
        #expect(registered.count == Set(registered).count, "registered twice: \(registered.filter { name in registered.filter { $0 == name }.count > 1 })")
    }

    @Test func everyRuleIdOtherCodeNamesExists() throws {
        let ids = Set(RuleCatalog.descriptions.map(\.id))
        #expect(ids.count == RuleCatalog.descriptions.count, "two rules share an id")
        var named: [(String, String)] = []
        let pattern = try NSRegularExpression(pattern: #"ruleID(?:: | == )"([a-z]+(?:-[a-z]+)+)""#)
        for top in ["Sources", "Tests"] {
            let root = Self.packageRoot.appendingPathComponent(top)
            guard let files = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in files where path.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let range = Range(match.range(at: 1), in: text) else { continue }
                    named.append((top + "/" + path, String(text[range])))
                }
            }
        }
        #expect(named.count > 10, "the search found the rule ids code names")
        let unknown = named.filter { !ids.contains($0.1) }
        #expect(unknown.isEmpty, "rule ids that no rule has: \(unknown.map { "\($0.1) in \($0.0)" })")
    }
}
