import AuditFix
import AuditModel
import ColorAssets
import InterfaceBuilder
import SwiftChecks
import Testing

/// One generic test runs every example of every rule (SwiftLint's model): triggering examples
/// must produce exactly the marked findings, non-triggering examples none.
struct RuleExamplesTests {
    static let ruleIDs = RuleCatalog.allRuleIDs

    @Test("Every rule carries triggering and non-triggering examples and a citation", arguments: ruleIDs)
    func ruleIsComplete(id: String) throws {
        let description = try #require(RuleCatalog.description(of: id))
        #expect(!description.triggering.isEmpty, "\(id) has no triggering example")
        #expect(!description.nonTriggering.isEmpty, "\(id) has no non-triggering example")
        #expect(!description.citations.isEmpty && description.citations.allSatisfy { !$0.quote.isEmpty })
        #expect(!description.fix.isEmpty && !description.limitations.isEmpty && !description.rationale.isEmpty)
        #expect((description.triggering + description.needsReview).allSatisfy { $0.code.contains("↓") },
                "every triggering and needs-review example marks its position with ↓")
        #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "rule ids are kebab-case")
    }

    @Test("Triggering examples produce exactly the marked findings, as sure as the rule is", arguments: ruleIDs)
    func triggering(id: String) throws {
        let description = try #require(RuleCatalog.description(of: id))
        for example in description.triggering {
            let found = try Self.expectMarkedFindings(of: id, in: example)
            for finding in found {
                #expect(finding.certainty == description.certainty,
                        "\(id): a triggering example's finding is \(finding.certainty) (\(finding.message)); examples the rule cannot settle belong in needsReview")
            }
        }
    }

    @Test("Needs-review examples produce exactly the marked findings, each handed to a person", arguments: ruleIDs)
    func needsReview(id: String) throws {
        let description = try #require(RuleCatalog.description(of: id))
        for example in description.needsReview {
            let found = try Self.expectMarkedFindings(of: id, in: example)
            for finding in found {
                #expect(finding.certainty == .review && finding.severity == .note,
                        "\(id): expected a finding that needs review, got \(finding.certainty) \(finding.severity): \(finding.message)")
            }
        }
    }

    @discardableResult
    static func expectMarkedFindings(of id: String, in example: RuleExample) throws -> [Finding] {
        let (code, expected) = markers(in: example.code)
        let found = try findings(of: id, code: code, example: example)
        let positions = found.map { Position(line: $0.location.line, column: $0.location.column) }
        #expect(positions == expected, "\(id): expected findings at \(expected), got \(found.map { "\($0.location.line):\($0.location.column) \($0.message)" }) in:\n\(code)")
        for finding in found {
            #expect(!finding.message.isEmpty && !finding.fingerprint.isEmpty)
        }
        return found
    }

    @Test("Non-triggering examples produce no finding", arguments: ruleIDs)
    func nonTriggering(id: String) throws {
        let description = try #require(RuleCatalog.description(of: id))
        for example in description.nonTriggering {
            let found = try Self.findings(of: id, code: example.code.replacingOccurrences(of: "↓", with: ""), example: example)
            #expect(found.isEmpty, "\(id): unexpected \(found.map { "\($0.location.line):\($0.location.column) \($0.message)" }) in:\n\(example.code)")
        }
    }

    /// A rule's fixes, as `a11y-audit fix` applies them: the expected code, parsing cleanly, and
    /// the fixed findings gone when it is checked again; code without a fix gets no edit.
    @Test("Correction examples give the expected code, which parses and no longer has the fixed findings", arguments: ruleIDs)
    func corrections(id: String) throws {
        let description = try #require(RuleCatalog.description(of: id))
        for example in description.corrections {
            let input = example.input
            #expect(!input.code.contains("↓"), "\(id): correction examples carry no markers")
            let before = try Self.findings(of: id, code: input.code, example: input)
            #expect(!before.isEmpty, "\(id): the rule does not report this correction example:\n\(input.code)")
            let corrected = before.filter { $0.correction != nil }
            guard let expected = example.output else {
                #expect(corrected.isEmpty, "\(id): expected no edit, got \(corrected.compactMap(\.correction)) in:\n\(input.code)")
                continue
            }
            #expect(!corrected.isEmpty, "\(id): no finding carries an edit in:\n\(input.code)")
            let plan = FixPlan.make(before) { _ in Array(input.code.utf8) }
            #expect(plan.refusals.isEmpty, "\(id): \(plan.refusals.map(\.reason))")
            let output = plan.changes.first.map { String(decoding: $0.edited, as: UTF8.self) } ?? input.code
            #expect(output == expected, "\(id): the fix made\n\(output)\nnot\n\(expected)")
            #expect(FixPlan.firstSyntaxError(output) == nil, "\(id): the fixed code does not parse:\n\(output)")
            let after = try Self.findings(of: id, code: output, example: RuleExample(output, platforms: input.platforms,
                                                                                       file: input.file, assets: input.assets))
            #expect(after.count == before.count - corrected.count && after.allSatisfy { $0.correction == nil },
                    "\(id): after the fix still \(after.map { "\($0.location.line):\($0.location.column) \($0.message)" })")
        }
    }

    struct Position: Equatable, CustomStringConvertible {
        let line: Int
        let column: Int
        var description: String { "\(line):\(column)" }
    }

    static func findings(of id: String, code: String, example: RuleExample) throws -> [Finding] {
        // The example's asset catalog: its JSON assets, plus the example itself for catalog rules.
        let rule = RuleCatalog.catalogRules.first { $0.description.id == id }
        var jsonFiles = example.assets.filter { $0.key.hasSuffix(".json") }.map { (path: $0.key, bytes: Array($0.value.utf8)) }
        if rule != nil { jsonFiles.append((path: example.file, bytes: Array(code.utf8))) }
        let catalog = ColorCatalog.build(jsonFiles) { _ in .iOS }
        var config = AuditConfig()
        config.platforms = example.platforms
        // And its strings tables: the keys they define are translated labels.
        let keys = example.assets.filter { $0.key.hasSuffix(".strings") }
            .flatMap { ProjectFiles.localizedKeys(fromStringsFile: Array($0.value.utf8)).keys }
        // And the colours its Swift files declare on colour types, as the scan reads them.
        let tokenFiles = example.assets.filter { $0.key.hasSuffix(".swift") }.sorted { $0.key < $1.key }
            .map { ColorTokens.read(in: $0.value) }
        let tokens = ColorTokens.merge(tokenFiles.map(\.tokens))
        let namespaces = ColorNamespaces.resolve(tokenFiles.map(\.namespaces)) { catalog.count(named: $0) > 0 }
        let context = ProjectContext(localizedKeys: Set(keys), colors: catalog, colorTokens: tokens, colorNamespaces: namespaces)
        if let rule {
            // Catalog rules also see which sets the example's Swift files use.
            var used: Set<String> = []
            for (path, source) in example.assets where path.hasSuffix(".swift") {
                used.formUnion(SourceChecker(config: config).check(path: path, source: source, context: context).colorUses.map(\.name))
            }
            return CatalogChecker(rules: [rule]).check(CatalogFacts(catalog: catalog, usedNames: used))
        }
        // As the scan does: a finding in a member property stands only if some file of the
        // example's repository reads the property, and an Interface Builder finding only if no
        // Swift file replaces what it judges.
        let checker = SourceChecker(config: config)
        var referenced = Set<String>(), assigned = Set<String>(), results: [FileResult] = []
        for (path, source) in example.assets where path.hasSuffix(".swift") {
            let other = checker.check(path: path, source: source, context: context)
            referenced.formUnion(other.referencedNames)
            assigned.formUnion(other.assignedMembers)
            results.append(other)
        }
        assigned = FileResult.inheritingAssignments(FileResult.expandingStyleMethods(assigned))
        if InterfaceBuilderDocument.isInterfaceBuilderPath(example.file) {
            let rules = RuleCatalog.documentRules.filter { $0.description.id == id }
            return DocumentChecker(rules: rules, config: config).check(path: example.file, bytes: Array(code.utf8), context: context)
                .findingsInUse(referenced: referenced, assigned: assigned)
        }
        var result = checker.check(path: example.file, source: code, context: context)
        referenced.formUnion(result.referencedNames)
        // As the scan does: a second look with the facts of the app's own views it shows.
        let componentFacts = ViewComponents.facts(ViewComponents.useFacts(referenced), forUses: result.componentUses, referenced: result.referencedNames)
        if !componentFacts.isEmpty {
            var second = context
            second.componentFacts = componentFacts
            result = checker.check(path: example.file, source: code, context: second)
        }
        assigned.formUnion(result.assignedMembers)
        assigned.formUnion(FileResult.catalystOnlyTypes(results + [result], assigned: assigned))
        return result.findingsInUse(referenced: referenced, assigned: assigned).filter { $0.ruleID == id }
    }

    /// Removes `↓` markers and returns their 1-based positions (columns in Unicode scalars).
    static func markers(in code: String) -> (String, [Position]) {
        var output = ""
        var positions: [Position] = []
        var line = 1, column = 1
        for scalar in code.unicodeScalars {
            if scalar == "↓" {
                positions.append(Position(line: line, column: column))
                continue
            }
            output.unicodeScalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (output, positions)
    }
}
