import AuditModel
@testable import AuditScanner
@testable import SwiftChecks
import Foundation
import Testing

/// Facts that live outside the Swift file or document a finding is in: Objective-C classes that
/// restyle their outlets, views that load their nib into a host, the app's own name, and
/// XcodeGen projects.
struct CodeElsewhereTests {
    static func scan(_ repository: TemporaryRepository, platforms: PlatformSet? = nil) throws -> ScanReport {
        var config = AuditConfig()
        config.platforms = platforms
        return try Scanner(options: ScanOptions(config: config))
            .scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000), root: repository.path)
    }

    /// An Objective-C class that sets its outlet's font (`self.titleLabel.font = …`, or
    /// `[_subtitleLabel setFont:…]`, attributed text built with a font) replaces the document's;
    /// a label it leaves alone keeps it.
    @Test func objectiveCOutletAssignmentsReplaceDocumentFonts() throws {
        let xib = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
                    <view contentMode="scaleToFill" customClass="MiniPlayerView" id="mp-vw">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="64"/>
                        <subviews>
                            <label opaque="NO" text="Title" id="mp-title"><rect key="frame" x="16" y="8" width="300" height="20"/><fontDescription key="fontDescription" style="UICTFontTextStyleBody"/></label>
                            <label opaque="NO" text="Live" id="mp-sub"><rect key="frame" x="16" y="30" width="300" height="20"/><fontDescription key="fontDescription" style="UICTFontTextStyleFootnote"/></label>
                            <label opaque="NO" text="Left" id="mp-left"><rect key="frame" x="16" y="44" width="300" height="20"/><fontDescription key="fontDescription" style="UICTFontTextStyleFootnote"/></label>
                            <label opaque="NO" text="Badge" id="mp-badge"><rect key="frame" x="16" y="44" width="60" height="20"/><fontDescription key="fontDescription" style="UICTFontTextStyleFootnote"/></label>
                        </subviews>
                        <connections>
                            <outlet property="titleLabel" destination="mp-title" id="o1"/>
                            <outlet property="subtitleLabel" destination="mp-sub" id="o2"/>
                            <outlet property="leftLabel" destination="mp-left" id="o3"/>
                            <outlet property="badgeLabel" destination="mp-badge" id="o4"/>
                        </connections>
                    </view>
                </objects>
            </document>
            """
        let repository = try TemporaryRepository()
        try repository.write("App/Main.swift", "import UIKit\n@main final class AppDelegate: UIResponder, UIApplicationDelegate {}\n")
        try repository.write("App/MiniPlayerView.xib", xib)
        try repository.write("App/MiniPlayerView.h", "#import <UIKit/UIKit.h>\n@interface MiniPlayerView : UIView\n@end\n")
        try repository.write("App/MiniPlayerView.m", """
            #import "MiniPlayerView.h"
            @implementation MiniPlayerView
            - (void)reloadData {
                self.titleLabel.font = [SRGFont fontWithStyle:SRGFontStyleBody];
                [_subtitleLabel setFont:[SRGFont fontWithStyle:SRGFontStyleSubtitle1]];
                if (self.leftLabel.font == nil) { }
                self.badgeLabel.attributedText = [[NSAttributedString alloc] initWithString:@"Live" attributes:@{ NSFontAttributeName : [SRGFont fontWithStyle:SRGFontStyleLabel] }];
            }
            @end
            """)
        try repository.write("App/PlayerViewController.m", "#import \"MiniPlayerView.h\"\n@implementation PlayerViewController\n- (void)viewDidLoad { MiniPlayerView *view = [MiniPlayerView new]; }\n@end\n")
        let report = try Self.scan(repository, platforms: PlatformSet(.iOS))
        let labels = Set(report.findings.filter { $0.ruleID == "ib-font-not-adjusting" }.map(\.snippet))
        #expect(labels == ["<label id=\"mp-left\">"], "a comparison is not an assignment")
    }

    /// A view that loads its own xib into itself and stretches it to its host: the xib's frames
    /// are a design canvas, so its keys' sizes go to a person.
    @Test func aXibItsOwnerLoadsIntoAHostIsMeasuredByAPerson() throws {
        let xib = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner" customClass="\\(owner)"/>
                    <view contentMode="scaleToFill" id="kp-vw">
                        <rect key="frame" x="0.0" y="0.0" width="251" height="164"/>
                        <subviews>
                            <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="kp-5">
                                <rect key="frame" x="84" y="41" width="83" height="41"/>
                                <state key="normal" title="5"/>
                                <connections><action selector="tapped:" destination="-1" eventType="touchUpInside" id="kp-a5"/></connections>
                            </button>
                        </subviews>
                    </view>
                </objects>
            </document>
            """
        func certainty(loading: Bool, document: String? = nil) throws -> Certainty? {
            let repository = try TemporaryRepository()
            try repository.write("App/Main.swift", "import UIKit\n@main final class AppDelegate: UIResponder, UIApplicationDelegate {\n    let pad = KeyPadView()\n}\n")
            try repository.write("App/KeyPadView.xib", (document ?? xib).replacingOccurrences(of: "\\(owner)", with: "KeyPadView"))
            try repository.write("App/KeyPadView.swift", """
                import UIKit
                final class KeyPadView: UIView {
                    @IBOutlet var contentView: UIView!
                    \(loading ? "func setup() { Bundle.main.loadNibNamed(\"KeyPadView\", owner: self, options: nil); contentView.frame = bounds }" : "")
                    @IBAction func tapped(_ sender: UIButton) {}
                }
                """)
            let report = try Self.scan(repository, platforms: PlatformSet(.iOS))
            return report.findings.first { $0.ruleID == "hit-region-too-small" }?.certainty
        }
        #expect(try certainty(loading: true) == .review)
        #expect(try certainty(loading: false) == .violation)
        // A size constant on the key fixes it wherever the pad goes.
        let fixed = xib.replacingOccurrences(of: "<state key=\"normal\" title=\"5\"/>",
                                             with: "<state key=\"normal\" title=\"5\"/><constraints><constraint firstAttribute=\"height\" constant=\"41\" id=\"kp-h\"/></constraints>")
        #expect(try certainty(loading: true, document: fixed) == .violation)
    }

    /// An image named after the app (its project or target) is most likely its logo, which the
    /// app's name labels well: a person decides. Another name stays a violation.
    @Test func anImageNamedAfterTheAppGoesToReview() throws {
        let repository = try TemporaryRepository()
        try repository.write("OctoPod.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ archiveVersion = 1; objects = { }; rootObject = R1; }\n")
        try repository.write("App/Logo.swift", """
            import SwiftUI
            @main struct OctoApp: App { var body: some Scene { WindowGroup { Logo() } } }
            struct Logo: View {
                var body: some View {
                    Image("OctoPod")
                    Image("ic_printer_badge")
                }
            }
            """)
        let report = try Self.scan(repository, platforms: PlatformSet(.iOS))
        let images = Dictionary(report.findings.filter { $0.ruleID == "image-asset-name-spoken" }.map { ($0.location.line, $0.certainty) },
                                uniquingKeysWith: { first, _ in first })
        #expect(images == [5: .review, 6: .violation])
    }

    /// A nameless image in a view that another file combines, or places in a link's label (where
    /// text may name the link), goes to a person; the same image in a view shown bare stays a
    /// violation.
    @Test func aNamelessImageInAViewAnotherFileGroupsGoesToReview() throws {
        let repository = try TemporaryRepository()
        try repository.write("Chat.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ archiveVersion = 1; objects = { }; rootObject = R1; }\n")
        try repository.write("App/Rows.swift", """
            import SwiftUI
            import UIKit
            struct ConversationRow: View {
                let picture: UIImage
                var body: some View { HStack { Image(uiImage: picture); Text("Ada") } }
            }
            struct PreviewCard: View {
                let picture: UIImage
                var body: some View { VStack { Image(uiImage: picture); Text("Preview") } }
            }
            struct Banner: View {
                let picture: UIImage
                var body: some View { Image(uiImage: picture) }
            }
            """)
        try repository.write("App/Screens.swift", """
            import SwiftUI
            import UIKit
            @main struct ChatApp: App { var body: some Scene { WindowGroup { Screens(picture: UIImage()) } } }
            struct Screens: View {
                let picture: UIImage
                var body: some View {
                    NavigationLink { Text("Chat") } label: { ConversationRow(picture: picture) }
                    PreviewCard(picture: picture).accessibilityElement(children: .combine)
                    Banner(picture: picture)
                }
            }
            """)
        let report = try Self.scan(repository, platforms: PlatformSet(.iOS))
        let images = Dictionary(report.findings.filter { $0.ruleID == "image-without-label" }.map { ($0.location.line, $0.certainty) },
                                uniquingKeysWith: { first, _ in first })
        #expect(images == [5: .review, 9: .review, 13: .violation], "\(report.findings.map { ($0.ruleID, $0.location.line, $0.message) })")
    }

    /// A link whose whole label is a view another file declares, which shows only a nameless
    /// picture, has no name; a link labelled by a view that also shows text is named.
    @Test func aLinkLabelledOnlyByAnImageOnlyViewElsewhereHasNoName() throws {
        let repository = try TemporaryRepository()
        try repository.write("Social.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ archiveVersion = 1; objects = { }; rootObject = R1; }\n")
        try repository.write("App/Avatar.swift", """
            import SwiftUI
            struct Avatar: View {
                let url: URL?
                var body: some View {
                    AsyncImage(url: url) { image in image.resizable() } placeholder: { ZStack { Circle(); Image(systemName: "person.fill") } }
                        .frame(width: 52, height: 52)
                }
            }
            struct NameTag: View {
                let url: URL?
                var body: some View { HStack { AsyncImage(url: url); Text("Ada") } }
            }
            """)
        try repository.write("App/Row.swift", """
            import SwiftUI
            @main struct SocialApp: App { var body: some Scene { WindowGroup { Row(url: nil) } } }
            struct Row: View {
                let url: URL?
                var body: some View {
                    NavigationLink { Text("Profile") } label: { Avatar(url: url) }
                    NavigationLink { Text("Profile") } label: { NameTag(url: url) }
                }
            }
            """)
        let report = try Self.scan(repository, platforms: PlatformSet(.iOS))
        let links = report.findings.filter { $0.ruleID == "image-without-label" && $0.location.file == "App/Row.swift" }
        #expect(links.map(\.location.line) == [6] && links.first?.certainty == .violation, "\(report.findings.map { ($0.ruleID, $0.location.file, $0.location.line, $0.message) })")
        #expect(links.first?.message.hasPrefix("`NavigationLink` has no accessible name: its label is only `Avatar`") == true)
    }

    /// An XcodeGen project (`project.yml`, the `.xcodeproj` not checked in) whose targets are
    /// all for the Mac makes its folder's code Mac code: no Dynamic Type claims.
    @Test func anXcodeGenProjectsTargetsDecideThePlatform() throws {
        let repository = try TemporaryRepository()
        try repository.write("project.yml", """
            name: Mastonaut
            targets:
              Mastonaut:
                type: application
                platform: macOS
                sources: [App]
              QuickToot:
                type: app-extension
                platform: macOS
            """)
        try repository.write("App/Status.swift", """
            import SwiftUI
            @main struct MastoApp: App { var body: some Scene { WindowGroup { Text("Toot").font(.system(size: 13)) } } }
            """)
        let report = try Self.scan(repository)
        #expect(report.findings.filter { $0.ruleID == "fixed-font-size" }.isEmpty)
        let iOSRepository = try TemporaryRepository()
        try iOSRepository.write("project.yml", "name: Toots\ntargets:\n  Toots:\n    type: application\n    platform: iOS\n")
        try iOSRepository.write("App/Status.swift", "import SwiftUI\n@main struct TootApp: App { var body: some Scene { WindowGroup { Text(\"Toot\").font(.system(size: 13)) } } }\n")
        #expect(try Self.scan(iOSRepository).findings.contains { $0.ruleID == "fixed-font-size" })
    }

    /// A type is in use only when code that runs names it: a view that only an unused view
    /// builds (and a preview), or only a `#if DEBUG` branch, is not; one a used view builds is.
    @Test func aViewOnlyUnusedViewsBuildIsNotInUse() throws {
        let repository = try TemporaryRepository()
        try repository.write("App/App.swift", """
            import SwiftUI
            @main struct Shop: App { var body: some Scene { WindowGroup { Home() } } }
            """)
        let fixed = "    var body: some View { Text(\"x\").font(.system(size: 9)) }\n}\n"
        try repository.write("App/Home.swift", "import SwiftUI\nstruct Home: View {\n    var body: some View {\n        Banner()\n        #if DEBUG\n        DebugMenu()\n        #endif\n    }\n}\n")
        // A developer menu only a debug build links to.
        try repository.write("App/DebugMenu.swift", "import SwiftUI\nstruct DebugMenu: View {\n" + fixed)
        try repository.write("App/Banner.swift", "import SwiftUI\nstruct Banner: View {\n" + fixed)
        // An extension of a framework type may run from anywhere: what it builds is in use.
        try repository.write("App/Alerts.swift", "import UIKit\nextension UIViewController {\n    func warn() { present(WarningController(), animated: true) }\n}\n")
        try repository.write("App/WarningController.swift", "import SwiftUI\nfinal class WarningController: UIViewController {\n    let label = UILabel()\n    override func viewDidLoad() { label.font = .systemFont(ofSize: 9) }\n}\n")
        try repository.write("App/Legacy.swift", "import SwiftUI\nstruct Legacy: View {\n    var body: some View { EmptyState() }\n}\n#Preview { Legacy() }\n")
        try repository.write("App/EmptyState.swift", "import SwiftUI\nstruct EmptyState: View {\n" + fixed)
        // A type nested in the app's strings shares the view's name; a module-qualified name is the view.
        try repository.write("App/Strings.swift", "enum Strings { enum FacetView { static let title = \"Facets\" } }\n")
        try repository.write("App/Tabs.swift", "import SwiftUI\nimport ShopKit\nstruct Tabs: View {\n    var body: some View { Text(Strings.FacetView.title); ShopKit.Badge() }\n}\n")
        try repository.write("App/FacetView.swift", "import SwiftUI\nstruct FacetView: View {\n" + fixed)
        try repository.write("App/Badge.swift", "import SwiftUI\nstruct Badge: View {\n" + fixed)
        try repository.write("App/Home.swift", "import SwiftUI\nstruct Home: View {\n    var body: some View {\n        Banner()\n        Tabs()\n        #if DEBUG\n        DebugMenu()\n        #endif\n    }\n}\n")
        let report = try Self.scan(repository, platforms: PlatformSet(.iOS))
        #expect(Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file))
                    == ["App/Banner.swift", "App/WarningController.swift", "App/Badge.swift"])
    }
}
