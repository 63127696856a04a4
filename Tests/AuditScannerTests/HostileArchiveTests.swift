import AuditModel
import AuditScanner
import Foundation
import Testing

/// Builds a real archive with Python's tarfile/zipfile, which (unlike tar(1)) writes whatever
/// names and links it is told to. The script gets the output path as `out`.
private func makeArchive(_ script: String, in directory: TemporaryRepository, name: String = "hostile.tar.gz") throws -> String {
    let out = directory.root.appendingPathComponent(name).path
    let program = "import io, sys, tarfile, zipfile\nout = sys.argv[1]\n" + script
    let result = try runProcess("/usr/bin/env", ["python3", "-c", program, out])
    guard result.status == 0 else { throw ArchiveBuildError(message: result.stderr) }
    return out
}

private struct ArchiveBuildError: Error { let message: String }

/// Python helper shared by the scripts: add a file entry with the given bytes.
private let addFile = """
def add(t, name, data, **kw):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    for k, v in kw.items(): setattr(info, k, v)
    t.addfile(info, io.BytesIO(data))
def link(t, name, target, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    t.addfile(info)
view = b"import SwiftUI\\nstruct V: View { var body: some View { Text(\\"x\\") } }\\n"

"""

private func rejection(_ body: () throws -> ScanInput) -> ArchiveRejection? {
    do { _ = try body() } catch ScanError.unsafeArchive(_, let reason) { return reason } catch { return nil }
    return nil
}

