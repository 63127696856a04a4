import AuditModel
import AuditScanner
import Foundation
import Testing

/// `scan FILE…` and `--paths-from`: files are reported alone, with the context of the whole
/// repository holding them.
@Suite(.serialized) struct FileSelectionTests {
    /// The sample app as a repository of its own (a `.git` at its top), with a nested config
    /// so the per-folder configuration is part of what must agree.
    static func sampleRepository() throws -> TemporaryRepository {
        let repository = try TemporaryRepository()
        for entry in try FileManager.default.contentsOfDirectory(atPath: SampleAppTests.root) {
            try FileManager.default.copyItem(atPath: SampleAppTests.root + "/" + entry, toPath: repository.path + "/" + entry)
        }
        try FileManager.default.createDirectory(atPath: repository.path + "/.git", withIntermediateDirectories: true)
        try repository.write("macOS/.a11y-audit.json", #"{ "severity": { "hit-region-too-small": "note" } }"#)
        return repository
    }

    func scan(_ repository: TemporaryRepository, only files: [String]? = nil) throws -> ScanReport {
        var options = ScanOptions(jobs: 2)
        options.selection = files.map { FileSelection(root: repository.path, files: $0) }
        return try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
    }

    func decode(_ json: String) throws -> ScanReport { try JSONDecoder().decode(ScanReport.self, from: Data(json.utf8)) }

    /// The acceptance test of issue 18: a single file, a list of files and the whole
    /// repository give the same findings for the same files.
    @Test func aFileAListOfFilesAndTheWholeRepositoryAgree() throws {
        let repository = try Self.sampleRepository()
        let whole = try scan(repository)
        let byFile = Dictionary(grouping: whole.findings, by: \.location.file)
        #expect(byFile.count >= 12, "the sample app has findings in many files: \(byFile.keys.sorted())")
        #expect(byFile.keys.contains { $0.hasSuffix(".storyboard") } && byFile.keys.contains { $0.hasSuffix(".xib") }
                && byFile.keys.contains { $0.hasSuffix("Contents.json") })
        // The nested config took effect, so it must agree too.
        #expect(byFile["macOS/Toolbar.xib"]?.allSatisfy { $0.severity == .note } == true)
        for (file, findings) in byFile {
            let alone = try scan(repository, only: [file])
            #expect(alone.findings == findings, "\(file) scanned alone")
            #expect(alone.reportedFiles == [file])
        }
        // A clean file and a file the scan skips are part of a list without changing the rest.
        let list = ["Shared/CheckoutView.swift", "iOS/Base.lproj/Cart.storyboard", "macOS/Toolbar.xib",
                    "Resources/Assets.xcassets/Legacy.colorset/Contents.json", "Models/Order.swift", "Pods/FancyKit/FancyButton.swift"]
        let listed = try scan(repository, only: list)
        #expect(listed.findings == whole.findings.filter { list.contains($0.location.file) })
        let skipped = Dictionary(listed.notes.filter { $0.kind == .skipped }.map { ($0.file, $0.message) }) { a, _ in a }
        #expect(skipped["Models/Order.swift"]?.contains("imports none of") == true)
        #expect(skipped["Pods/FancyKit/FancyButton.swift"]?.contains("vendored") == true)
        // Other files' notes and the whole repository's skip counts are not the list's.
        #expect(!listed.notes.contains { $0.kind == .summary && $0.message.contains("skipped") })
        #expect(listed.notes.contains { $0.kind == .summary && $0.message.hasPrefix("only the 6 files given are reported") })
    }

