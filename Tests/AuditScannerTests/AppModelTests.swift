import AuditModel
@testable import AuditScanner
@testable import SwiftChecks
import Foundation
import Testing

/// What the scan knows about the app beyond one file: code that never ships and members that
/// nothing reads produce no finding, and the summary says how many were left out.
struct AppModelTests {
    static let files: [String: String] = [
        "App/Typography.swift": """
            import SwiftUI
            enum Typography {
                static let title = Font.system(size: 20)
                static let neverUsed = Font.system(size: 9)
            }
            """,
        "App/Title.swift": """
            import SwiftUI
            struct Title: View {
                var body: some View { Text("Hi").font(Typography.title) }
            }
            """,
        "App/Debug.swift": """
            import SwiftUI
            #if DEBUG
            let debugFont = Font.system(size: 12)
            #endif
            #if !DEBUG
            let releaseFont = Font.system(size: 12)
            #endif
            #if !RELEASE
            let stagingFont = Font.system(size: 12)
            #endif
            #Preview { Text("Preview").font(.system(size: 30)) }
            """,
        "AppTests/TitleTests.swift": "import SwiftUI\nlet testFont = Font.system(size: 10)\n",
        "App/Snapshot.swift": "import SwiftUI\nimport XCTest\nlet snapshotFont = Font.system(size: 10)\n",
    ]

