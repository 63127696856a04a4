import AuditModel
import SwiftSyntax

/// A custom tab bar or toolbar type that never adopts the Large Content Viewer: its items
/// cannot grow, and nothing shows them enlarged.
struct LargeContentViewerMissingRule: SourceRule {
    static let barSuffixes = ["TabBar", "Toolbar", "ToolBar", "BottomBar", "NavBar", "NavigationBar", "ActionBar", "TabStrip"]
    static let adoptions = [
        "accessibilityShowsLargeContentViewer", "UILargeContentViewerInteraction", "showsLargeContentViewer",
        "largeContentTitle", "largeContentImage",
    ]

    let description = RuleDescription(
        id: "large-content-viewer-missing",
        title: "Custom bar without the Large Content Viewer",
        platforms: PlatformSet([.iOS, .visionOS]),
        kind: .recommendation,
        rationale: """
            System tab bars and toolbars show an enlarged item on press-and-hold when text is at an \
            accessibility size. A custom bar does not, and its items usually keep a fixed size, so \
            people who need large text get neither.
            """,
        citations: [
            Citation("WWDC24 › Get started with Dynamic Type",
                     "However, if you choose to implement custom bars or views, consider adopting the large content viewer when necessary."),
            Citation("WWDC24 › Get started with Dynamic Type",
                     "If you're using default control bars provided by the system, there is nothing you need to do! This is already supported."),
        ],
        fix: """
            SwiftUI: `.accessibilityShowsLargeContentViewer { Label(title, systemImage: icon) }` on \
            each bar item. UIKit: set `showsLargeContentViewer`, `largeContentTitle` and \
            `largeContentImage` on the items and add a `UILargeContentViewerInteraction` to the bar.
            """,
        limitations: """
            Custom bars are recognised by type name (…TabBar, …Toolbar, …BottomBar, …NavBar); a bar \
            with another name is missed, and a bar type that adopts the viewer in an extension in \
            another file is reported.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                ↓struct FloatingTabBar: View {
                    @Binding var selection: Int
                    var body: some View {
                        HStack { Button("Home") { selection = 0 }; Button("Search") { selection = 1 } }
                            .frame(height: 49)
                    }
                }
                """),
            RuleExample("""
                import UIKit
                ↓final class PlayerToolbar: UIView {
                    let play = UIButton(type: .system)
                    func layout() {
                        heightAnchor.constraint(equalToConstant: 44).isActive = true
                    }
                }
                """),
        ],
        nonTriggering: [
            // A bar that can grow (no fixed height) is not the case Apple describes.
            RuleExample("""
                import SwiftUI
                struct EditorToolbar: View {
                    var body: some View {
                        HStack { ShareLink(item: "x"); Menu("More") { Button("Copy") { } } }
                            .padding()
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct FloatingTabBar: View {
                    var body: some View {
                        Button("Home") { }
                            .accessibilityShowsLargeContentViewer { Label("Home", systemImage: "house") }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class PlayerToolbar: UIView {
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        addInteraction(UILargeContentViewerInteraction())
                    }
                    required init?(coder: NSCoder) { nil }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct TabBarPreviewData { let titles = ["Home"] }
                struct Root: View { var body: some View { TabView { Text("Home") } } }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for declaration in file.index.typeDeclarations {
            guard let name = Self.name(of: declaration),
                  Self.barSuffixes.contains(where: { name.hasSuffix($0) }),
                  Self.isViewType(declaration) else { continue }
            if Self.adoptions.contains(where: { file.index.references($0, in: declaration) }) { continue }
            // The seed's case is a bar that cannot grow: one with a fixed height.
            guard let height = Self.fixedHeight(in: declaration, file) else { continue }
            sink.report(declaration, "custom bar `\(name)` has a fixed height (\(height)) and never adopts the Large Content Viewer, so its items cannot be enlarged at accessibility text sizes")
        }
    }

    /// `.frame(height: 49)` / `.frame(maxHeight: 49)` in SwiftUI, or
    /// `heightAnchor.constraint(equalToConstant: 49)` in UIKit, inside the type.
    static func fixedHeight(in declaration: Syntax, _ file: SourceFile) -> String? {
        let range = declaration.position.utf8Offset..<declaration.endPosition.utf8Offset
        for call in file.index.calls(named: "frame") where range.contains(call.position.utf8Offset) {
            if let height = call.argument("height") ?? call.argument("maxHeight"), let value = height.numberValue {
                return "\(value.points) pt"
            }
        }
        for call in file.index.calls(named: "constraint") where range.contains(call.position.utf8Offset) {
            if call.calleeBaseText?.hasSuffix("heightAnchor") == true, let value = call.argument("equalToConstant")?.numberValue {
                return "\(value.points) pt"
            }
        }
        return nil
    }

    static func name(of declaration: Syntax) -> String? {
        declaration.as(StructDeclSyntax.self)?.name.text ?? declaration.as(ClassDeclSyntax.self)?.name.text
    }

    /// A SwiftUI `View` or a UIKit view/bar subclass, from the inheritance clause.
    static func isViewType(_ declaration: Syntax) -> Bool {
        let inherited = declaration.as(StructDeclSyntax.self)?.inheritanceClause?.inheritedTypes
            ?? declaration.as(ClassDeclSyntax.self)?.inheritanceClause?.inheritedTypes
        return inherited?.contains { type in
            let name = type.type.typeName
            return name == "View" || name.hasPrefix("UI") && (name.hasSuffix("View") || name.hasSuffix("Bar") || name.hasSuffix("Control"))
        } ?? false
    }
}