    @Test func theCommandLineFindsTheRepositoryFromTheFilesAndReadsListsOfThem() throws {
        let repository = try Self.sampleRepository()
        let whole = try decode(try runProcess(Paths.executable, ["scan", repository.path, "--format", "json", "--fail-on", "none"]).stdout)
        let wanted = ["Shared/OrderRow.swift", "iOS/Base.lproj/Cart.storyboard"]
        let expected = whole.findings.filter { wanted.contains($0.location.file) }
        #expect(!expected.isEmpty)

        // Relative to the current folder, from inside the repository.
        let files = try runProcess(Paths.executable, ["scan", "OrderRow.swift", "../iOS/Base.lproj/Cart.storyboard", "--format", "json", "--fail-on", "none"],
                                   currentDirectory: repository.path + "/Shared")
        #expect(files.status == 0, "\(files.stderr)")
        let report = try decode(files.stdout)
        #expect(report.findings == expected)
        #expect(report.root == repository.root.standardizedFileURL.path)

        // A list file with blank lines and a Windows line end, a file of another kind, and standard input.
        try repository.write("changed.txt", "Shared/OrderRow.swift\n\n   \niOS/Base.lproj/Cart.storyboard\r\nREADME.md\n")
        try repository.write("README.md", "# Sample\n")
        let listed = try runProcess(Paths.executable, ["scan", "--paths-from", "changed.txt", "--format", "json", "--fail-on", "none"],
                                    currentDirectory: repository.path)
        let listedReport = try decode(listed.stdout)
        #expect(listedReport.findings == expected)
        #expect(listedReport.notes.contains { $0.file == "README.md" && $0.message.hasPrefix("ignored") })
        let piped = try runProcess("/bin/sh", ["-c", "printf 'Shared/OrderRow.swift\\niOS/Base.lproj/Cart.storyboard\\n' | \"$0\" scan --paths-from - --format json --fail-on none",
                                               Paths.executable], currentDirectory: repository.path)
        #expect(try decode(piped.stdout).findings == expected, "\(piped.stderr)")

        // --fail-on holds for the files given only: the checkout's error fails, the row alone does not.
        #expect(try runProcess(Paths.executable, ["scan", "Shared/CheckoutView.swift"], currentDirectory: repository.path).status == 1)
        #expect(try runProcess(Paths.executable, ["scan", "Shared/OrderRow.swift"], currentDirectory: repository.path).status == 0)
        // An empty list (a commit touching no file) and a list of files no rule reads are clean.
        let empty = try runProcess("/bin/sh", ["-c", "\"$0\" scan --paths-from - < /dev/null", Paths.executable], currentDirectory: repository.path)
        #expect(empty.status == 0 && empty.stdout.contains("nothing to check"), "\(empty.stdout)\(empty.stderr)")
        #expect(try runProcess(Paths.executable, ["scan", "README.md"], currentDirectory: repository.path).status == 0)
    }

