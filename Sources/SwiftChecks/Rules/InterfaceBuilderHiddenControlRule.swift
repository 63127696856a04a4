import AuditModel
import InterfaceBuilder

/// A control with Accessibility Enabled unticked, or a view that responds to gestures but is
/// not an accessibility element: a finger can use it, VoiceOver and Switch Control cannot.
struct InterfaceBuilderHiddenControlRule: DocumentRule {
    let description = RuleDescription(
        id: "ib-control-hidden-from-accessibility",
        title: "Interactive element hidden from assistive technologies in Interface Builder",
        category: .layout,
        kind: .requirement, certainty: .review,
        rationale: """
            Unticking Accessibility Enabled on a button or switch (`<bool key="isElement" \
            value="NO"/>`, or `isAccessibilityElement="NO"`) removes it from VoiceOver, Switch \
            Control and Voice Control while it still works for touch. The same happens to a plain \
            view or image view given a gesture recognizer: views are not accessibility elements \
            by default. Hidden and disabled controls are not flagged.
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)", "Set isAccessibilityElement = true on meaningful custom views."),
        ],
        fix: """
            Tick Accessibility Enabled and give the element a label and the Button trait; for a \
            tappable view, prefer a real UIButton. Hide only what is purely decorative.
            """,
        limitations: """
            Accessibility changed in code, or a container that exposes the control through \
            `accessibilityElements`, is not seen. Findings can be turned off or re-graded only in \
            `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="fav-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="heart" catalog="system"/>
                    <accessibility key="accessibilityConfiguration">
                        <bool key="isElement" value="NO"/>
                    </accessibility>
                </button>
                ↓<imageView clipsSubviews="YES" contentMode="scaleAspectFill" image="banner" translatesAutoresizingMaskIntoConstraints="NO" id="ban-iv-001">
                    <rect key="frame" x="16" y="80" width="300" height="100"/>
                    <connections>
                        <outletCollection property="gestureRecognizers" destination="tap-gr-001" appends="YES" id="tap-oc-001"/>
                    </connections>
                </imageView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<switch opaque="NO" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" on="YES" isAccessibilityElement="NO" translatesAutoresizingMaskIntoConstraints="NO" id="ntf-sw-001">
                    <rect key="frame" x="326" y="20" width="51" height="31"/>
                </switch>
                """), platforms: PlatformSet(.iOS), file: "Settings.xib"),
        ],
        nonTriggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="fav-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="heart" catalog="system"/>
                    <accessibility key="accessibilityConfiguration" label="Favorite"/>
                </button>
                <imageView clipsSubviews="YES" contentMode="scaleAspectFill" image="banner" translatesAutoresizingMaskIntoConstraints="NO" id="ban-iv-001">
                    <rect key="frame" x="16" y="80" width="300" height="100"/>
                    <accessibility key="accessibilityConfiguration" label="Summer sale">
                        <accessibilityTraits key="traits" button="YES"/>
                        <bool key="isElement" value="YES"/>
                    </accessibility>
                    <connections>
                        <outletCollection property="gestureRecognizers" destination="tap-gr-001" appends="YES" id="tap-oc-001"/>
                    </connections>
                </imageView>
                <imageView clipsSubviews="YES" userInteractionEnabled="NO" contentMode="scaleAspectFill" image="divider" translatesAutoresizingMaskIntoConstraints="NO" id="div-iv-001">
                    <rect key="frame" x="16" y="190" width="300" height="2"/>
                    <accessibility key="accessibilityConfiguration">
                        <bool key="isElement" value="NO"/>
                    </accessibility>
                </imageView>
                <button hidden="YES" opaque="NO" contentMode="scaleToFill" buttonType="system" id="hid-bt-001">
                    <rect key="frame" x="80" y="16" width="44" height="44"/>
                    <accessibility key="accessibilityConfiguration">
                        <bool key="isElement" value="NO"/>
                    </accessibility>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ]
    )

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        for view in file.document.views where !view.isHidden && view.isEnabled {
            if view.isControl, view.accessibility.isElement == false {
                sink.report(view, "\(InterfaceBuilderHitRegion.name(view)) has Accessibility Enabled turned off; VoiceOver, Switch Control and Voice Control cannot reach a control that touch can")
            } else if !view.isControl, view.hasGestureRecognizers, view.isInteractionEnabled,
                      view.accessibility.isElement != true, view.kind != "label" {
                sink.report(view, "\(view.kind) \"\(view.id)\" responds to a gesture recognizer but is not an accessibility element; assistive technologies cannot find or activate it")
            }
        }
    }
}
