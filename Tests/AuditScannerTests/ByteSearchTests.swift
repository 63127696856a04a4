import AuditModel
import Foundation
import Testing
@testable import AuditScanner
import SwiftChecks

/// The byte-level path tests and searches a warm re-scan runs over every file of a checkout:
/// they must answer exactly what the `String` versions they replaced answered.
@Suite struct ByteSearchTests {
    /// A cache entry's fields hold any text: a CRLF line, tabs, backslashes, a lone `\r`, and
    /// text that is not ASCII come back as they went in, and each finding stays one line.
    @Test func cacheEntryFieldsKeepLineBreaksTabsAndBackslashes() throws {
        let texts = ["first\r\nsecond", "a\tb", "back\\slash\\n", "lone\rreturn", "café ☕️\r\n", "", "\r\n\r\n", "plain"]
        let findings = texts.enumerated().map { index, text in
            Finding(ruleID: "fixed-font-size", kind: .requirement, severity: .warning, certainty: .violation,
                    location: SourceLocation(file: "App/\(text).swift", line: index + 1, column: 1), message: text,
                    fix: "", citation: Citation("HIG", "x"), platforms: PlatformSet(.iOS), fingerprint: "f\(index)",
                    snippet: text, sourceLine: text)
        }
        let encoded = ScanCache.Entry.encode(FileResult(findings: findings))
        #expect(encoded.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 1 + findings.count)
        let decoded = try #require(ScanCache.Entry.decode(Array(encoded.utf8)))
        #expect(decoded.findings.map(\.message) == texts)
        #expect(decoded.findings.map(\.snippet) == texts && decoded.findings.map(\.location.file) == findings.map(\.location.file))
    }

