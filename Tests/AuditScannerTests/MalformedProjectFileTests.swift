@testable import AuditScanner
import AuditModel
import Foundation
import SwiftChecks
import Testing

/// The project readers the app model added (Xcode project file lists, strings tables, string
/// catalogs): a damaged file is a note that names it and says why, what it would decide falls
/// back to what holds without it, and the rest of the scan goes on.
struct MalformedProjectFileTests {
    static let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"

    @Test func damagedReadersAreNotesAndTheScanGoesOn() throws {
        let repository = try TemporaryRepository()
        // Cut short mid-object: the file list it holds cannot say which files are compiled.
        try repository.write("App.xcodeproj/project.pbxproj", """
            // !$*UTF8*$!
            {
                objects = {
                    B1 /* Listed.swift */ = {isa = PBXFileReference; path = Listed.swift; sourceTree = "<group>"; };
                    B2 = {isa = PBXFileReference; path =
            """)
        try repository.write("App/Listed.swift", Self.view)
        try repository.write("App/Other.swift", Self.view)
        try repository.write("App/en.lproj/Localizable.strings", "\"greeting\" = \"Hello\";\n\"farewell\" = \"Bye;\n")
        try repository.write("App/en.lproj/Menu.strings", "\"open\" = \"Open\";\n<<<<<<< HEAD\n")
        try repository.write("App/Catalog.xcstrings", "{\"sourceLanguage\": \"en\", \"strings\": ")
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let notes = Dictionary(report.notes.filter { $0.kind == .skipped }.map { ($0.file, $0.message) }, uniquingKeysWith: { $0 + " | " + $1 })
        #expect(notes["App.xcodeproj/project.pbxproj"]?.contains("Xcode project file is malformed") == true)
        #expect(notes["App.xcodeproj/project.pbxproj"]?.contains("never close") == true)
        #expect(notes["App/en.lproj/Localizable.strings"]?.contains("line 2 is never closed") == true)
        #expect(notes["App/en.lproj/Menu.strings"]?.contains("unexpected \"<\" on line 2") == true)
        #expect(notes["App/Catalog.xcstrings"]?.contains("not valid JSON") == true)
        let flagged = Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file))
        #expect(flagged == ["App/Listed.swift", "App/Other.swift"], "a damaged project skips no file")
        #expect(report.statistics.skippedNotInTarget == 0)
    }

    @Test func stringsTablesInEveryFormXcodeWrites() throws {
        let text = ProjectFiles.localizedKeys(fromStringsFile: Array("""
            /* Bundle name */
            CFBundleDisplayName = "Shop";
            "NSCameraUsageDescription" = "Scan a receipt"; // trailing comment
            "multi
            line" = "x";
            """.utf8))
        #expect(Set(text.keys) == ["CFBundleDisplayName", "NSCameraUsageDescription", "multi\nline"] && text.problem == nil)
        let utf16 = ProjectFiles.localizedKeys(fromStringsFile: [0xFF, 0xFE] + Array("\"k\" = \"v\";".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(utf16.keys == ["k"] && utf16.problem == nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: ["cart.title": "Cart"], format: .binary, options: 0)
        let compiled = ProjectFiles.localizedKeys(fromStringsFile: Array(binary))
        #expect(compiled.keys == ["cart.title"] && compiled.problem == nil)
        let marked = ProjectFiles.localizedKeys(fromStringsFile: [0xEF, 0xBB, 0xBF] + Array("\"close_btn\" = \"Close\";".utf8))
        #expect(marked.keys == ["close_btn"] && marked.problem == nil, "a UTF-8 byte-order mark is not stray text")
        let broken = ProjectFiles.localizedKeys(fromStringsFile: Array("bplist00 not really".utf8))
        #expect(broken.keys.isEmpty && broken.problem != nil)
    }

    @Test func projectStructureProblemsNameTheLine() {
        #expect(ProjectFiles.xcodeProjectProblem(Array("{ a = \"}\"; /* } */ b = { c = d; }; }\n".utf8)) == nil)
        #expect(ProjectFiles.xcodeProjectProblem(Array("{ a = b; }\n}\n".utf8)) == "line 2 closes a brace that was never opened")
        #expect(ProjectFiles.xcodeProjectProblem(Array("{\n a = \"open\n".utf8))?.contains("never closed") == true)
        #expect(ProjectFiles.xcodeProjectProblem(Array("SDKROOT = iphoneos;\n".utf8)) == nil, "a settings excerpt is not damaged")
    }
}