@Suite struct HostileArchiveTests {
    @Test func refusesPathTraversal() throws {
        let work = try TemporaryRepository()
        let marker = "escaped-\(UUID().uuidString).swift"
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/../../\(marker)", view)
        """, in: work)
        let reason = rejection { try ScanInput.archive(archive, maxFileBytes: 2_000_000) }
        #expect(reason == .pathTraversal(entry: "repo/../../\(marker)"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        do {
            _ = try ScanInput.archive(bytes: bytes, name: "https://example.com/o/r.tar.gz")
            Issue.record("a traversal archive was accepted")
        } catch let error as ScanError {
            #expect(error.description == "https://example.com/o/r.tar.gz: archive refused, entry \"repo/../../\(marker)\" has a \"..\" component (path traversal)")
        }
        // Nothing is ever extracted: the names it aimed at do not exist.
        for directory in [work.root.deletingLastPathComponent(), work.root.deletingLastPathComponent().deletingLastPathComponent(),
                          URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(marker).path))
        }
    }

    @Test func refusesAbsolutePaths() throws {
        let work = try TemporaryRepository()
        let target = "/tmp/absolute-\(UUID().uuidString).swift"
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "\(target)", view)
        """, in: work)
        #expect(rejection { try ScanInput.archive(archive, maxFileBytes: 2_000_000) } == .absolutePath(entry: target))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func refusesSymbolicLinksOutOfTheTree() throws {
        let work = try TemporaryRepository()
        let relative = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            link(t, "repo/Sources/Secrets.swift", "../../../etc/passwd", tarfile.SYMTYPE)
        """, in: work, name: "relative.tar.gz")
        #expect(rejection { try ScanInput.archive(relative, maxFileBytes: 2_000_000) }
            == .linkOutOfTree(entry: "repo/Sources/Secrets.swift", target: "../../../etc/passwd"))
        let absolute = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            link(t, "repo/passwd.strings", "/etc/passwd", tarfile.SYMTYPE)
        """, in: work, name: "absolute.tar.gz")
        #expect(rejection { try ScanInput.archive(absolute, maxFileBytes: 2_000_000) }
            == .linkOutOfTree(entry: "repo/passwd.strings", target: "/etc/passwd"))
    }

    @Test func refusesHardLinksOutOfTheTree() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            link(t, "repo/App.swift", "../outside/App.swift", tarfile.LNKTYPE)
        """, in: work)
        #expect(rejection { try ScanInput.archive(archive, maxFileBytes: 2_000_000) }
            == .linkOutOfTree(entry: "repo/App.swift", target: "../outside/App.swift"))
    }

    @Test func skipsLinksInsideTheTreeAndKeepsHardLinkedFiles() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/Sources/App.swift", view)
            link(t, "repo/Sources/Alias.swift", "App.swift", tarfile.SYMTYPE)
            link(t, "repo/Sources/Up.swift", "../Sources/App.swift", tarfile.SYMTYPE)
            link(t, "repo/Sources/Copy.swift", "repo/Sources/App.swift", tarfile.LNKTYPE)
        """, in: work)
        let input = try ScanInput.archive(archive, maxFileBytes: 2_000_000)
        #expect(input.files.map(\.path) == ["Sources/App.swift", "Sources/Copy.swift"])
        let contents = try input.files.map { try $0.bytes() }
        #expect(contents.count == 2 && contents[0] == contents[1] && contents[0].starts(with: Array("import SwiftUI".utf8)))
        #expect(Set(input.notes.map(\.file)) == ["Sources/Alias.swift", "Sources/Up.swift"])
        #expect(input.notes.allSatisfy { $0.kind == .skipped && $0.message.contains("not followed") })
    }

    @Test func refusesTooManyEntries() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            for i in range(50): add(t, "repo/f%d.txt" % i, b"x")
        """, in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        #expect(rejection { try ScanInput.archive(bytes: bytes, name: "a", limits: ArchiveLimits(maxEntries: 20)) } == .tooManyEntries(limit: 20))
        #expect(try ScanInput.archive(bytes: bytes, name: "a", limits: ArchiveLimits(maxEntries: 51)).notes.isEmpty)
    }

    @Test func refusesMoreUncompressedBytesThanTheCap() throws {
        let work = try TemporaryRepository()
        // Irrelevant files count too: skipping a file still means decompressing it.
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            for i in range(4): add(t, "repo/asset%d.bin" % i, bytes(700_000))
        """, in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let limits = ArchiveLimits(maxTotalBytes: 2_000_000)
        #expect(rejection { try ScanInput.archive(bytes: bytes, name: "a", limits: limits) } == .tooLarge(limit: 2_000_000))
        #expect(rejection { try ScanInput.archive(archive, maxFileBytes: 2_000_000, limits: limits) } == .tooLarge(limit: 2_000_000))
    }

    @Test func refusesABombByItsCompressionRatio() throws {
        let work = try TemporaryRepository()
        // 40 MB of zeros gzip to about 40 KB: a ratio near 1000.
        let tarBomb = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/zeros.bin", bytes(40_000_000))
        """, in: work)
        let zipBomb = try makeArchive("""
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("repo/zeros.bin", bytes(40_000_000))
        """, in: work, name: "bomb.zip")
        let limits = ArchiveLimits(maxCompressionRatio: 100, ratioFloorBytes: 1 << 20)
        for archive in [tarBomb, zipBomb] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
            #expect(rejection { try ScanInput.archive(bytes: bytes, name: archive, limits: limits) } == .compressionRatio(limit: 100),
                    "\(archive)")
        }
        // The same archive under default caps is a large but legal snapshot.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: tarBomb)))
        #expect(try ScanInput.archive(bytes: bytes, name: "a").files.map(\.path) == ["App.swift"])
    }

    @Test func namesTheArchiveAndEntryOfTruncatedOrCorruptGzip() throws {
        let work = try TemporaryRepository()
        // Random text does not compress away, so the cut lands inside the second file.
        let archive = try makeArchive(addFile + """
        import random
        random.seed(7)
        text = lambda n: "".join(random.choice("abcdefghij klmnop\\n") for _ in range(n)).encode()
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/First.swift", text(20_000))
            add(t, "repo/Second.swift", text(400_000))
            add(t, "repo/Third.swift", text(20_000))
        """, in: work)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        #expect(try ScanInput.archive(bytes: whole, name: "ok").files.count == 3)

        let truncated = Array(whole.prefix(whole.count / 2))
        do {
            _ = try ScanInput.archive(bytes: truncated, name: "repo.tar.gz")
            Issue.record("a truncated archive was accepted")
        } catch ScanError.corruptArchive(let path, let entry, _) {
            #expect(path == "repo.tar.gz" && entry == "repo/Second.swift")
        }
        var corrupt = whole
        for index in stride(from: whole.count / 3, to: whole.count / 3 + 64, by: 1) { corrupt[index] ^= 0x5A }
        do {
            _ = try ScanInput.archive(bytes: corrupt, name: "repo.tar.gz")
            Issue.record("a corrupt archive was accepted")
        } catch let error as ScanError {
            guard case .corruptArchive(_, let entry?, _) = error else {
                Issue.record("expected corruptArchive naming an entry, got \(error)")
                return
            }
            #expect(entry.hasPrefix("repo/") || entry.hasPrefix("after repo/"))
            #expect(error.description.hasPrefix("repo.tar.gz: archive is truncated or corrupt at entry "))
        }
    }

    @Test func skipsAHugeSwiftFileAndNonUTF8SourceWithReasons() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/Huge.swift", b"import SwiftUI\\n" + b"// padding padding padding\\n" * 400_000)
            add(t, "repo/Latin1.swift", "import SwiftUI\\nlet s = \\"caf\\xe9\\"\\n".encode("latin-1"))
            add(t, "repo/.github/CODEOWNERS", b"* @org/ios\\n")
        """, in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let input = try ScanInput.archive(bytes: bytes, name: "repo.tar.gz")
        // The huge file is streamed past, not held: only its size is kept.
        #expect(input.files.map(\.path) == [".github/CODEOWNERS", "App.swift", "Latin1.swift"])
        #expect(input.oversized == [OversizedFile(path: "Huge.swift", size: 10_800_015, limit: 2_000_000)])
        let report = try Scanner().scan(input, root: "repo.tar.gz")
        let skipped = Dictionary(report.notes.filter { $0.kind == .skipped }.map { ($0.file, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(skipped["Huge.swift"] == "file is 10800015 bytes, over the 2000000-byte limit (maxFileBytes)")
        #expect(skipped["Latin1.swift"] == "not valid UTF-8; Swift source must be UTF-8")
        #expect(report.statistics.filesChecked == 1)

        // A smaller archive-level ceiling wins over the configured limit.
        let small = try ScanInput.archive(bytes: bytes, name: "repo.tar.gz", limits: ArchiveLimits(maxFileBytes: 1_000_000))
        #expect(!small.files.map(\.path).contains("Huge.swift"))
        #expect(small.oversized == [OversizedFile(path: "Huge.swift", size: 10_800_015, limit: 1_000_000)])
    }

    @Test func entriesOverTheFileLimitAreNeverHeldInMemory() throws {
        let work = try TemporaryRepository()
        // Sixteen Swift files of 5 MB: each over the default maxFileBytes (2 MB) but under the
        // 64 MB entry cap, 80 MB together, compressing about 5 times (far from a "bomb").
        let big = try makeArchive(addFile + """
        import os
        block = os.urandom(8192).hex().encode()
        body = b"import SwiftUI\\n" + block * (5_000_000 // len(block))
        with tarfile.open(out, "w:gz", compresslevel=1) as t:
            add(t, "repo/App.swift", view)
            for i in range(16): add(t, "repo/Generated/Big%d.swift" % i, body)
        """, in: work, name: "big.tar.gz")
        let small = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
        """, in: work, name: "small.tar.gz")
        let baseline = try runMeasuringPeakMemory(Paths.executable, ["scan", small, "--fail-on", "none"])
        let measured = try runMeasuringPeakMemory(Paths.executable, ["scan", big, "--fail-on", "none"])
        #expect(baseline.status == 0 && measured.status == 0)
        // Holding the entries costs 80 MB more; streaming past them costs libarchive's buffers.
        let extra = measured.peakKilobytes - baseline.peakKilobytes
        #expect(extra < 20_000, "peak memory \(measured.peakKilobytes) KB against \(baseline.peakKilobytes) KB for one small file")
    }

    @Test func entriesOverTheFileLimitAreReportedWithTheirSizeAndNotKept() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        big = b"import SwiftUI\\n" + b"// padding\\n" * 272_726
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/Big.swift", big)
            add(t, "repo/Big.storyboard", big)
            add(t, "repo/Pods/Kit/Vendored.swift", big)
        """, in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let input = try ScanInput.archive(bytes: bytes, name: "repo.tar.gz")
        #expect(input.files.map(\.path) == ["App.swift"])
        let report = try Scanner().scan(input, root: "repo.tar.gz")
        let skipped = Dictionary(report.notes.filter { $0.kind == .skipped }.map { ($0.file, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(skipped == ["Big.swift": "file is 3000001 bytes, over the 2000000-byte limit (maxFileBytes)",
                            "Big.storyboard": "file is 3000001 bytes, over the 2000000-byte limit (maxFileBytes)"])
        // Vendored code is counted as vendored, as in a checkout, not listed as too large.
        #expect(report.statistics.swiftFiles == 3 && report.statistics.skippedVendored == 1)
        #expect(report.statistics.skippedUnreadable == 2 && report.statistics.filesChecked == 1)
    }

    @Test func aConfigRaisingTheLimitAppliesWhereverItSitsInTheArchive() throws {
        let work = try TemporaryRepository()
        // The config comes after the entry it lets in: the reader reads the archive again.
        let archive = try makeArchive(addFile + """
        big = b"import SwiftUI\\nstruct V: View { var body: some View { Text(\\"x\\") } }\\n" + b"// padding\\n" * 272_726
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/Big.swift", big)
            add(t, "repo/Bigger.swift", big + big)
            add(t, "repo/.a11y-audit.json", b'{"maxFileBytes": 4000000}')
        """, in: work)
        let input = try ScanInput.archive(archive, maxFileBytes: ScanInput.archiveEntryCap)
        #expect(input.files.map(\.path) == [".a11y-audit.json", "App.swift", "Big.swift"])
        let report = try Scanner().scan(input, root: archive)
        #expect(report.statistics.filesChecked == 2)
        #expect(report.notes.contains { $0.file == "Bigger.swift" && $0.message == "file is 6000108 bytes, over the 4000000-byte limit (maxFileBytes)" })
    }

    @Test func notesAndRefusalsQuoteAtMostEightyCharactersOfAnEntryName() throws {
        let work = try TemporaryRepository()
        let longTarget = "Sources/" + String(repeating: "t", count: 20_000) + ".swift"
        let links = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as t:
            add(t, "repo/App.swift", view)
            link(t, "repo/Alias.swift", "\(longTarget)", tarfile.SYMTYPE)
        """, in: work, name: "links.tar.gz")
        let input = try ScanInput.archive(links, maxFileBytes: 2_000_000)
        let note = try #require(input.notes.first { $0.file == "Alias.swift" })
        #expect(note.message.count < 200 && note.message.contains(String(longTarget.prefix(80)) + "…"), "\(note.message.prefix(200))")

        let longName = "repo/" + String(repeating: "n", count: 20_000) + "/../../escape.swift"
        let traversal = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as t:
            add(t, "\(longName)", view)
        """, in: work, name: "traversal.tar.gz")
        do {
            _ = try ScanInput.archive(traversal, maxFileBytes: 2_000_000)
            Issue.record("a traversal archive was accepted")
        } catch let error as ScanError {
            #expect(error.description.count < traversal.count + 200, "\(error.description.prefix(300))")
            #expect(error.description.contains(String(longName.prefix(80)) + "…"))
        }
    }

    @Test func refusesMoreBytesToCheckThanTheJobCap() throws {
        let work = try TemporaryRepository()
        // Three files to check of 50 KB each; 200 KB of other files are read and not held.
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            for i in range(3): add(t, "repo/F%d.swift" % i, view + b"// x\\n" * 10_000)
            add(t, "repo/asset.bin", bytes(200_000))
        """, in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let capped = ArchiveLimits(maxKeptBytes: 100_000)
        #expect(rejection { try ScanInput.archive(bytes: bytes, name: "a", limits: capped) } == .tooMuchToCheck(limit: 100_000))
        do {
            _ = try ScanInput.archive(bytes: bytes, name: "repo.tar.gz", limits: capped)
        } catch let error as ScanError {
            #expect(error.description.hasPrefix("repo.tar.gz: archive refused, the files to check hold more than 100000 bytes"))
        }
        #expect(try ScanInput.archive(bytes: bytes, name: "a", limits: ArchiveLimits(maxKeptBytes: 160_000)).files.count == 3)
    }

    @Test func projectFilesOverTheirLimitsAreStreamedPastAndNoted() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/App.xcodeproj/project.pbxproj", b"SDKROOT = macosx;\\n" * 1000)
            add(t, "repo/en.lproj/Localizable.strings", b'"a" = "b";\\n' * 1000)
            add(t, "repo/CODEOWNERS", b"* @org/ios\\n" * 1000)
        """, in: work)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let limits = ArchiveLimits(projectFiles: ProjectFileLimits(xcodeProject: 1000, strings: 1000, other: 1000))
        let input = try ScanInput.archive(bytes: bytes, name: "repo.tar.gz", limits: limits)
        #expect(input.files.map(\.path) == ["App.swift"])
        #expect(input.oversized.map(\.path) == ["App.xcodeproj/project.pbxproj", "CODEOWNERS", "en.lproj/Localizable.strings"])
        let report = try Scanner().scan(input, root: "repo.tar.gz")
        let notes = Dictionary(report.notes.filter { $0.kind == .skipped }.map { ($0.file, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(notes == [
            "App.xcodeproj/project.pbxproj": "file is 18000 bytes, over the 1000-byte limit for Xcode project files; its platforms and colour build settings were not read",
            "en.lproj/Localizable.strings": "file is 11000 bytes, over the 1000-byte limit for .strings files; its localisation keys were not read",
            "CODEOWNERS": "file is 11000 bytes, over the 1000-byte limit for CODEOWNERS files; findings are not attributed to owners by it",
        ])
        #expect(report.statistics.filesChecked == 1)

        // A configuration too large to read stops the scan rather than being ignored.
        let config = try makeArchive(addFile + """
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/.a11y-audit.json", b"{" + b" " * 2_000 + b"}")
        """, in: work, name: "config.tar.gz")
        do {
            _ = try ScanInput.archive(config, maxFileBytes: 2_000_000, limits: limits)
            Issue.record("an archive with an oversized configuration was scanned")
        } catch let error as ScanError {
            #expect(error.description == "\(config): .a11y-audit.json: cannot be read (it is 2002 bytes, over the 1000-byte limit for configuration files; nothing was scanned)")
        }
    }

    @Test func theCommandLineAppliesItsConfigFileLimitWhileReadingAnArchive() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive(addFile + """
        big = view + b"// padding\\n" * 272_726
        with tarfile.open(out, "w:gz") as t:
            add(t, "repo/App.swift", view)
            add(t, "repo/Big.swift", big)
        """, in: work)
        let config = try work.write("config.json", #"{"maxFileBytes": 4000000}"#).path
        let output = work.root.appendingPathComponent("report.json").path
        let result = try runProcess(Paths.executable, ["scan", archive, "--config", config, "--format", "json", "--output", output, "--fail-on", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let statistics = report?["statistics"] as? [String: Any]
        #expect(statistics?["filesChecked"] as? Int == 2)
    }

    @Test func refusesTraversalInZipArchives() throws {
        let work = try TemporaryRepository()
        let archive = try makeArchive("""
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("repo/App.swift", "import SwiftUI\\n")
            z.writestr("../../evil.swift", "import SwiftUI\\n")
        """, in: work, name: "evil.zip")
        #expect(rejection { try ScanInput.archive(archive, maxFileBytes: 2_000_000) } == .pathTraversal(entry: "../../evil.swift"))
    }
}
