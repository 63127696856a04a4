import AuditModel
import InterfaceBuilder
import SwiftSyntax

/// A drawn macOS control between Apple's 20x20 pt minimum and its 28x28 pt default size.
struct ControlBelowDefaultSizeRule: SourceRule, DocumentRule {
    let description = RuleDescription(
        id: "control-below-default-size",
        title: "Mac control below the 28x28 pt default size",
        category: .layout,
        platforms: PlatformSet(.macOS),
        kind: .recommendation, certainty: .review,
        rationale: """
            Apple's table gives macOS controls a default size of 28x28 pt and a minimum of 20x20 pt. \
            A control drawn between the two meets the minimum but is harder to hit than the native \
            ones around it. Below 20 pt is hit-region-too-small. Only macOS is checked: on iOS and \
            visionOS the hit region rule already asks for more.
            """,
        citations: [
            Citation("HIG › Accessibility, Mobility", "Strive to meet the recommended minimum control size for each platform."),
            Citation("HIG › Accessibility, Mobility",
                     "Consider spacing between controls as important as size. … In general, it works well to add about 12 points of padding around elements that include a bezel. For elements without a bezel, about 24 points of padding works well around the element's visible edges."),
        ],
        fix: """
            Draw the control at 28x28 pt (the size of a native toolbar button), or keep the drawing \
            small and give it a 28 pt frame with `.contentShape(Rectangle())`.
            """,
        limitations: """
            Titled AppKit controls (push buttons, checkboxes, pop-up buttons) are laid out at system \
            sizes by their control size and are not measured; only image-only buttons are. Sizes \
            given by variables are not known. Storyboard and xib findings can be turned off or \
            re-graded only in `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct Sidebar: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "plus") }↓.frame(width: 22, height: 22)
                    }
                }
                #endif
                """),
            RuleExample("""
                import AppKit
                import SwiftUI
                struct Filter: View {
                    var body: some View { Image(systemName: "line.3.horizontal.decrease")↓.frame(width: 24, height: 24).onTapGesture { } }
                }
                """),
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" useAutolayout="YES">
                    <objects>
                        <customView id="c22-O7-iKe">
                            <rect key="frame" x="0.0" y="0.0" width="480" height="60"/>
                            <subviews>
                                ↓<button translatesAutoresizingMaskIntoConstraints="NO" id="gear-bt-01">
                                    <rect key="frame" x="20" y="20" width="22" height="22"/>
                                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="gearshape" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="gear-cl-01">
                                        <font key="font" metaFont="system"/>
                                    </buttonCell>
                                </button>
                            </subviews>
                        </customView>
                    </objects>
                </document>
                """, file: "Toolbar.xib"),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct Toolbar: View {
                    var body: some View { Button { } label: { Image(systemName: "plus") }.frame(width: 28, height: 28) }
                }
                #endif
                """),
            // The same 22 pt button on iOS is hit-region-too-small's, not this rule's.
            RuleExample("""
                import SwiftUI
                #if os(iOS)
                struct Toolbar: View {
                    var body: some View { Button { } label: { Image(systemName: "plus") }.frame(width: 22, height: 22) }
                }
                #endif
                """),
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" useAutolayout="YES">
                    <objects>
                        <customView id="c22-O7-iKe">
                            <rect key="frame" x="0.0" y="0.0" width="480" height="60"/>
                            <subviews>
                                <button translatesAutoresizingMaskIntoConstraints="NO" id="gear-bt-01">
                                    <rect key="frame" x="20" y="20" width="28" height="28"/>
                                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="gearshape" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="gear-cl-01">
                                        <font key="font" metaFont="system"/>
                                    </buttonCell>
                                </button>
                                <button verticalHuggingPriority="750" translatesAutoresizingMaskIntoConstraints="NO" id="ok-bt-0001">
                                    <rect key="frame" x="380" y="13" width="76" height="32"/>
                                    <buttonCell key="cell" type="push" title="OK" bezelStyle="rounded" alignment="center" borderStyle="border" inset="2" id="ok-cl-0001">
                                        <font key="font" metaFont="system"/>
                                    </buttonCell>
                                </button>
                            </subviews>
                        </customView>
                    </objects>
                </document>
                """, file: "Toolbar.xib"),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        guard let recommended = ControlSizeThreshold.macOSDefault(file.reference),
              let minimum = ControlSizeThreshold.required(.macOS, file.reference) else { return }
        for region in SwiftUIHitRegion.measure(file) where file.platforms(at: region.frame).contains(.macOS) {
            guard Self.between(region.width, region.height, minimum, recommended),
                  let member = region.frame.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
            sink.report(region.frame, at: member.period,
                        "\(region.control) is \(ControlSizeThreshold.size(width: region.width, height: region.height)) on macOS, below the \(recommended.points)x\(recommended.points) pt default control size (the minimum is \(minimum.points)x\(minimum.points) pt)",
                        platforms: PlatformSet(.macOS))
        }
    }

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        guard file.platforms.contains(.macOS), let recommended = ControlSizeThreshold.macOSDefault(file.reference),
              let minimum = ControlSizeThreshold.required(.macOS, file.reference) else { return }
        for view in file.document.views where InterfaceBuilderHitRegion.isMeasured(view, in: file.document)
            && !InterfaceBuilderHitRegion.isDrawnAtItsOwnSize(view, in: file.document) {
            guard Self.between(view.width, view.height, minimum, recommended) else { continue }
            sink.report(view, "\(InterfaceBuilderHitRegion.name(view)) is \(ControlSizeThreshold.size(width: view.width, height: view.height)), below the \(recommended.points)x\(recommended.points) pt default control size of macOS (the minimum is \(minimum.points)x\(minimum.points) pt)",
                        platforms: PlatformSet(.macOS))
        }
    }

    /// Below the default in some dimension, and at or above the minimum in every known one.
    static func between(_ width: Double?, _ height: Double?, _ minimum: Double, _ recommended: Double) -> Bool {
        ControlSizeThreshold.misses(width: width, height: height, recommended)
            && !ControlSizeThreshold.misses(width: width, height: height, minimum)
    }
}
