@testable import AuditPipeline
import AuditModel
import AuditScanner
import Foundation
import Testing

/// What a scan child sends the worker (its request line, its outcome, the report in it) comes
/// back field for field, and bytes it did not write are refused, never half read.
@Suite struct ChildWireTests {
    static let sampleApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/SampleApp").path

    static func json(_ report: ScanReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    @Test func aRealReportCrossesTheWireUnchanged() throws {
        let report = try Scanner(options: ScanOptions(jobs: 2)).scan(try ScanInput.directory(Self.sampleApp, maxFileBytes: 1 << 20),
                                                                       root: "Sample\tApp\nwith breaks")
        #expect(report.findings.count > 10 && !report.notes.isEmpty, "the sample app has findings and notes to carry")
        // Its Xcode project's targets build for iOS, macOS and visionOS: the app's platforms.
        #expect(report.statistics.platforms == PlatformSet([.iOS, .macOS, .visionOS]))
        let decoded = try #require(ScanReportWire.decode(ScanReportWire.encode(report)[...]))
        #expect(try Self.json(decoded) == Self.json(report))
    }

    /// A statistic added to `ScanStatistics` and not to the wire would arrive as zero.
    @Test func everyStatisticHasItsPlaceOnTheWire() throws {
        let report = try Scanner(options: ScanOptions(jobs: 1)).scan(try ScanInput.directory(Self.sampleApp, maxFileBytes: 1 << 20), root: "app")
        let keys = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report.statistics)) as? [String: Any]).keys
        #expect(Set(keys) == Set(ScanReportWire.statisticNames))
        #expect(ScanReportWire.statisticNames.count == Set(ScanReportWire.statisticNames).count)
    }

    @Test func anOutcomeWithSideFilesDigestsAndKeysComesBackWhole() throws {
        let report = try Scanner(options: ScanOptions(jobs: 1)).scan(try ScanInput.directory(Self.sampleApp, maxFileBytes: 1 << 20), root: "app")
        let side = Data([0, 10, 9, 255, 92] + Array(".a11y-audit.json".utf8))
        var outcome = ChildOutcome()
        outcome.childPID = 4242
        outcome.usedCacheKeys = ["ab12", "cd34"]
        outcome.result = SnapshotResult(report: report, sideFiles: [".a11y-audit.json": side, "CODEOWNERS": Data()],
                                        digests: ["Sources/A\tB.swift": "00ff"])
        let decoded = try #require(ChildOutcome.decode(outcome.encode()[...]))
        #expect(decoded.childPID == 4242 && decoded.usedCacheKeys == ["ab12", "cd34"] && decoded.failure == nil)
        let result = try #require(decoded.result)
        #expect(result.sideFiles == [".a11y-audit.json": side, "CODEOWNERS": Data()])
        #expect(result.digests == ["Sources/A\tB.swift": "00ff"])
        #expect(try Self.json(result.report) == Self.json(report))

        var failed = ChildOutcome()
        failed.failure = .init(message: "not a readable archive:\n\tline 2", retryable: false)
        let refused = try #require(ChildOutcome.decode(failed.encode()[...]))
        #expect(refused.failure?.message == "not a readable archive:\n\tline 2" && refused.failure?.retryable == false)
        #expect(refused.result == nil && refused.childPID == nil)
        var noDigests = outcome
        noDigests.result?.digests = nil
        #expect(ChildOutcome.decode(noDigests.encode()[...])?.result?.digests == nil)
    }

    /// Every cut of an answer, and answers of another format, are refused.
    @Test func aDamagedOutcomeIsRefused() throws {
        let report = try Scanner(options: ScanOptions(jobs: 1)).scan(try ScanInput.directory(Self.sampleApp, maxFileBytes: 1 << 20), root: "app")
        var outcome = ChildOutcome()
        outcome.childPID = 7
        outcome.result = SnapshotResult(report: report, sideFiles: [:], digests: nil)
        let bytes = outcome.encode()
        var accepted = 0
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) where ChildOutcome.decode(bytes[..<cut]) != nil {
            accepted += 1
        }
        // A cut at a line break inside the findings leaves a shorter, well-formed report; a cut
        // anywhere else is refused. What the worker relies on is the announced length.
        #expect(accepted < 40, "most cuts are refused: \(accepted)")
        #expect(ChildOutcome.decode(Array("{\"result\": null}".utf8)[...]) == nil)
        #expect(ChildOutcome.decode(Array("a11y-audit outcome 1\nQ\tx\n".utf8)[...]) == nil)
        #expect(ChildOutcome.decode(Array("a11y-audit outcome 1\nW\n".utf8)[...]) == nil, "a report announced and missing")
    }

    @Test func aRequestLineComesBackFieldForField() throws {
        let request = ChildRequest(id: "job 7\tretry", archive: "/work/a b/\u{00E9}.tar.gz", root: "acme/app\n", jobs: 3, usesCache: true,
                                   cacheIn: nil, digests: true, errorOutput: "=/odd/-")
        let line = request.line
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
        let decoded = try #require(ChildRequest(line: String(line.dropLast())))
        #expect(decoded.id == request.id && decoded.archive == request.archive && decoded.root == request.root)
        #expect(decoded.jobs == 3 && decoded.usesCache && decoded.cacheIn == nil && decoded.digests && decoded.errorOutput == "=/odd/-")
        #expect(ChildRequest(line: "{\"id\": \"x\"}") == nil)
        #expect(ChildRequest(line: "request\tx\ta\tr\t0\t1\t-\t0\t-") == nil, "no jobs")
        #expect(ChildRequest(line: "request\tx\ta\tr\t2\t1\tpath\t0\t-") == nil, "an optional field without its marker")
    }
}
