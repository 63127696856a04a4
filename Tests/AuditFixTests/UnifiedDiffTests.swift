import AuditFix
import Foundation
import Testing

struct UnifiedDiffTests {
    @Test func aChangedLineWithItsContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\nline 5b\n")
        #expect(UnifiedDiff.render(old: old, new: new, path: "A.swift") == """
            --- a/A.swift
            +++ b/A.swift
            @@ -2,7 +2,8 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
            +line 5b
             line 6
             line 7
             line 8

            """)
        #expect(UnifiedDiff.render(old: old, new: old, path: "A.swift") == "")
    }

    @Test func changesFarApartAreTwoHunksAndTheLastLineMayHaveNoBreak() {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 2\n", with: "two\n").replacingOccurrences(of: "line 20", with: "twenty")
        let diff = UnifiedDiff.render(old: old, new: new, path: "A.swift")
        #expect(diff.components(separatedBy: "\n@@ ").count == 3, "\(diff)")
        #expect(diff.contains("@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n"))
        #expect(diff.hasSuffix("-line 20\n\\ No newline at end of file\n+twenty\n\\ No newline at end of file\n"))
    }

    /// What `patch` makes of the diff is the new text, for edits of every shape.
    @Test func patchAppliesTheDiff() throws {
        let patch = "/usr/bin/patch"
        try #require(FileManager.default.isExecutableFile(atPath: patch), "patch (Debian's package) is part of the machine image")
        let base = (1...40).map { "let value\($0) = \($0)" }
        let variants: [[String]] = [
            base.enumerated().compactMap { $0.offset % 7 == 3 ? nil : $0.element },             // removals
            base.flatMap { $0.hasSuffix("5") ? [$0, "    // after \($0)"] : [$0] },          // insertions
            base.map { $0.hasSuffix("1") ? $0.uppercased() : $0 },                           // changes
            Array(base.reversed()),                                                            // everything
            [],                                                                                // nothing left
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, lines) in variants.enumerated() {
            let old = base.joined(separator: "\n") + "\n"
            let new = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
            let file = directory.appendingPathComponent("File\(index).swift")
            try old.write(to: file, atomically: true, encoding: .utf8)
            let diff = UnifiedDiff.render(old: old, new: new, path: "File\(index).swift")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: patch)
            process.arguments = ["-s", "-p1", "-d", directory.path]
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(Data(diff.utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "variant \(index): patch failed on\n\(diff)")
            #expect(try String(contentsOf: file, encoding: .utf8) == new, "variant \(index)")
        }
    }
}