    @Test func missingFilesFoldersAndArchivesAmongFilesAreErrorsNamingThem() throws {
        let repository = try Self.sampleRepository()
        try repository.write("gone.txt", "Shared/Gone.swift\nShared/OrderRow.swift\nAlso/Gone.xib\n")
        let missing = try runProcess(Paths.executable, ["scan", "--paths-from", "gone.txt"], currentDirectory: repository.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such files: Shared/Gone.swift, Also/Gone.xib"), "\(missing.stderr)")
        let noList = try runProcess(Paths.executable, ["scan", "--paths-from", "nolist.txt"], currentDirectory: repository.path)
        #expect(noList.status == 2 && noList.stderr.contains("nolist.txt: no such file"))
        let folder = try runProcess(Paths.executable, ["scan", "Shared", "Models/Order.swift"], currentDirectory: repository.path)
        #expect(folder.status == 2 && folder.stderr.contains("Shared is a folder"))
        try repository.write("snapshot.zip", "not really")
        let archive = try runProcess(Paths.executable, ["scan", "snapshot.zip", "Models/Order.swift"], currentDirectory: repository.path)
        #expect(archive.status == 2 && archive.stderr.contains("snapshot.zip is an archive"))
        let baseline = try runProcess(Paths.executable, ["scan", "Models/Order.swift", "--write-baseline", "b.json"], currentDirectory: repository.path)
        #expect(baseline.status == 2 && baseline.stderr.contains("--write-baseline records a whole repository"))
    }

    @Test func anArchiveIsStillScannedWholeWhateverItsName() throws {
        let repository = try Self.sampleRepository()
        let archive = repository.path + "/../" + UUID().uuidString + ".tar.gz"
        defer { unlink(archive) }
        #expect(try runProcess("/usr/bin/env", ["tar", "czf", archive, "-C", SampleAppTests.root, "."]).status == 0)
        let named = try runProcess(Paths.executable, ["scan", archive, "--format", "json", "--fail-on", "none"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try decode(named.stdout).findings.count > 20)
        // Without its extension, the gzip header says what it is.
        let bare = repository.path + "/snapshot"
        try FileManager.default.copyItem(atPath: archive, toPath: bare)
        let sniffed = try runProcess(Paths.executable, ["scan", bare, "--format", "json", "--fail-on", "none"])
        #expect(sniffed.status == 0, "\(sniffed.stderr)")
        #expect(try decode(sniffed.stdout).rootIsArchive)
    }

    @Test func aBaselineCountsStaleEntriesOnlyAmongTheFilesGiven() throws {
        let repository = try Self.sampleRepository()
        let baseline = repository.path + "/baseline.json"
        #expect(try runProcess(Paths.executable, ["scan", repository.path, "--write-baseline", baseline, "--fail-on", "none"]).status == 0)
        let one = try runProcess(Paths.executable, ["scan", "Shared/OrderRow.swift", "--baseline", baseline, "--format", "json"],
                                 currentDirectory: repository.path)
        let report = try decode(one.stdout)
        #expect(report.findings.isEmpty && report.baseline?.matched == 3 && report.baseline?.stale == 0, "\(one.stdout)")
    }

    @Test func theRepositoryIsTheNearestGitElseProjectElseTheFilesFolder() throws {
        let top = try TemporaryRepository()
        try top.write("Lib/Package.swift", "// swift-tools-version:5.9\n")
        try top.write("Lib/Sources/Lib/View.swift", ScannerTests.uiFile)
        try top.write("App/App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{}\n")
        try top.write("App/Screens/Title.swift", ScannerTests.uiFile)
        try top.write("Loose/A/One.swift", ScannerTests.uiFile)
        try top.write("Loose/B/Two.swift", ScannerTests.uiFile)
        let root = top.root.standardizedFileURL.path
        // No .git: the nearest package or project; files beside no project share their folder.
        #expect(try FileSelection.resolve(["Lib/Sources/Lib/View.swift"], currentDirectory: root).root == root + "/Lib")
        #expect(try FileSelection.resolve([root + "/App/Screens/Title.swift"], currentDirectory: "/").root == root + "/App")
        let loose = try FileSelection.resolve(["Loose/A/One.swift", "Loose/B/Two.swift"], currentDirectory: root)
        #expect(loose.root == root + "/Loose" && loose.files == ["A/One.swift", "B/Two.swift"])
        // Files of two projects side by side are two scans.
        #expect(throws: ScanError.self) { try FileSelection.resolve(["Lib/Sources/Lib/View.swift", "App/Screens/Title.swift"], currentDirectory: root) }
        // A .git above wins over the projects below it, and takes both.
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        let both = try FileSelection.resolve(["Lib/Sources/Lib/View.swift", "App/Screens/Title.swift"], currentDirectory: root)
        #expect(both.root == root && both.files == ["App/Screens/Title.swift", "Lib/Sources/Lib/View.swift"])
        // A submodule's file with its superproject's: the superproject, which holds both.
        try top.write("Lib/.git", "gitdir: ../.git/modules/Lib\n")
        #expect(try FileSelection.resolve(["Lib/Sources/Lib/View.swift", "App/Screens/Title.swift"], currentDirectory: root).root == root)
        #expect(try FileSelection.resolve(["Lib/Sources/Lib/View.swift"], currentDirectory: root).root == root + "/Lib")
        #expect(FileSelection.isReportable("A.xcassets/Brand.colorset/Contents.json") && !FileSelection.isReportable("A.xcassets/Contents.json"))
    }
}
