@testable import AuditScanner
import AuditModel
import Foundation
import SwiftChecks
import Testing

/// The byte scans of Info.plist and project.pbxproj: the same settings as the substring
/// searches they replace, in one pass.
struct ProjectFileScanTests {
    static let sampleApp = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/SampleApp")

    static let project = """
        // !$*UTF8*$!
        {
            objects = {
                1 /* Debug */ = { buildSettings = {
                    ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = AccentColor;
                    ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME = "Widget Background";
                    SDKROOT = macosx;
                }; };
                2 /* Release */ = { buildSettings = {
                    ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = "Brand/Accent";
                    ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = Unterminated
                    SUPPORTED_PLATFORMS = "watchos watchsimulator";
                }; };
            };
        }
        """

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
            <key>NSAccentColorName</key>
            <string>Accent</string>
            <key>UILaunchScreen</key><dict><key>UIColorName</key>   <string>Launch Background</string></dict>
            <key>UIColorName</key><integer>3</integer>
            <key>NSAccentColorName</key><string>NoEnd
        </dict></plist>
        """

    @Test func findsTheSameSettingsAsBefore() throws {
        let fixturePlist = try String(contentsOf: Self.sampleApp.appendingPathComponent("Resources/Info.plist"), encoding: .utf8)
        let fixtureProject = try String(contentsOf: Self.sampleApp.appendingPathComponent("SampleApp.xcodeproj/project.pbxproj"), encoding: .utf8)
        #expect(ProjectIndex.colorNames(inInfoPlist: fixturePlist) == ["LaunchBackground"])
        #expect(ProjectIndex.colorBuildSettings(fixtureProject).isEmpty)
        #expect(ProjectFiles.platforms(fromXcodeProject: fixtureProject) == PlatformSet([.iOS, .macOS, .visionOS]))

        #expect(ProjectIndex.colorNames(inInfoPlist: Self.plist) == ["Accent", "Launch Background"])
        #expect(ProjectIndex.colorBuildSettings(Self.project) == ["AccentColor", "Widget Background", "Brand/Accent", "Unterminated"])
        #expect(ProjectFiles.platforms(fromXcodeProject: Self.project) == PlatformSet([.macOS, .watchOS]))
    }

    /// Bytes that count how often they are read: work done, not time taken.
    final class ReadCounter { var reads = 0 }
    struct CountingBytes: RandomAccessCollection {
        let base: [UInt8]
        let counter: ReadCounter
        var startIndex: Int { base.startIndex }
        var endIndex: Int { base.endIndex }
        subscript(position: Int) -> UInt8 {
            counter.reads += 1
            return base[position]
        }
    }

    /// `unit` repeated to about `size` bytes.
    static func repeated(_ unit: String, size: Int) -> [UInt8] {
        Array(String(repeating: unit, count: size / unit.utf8.count).utf8)
    }

    @Test func scansAProjectAndAPlistOfTheShapesThatWereQuadraticInLinearWork() {
        // 1 MB is enough to tell: the substring searches did about size² / 50 reads here (a
        // 4 MB project took 24 s), the byte scans a small multiple of the size.
        let size = 1 << 20
        // A key over and over with no `;` or newline: each value ran to the end of the file.
        // A near-miss of the key: a naive matcher backs up at every position.
        let projects = [Self.repeated("ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = ", size: size),
                        Self.repeated("ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAM", size: size),
                        Self.repeated("SDKROOT = iphoneos ", size: size)]
        for bytes in projects {
            let counter = ReadCounter()
            let view = CountingBytes(base: bytes, counter: counter)
            _ = ProjectIndex.colorBuildSettings(view)
            _ = ProjectFiles.platforms(fromXcodeProject: view)
            #expect(counter.reads <= 5 * bytes.count, "\(counter.reads) reads of \(bytes.count) bytes")
        }
        // Keys whose `<string>` never closes: each searched the rest of the file for `</string>`.
        let plists = [Self.repeated("<key>UIColorName</key><string>", size: size),
                      Self.repeated("<key>NSAccentColorName</key> \n", size: size)]
        for bytes in plists {
            let counter = ReadCounter()
            _ = ProjectIndex.colorNames(inInfoPlist: CountingBytes(base: bytes, counter: counter))
            #expect(counter.reads <= 3 * bytes.count, "\(counter.reads) reads of \(bytes.count) bytes")
        }
    }
}
