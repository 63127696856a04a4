import AuditModel
import AuditScanner
import Foundation
import Testing

/// Every project file the index reads has a size limit: one over it is a note naming the file
/// and the limit, and the rest of the scan goes on.
struct ProjectFileLimitTests {
    /// `text` padded with `filler` to exactly `size` bytes.
    static func padded(_ text: String, to size: Int, with filler: String = " ") -> String {
        text + String(repeating: filler, count: size - text.utf8.count)
    }

    @Test func projectFilesOverTheirLimitsAreNotesAndTheScanGoesOn() throws {
        let repository = try TemporaryRepository()
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"P\", platforms: [.macOS(.v14)])\n//"
        try repository.write("Package.swift", Self.padded(manifest, to: 512 * 1024 + 1, with: "/"))
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>NSAccentColorName</key><string>Brand</string></dict></plist>\n"
        try repository.write("App/Info.plist", Self.padded(plist, to: (1 << 20) + 1))
        let colorSet = "{\"colors\": [{\"idiom\": \"universal\", \"color\": {\"color-space\": \"srgb\", \"components\": {\"red\": \"1\", \"green\": \"1\", \"blue\": \"1\", \"alpha\": \"1\"}}}]}"
        try repository.write("App/Assets.xcassets/Brand.colorset/Contents.json", Self.padded(colorSet, to: (1 << 20) + 1))
        try repository.write("Sources/P/Title.swift",
                             "import SwiftUI\nstruct T: View { var body: some View { Text(\"a\").font(.system(size: 17)) } }\n")
        let report = try Scanner().scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let notes = Dictionary(report.notes.filter { $0.kind == .skipped }.map { ($0.file, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(notes["Package.swift"] == "file is 524289 bytes, over the 524288-byte limit for Swift package manifests; its platforms were not read")
        #expect(notes["App/Info.plist"] == "file is 1048577 bytes, over the 1048576-byte limit for Info.plist files; the colour names it sets were not read")
        #expect(notes["App/Assets.xcassets/Brand.colorset/Contents.json"]
            == "file is 1048577 bytes, over the 1048576-byte limit for asset catalog Contents.json files; the colour set or folder it describes was not read")
        #expect(report.statistics.filesChecked == 1 && report.statistics.colorSets == 0)
        // The manifest's macOS was not read: the fixed-font rule (not on macOS) still runs.
        #expect(report.findings.contains { $0.location.file == "Sources/P/Title.swift" })
    }
}