    func scan(_ config: AuditConfig?) throws -> ScanReport {
        let repository = try TemporaryRepository()
        for (path, text) in Self.files { try repository.write(path, text) }
        var options = ScanOptions()
        options.config = config
        return try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000),
                                                  root: repository.path)
    }

    @Test func nonShippingCodeAndUnreadMembersAreLeftOutAndCounted() throws {
        let report = try scan(AuditConfig())
        let flagged = Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map { "\($0.location.file):\($0.location.line)" })
        #expect(flagged == ["App/Typography.swift:3", "App/Debug.swift:6"])
        #expect(report.statistics.skippedTests == 2)
        #expect(report.statistics.findingsNotShipped == 3, "#if DEBUG, #if !RELEASE and a preview")
        #expect(report.statistics.findingsUnused >= 1)
        let summaries = report.notes.filter { $0.kind == .summary }.map(\.message)
        #expect(summaries.contains { $0.hasPrefix("2 test files skipped") })
        #expect(summaries.contains { $0.hasPrefix("3 findings left out in #if DEBUG code, previews") })
    }

    @Test func includeNonShippingScansThemAll() throws {
        var config = AuditConfig()
        config.includeNonShipping = true
        let report = try scan(config)
        let files = Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file))
        #expect(files == ["App/Typography.swift", "App/Debug.swift", "AppTests/TitleTests.swift", "App/Snapshot.swift"])
        #expect(report.statistics.skippedTests == 0)
    }

    @Test func includeNonShippingMustBeABoolean() {
        #expect(throws: AuditConfigError.self) {
            try AuditConfig(data: Data(#"{"includeNonShipping": 1}"#.utf8), file: ".a11y-audit.json", knownRules: [])
        }
    }

    @Test func testPaths() {
        #expect(Scanner.isTestPath("AppTests/A.swift"))
        #expect(Scanner.isTestPath("Sources/App/AppUITests/B.swift"))
        #expect(Scanner.isTestPath("Modules/Feed/FeedViewTests.swift"))
        #expect(!Scanner.isTestPath("App/SpeedTest.swift"), "a screen may be named like a test")
        #expect(!Scanner.isTestPath("App/Latest/List.swift"))
    }

    @Test func debugScreenAndExamplePaths() {
        #expect(Scanner.isDebugScreenPath("DuckDuckGo/HistoryDebugViewController.swift"))
        #expect(Scanner.isDebugScreenPath("App/Settings/DebugMenuView.swift"))
        #expect(Scanner.isDebugScreenPath("App/Debug.storyboard"))
        #expect(Scanner.isDebugScreenPath("App/Debug/Flags.swift"))
        #expect(Scanner.isDebugScreenPath("App/debug/Flags.swift"))
        #expect(!Scanner.isDebugScreenPath("App/Debug.swift"), "a file named Debug may hold release code")
        #expect(!Scanner.isDebugScreenPath("App/DebugLogger.swift"))
        #expect(!Scanner.isDebugScreenPath("App/Debugger/ConsoleView.swift"), "Debugger is another word")
        #expect(Scanner.isDebugScreenPath("Emulator/DeltaSkinDebugOverlay.swift"))
        #expect(Scanner.isTestScreenPath("Settings/FileRecoveryTestView.swift"))
        #expect(Scanner.isTestScreenPath("App/GestureTestViewController.swift"))
        #expect(!Scanner.isTestScreenPath("App/ContestView.swift") && !Scanner.isTestScreenPath("App/LatestView.swift"))
        #expect(!Scanner.isTestScreenPath("App/TestHelpers.swift"), "not a screen")
        #expect(Scanner.isExamplePath("Local Pods/SwipeCellKit/Example/MailExample/Main.storyboard"))
        #expect(Scanner.isExamplePath("Charts/ChartsDemo-iOS/Swift/DemoViewController.swift"))
        #expect(Scanner.isExamplePath("Examples/Basic/ContentView.swift"))
        #expect(!Scanner.isExamplePath("App/Demographics/Chart.swift"))
        #expect(!Scanner.isExamplePath("App/DemoModeView.swift"), "a file name alone is not an example app")
        #expect(Scanner.isExamplePath("sampleapps/OnboardingSampleApp/ContentView.swift"))
        #expect(!Scanner.isExamplePath("App/SampleKit/Player.swift"))
    }

    /// Debug screens and a library's example app are not shipped UI: left out and counted,
    /// unless `includeNonShipping`.
    @Test func debugScreensAndExampleAppsAreLeftOutAndCounted() throws {
        let repository = try TemporaryRepository()
        let font = "import UIKit\nfinal class Screen: UIViewController {\n    let label = UILabel()\n    override func viewDidLoad() { label.font = .systemFont(ofSize: 12) }\n}\n"
        try repository.write("App/HistoryDebugViewController.swift", font)
        try repository.write("Pods/Local/Example/ExampleViewController.swift", font)
        try repository.write("Modules/Kit/Example/Sources/DemoScreen.swift", font)
        try repository.write("App/ProfileViewController.swift", font)
        let text = "import SwiftUI\nstruct {NAME}: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
        try repository.write("App/GestureTestView.swift", text.replacingOccurrences(of: "{NAME}", with: "GestureTestView"))
        try repository.write("App/ProfileView.swift", text.replacingOccurrences(of: "{NAME}", with: "ProfileView"))
        let scan = { (config: AuditConfig) in
            var options = ScanOptions()
            options.config = config
            return try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        }
        let report = try scan(AuditConfig())
        let fonts = report.findings.filter { $0.ruleID == "fixed-font-size" }
        #expect(Set(fonts.map(\.location.file)) == ["App/ProfileViewController.swift", "App/ProfileView.swift", "App/GestureTestView.swift"])
        #expect(fonts.filter { $0.location.file.hasSuffix("View.swift") }.map { "\($0.location.file) \($0.certainty)" }.sorted()
                == ["App/GestureTestView.swift review", "App/ProfileView.swift violation"])
        #expect(fonts.first { $0.location.file == "App/GestureTestView.swift" }?.message.hasSuffix(Scanner.testScreenNote) == true)
        #expect(report.statistics.skippedDebugScreens == 1)
        #expect(report.statistics.skippedExamples == 1, "Pods/ is vendored before it is an example")
        let summaries = report.notes.filter { $0.kind == .summary }.map(\.message)
        #expect(summaries.contains { $0.hasPrefix("1 Swift files of debug screens skipped") })
        #expect(summaries.contains { $0.hasPrefix("1 Swift files of example or demo apps skipped") })
        var everything = AuditConfig()
        everything.includeNonShipping = true
        let all = try scan(everything)
        #expect(all.findings.filter { $0.ruleID == "fixed-font-size" }.count == 5)
    }

    /// In an app, a view nothing constructs never shows: its findings are left out. Names in
    /// type position, a storyboard's `customClass` and `public` types (other repositories use
    /// them) keep theirs; without an entry point (a package, a folder of screens) every type counts.
    @Test func typesNothingInTheAppNamesAreLeftOut() throws {
        let files: [String: String] = [
            "App/Main.swift": "import SwiftUI\n@main struct Shop: App {\n    var body: some Scene { WindowGroup { Home() } }\n}\n",
            "App/Home.swift": """
                import SwiftUI
                struct Home: View {
                    let badge: Badge? = nil
                    var body: some View { Text("Home").font(.system(size: 11)) }
                }
                struct Badge: View {
                    var body: some View { Text("New").font(.system(size: 9)) }
                }
                struct Orphan: View {
                    var body: some View { Text("Never shown").font(.system(size: 10)) }
                }
                public struct Shared: View {
                    public var body: some View { Text("Library").font(.system(size: 12)) }
                }
                struct Promo: View {
                    var body: some View { Text("Sale").font(.system(size: 13)) }
                }
                """,
            // Imports no UI framework, yet names a view (module members are visible without it).
            "App/PromoRouting.swift": "import Foundation\nextension Home { var promoType: Any.Type { Promo.self } }\n",
            "App/BadgeLabel.swift": """
                import UIKit
                final class BadgeLabel: UILabel {
                    func style() { font = UIFont.systemFont(ofSize: 8) }
                }
                final class UnusedLabel: UILabel {
                    func style() { font = UIFont.systemFont(ofSize: 8) }
                }
                """,
            "App/Main.storyboard": """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <objects>
                        <view contentMode="scaleToFill" id="root-vw-001">
                            <rect key="frame" x="0.0" y="0.0" width="393" height="200"/>
                            <subviews>
                                <label opaque="NO" text="3" customClass="BadgeLabel" id="bdg-lb-001">
                                    <rect key="frame" x="16" y="16" width="20" height="20"/>
                                </label>
                            </subviews>
                        </view>
                    </objects>
                </document>
                """,
        ]
        func flagged(_ files: [String: String]) throws -> (Set<String>, ScanReport) {
            let repository = try TemporaryRepository()
            for (path, text) in files { try repository.write(path, text) }
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            let lines = report.findings.filter { $0.ruleID == "fixed-font-size" }.map { "\($0.location.file):\($0.location.line)" }
            return (Set(lines), report)
        }
        let (app, report) = try flagged(files)
        #expect(app == ["App/Home.swift:4", "App/Home.swift:7", "App/Home.swift:13", "App/Home.swift:16", "App/BadgeLabel.swift:3"])
        #expect(report.statistics.findingsUnused >= 2, "the orphan view and the unused label, by every rule that flags them")
        #expect(report.findings.allSatisfy { $0.requiredUse.isEmpty && $0.overriddenBy.isEmpty }, "settled before the report")
        var folder = files
        folder["App/Main.swift"] = nil
        let (screens, _) = try flagged(folder)
        #expect(screens.contains("App/Home.swift:10") && screens.contains("App/BadgeLabel.swift:6"))
    }

    /// A scene delegate only Info.plist names, which has no finding of its own, still makes what
    /// it constructs run: the screens it shows keep their findings (iTorrent's shape, where 42
    /// findings of the app's screens were left out as unused).
    @Test func typesReachedFromAClassOnlyInfoPlistNamesAreInUse() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/AppDelegate.swift", """
            import UIKit
            @main final class AppDelegate: UIResponder, UIApplicationDelegate {}
            """)
        try repository.write("App/SceneDelegate.swift", """
            import UIKit
            import Coordinators
            // Its base class is a package's: nothing says UIKit creates it, but Info.plist does.
            final class SceneDelegate: CoordinatedSceneDelegate {
                override func register() { router.register(LibraryController<LibraryModel>.self) }
            }
            """)
        try repository.write("App/LibraryController.swift", """
            import UIKit
            final class LibraryController<Model>: UIViewController {
                let titleLabel = UILabel()
                override func viewDidLoad() { titleLabel.font = .systemFont(ofSize: 15) }
            }
            final class LibraryModel {}
            final class NeverShownController: UIViewController {
                let titleLabel = UILabel()
                override func viewDidLoad() { titleLabel.font = .systemFont(ofSize: 15) }
            }
            """)
        try repository.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict>
            <key>UIWindowSceneSessionRoleApplication</key><array><dict>
            <key>UISceneDelegateClassName</key><string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
            </dict></array></dict></dict></dict></plist>
            """)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let lines = Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map { "\($0.location.file):\($0.location.line)" })
        #expect(lines == ["App/LibraryController.swift:4"], "the scene delegate's screen is shown; the other is not")
    }

    /// `HeaderView()` inside a view that declares its own nested `HeaderView` builds the nested
    /// one: a top-level `HeaderView` nothing else names is still unused (Tella's shape).
    @Test func aNestedTypeOfTheSameNameIsNotAUseOfTheTopLevelOne() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Main.swift", "import SwiftUI\n@main struct Shop: App {\n    var body: some Scene { WindowGroup { ServerList() } }\n}\n")
        try repository.write("App/ServerList.swift", """
            import SwiftUI
            struct ServerList: View {
                var body: some View { VStack { HeaderView(); Text("Servers") } }
                struct HeaderView: View {
                    var body: some View { Text("Pick a server").font(.system(size: 11)) }
                }
            }
            """)
        try repository.write("App/Widgets/HeaderView.swift", """
            import SwiftUI
            struct HeaderView: View {
                var body: some View { Text("Unused header").font(.system(size: 10)) }
            }
            """)
        let scan = { try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path) }
        let flagged = Set(try scan().findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file))
        #expect(flagged == ["App/ServerList.swift"], "\(flagged)")
        // Once something outside names the top-level one, it is used again.
        try repository.write("App/Settings.swift", "import SwiftUI\nstruct Settings: View {\n    var body: some View { HeaderView() }\n}\n")
        try repository.write("App/Main.swift", "import SwiftUI\n@main struct Shop: App {\n    var body: some Scene { WindowGroup { ServerList(); Settings() } }\n}\n")
        let again = Set(try scan().findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file))
        #expect(again == ["App/ServerList.swift", "App/Widgets/HeaderView.swift"], "\(again)")
    }

    /// A storyboard label whose outlet or class code restyles is judged by the Swift rules, not
    /// by what the document says; a label nothing restyles keeps its finding. The per-file cache
    /// keeps the verdicts: a warm scan gives the same findings.
    /// A storyboard with a same-named copy in a package's resources: which one loads depends on
    /// the bundle code names, so both go to review. Copies in two app folders (an app and its
    /// extension each with a `MainInterface.storyboard`) and language variants stay violations.
    @Test func storyboardCopiesAcrossAPackageBoundaryGoToReview() throws {
        let storyboard = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <scenes><scene sceneID="s1"><objects>
                    <viewController id="vc1"><view key="view" contentMode="scaleToFill" id="root-vw-001">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="200"/>
                        <subviews>
                            <label opaque="NO" text="Codes" id="chs-lb-001">
                                <rect key="frame" x="16" y="12" width="200" height="20"/>
                                <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            </label>
                        </subviews>
                    </view></viewController>
                </objects></scene></scenes>
            </document>
            """
        let repository = try TemporaryRepository()
        try repository.write("TV/en.lproj/Cheats.storyboard", storyboard)
        try repository.write("Kit/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Kit\", platforms: [.iOS(.v17)])\n")
        try repository.write("Kit/Sources/Kit/Resources/en.lproj/Cheats.storyboard", storyboard)
        try repository.write("Share/MainInterface.storyboard", storyboard)
        try repository.write("Action/MainInterface.storyboard", storyboard)
        try repository.write("Action/fr.lproj/MainInterface.storyboard", storyboard)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let fonts = Dictionary(report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }.map { ($0.location.file, $0.certainty) },
                               uniquingKeysWith: { first, _ in first })
        #expect(fonts == ["TV/en.lproj/Cheats.storyboard": .review, "Kit/Sources/Kit/Resources/en.lproj/Cheats.storyboard": .review,
                          "Share/MainInterface.storyboard": .violation, "Action/MainInterface.storyboard": .violation,
                          "Action/fr.lproj/MainInterface.storyboard": .violation])
        #expect(report.findings.contains { $0.location.file.hasPrefix("TV/") && $0.message.contains("Kit/Sources/Kit/Resources/en.lproj/Cheats.storyboard") })
    }

    @Test func interfaceBuilderFontsThatCodeReplacesAreLeftOut() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Sort.xib", """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner" customClass="SortBar">
                        <connections>
                            <outlet property="descriptionLabel" destination="srt-lb-001" id="srt-ot-001"/>
                        </connections>
                    </placeholder>
                    <view contentMode="scaleToFill" id="root-vw-001">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                        <subviews>
                            <label opaque="NO" text="By date" id="srt-lb-001">
                                <rect key="frame" x="16" y="12" width="200" height="20"/>
                                <fontDescription key="fontDescription" style="UICTFontTextStyleCaption1"/>
                            </label>
                            <label opaque="NO" text="12 notes" id="srt-lb-002">
                                <rect key="frame" x="230" y="12" width="120" height="20"/>
                                <fontDescription key="fontDescription" style="UICTFontTextStyleCaption1"/>
                            </label>
                        </subviews>
                    </view>
                </objects>
            </document>
            """)
        try repository.write("App/SortBar.swift", """
            import UIKit
            final class SortBar: UIView {
                @IBOutlet var descriptionLabel: UILabel!
                override func awakeFromNib() {
                    super.awakeFromNib()
                    descriptionLabel.font = .preferredFont(forTextStyle: .caption1)
                    descriptionLabel.adjustsFontForContentSizeCategory = true
                }
            }
            """)
        let cache = try TemporaryRepository()
        var options = ScanOptions(config: AuditConfig())
        options.cacheDirectory = cache.path
        for _ in 0..<2 {
            let report = try Scanner(options: options)
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            let labels = report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }.map(\.message)
            #expect(labels.count == 1 && labels.first?.contains("12 notes") == true, "\(labels)")
            #expect(report.statistics.findingsUnused == 1)
        }
    }

    /// A Swift file the Xcode project does not list is compiled into nothing; a package's files
    /// are compiled by folder, and a project with synchronised folders lists none one by one.
    @Test func swiftFilesNoTargetCompilesAreSkipped() throws {
        let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
        let project = """
            // !$*UTF8*$!
            {
                objects = {
                    A1 /* Listed.swift in Sources */ = {isa = PBXBuildFile; fileRef = B1 /* Listed.swift */; };
                    B1 /* Listed.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Listed.swift; sourceTree = "<group>"; };
                    B2 /* My Row.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = "My Row.swift"; sourceTree = "<group>"; };
                };
            }
            """
        func scanned(synchronised: Bool, projectFolder: String = "") throws -> (Set<String>, ScanReport) {
            let repository = try TemporaryRepository()
            try repository.write(projectFolder + "App.xcodeproj/project.pbxproj",
                                 synchronised ? project.replacingOccurrences(of: "PBXFileReference", with: "PBXFileSystemSynchronizedRootGroup") : project)
            for path in ["App/Listed.swift", "App/My Row.swift", "App/Draft.swift", "Packages/Kit/Package.swift.txt",
                         "Packages/Kit/Sources/Kit/Badge.swift"] {
                try repository.write(path, view)
            }
            try repository.write("Packages/Kit/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Kit\")\n")
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            return (Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file)), report)
        }
        let (listed, report) = try scanned(synchronised: false)
        #expect(listed == ["App/Listed.swift", "App/My Row.swift", "Packages/Kit/Sources/Kit/Badge.swift"])
        #expect(report.statistics.skippedNotInTarget == 1)
        #expect(report.notes.contains { $0.kind == .summary && $0.message.hasPrefix("1 Swift files skipped because no Xcode project lists them and no package target") })
        let (synchronised, _) = try scanned(synchronised: true)
        #expect(synchronised.contains("App/Draft.swift"))
        // A project in a vendored checkout, or one beside the sources (a pod's Example/ project),
        // does not judge files outside its folder.
        let (vendored, _) = try scanned(synchronised: false, projectFolder: "Carthage/Checkouts/Kit/")
        #expect(vendored.contains("App/Draft.swift"))
        let (example, _) = try scanned(synchronised: false, projectFolder: "Example/")
        #expect(example.contains("App/Draft.swift"))
    }

    /// A project with an iPhone app, a watch app and a unit-test bundle, as Xcode writes it.
    static let targetsProject = """
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objects = {
                F1 /* Home.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Home.swift; sourceTree = "<group>"; };
                F2 /* WatchHome.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = WatchHome.swift; sourceTree = "<group>"; };
                F3 /* Shared.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Shared.swift; sourceTree = "<group>"; };
                F4 /* HomeChecks.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = HomeChecks.swift; sourceTree = "<group>"; };
                B1 /* Home.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Home.swift */; };
                B2 /* WatchHome.swift in Sources */ = {isa = PBXBuildFile; fileRef = F2 /* WatchHome.swift */; };
                B3 /* Shared.swift in Sources */ = {isa = PBXBuildFile; fileRef = F3 /* Shared.swift */; };
                B4 /* Shared.swift in Sources */ = {isa = PBXBuildFile; fileRef = F3 /* Shared.swift */; };
                B5 /* HomeChecks.swift in Sources */ = {isa = PBXBuildFile; fileRef = F4 /* HomeChecks.swift */; };
                P1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Home.swift in Sources */, B3 /* Shared.swift in Sources */, ); };
                P2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* WatchHome.swift in Sources */, B4 /* Shared.swift in Sources */, ); };
                P3 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B5 /* HomeChecks.swift in Sources */, ); };
                C1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = "1,2"; }; name = Release; };
                C2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = watchos; }; name = Release; };
                C3 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_NAME = "$(TARGET_NAME)"; }; name = Release; };
                C4 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
                L1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };
                L2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };
                L3 = {isa = XCConfigurationList; buildConfigurations = (C3 /* Release */, ); };
                L4 = {isa = XCConfigurationList; buildConfigurations = (C4 /* Release */, ); };
                T1 /* Shop */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = Shop; productType = "com.apple.product-type.application"; };
                T2 /* Shop Watch */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = "Shop Watch"; productType = "com.apple.product-type.application"; };
                T3 /* ShopChecks */ = {isa = PBXNativeTarget; buildConfigurationList = L3; buildPhases = (P3 /* Sources */, ); name = ShopChecks; productType = "com.apple.product-type.bundle.unit-test"; };
                R1 /* Project object */ = {isa = PBXProject; buildConfigurationList = L4; targets = (T1 /* Shop */, T2 /* Shop Watch */, T3 /* ShopChecks */, ); };
            };
            rootObject = R1 /* Project object */;
        }
        """

    /// Code that availability checks keep from running where the deployment target already
    /// passes them is not judged there: the `else` of `if #available(iOS 16, *)` in an app for
    /// iOS 17 and later, the body of `if #unavailable(iOS 15)`. A platform whose deployment
    /// target a target leaves unset decides nothing, and a check the target's version does not
    /// pass still runs its fallback.
    @Test func availabilityChecksTheDeploymentTargetPassesHideTheirFallbacks() throws {
        let project = Self.targetsProject
            .replacingOccurrences(of: "SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = \"1,2\";", with: "SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = \"1,2\"; IPHONEOS_DEPLOYMENT_TARGET = 17.0;")
        let targets = try #require(XcodeTargets.parse(Array(project.utf8)))
        #expect(targets.targets.first { $0.name == "Shop" }?.deploymentTargets?.minimum[.iOS] == [17, 0])
        #expect(targets.targets.first { $0.name == "Shop Watch" }?.deploymentTargets?.minimum[.watchOS] == nil)
        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", project)
        try repository.write("App/Home.swift", """
            import SwiftUI
            struct V: View {
                var body: some View {
                    if #available(iOS 16, *) { Text("new").font(.body) } else { Text("fallback").font(.system(size: 9)) }
                    if #unavailable(iOS 15) { Text("old").font(.system(size: 9)) }
                    if #available(iOS 18, *) { Text("newer").font(.body) } else { Text("still runs").font(.system(size: 9)) }
                }
            }
            """)
        try repository.write("App/Shared.swift", """
            import SwiftUI
            struct W: View {
                var body: some View {
                    if #available(iOS 16, watchOS 10, *) { Text("new").font(.body) } else { Text("watch").font(.system(size: 9)) }
                }
            }
            """)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let fonts = report.findings.filter { $0.ruleID == "fixed-font-size" }
        #expect(fonts.filter { $0.location.file == "App/Home.swift" }.map(\.location.line) == [6])
        #expect(fonts.filter { $0.location.file == "App/Shared.swift" }.map(\.platforms) == [PlatformSet(.watchOS)],
                "the watch target states no deployment target")
    }

    /// `#if` clauses no shipping build compiles are not shipped UI: the `#else` of a flag every
    /// release configuration sets (in the target, its `.xcconfig` or a file that includes), a
    /// flag only the debug configuration sets, `#if false`. A flag the project never sets (it
    /// may come from a command line) hands its code's claims to a person; one the builds
    /// disagree on decides nothing.
    @Test func compilationConditionsOfTheShippingBuildsDecideIfClauses() throws {
        let project = Self.targetsProject
            .replacingOccurrences(of: "C1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {",
                                  with: "C1 /* Release */ = {isa = XCBuildConfiguration; baseConfigurationReference = X1; buildSettings = {SWIFT_ACTIVE_COMPILATION_CONDITIONS = \"$(inherited) FEATURE\"; ")
            .replacingOccurrences(of: "L1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };",
                                  with: "L1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, C5, ); };\n C5 /* Debug */ = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; SWIFT_ACTIVE_COMPILATION_CONDITIONS = \"DEBUG STAGING\"; }; name = Debug; };\n X1 = {isa = PBXFileReference; path = Config/Shop.xcconfig; sourceTree = SOURCE_ROOT; };")
        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", project)
        try repository.write("Config/Shop.xcconfig", "// Shop\n#include \"Base.xcconfig\"\n#include? \"Local.xcconfig\"\nOTHER_SWIFT_FLAGS = $(inherited) -DNEW_UI\n")
        try repository.write("Config/Base.xcconfig", "SWIFT_ACTIVE_COMPILATION_CONDITIONS = BASEFLAG\n")
        try repository.write("App/Home.swift", """
            import SwiftUI
            struct V: View {
                var body: some View {
                    #if FEATURE
                    Text("feature").font(.system(size: 9))
                    #else
                    Text("never").font(.system(size: 9))
                    #endif
                    #if STAGING
                    Text("staging").font(.system(size: 9))
                    #endif
                    #if NEW_UI && BASEFLAG
                    Text("new").font(.system(size: 9))
                    #endif
                    #if FROM_CI
                    Text("ci").font(.system(size: 9))
                    #endif
                    #if false
                    Text("off").font(.system(size: 9))
                    #endif
                }
            }
            """)
        try repository.write("App/Shared.swift", """
            import SwiftUI
            struct W: View {
                var body: some View {
                    #if FEATURE
                    Text("phone").font(.system(size: 9))
                    #else
                    Text("watch").font(.system(size: 9))
                    #endif
                }
            }
            """)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let fonts = report.findings.filter { $0.ruleID == "fixed-font-size" }
        #expect(fonts.filter { $0.location.file == "App/Home.swift" }.map(\.location.line) == [5, 13, 16])
        // A flag no configuration sets (a QA build's, or one CI passes): a person decides.
        #expect(fonts.filter { $0.location.file == "App/Home.swift" }.map(\.certainty) == [.violation, .violation, .review])
        #expect(fonts.filter { $0.location.file == "App/Shared.swift" }.map(\.location.line) == [5, 7], "the watch build does not set FEATURE")
        #expect(report.statistics.findingsNotShipped > 0, "counted as not shipped, not lost")

        // A configuration file that cannot be read decides nothing.
        try repository.write("Config/Shop.xcconfig", "#include \"Missing.xcconfig\"\n")
        let unread = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        #expect(unread.findings.filter { $0.ruleID == "fixed-font-size" && $0.location.file == "App/Home.swift" }.map(\.location.line) == [5, 7, 10, 13, 16])
    }

    /// A screen only code under a flag no configuration sets builds (a QA menu) ships only in
    /// a build that passes the flag: its claims go to a person, with the reason; a screen the
    /// shipping code builds keeps them, and one only debug code builds is not shipped.
    @Test func aViewOnlyUnsetFlagCodeBuildsGoesToReview() throws {
        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", Self.targetsProject)
        try repository.write("App/Home.swift", """
            import SwiftUI
            @main struct Shop: App { var body: some Scene { WindowGroup { Root() } } }
            struct Root: View {
                var body: some View {
                    Banner()
                    #if QA_MENU
                    QAPanel()
                    #endif
                    #if DEBUG
                    DebugPanel()
                    #endif
                }
            }
            struct Banner: View { var body: some View { Text("Sale").font(.system(size: 9)) } }
            struct QAPanel: View { var body: some View { Text("QA").font(.system(size: 9)); QARow() } }
            struct QARow: View { var body: some View { Text("Row").font(.system(size: 9)) } }
            struct DebugPanel: View { var body: some View { Text("Debug").font(.system(size: 9)) } }
            """)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let fonts = report.findings.filter { $0.ruleID == "fixed-font-size" }
        #expect(fonts.map(\.location.line) == [14, 15, 16])
        #expect(fonts.map(\.certainty) == [.violation, .review, .review], "what only QA code builds, directly or through another view")
        #expect(fonts.last?.message.contains("`QARow`") == true)
    }

    /// The app's accent colour is the one of the catalogs the file's own target compiles: a
    /// tvOS target whose `AccentColor` has no colour draws its buttons in the system tint, even
    /// where its sources sit beside the iOS app's catalog.
    @Test func theAccentColourIsTheTargetsOwn() throws {
        let project = """
            // !$*UTF8*$!
            {
                archiveVersion = 1;
                objects = {
                    F1 /* Home.swift */ = {isa = PBXFileReference; path = Home.swift; sourceTree = "<group>"; };
                    F2 /* TVHome.swift */ = {isa = PBXFileReference; path = TVHome.swift; sourceTree = "<group>"; };
                    A1 /* Assets.xcassets */ = {isa = PBXFileReference; path = assets.xcassets; sourceTree = "<group>"; };
                    A2 /* Assets.xcassets */ = {isa = PBXFileReference; path = Assets.xcassets; sourceTree = "<group>"; };
                    G0 = {isa = PBXGroup; children = (G1, G2, ); sourceTree = "<group>"; };
                    G1 = {isa = PBXGroup; children = (F1, A1, G3, ); path = App; sourceTree = "<group>"; };
                    G3 = {isa = PBXGroup; children = (F2, ); path = TV; sourceTree = "<group>"; };
                    G2 = {isa = PBXGroup; children = (A2, ); path = "Shop TV"; sourceTree = "<group>"; };
                    B1 = {isa = PBXBuildFile; fileRef = F1; };
                    B2 = {isa = PBXBuildFile; fileRef = F2; };
                    B3 = {isa = PBXBuildFile; fileRef = A1; };
                    B4 = {isa = PBXBuildFile; fileRef = A2; };
                    P1 = {isa = PBXSourcesBuildPhase; files = (B1, ); };
                    P2 = {isa = PBXSourcesBuildPhase; files = (B2, ); };
                    P3 = {isa = PBXResourcesBuildPhase; files = (B3, ); };
                    P4 = {isa = PBXResourcesBuildPhase; files = (B4, ); };
                    C1 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
                    C2 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = appletvos; }; name = Release; };
                    L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
                    L2 = {isa = XCConfigurationList; buildConfigurations = (C2, ); };
                    T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1, P3, ); name = Shop; productType = "com.apple.product-type.application"; };
                    T2 = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2, P4, ); name = "Shop TV"; productType = "com.apple.product-type.application"; };
                    R1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1, T2, ); };
                };
                rootObject = R1;
            }
            """
        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", project)
        try repository.write("App/Assets.xcassets/AccentColor.colorset/Contents.json", InsufficientContrastRule.orangeAccent)
        try repository.write("Shop TV/Assets.xcassets/AccentColor.colorset/Contents.json",
                             #"{ "colors" : [ { "idiom" : "universal" } ], "info" : { "author" : "xcode", "version" : 1 } }"#)
        // The iOS target's catalog is named in another case than its folder: membership ignores case.
        let screen = { (name: String) in
            "import SwiftUI\nstruct \(name): View {\n    var body: some View { VStack { Form { Button(\"Upload\") { } }; banner } }\n"
                + "    var banner: some View { Text(\"Now playing\").foregroundColor(.accentColor).background(Color.white) }\n}\n"
        }
        try repository.write("App/Home.swift", "@main struct Shop: App { var body: some Scene { WindowGroup { Home() } } }\n" + screen("Home"))
        try repository.write("App/TV/TVHome.swift", "@main struct ShopTV: App { var body: some Scene { WindowGroup { TVHome() } } }\n" + screen("TVHome"))
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let accent = report.findings.filter { $0.ruleID == "insufficient-contrast" && $0.message.contains("the app's accent colour") }
        #expect(accent.map(\.location.file) == ["App/Home.swift", "App/Home.swift"], "\(accent.map(\.location.file))")
        #expect(accent.map(\.location.line) == [4, 5], "the button's default tint and the explicit `.accentColor`")
    }

    /// A file takes the platforms of the targets that build it, not of the whole project; a
    /// file only a test bundle builds is a test, whatever its folder.
    @Test func aFileIsJudgedForTheTargetsThatBuildIt() throws {
        let targets = try #require(XcodeTargets.parse(Array(Self.targetsProject.utf8)))
        #expect(targets.targets.map(\.name) == ["Shop", "Shop Watch", "ShopChecks"])
        #expect(targets.targets.first { $0.name == "ShopChecks" }?.platforms == PlatformSet(.iOS), "the project's SDKROOT")
        #expect(targets.targets(building: "App/Shared.swift").map(\.name) == ["Shop", "Shop Watch"])

        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", Self.targetsProject)
        let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
        for path in ["App/Home.swift", "Watch/WatchHome.swift", "App/Shared.swift", "App/HomeChecks.swift"] { try repository.write(path, view) }
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let platforms = Dictionary(report.findings.filter { $0.ruleID == "fixed-font-size" }.map { ($0.location.file, $0.platforms) },
                                   uniquingKeysWith: { $0.union($1) })
        #expect(platforms["App/Home.swift"] == PlatformSet(.iOS))
        #expect(platforms["Watch/WatchHome.swift"] == PlatformSet(.watchOS))
        #expect(platforms["App/Shared.swift"] == PlatformSet([.iOS, .watchOS]))
        #expect(platforms["App/HomeChecks.swift"] == nil)
        #expect(report.statistics.skippedTests == 1)
    }

    /// A target that lists the Mac and visionOS, one of whose files imports AppKit outside any
    /// `#if`, builds for the Mac alone: no Dynamic Type claim. Guarded, the import decides
    /// nothing; in a project whose build files filter by platform, neither does an unguarded one.
    @Test func anUnguardedAppKitImportMakesATargetMacOnly() throws {
        func platforms(appKit: String, filtered: Bool = false) throws -> PlatformSet? {
            let repository = try TemporaryRepository()
            var project = Self.targetsProject
                .replacingOccurrences(of: "SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = \"1,2\";", with: "SDKROOT = macosx; SUPPORTED_PLATFORMS = \"macosx xros xrsimulator\";")
                .replacingOccurrences(of: "B3 /* Shared.swift in Sources */, );", with: "B3 /* Shared.swift in Sources */, B6, );")
                .replacingOccurrences(of: "B5 /* HomeChecks.swift in Sources */ = {", with: "B6 = {isa = PBXBuildFile; fileRef = F5; };\n F5 = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = MenuBar.swift; sourceTree = \"<group>\"; };\n B5 /* HomeChecks.swift in Sources */ = {")
            if filtered { project = project.replacingOccurrences(of: "B6 = {isa = PBXBuildFile; fileRef = F5;", with: "B6 = {isa = PBXBuildFile; fileRef = F5; platformFilter = macos;") }
            try repository.write("Shop.xcodeproj/project.pbxproj", project)
            try repository.write("App/Home.swift", "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n")
            try repository.write("App/MenuBar.swift", appKit + "\nfinal class MenuBar {}\n")
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            return report.findings.first { $0.ruleID == "fixed-font-size" && $0.location.file == "App/Home.swift" }?.platforms
        }
        #expect(try platforms(appKit: "import Foundation") == PlatformSet(.visionOS))
        #expect(try platforms(appKit: "import AppKit") == nil, "macOS has no Dynamic Type")
        #expect(try platforms(appKit: "#if os(macOS)\nimport AppKit\n#endif") == PlatformSet(.visionOS))
        #expect(try platforms(appKit: "import AppKit", filtered: true) == PlatformSet(.visionOS))
        let header = ImportScanner.scan(Array("import SwiftUI\n#if canImport(AppKit)\nimport AppKit\n#else\nimport UIKit\n#endif\nimport Cocoa\n".utf8))
        #expect(header.unguardedImports == ["SwiftUI", "Cocoa"] && header.imports.isSuperset(of: ["AppKit", "UIKit"]))
    }

    @Test func anUnguardedAppKitImportMakesAPackageTargetMacOnly() throws {
        /// The platforms of each file's fixed-font finding; a file without one is absent.
        func platforms(appKit: String) throws -> [String: PlatformSet] {
            let repository = try TemporaryRepository()
            try repository.write("Modules/Package.swift", """
                // swift-tools-version: 5.9
                import PackageDescription
                let package = Package(
                    name: "Modules",
                    platforms: [.macOS(.v14), .iOS(.v17)],
                    targets: [.target(name: "Agent"), .target(name: "Shared")]
                )
                """)
            let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
            try repository.write("Modules/Sources/Agent/Dialogue.swift", view)
            try repository.write("Modules/Sources/Agent/Window.swift", appKit + "\nfinal class Window {}\n")
            try repository.write("Modules/Sources/Shared/Badge.swift", view)
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            var found: [String: PlatformSet] = [:]
            for path in ["Modules/Sources/Agent/Dialogue.swift", "Modules/Sources/Shared/Badge.swift"] {
                found[path] = report.findings.first { $0.ruleID == "fixed-font-size" && $0.location.file == path }?.platforms
            }
            return found
        }
        let plain = try platforms(appKit: "import Foundation")
        #expect(plain["Modules/Sources/Agent/Dialogue.swift"] == PlatformSet(.iOS))
        let mac = try platforms(appKit: "import AppKit")
        #expect(mac["Modules/Sources/Agent/Dialogue.swift"] == nil, "the Agent target builds for the Mac alone: no Dynamic Type")
        #expect(mac["Modules/Sources/Shared/Badge.swift"] == PlatformSet(.iOS), "another target of the package keeps iOS")
        let guarded = try platforms(appKit: "#if os(macOS)\nimport AppKit\n#endif")
        #expect(guarded["Modules/Sources/Agent/Dialogue.swift"] == PlatformSet(.iOS))
    }

    @Test func aTuistProjectsDestinationsDecideThePlatform() throws {
        func platforms(destinations: String) throws -> PlatformSet? {
            let repository = try TemporaryRepository()
            try repository.write("Project.swift", "import ProjectDescription\nimport ProjectDescriptionHelpers\nlet project = Project(name: \"Cowboy\", targets: [.app])\n")
            try repository.write("Tuist/ProjectDescriptionHelpers/Target+App.swift", """
                import ProjectDescription
                public extension Target {
                    static let app = Target.target(
                        name: "Cowboy",
                        destinations: \(destinations),
                        product: .app,
                        bundleId: "com.example.cowboy"
                    )
                }
                """)
            try repository.write("App/Sources/Promo.swift", "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n")
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            return report.findings.first { $0.ruleID == "fixed-font-size" }?.platforms
        }
        #expect(try platforms(destinations: ".macOS") == nil, "macOS has no Dynamic Type")
        #expect(try platforms(destinations: "[.iPhone, .iPad]") == PlatformSet(.iOS))
        #expect(ProjectIndex.tuistDestinations(in: Array("platform: .iOS,\ndestinations: [.appleVision, .mac]".utf8))
                == PlatformSet([.iOS, .visionOS, .macOS]))
    }

    /// A local package listing iOS and the Mac, whose modules an iOS app and a Mac app link
    /// separately: each module is judged for the apps that link it.
    @Test func aPackageModuleIsJudgedForTheAppsThatLinkIt() throws {
        func scan(wrapperReference: Bool) throws -> [String: PlatformSet] {
            let repository = try TemporaryRepository()
            let reference = wrapperReference
                ? "K1 /* Modules */ = {isa = PBXFileReference; lastKnownFileType = wrapper; path = Modules; sourceTree = \"<group>\"; };\n G0 = {isa = PBXGroup; children = (K1, ); sourceTree = \"<group>\"; };"
                : "K1 = {isa = XCLocalSwiftPackageReference; relativePath = Modules; };\n G0 = {isa = PBXGroup; children = (); sourceTree = \"<group>\"; };"
            try repository.write("Apps.xcodeproj/project.pbxproj", """
                // !$*UTF8*$!
                {
                    archiveVersion = 1;
                    objects = {
                        \(reference)
                        D1 /* Sticker */ = {isa = XCSwiftPackageProductDependency; productName = Sticker; };
                        D2 /* Remote */ = {isa = XCSwiftPackageProductDependency; productName = Remote; };
                        C1 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = macosx; }; name = Release; };
                        C2 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
                        L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
                        L2 = {isa = XCConfigurationList; buildConfigurations = (C2, ); };
                        T1 /* Mac */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (); name = Mac; packageProductDependencies = (D1, D2, ); productType = "com.apple.product-type.application"; };
                        T2 /* Phone */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (); name = Phone; packageProductDependencies = (D2, ); productType = "com.apple.product-type.application"; };
                        R1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1, T2, ); };
                    };
                    rootObject = R1;
                }
                """)
            try repository.write("Modules/Package.swift", """
                // swift-tools-version: 5.9
                import PackageDescription
                let package = Package(
                    name: "Modules",
                    platforms: [.macOS(.v14), .iOS(.v17)],
                    products: [.library(name: "Sticker", targets: ["Sticker"]), .library(name: "Remote", targets: ["Remote"])],
                    targets: [
                        .target(name: "Sticker", dependencies: ["Design"]),
                        .target(name: "Remote", dependencies: [.target(name: "Design")]),
                        .target(name: "Design"),
                    ]
                )
                """)
            let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
            for module in ["Sticker", "Remote", "Design"] { try repository.write("Modules/Sources/\(module)/View.swift", view) }
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            var found: [String: PlatformSet] = [:]
            for finding in report.findings where finding.ruleID == "fixed-font-size" { found[finding.location.file] = finding.platforms }
            return found
        }
        for wrapper in [false, true] {
            let found = try scan(wrapperReference: wrapper)
            #expect(found["Modules/Sources/Sticker/View.swift"] == nil, "only the Mac app links Sticker (wrapper: \(wrapper))")
            #expect(found["Modules/Sources/Remote/View.swift"] == PlatformSet(.iOS), "the iPhone app links Remote")
            #expect(found["Modules/Sources/Design/View.swift"] == PlatformSet(.iOS), "Remote depends on Design")
        }
        #expect(ProjectIndex.normalized("App/../Modules/") == "Modules" && ProjectIndex.normalized("./Modules") == "Modules")
    }

    /// A project whose files sit in groups, as Xcode writes them: a folder group, a group with
    /// a name only, a localised storyboard, a file relative to the project folder, one at an
    /// absolute path.
    static let groupedProject = """
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objects = {
                F1 /* Home.swift */ = {isa = PBXFileReference; path = Home.swift; sourceTree = "<group>"; };
                F2 /* Theme.swift */ = {isa = PBXFileReference; path = Theme.swift; sourceTree = "<group>"; };
                F3 /* Base */ = {isa = PBXFileReference; name = Base; path = Base.lproj/Main.storyboard; sourceTree = "<group>"; };
                F4 /* es */ = {isa = PBXFileReference; name = es; path = es.lproj/Main.strings; sourceTree = "<group>"; };
                F5 /* Gen.swift */ = {isa = PBXFileReference; path = Tools/Gen.swift; sourceTree = SOURCE_ROOT; };
                F6 /* Legacy.swift */ = {isa = PBXFileReference; path = /Users/dev/Legacy.swift; sourceTree = "<absolute>"; };
                F7 /* Row.swift */ = {isa = PBXFileReference; path = ../Shared/Row.swift; sourceTree = "<group>"; };
                V1 /* Main.storyboard */ = {isa = PBXVariantGroup; children = (F3 /* Base */, F4 /* es */, ); name = Main.storyboard; sourceTree = "<group>"; };
                G0 = {isa = PBXGroup; children = (G1 /* App */, G2 /* Style */, F5 /* Gen.swift */, F6 /* Legacy.swift */, ); sourceTree = "<group>"; };
                G1 /* App */ = {isa = PBXGroup; children = (F1 /* Home.swift */, V1 /* Main.storyboard */, F7 /* Row.swift */, ); path = App; sourceTree = "<group>"; };
                G2 /* Style */ = {isa = PBXGroup; children = (F2 /* Theme.swift */, ); name = Style; sourceTree = "<group>"; };
                B1 = {isa = PBXBuildFile; fileRef = F1; };
                B2 = {isa = PBXBuildFile; fileRef = F2; };
                B3 = {isa = PBXBuildFile; fileRef = V1; };
                B5 = {isa = PBXBuildFile; fileRef = F5; };
                B6 = {isa = PBXBuildFile; fileRef = F6; };
                B7 = {isa = PBXBuildFile; fileRef = F7; };
                P1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1, B2, B5, B6, B7, ); };
                P2 /* Resources */ = {isa = PBXResourcesBuildPhase; files = (B3, ); };
                C1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
                L1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };
                T1 /* Shop */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, P2 /* Resources */, ); name = Shop; productType = "com.apple.product-type.application"; };
                R1 /* Project object */ = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1 /* Shop */, ); };
            };
            rootObject = R1 /* Project object */;
        }
        """

    /// A file is built where its group puts it: a copy of the same name in another folder (an
    /// old copy, a localisation export) is not, and is not checked.
    @Test func filesAreMatchedByThePathTheirGroupsGive() throws {
        let targets = try #require(XcodeTargets.parse(Array(Self.groupedProject.utf8)))
        func built(_ path: String) -> [String] { targets.targets(building: path).map(\.name) }
        #expect(built("App/Home.swift") == ["Shop"])
        #expect(built("Old/App/Home.swift") == [], "a copy elsewhere")
        #expect(built("app/home.swift") == ["Shop"], "a Mac's file system ignores case, and so does Xcode")
        #expect(built("Home.swift") == [])
        #expect(built("App/Base.lproj/Main.storyboard") == ["Shop"], "each language's file of a variant group")
        #expect(built("App/es.lproj/Main.strings") == ["Shop"])
        #expect(built("Export/es.xcloc/Source Contents/App/Base.lproj/Main.storyboard") == [])
        #expect(built("Theme.swift") == ["Shop"], "a group with a name and no path adds no folder")
        #expect(built("Tools/Gen.swift") == ["Shop"], "relative to the project folder")
        #expect(built("Shared/Row.swift") == ["Shop"], "a path that climbs out of its group")
        #expect(built("Vendor/Legacy.swift") == ["Shop"], "an absolute path: matched by name")

        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", Self.groupedProject)
        let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
        for path in ["App/Home.swift", "Old/App/Home.swift", "Theme.swift", "Shared/Row.swift"] { try repository.write(path, view) }
        let storyboard = InterfaceBuilderExample.iOS("""
            <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="sml-bt-001">
                <rect key="frame" x="16" y="16" width="20" height="20"/>
                <state key="normal" title="i"/>
                <connections>
                    <action selector="info:" destination="-1" eventType="touchUpInside" id="sml-ac-001"/>
                </connections>
            </button>
            """)
        try repository.write("App/Base.lproj/Main.storyboard", storyboard)
        try repository.write("Old/Base.lproj/Main.storyboard", storyboard)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let files = Set(report.findings.filter { $0.certainty == .violation }.map(\.location.file))
        #expect(files == ["App/Home.swift", "Theme.swift", "Shared/Row.swift", "App/Base.lproj/Main.storyboard"])
        #expect(report.statistics.skippedNotInTarget == 1)
    }

    /// A storyboard no target bundles (a backup copy) is not checked; one a target bundles is.
    @Test func interfaceBuilderFilesNoTargetBundlesAreSkipped() throws {
        let project = Self.targetsProject
            .replacingOccurrences(of: "F4 /* HomeChecks.swift */ = {", with: "F5 /* Main.storyboard */ = {isa = PBXVariantGroup; name = Main.storyboard; sourceTree = \"<group>\"; };\n            F4 /* HomeChecks.swift */ = {")
            .replacingOccurrences(of: "B5 /* HomeChecks.swift in Sources */ = {", with: "B6 /* Main.storyboard in Resources */ = {isa = PBXBuildFile; fileRef = F5; };\n            B5 /* HomeChecks.swift in Sources */ = {")
            .replacingOccurrences(of: "P3 /* Sources */ = {", with: "P4 /* Resources */ = {isa = PBXResourcesBuildPhase; files = (B6, ); };\n            P3 /* Sources */ = {")
            .replacingOccurrences(of: "buildPhases = (P1 /* Sources */, );", with: "buildPhases = (P1 /* Sources */, P4, );")
        let repository = try TemporaryRepository()
        try repository.write("Shop.xcodeproj/project.pbxproj", project)
        try repository.write("App/Base.lproj/Main.storyboard", Self.labelNib("MainView"))
        try repository.write("App/Base.lproj/Main~.storyboard", Self.labelNib("MainView"))
        var config = AuditConfig()
        config.platforms = PlatformSet(.iOS)
        let report = try Scanner(options: ScanOptions(config: config))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let files = Set(report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }.map(\.location.file))
        #expect(files == ["App/Base.lproj/Main.storyboard"])
    }

    static func labelNib(_ customClass: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <objects>
                <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
                <view contentMode="scaleToFill" customClass="\(customClass)" id="vw-\(customClass)">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Details" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="lb-\(customClass)">
                            <rect key="frame" x="16" y="12" width="361" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                </view>
            </objects>
        </document>
        """
    }

    /// Objective-C classes in an app: a base class whose subclass has its own nib may never load
    /// its own (review); a class only its own files and an umbrella header's `#import` name is
    /// never used (left out).
    @Test func objectiveCNibsOfBaseClassesAndUnusedClasses() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Main.swift", "import UIKit\n@main final class AppDelegate: UIResponder, UIApplicationDelegate {\n    let details = EventDetailsView()\n}\n")
        try repository.write("Kit/MXKEventDetailsView.h", "#import <UIKit/UIKit.h>\n@interface MXKEventDetailsView : UIView\n@end\n")
        try repository.write("Kit/MXKEventDetailsView.m", "#import \"MXKEventDetailsView.h\"\n@implementation MXKEventDetailsView\n@end\n")
        try repository.write("Kit/MXKEventDetailsView.xib", Self.labelNib("MXKEventDetailsView"))
        try repository.write("App/EventDetailsView.h", "#import \"MXKEventDetailsView.h\"\n@interface EventDetailsView : MXKEventDetailsView\n@end\n")
        try repository.write("App/EventDetailsView.xib", Self.labelNib("EventDetailsView"))
        try repository.write("Kit/MXKOrphanView.h", "#import <UIKit/UIKit.h>\n@class MXKEventDetailsView;\n@interface MXKOrphanView : UIView\n@end\n")
        try repository.write("Kit/MXKOrphanView.xib", Self.labelNib("MXKOrphanView"))
        try repository.write("Kit/MatrixKit.h", "#import \"MXKEventDetailsView.h\"\n#import \"MXKOrphanView.h\"\n")
        // A longer identifier holding the name is not a use of it.
        try repository.write("Kit/Legacy.m", "#import \"MatrixKit.h\"\nstatic MXKOrphanViewLegacy *legacy;\n")
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let fonts = report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }
        #expect(Dictionary(fonts.map { ($0.location.file, $0.certainty) }, uniquingKeysWith: { first, _ in first })
                == ["App/EventDetailsView.xib": .violation, "Kit/MXKEventDetailsView.xib": .review])
        #expect(Scanner.objectiveCInterfaces(Array("@interface A : B <P>\n@interface A (Cat)\n@interface C() @end".utf8)).map { "\($0.sub)<\($0.base)" } == ["A<B"])
    }

    /// A project's facts (targets, file list, platforms) are read once per content: the second
    /// scan takes them from the cache, and an unreadable cache entry is read again.
    @Test func projectFactsAreCachedByContent() throws {
        let bytes = Array(Self.targetsProject.utf8)
        let storage = MemoryCacheStorage(entries: [:], toolIdentity: "test")
        let first = ProjectIndex.projectFacts(of: bytes, cache: storage)
        #expect(first.problem == nil && first.targets != nil && first.swiftFiles?.isEmpty == false)
        #expect(storage.newEntries.count == 1)
        #expect(ProjectIndex.projectFacts(of: bytes, cache: storage) == first)
        #expect(ProjectIndex.projectFacts(of: bytes, cache: nil) == first)
        let key = try #require(storage.newEntries.keys.first)
        let damaged = MemoryCacheStorage(entries: [key: Array("{not json".utf8)], toolIdentity: "test")
        #expect(ProjectIndex.projectFacts(of: bytes, cache: damaged) == first)
        // A damaged project is remembered as damaged.
        let broken = ProjectIndex.projectFacts(of: Array("// !$*UTF8*$!\n{ objects = {".utf8), cache: storage)
        #expect(broken.problem != nil && broken.targets == nil)
    }

    /// The contrast findings of a scan of `repository` through `cache`.
    static func contrastFindings(in repository: TemporaryRepository, cache: MemoryCacheStorage) throws -> [Finding] {
        var options = ScanOptions()
        options.cacheStorage = cache
        return try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            .findings.filter { $0.ruleID == "insufficient-contrast" }
    }

    /// A colour token declared in one file decides a contrast pair in another; its new value
    /// re-judges that file on a warm scan (the tokens are part of every file's cache key), and
    /// the declaring file's tokens are read from the cache.
    @Test func colourTokensFromAnotherFileAreJudgedAndInvalidateTheCache() throws {
        let repository = try TemporaryRepository()
        let tokens = { (white: String) in "import SwiftUI\nextension Color {\n    static var hint: Color { .init(white: \(white)) }\n}\n" }
        try repository.write("App/Theme/Colors.swift", tokens("0.62"))
        try repository.write("App/HintView.swift", """
            import SwiftUI
            struct HintView: View {
                var body: some View { Text("Pair your device").font(.system(size: 13)).foregroundColor(.hint).background(Color.white) }
            }
            """)
        let storage = MemoryCacheStorage(entries: [:], toolIdentity: "test")
        func contrast() throws -> [Finding] { try Self.contrastFindings(in: repository, cache: storage) }
        let grey = try contrast()
        #expect(grey.map(\.location.file) == ["App/HintView.swift"] && grey.first?.message.contains("#9E9E9E on #FFFFFF") == true,
                "\(grey.map(\.message))")
        #expect(storage.newEntries.keys.contains { _ in true })
        try repository.write("App/Theme/Colors.swift", tokens("0.2"))
        #expect(try contrast().isEmpty, "a dark enough token: the cached verdict is not reused")
        try repository.write("App/Theme/Colors.swift", tokens("0.62"))
        #expect(try contrast().count == 1)
        #expect(ProjectIndex.colorTokens(of: Array(tokens("0.62").utf8), cache: storage).tokens["hint"]?.owners == ["Color"])
    }

    /// A file parsed for its colour tokens hands its tree to its checks once, and only while
    /// the trees held stay within their budget of source bytes; a tree of other text is not used.
    @Test func parsesForColourTokensAreHandedOnWithinABudget() {
        let held = ParsedSources(budget: 100)
        let small = ParsedSource("import SwiftUI\nlet a = 1\n"), large = ParsedSource(String(repeating: "let b = 2\n", count: 20))
        held.keep(small, for: "A.swift")
        held.keep(large, for: "B.swift")
        #expect(held.take("B.swift") == nil, "over the budget: parsed again when checked")
        #expect(held.take("A.swift")?.source == small.source && held.take("A.swift") == nil, "handed on once")
        held.keep(ParsedSource(String(repeating: "let c = 3\n", count: 9)), for: "C.swift")
        #expect(held.take("C.swift") != nil, "what was taken no longer counts against the budget")
        let checker = SourceChecker(config: AuditConfig())
        let source = "import SwiftUI\nstruct V: View { var body: some View { Text(\"x\").font(.system(size: 9)) } }\n"
        let fresh = checker.check(path: "V.swift", source: source, context: ProjectContext(platforms: PlatformSet(.iOS)))
        let handed = checker.check(path: "V.swift", source: source, context: ProjectContext(platforms: PlatformSet(.iOS)),
                                   parsed: ParsedSource(source))
        let stale = checker.check(path: "V.swift", source: source, context: ProjectContext(platforms: PlatformSet(.iOS)),
                                  parsed: ParsedSource("import SwiftUI\n"))
        #expect(fresh.findings.map(\.ruleID).contains("fixed-font-size"), "\(fresh.findings.map(\.ruleID))")
        #expect(handed.findings == fresh.findings && stale.findings == fresh.findings)
    }

    /// A colour type of the app's own whose cases name colour sets, and a namespace constant
    /// built from it, decide a pair in another file; a case that stops being a set makes the
    /// whole type unknown (its cases may mean anything), and the cached verdict is not reused.
    @Test func colourNamespacesFromAnotherFileAreJudgedAgainstTheCatalog() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/Design/Tint.swift", """
            import SwiftUI
            enum Tint: String {
                case stone, ink
                var color: Color { Color(rawValue) }
            }
            extension Tint {
                enum Text { static let secondary = Tint.stone }
            }
            """)
        func set(_ white: String) -> String {
            #"{ "colors" : [ { "idiom" : "universal", "color" : { "color-space" : "srgb", "components" : { "red" : "\#(white)", "green" : "\#(white)", "blue" : "\#(white)", "alpha" : "1" } } } ] }"#
        }
        try repository.write("App/Assets.xcassets/stone.colorset/Contents.json", set("0.700"))
        try repository.write("App/Assets.xcassets/ink.colorset/Contents.json", set("0.100"))
        try repository.write("App/Caption.swift", """
            import SwiftUI
            struct Caption: View {
                var body: some View { Text("Synced").foregroundColor(Tint.Text.secondary.color).background(Color.white) }
            }
            """)
        let storage = MemoryCacheStorage(entries: [:], toolIdentity: "test")
        func contrast() throws -> [Finding] { try Self.contrastFindings(in: repository, cache: storage) }
        let pale = try contrast()
        #expect(pale.map(\.location.file) == ["App/Caption.swift"] && pale.first?.message.contains("colour set \"stone\"") == true,
                "\(pale.map(\.message))")
        try repository.write("App/Assets.xcassets/stone.colorset/Contents.json", set("0.100"))
        #expect(try contrast().isEmpty, "a dark enough set: the cached verdict is not reused")
        try repository.write("App/Assets.xcassets/stone.colorset/Contents.json", set("0.700"))
        try FileManager.default.removeItem(atPath: repository.path + "/App/Assets.xcassets/ink.colorset")
        #expect(try contrast().isEmpty, "a case that names no set: the type is not believed")
    }

    /// A view of the app's own judged where another file shows it: the using file is checked
    /// again with the component's facts; fixing the component re-judges it on a warm scan, and
    /// an unchanged one is not parsed again.
    @Test func componentFactsFromAnotherFileAreJudgedAndInvalidateTheCache() throws {
        let repository = try TemporaryRepository()
        let icon = { (image: String) in
            "import SwiftUI\nstruct Icon: View {\n    let name: String\n    var body: some View { \(image) }\n}\n"
        }
        try repository.write("App/Components/Icon.swift", icon("Image(name)"))
        try repository.write("App/Toolbar.swift", """
            import SwiftUI
            struct Toolbar: View {
                var body: some View { HStack { Icon(name: "tool-keep"); Text("Keep") } }
            }
            """)
        let storage = MemoryCacheStorage(entries: [:], toolIdentity: "test")
        var options = ScanOptions()
        options.cacheStorage = storage
        func scan() throws -> ScanReport {
            try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        }
        let first = try scan()
        #expect(first.findings.filter { $0.ruleID == "image-asset-name-spoken" }.map { "\($0.location.file):\($0.location.line)" }
                == ["App/Toolbar.swift:3"])
        let warm = try scan()
        #expect(warm.statistics.filesParsed == 0 && warm.findings.map(\.fingerprint) == first.findings.map(\.fingerprint))
        try repository.write("App/Components/Icon.swift", icon("Image(name).accessibilityHidden(true)"))
        let fixed = try scan()
        #expect(fixed.findings.filter { $0.ruleID == "image-asset-name-spoken" }.isEmpty, "the component hides its image now")
        #expect(fixed.statistics.filesParsed == 1, "only the component's file changed; the using file is looked at once, from the cache")
    }

    /// A strings table's keys likewise, keys with tabs and line breaks kept whole, the problem
    /// of a damaged table remembered.
    @Test func stringsKeysAreCachedByContent() throws {
        let storage = MemoryCacheStorage(entries: [:], toolIdentity: "test")
        let table = Array("\"a\\tb\" = \"A\";\n\"line\\nbreak\" = \"B\";\n\"plain\" = \"C\";\n".utf8)
        let first = ProjectIndex.stringsKeys(of: table, cache: storage)
        let direct0 = ProjectFiles.localizedKeys(fromStringsFile: table)
        #expect(first.keys.count == 3 && Set(first.keys) == Set(direct0.keys) && first.problem == nil, "\(direct0)")
        let again = ProjectIndex.stringsKeys(of: table, cache: storage)
        #expect(Set(again.keys) == Set(first.keys) && again.problem == nil)
        #expect(storage.newEntries.count == 1)
        let damaged = Array("\"ok\" = \"1\";\n\"open = ".utf8)
        let direct = ProjectFiles.localizedKeys(fromStringsFile: damaged)
        #expect(direct.problem != nil)
        _ = ProjectIndex.stringsKeys(of: damaged, cache: storage)
        let cached = ProjectIndex.stringsKeys(of: damaged, cache: storage)
        #expect(cached.keys == direct.keys && cached.problem == direct.problem)
    }

    /// A manifest's platforms and target folders likewise: cached by content, a damaged entry
    /// parsed again.
    @Test func packageManifestsAreCachedByContent() throws {
        let manifest = Array("// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Kit\", platforms: [.iOS(.v16), .macOS(.v13)], targets: [.target(name: \"Kit\")])\n".utf8)
        let storage = MemoryCacheStorage(entries: [:], toolIdentity: "test")
        let first = ProjectIndex.packageManifest(of: manifest, cache: storage)
        #expect(first.platforms == PlatformSet([.iOS, .macOS]) && first.targetFolders?.contains("Sources/Kit") == true)
        #expect(storage.newEntries.count == 1)
        let key = try #require(storage.newEntries.keys.first)
        let other = ProjectFiles.PackageManifest(platforms: PlatformSet(.tvOS), targetFolders: nil)
        let cached = MemoryCacheStorage(entries: [key: Array(try JSONEncoder().encode(other))], toolIdentity: "test")
        #expect(ProjectIndex.packageManifest(of: manifest, cache: cached) == other, "read from the cache, not parsed")
        let damaged = MemoryCacheStorage(entries: [key: Array("garbage".utf8)], toolIdentity: "test")
        #expect(ProjectIndex.packageManifest(of: manifest, cache: damaged) == first)
        let bare = ProjectFiles.packageManifest("import PackageDescription\nlet package = Package(name: \"Kit\")\n")
        #expect(bare.platforms == nil && bare.targetFolders == nil)
    }

    /// A manifest names its targets' folders: a Swift file under the package in none of them is
    /// compiled into nothing (a stray copy); targets named in a loop decide nothing.
    @Test func swiftFilesOutsideEveryPackageTargetAreSkipped() throws {
        let view = "import SwiftUI\nstruct V: View {\n    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
        func flagged(_ manifest: String) throws -> (Set<String>, ScanReport) {
            let repository = try TemporaryRepository()
            try repository.write("Kit/Package.swift", manifest)
            for path in ["Kit/Sources/Kit/A.swift", "Kit/Custom/Bar/B.swift", "Kit/Stray/Sources/C.swift", "Kit/Sources/Old/D.swift",
                         "Kit/Tests/KitTests/E.swift"] {
                try repository.write(path, view)
            }
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            return (Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file)), report)
        }
        let (literal, report) = try flagged("""
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "Kit", platforms: [.iOS(.v17)], targets: [
                .target(name: "Kit", dependencies: [.target(name: "Bar")]),
                .target(name: "Bar", path: "./Custom/Bar/"),
                .testTarget(name: "KitTests", dependencies: ["Kit"]),
            ])
            """)
        #expect(literal == ["Kit/Sources/Kit/A.swift", "Kit/Custom/Bar/B.swift"])
        #expect(report.statistics.skippedNotInTarget == 2)
        let (looped, _) = try flagged("""
            // swift-tools-version:5.9
            import PackageDescription
            let names = ["Kit", "Bar"]
            let package = Package(name: "Kit", platforms: [.iOS(.v17)], targets: names.map { .target(name: $0) })
            """)
        #expect(looped == ["Kit/Sources/Kit/A.swift", "Kit/Custom/Bar/B.swift", "Kit/Stray/Sources/C.swift", "Kit/Sources/Old/D.swift"])
    }

    /// A project file nested past anything Xcode writes never reaches the property-list parser.
    @Test func aDeeplyNestedProjectFileIsNotParsed() {
        let hostile = "{ objects = " + String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000) + "; }"
        #expect(XcodeTargets.parse(Array(hostile.utf8)) == nil)
        #expect(XcodeTargets.parse(Array("not a property list {{".utf8)) == nil)
    }

    /// In an app, a cell nib whose class nothing registers or names is never loaded: its
    /// findings are left out; once code registers the class they stand.
    @Test func xibsWhoseClassNothingNamesAreLeftOut() throws {
        let xib = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
                    <view contentMode="scaleToFill" customClass="HeaderCell" id="hdr-vw-001">
                        <rect key="frame" x="0.0" y="0.0" width="375" height="60"/>
                        <subviews>
                            <label opaque="NO" text="Channel" id="hdr-lb-001">
                                <rect key="frame" x="16" y="12" width="200" height="20"/>
                                <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                            </label>
                        </subviews>
                    </view>
                </objects>
            </document>
            """
        func findings(registering: Bool, fromObjectiveC: Bool = false) throws -> [Finding] {
            let repository = try TemporaryRepository()
            try repository.write("App/Main.swift", "import UIKit\n@main final class AppDelegate: UIResponder, UIApplicationDelegate {\n    var root: UIViewController { List() }\n}\n")
            try repository.write("App/HeaderCell.xib", xib)
            try repository.write("App/HeaderCell.swift", "import UIKit\nfinal class HeaderCell: UICollectionViewCell {}\n")
            if fromObjectiveC {
                try repository.write("App/Legacy/SPListController.m", "#import \"App-Swift.h\"\n@implementation SPListController\n- (void)viewDidLoad { [self.collectionView registerNib:[UINib nibWithNibName:@\"HeaderCell\" bundle:nil] forCellWithReuseIdentifier:NSStringFromClass([HeaderCell class])]; }\n@end\n")
            }
            if registering {
                try repository.write("App/List.swift", """
                    import UIKit
                    final class List: UICollectionViewController {
                        override func viewDidLoad() {
                            collectionView.register(UINib(nibName: "HeaderCell", bundle: nil), forCellWithReuseIdentifier: String(describing: HeaderCell.self))
                        }
                    }
                    """)
            }
            let report = try Scanner(options: ScanOptions(config: AuditConfig()))
                .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
            return report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }
        }
        #expect(try findings(registering: false).isEmpty)
        #expect(try findings(registering: true).count == 1)
        #expect(try findings(registering: false, fromObjectiveC: true).count == 1, "Objective-C code names it")
    }

    /// In an app, a storyboard scene is shown as the entry point, through a segue, or when
    /// code asks for its storyboard identifier (a literal, an enum case, a generated accessor in
    /// another letter case) or names its class; a scene with none of these never shows, and its
    /// findings are left out. A segue drawn from a controller with no identifier cannot be
    /// performed, so it shows nothing either.
    @Test func storyboardScenesNothingShowsAreLeftOut() throws {
        func scene(_ id: String, _ attributes: String, segue: String = "") -> String {
            """
                    <scene sceneID="sc-\(id)">
                        <objects>
                            <viewController \(attributes) id="\(id)" sceneMemberID="viewController">
                                <view key="view" contentMode="scaleToFill" id="vw-\(id)">
                                    <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                                    <subviews>
                                        <label opaque="NO" text="Title" id="lb-\(id)">
                                            <rect key="frame" x="16" y="100" width="300" height="21"/>
                                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                                        </label>
                                    </subviews>
                                </view>
                                \(segue)
                            </viewController>
                        </objects>
                    </scene>
            """
        }
        let storyboard = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" initialViewController="home">
                <scenes>
            \(scene("home", "customClass=\"HomeViewController\"", segue: "<connections><segue destination=\"pushed\" kind=\"show\" identifier=\"showPushed\" id=\"sg-1\"/></connections>"))
            \(scene("pushed", ""))
            \(scene("literal", "storyboardIdentifier=\"SettingsScene\""))
            \(scene("generated", "storyboardIdentifier=\"ProfileScene\""))
            \(scene("byClass", "storyboardIdentifier=\"Onboarding\" customClass=\"OnboardingViewController\""))
            \(scene("referenced", "storyboardIdentifier=\"Shared\""))
            \(scene("constant", "storyboardIdentifier=\"LegalScene\""))
            \(scene("unnamed", "customClass=\"LegacyViewController\""))
            \(scene("forgotten", "storyboardIdentifier=\"OldScene\" customClass=\"OldViewController\"", segue: "<connections><segue destination=\"manual\" kind=\"show\" id=\"sg-2\"/></connections>"))
            \(scene("manual", ""))
                </scenes>
            </document>
            """
        let other = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <scenes>
                    <scene sceneID="sc-ref">
                        <objects>
                            <viewControllerPlaceholder storyboardName="Main" referencedIdentifier="Shared" id="ref-1" sceneMemberID="viewController"/>
                        </objects>
                    </scene>
                </scenes>
            </document>
            """
        let repository = try TemporaryRepository()
        try repository.write("App/Main.swift", """
            import UIKit
            @main final class AppDelegate: UIResponder, UIApplicationDelegate {
                func show(_ storyboard: UIStoryboard) {
                    _ = storyboard.instantiateViewController(withIdentifier: "SettingsScene")
                    _ = R.storyboard.main.profileScene()
                    _ = OnboardingViewController.make()
                }
            }
            """)
        try repository.write("App/Controllers.swift", """
            import UIKit
            final class HomeViewController: UIViewController {}
            final class OnboardingViewController: UIViewController {
                static func make() -> OnboardingViewController { fatalError() }
            }
            final class LegacyViewController: UIViewController {}
            final class OldViewController: UIViewController {}
            func legacy() -> LegacyViewController { LegacyViewController() }
            """)
        try repository.write("App/Base.lproj/Main.storyboard", storyboard)
        try repository.write("App/Base.lproj/Other.storyboard", other)
        // A constants file without UI imports.
        try repository.write("App/Scenes.swift", "import Foundation\nenum Scenes { static let legal = \"LegalScene\" }\n")
        var config = AuditConfig()
        config.platforms = PlatformSet(.iOS)
        let report = try Scanner(options: ScanOptions(config: config))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let labels = Set(report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }.map(\.snippet))
        #expect(labels == Set(["home", "pushed", "literal", "generated", "byClass", "referenced", "constant"].map { "<label id=\"lb-\($0)\">" }))
        #expect(report.statistics.findingsUnused >= 2)
    }

    /// A small button in a table row whose selection does what the button does (both call the
    /// controller's `updateMode`) is reached by tapping anywhere in the row: review. A button
    /// whose action the row does not share stays a violation.
    @Test func aButtonWhoseRowSelectionDoesTheSameGoesToReview() throws {
        func cellButton(_ id: String, _ selector: String, y: Int) -> String {
            """
                                    <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="\(id)">
                                        <rect key="frame" x="16" y="\(y)" width="24" height="24"/>
                                        <state key="normal" image="radio"/>
                                        <connections>
                                            <action selector="\(selector)" destination="settings" eventType="touchUpInside" id="ac-\(id)"/>
                                        </connections>
                                    </button>
            """
        }
        let storyboard = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" initialViewController="settings">
                <scenes>
                    <scene sceneID="sc-settings">
                        <objects>
                            <tableViewController customClass="SettingsController" id="settings" sceneMemberID="viewController">
                                <tableView key="view" clipsSubviews="YES" contentMode="scaleToFill" id="table">
                                    <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                                    <prototypes>
                                        <tableViewCell contentMode="scaleToFill" id="cell">
                                            <rect key="frame" x="0.0" y="50" width="393" height="60"/>
                                            <tableViewCellContentView key="contentView" contentMode="center" id="content">
                                                <rect key="frame" x="0.0" y="0.0" width="393" height="60"/>
                                                <subviews>
            \(cellButton("same", "modeTapped:", y: 18))
            \(cellButton("other", "shareTapped:", y: 18))
                                                </subviews>
                                            </tableViewCellContentView>
                                        </tableViewCell>
                                    </prototypes>
                                </tableView>
                            </tableViewController>
                        </objects>
                    </scene>
                </scenes>
            </document>
            """
        let repository = try TemporaryRepository()
        try repository.write("App/Main.swift", "import UIKit\n@main final class AppDelegate: UIResponder, UIApplicationDelegate {}\n")
        try repository.write("App/SettingsController.swift", """
            import UIKit
            final class SettingsController: UITableViewController {
                @IBAction func modeTapped(_ sender: UIButton) { updateMode(index: sender.tag) }
                @IBAction func shareTapped(_ sender: UIButton) { share() }
                func updateMode(index: Int) { tableView.reloadData() }
                func share() { tableView.reloadData() }
            }
            extension SettingsController {
                override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
                    updateMode(index: indexPath.row)
                    tableView.deselectRow(at: indexPath, animated: true)
                }
            }
            """)
        try repository.write("App/Base.lproj/Main.storyboard", storyboard)
        var config = AuditConfig()
        config.platforms = PlatformSet(.iOS)
        let report = try Scanner(options: ScanOptions(config: config))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let regions = Dictionary(report.findings.filter { $0.ruleID == "hit-region-too-small" }.map { ($0.snippet, $0.certainty) },
                                 uniquingKeysWith: { first, _ in first })
        #expect(regions["<button id=\"same\">"] == .review)
        #expect(regions["<button id=\"other\">"] == .violation, "share() only shares a framework call with the row's selection")
    }

    /// A view that only `#if os(macOS)` code and Mac-only files build appears only on the Mac,
    /// whatever platforms its shared folder builds for: its Dynamic Type findings (an iPhone
    /// and iPad claim) are dropped. A view also built outside such code keeps them.
    @Test func aViewOnlyMacCodeBuildsIsJudgedForTheMac() throws {
        let repository = try TemporaryRepository()
        try repository.write("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Notes\", platforms: [.iOS(.v17), .macOS(.v14)], targets: [.executableTarget(name: \"Notes\")])\n")
        try repository.write("Sources/Notes/App.swift", """
            import SwiftUI
            @main struct NotesApp: App {
                var body: some Scene { WindowGroup { Root() } }
            }
            """)
        try repository.write("Sources/Notes/Root.swift", """
            import SwiftUI
            struct Root: View {
                var body: some View {
                    #if os(macOS)
                    MacSidebar()
                    #endif
                    Row()
                }
            }
            """)
        let fixed = "    var body: some View { Text(\"Notes\").font(.system(size: 9)) }\n}\n"
        try repository.write("Sources/Notes/MacSidebar.swift", "import SwiftUI\nstruct MacSidebar: View {\n" + fixed)
        try repository.write("Sources/Notes/Row.swift", "import SwiftUI\nstruct Row: View {\n" + fixed)
        let report = try Scanner(options: ScanOptions(config: AuditConfig()))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
        let fonts = report.findings.filter { $0.ruleID == "fixed-font-size" }
        #expect(fonts.map(\.location.file) == ["Sources/Notes/Row.swift"])
        #expect(fonts.first?.platforms.contains(.iOS) == true)
    }
}