    @Test func fileRelevanceIsDecidedByTheNameAlone() {
        let relevant = ["A.swift", "App/View.swift", ".swift", "App/en.lproj/Localizable.strings", "Localizable.xcstrings",
                        "App.xcodeproj/project.pbxproj", ".a11y-audit.json", "App/Assets.xcassets/Red.colorset/Contents.json",
                        "Main.storyboard", "Cell.xib", "App/Info.plist", "Widget/WidgetInfo.plist", "CODEOWNERS", ".github/CODEOWNERS",
                        "Legacy/Thing.m", "Legacy/Thing.mm", "Legacy/Thing.h"]
        let irrelevant = ["README.md", "icon.png", "Contents.json", "Data/Contents.json", "project.pbxproj", "App/project.pbxproj",
                          "A.swift.orig", "A.Swift", "Thing.hh", "Thing.mmm", "CODEOWNERS.md", "Makefile", "a.json", "x.plist",
                          "dir.swift/readme", "Info.plist.bak", "strings", "é.stringsx"]
        for path in relevant { #expect(ScanInput.isRelevant(path), "\(path)") }
        for path in irrelevant { #expect(!ScanInput.isRelevant(path), "\(path)") }
    }

    @Test func suffixesAndNamesAreCompared() {
        #expect(ASCII.hasSuffix("App/Info.plist", "Info.plist"))
        #expect(ASCII.hasSuffix("Info.plist", "Info.plist"))
        #expect(!ASCII.hasSuffix("nfo.plist", "Info.plist"))
        #expect(ASCII.hasSuffix("Café.swift", ".swift") && !ASCII.hasSuffix("", ".swift") && ASCII.hasSuffix("x", ""))
        #expect(ASCII.fileName("a/b/c.swift") == "c.swift" && ASCII.fileName("c.swift") == "c.swift" && ASCII.fileName("a/") == "")
        #expect(ProjectFileKind.of("Package.swift") == .packageManifest && ProjectFileKind.of("Lib/Package.swift") == .packageManifest)
        #expect(ProjectFileKind.of("MyPackage.swift") == nil && ProjectFileKind.of("App/fr.lproj/Main.strings") == .strings)
        #expect(ProjectIndex.localizationTable(of: "App/fr.lproj/Main.strings")! == ("fr", "App/Main.strings"))
        #expect(ProjectIndex.localizationTable(of: "fr.lproj/Main.strings")! == ("fr", "Main.strings"))
        #expect(ProjectIndex.localizationTable(of: "App/Main.strings") == nil)
        // Byte containment, as Foundation's `contains` answers for these names.
        #expect(ASCII.contains("IS_CATALYST_BUILD", "ATALYST") && ASCII.contains("primaryStyle", "Style") && !ASCII.contains("style", "Style"))
        #expect(ASCII.contains("cardBackgroundCafé", "background".capitalized) && ASCII.contains("x", "") && !ASCII.contains("", "x"))
        #expect(ASCII.contains("a.b.c".split(separator: ".")[1], "b") && !ASCII.contains("Ab", "abc"))
    }

    /// Snippets and fingerprint lines collapse whitespace byte by byte; they must be the
    /// Character-wise collapse they replaced, or every stored fingerprint would move.
    @Test func whitespaceIsCollapsedAsCharactersWouldBe() {
        func reference(_ text: String, _ limit: Int) -> String {
            String(text.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(limit))
        }
        let pieces = ["a", "Text(\"x\")", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", ".font(.body)", "{", "}", "_", "\u{1F}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let limit = Int.random(in: 0...20, using: &generator)
            #expect(ASCII.collapsingWhitespace(text.utf8, limit: limit) == reference(text, limit), "\(text.debugDescription) \(limit)")
        }
        #expect(ASCII.collapsingWhitespace("  a \n\t b  ".utf8) == "a b")
        #expect(ASCII.collapsingWhitespace("a\u{00A0}b".utf8) == nil, "a Unicode space is left to the Character-wise collapse")
        #expect(ASCII.collapsingWhitespace("".utf8) == "")
    }

    @Test func matchesAreFoundFromWhereTheSearchResumes() {
        let text = Array("abcabcab".utf8), needle = Array("abc".utf8)
        text.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { needle in
                #expect(ASCII.firstMatch(needle, in: text, from: 0) == 0)
                #expect(ASCII.firstMatch(needle, in: text, from: 1) == 3)
                #expect(ASCII.firstMatch(needle, in: text, from: 4) == nil)
                #expect(ASCII.firstMatch(needle, in: text, from: 9) == nil)
            }
        }
        var ends: [Int] = []
        BytePattern("ab").forEachMatch(in: text[2...]) { end in
            ends.append(end)
            return end
        }
        #expect(ends == [5, 8], "indices of the slice's own base")
        // A hostile haystack of near-matches stays linear: a million bytes, answered at once.
        let hostile = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        var count = 0
        BytePattern(String(repeating: "a", count: 500) + "b").forEachMatch(in: hostile) { count += 1; return $0 }
        #expect(count == 0)
    }

    @Test func importsAreReadFromTheirLinesOnly() {
        let source = """
            \u{FEFF}// Generated by a tool: do not edit
            import Foundation
            @_exported import UIKit
            @preconcurrency import struct SwiftUI.Color
            #if os(macOS)
            import\tAppKit
            #endif
            if importing { }
            init() { }
            @State var imported = 0
            importance()
            """
        let header = ImportScanner.scan(Array(source.utf8))
        #expect(header.imports == ["Foundation", "UIKit", "SwiftUI", "AppKit"])
        #expect(header.unguardedImports == ["Foundation", "UIKit", "SwiftUI"])
        #expect(header.exportedUIModules == ["UIKit"] && header.looksGenerated)
        #expect(ImportScanner.scan(Array("import UIKit".utf8)).imports == ["UIKit"], "a last line without a newline")
        #expect(ImportScanner.scan([]).imports.isEmpty)
    }

    @Test func filesAreReadWholeOrWithAReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bytes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let content = [UInt8]((0..<100_000).map { UInt8($0 % 251) })
        try Data(content).write(to: URL(fileURLWithPath: folder + "/big"))
        try Data().write(to: URL(fileURLWithPath: folder + "/empty"))
        #expect(try FileBytes.contents(of: folder + "/big") == content)
        #expect(try FileBytes.contents(of: folder + "/empty") == [])
        #expect(throws: FileBytes.ReadError.self) { try FileBytes.contents(of: folder + "/missing") }
        #expect(throws: FileBytes.ReadError.self) { try FileBytes.contents(of: folder) }
        #expect(throws: FileBytes.ReadError.self) { try FileBytes.contents(of: folder + "/big", limit: 1000) }
    }
}
