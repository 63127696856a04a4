import AuditFix
import AuditModel
import Foundation
import Testing

/// A finding of `rule` at `offset` whose correction is `edits`.
func finding(_ rule: String, at offset: Int, file: String = "A.swift", _ edits: [TextEdit]) -> Finding {
    var finding = Finding(ruleID: rule, kind: .recommendation, severity: .warning,
                          location: SourceLocation(file: file, line: 1, column: offset + 1), message: "m", fix: "f",
                          citation: Citation("s", "q"), platforms: .all, snippet: "s")
    finding.correction = Correction(summary: "fix", edits: edits)
    return finding
}

struct FixPlanTests {
    static let source = "let a = 1\nlet b = 2\n"

    @Test func findingsOfAFileApplyTogetherWithTheirDiff() throws {
        let plan = FixPlan.make([finding("r1", at: 8, [edit(8, 9, "10")]), finding("r2", at: 18, [edit(18, 19, "20")])]) { _ in
            Array(Self.source.utf8)
        }
        #expect(plan.refusals.isEmpty)
        let change = try #require(plan.changes.first)
        #expect(String(decoding: change.edited, as: UTF8.self) == "let a = 10\nlet b = 20\n")
        #expect(change.fixed.map(\.ruleID) == ["r1", "r2"])
        #expect(change.diff.hasPrefix("--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,2 @@\n-let a = 1\n-let b = 2\n+let a = 10\n+let b = 20\n"))
    }

    @Test func aFindingWhoseEditOverlapsAnEarlierOneIsRefusedAndTheRestApplied() throws {
        let plan = FixPlan.make([finding("r1", at: 4, [edit(4, 9, "a = 3")]), finding("r2", at: 8, [edit(8, 9, "4")]),
                                 finding("r3", at: 18, [edit(18, 19, "5")])]) { _ in Array(Self.source.utf8) }
        #expect(plan.fixed.map(\.ruleID) == ["r1", "r3"])
        let refusal = try #require(plan.refusals.first)
        #expect(refusal.findings.map(\.ruleID) == ["r2"] && refusal.reason == .overlaps(ruleID: "r1", line: 1, column: 5))
        #expect(refusal.reason.description.contains("run `a11y-audit fix` again"))
    }

    @Test func aFileTheEditsWouldLeaveUnparsableIsLeftWhole() throws {
        let breaking = FixPlan.make([finding("r1", at: 8, [edit(8, 9, "(")]), finding("r2", at: 18, [edit(18, 19, "3")])]) { _ in
            Array(Self.source.utf8)
        }
        #expect(breaking.changes.isEmpty)
        let refusal = try #require(breaking.refusals.first)
        #expect(refusal.findings.count == 2)
        guard case .wouldNotParse(_, _, _, let before) = refusal.reason else { Issue.record("\(refusal.reason)"); return }
        #expect(!before)
        // A file broken before its edits is not edited either, and the message says to fix it first.
        let broken = "let a = 1\nlet b = (\n"
        let plan = FixPlan.make([finding("r1", at: 8, [edit(8, 9, "2")])]) { _ in Array(broken.utf8) }
        #expect(plan.changes.isEmpty && plan.refusals.first?.reason.description.contains("fix the syntax error first") == true)
    }

    @Test func onlyTheChosenRulesFindingsWithCorrectionsUTF8FilesAndTheirOwnFile() {
        var plain = finding("r3", at: 0, [])
        plain.correction = nil
        let findings = [finding("r1", at: 8, [edit(8, 9, "2")]), finding("r2", at: 18, [edit(18, 19, "3")]), plain]
        #expect(FixPlan.make(findings, rules: ["r2", "r3"]) { _ in Array(Self.source.utf8) }.fixed.map(\.ruleID) == ["r2"])
        let latin1 = FixPlan.make(findings) { _ in Array(Self.source.utf8) + [0xE9] }
        #expect(latin1.changes.isEmpty && latin1.refusals.map(\.reason) == [.notUTF8])
        let elsewhere = FixPlan.make([finding("r1", at: 8, [edit(8, 9, "2", file: "B.swift")])]) { _ in Array(Self.source.utf8) }
        #expect(elsewhere.refusals.map(\.reason) == [.stale])
        struct Gone: Error {}
        let unreadable = FixPlan.make(findings) { _ in throw Gone() }
        #expect(unreadable.refusals.count == 1 && unreadable.changes.isEmpty)
    }

    @Test func writingReplacesTheFileWholeKeepingItsModeAndRefusesAFileChangedSince() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["A.swift", "B.swift"] {
            let path = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.source.utf8)))
            chmod(path, 0o640)
        }
        var plan = FixPlan.make([finding("r1", at: 8, [edit(8, 9, "2")]), finding("r1", at: 8, file: "B.swift", [edit(8, 9, "2", file: "B.swift")])]) { path in
            [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
        }
        // B changes between the plan and the write.
        try Data("let a = 7\n".utf8).write(to: directory.appendingPathComponent("B.swift"))
        plan.write(under: directory.path)
        #expect(plan.changes.map(\.path) == ["A.swift"] && plan.refusals.map(\.reason) == [.stale])
        #expect(try String(contentsOf: directory.appendingPathComponent("A.swift"), encoding: .utf8) == "let a = 2\nlet b = 2\n")
        #expect(try String(contentsOf: directory.appendingPathComponent("B.swift"), encoding: .utf8) == "let a = 7\n")
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("A.swift").path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["A.swift", "B.swift"], "no temporary file left")
    }
}
