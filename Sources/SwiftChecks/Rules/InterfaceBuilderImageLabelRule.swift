import AuditModel
import InterfaceBuilder

/// Storyboard and xib image-only buttons and accessible image views whose label is missing
/// (VoiceOver then reads the image's asset name) or is a raw identifier.
struct InterfaceBuilderImageLabelRule: DocumentRule {
    let description = RuleDescription(
        id: "ib-image-control-label",
        title: "Image-only control or image in Interface Builder without a real label",
        category: .layout,
        kind: .requirement, certainty: .review,
        rationale: """
            An image-only button or an image view exposed to VoiceOver needs a label written for a \
            listener. With none, UIKit falls back to the image's asset name ("ic_trash_24"), and \
            an identifier typed into the Label field is read out the same way. SF Symbols and \
            AppKit's system images come with labels of their own and are not flagged when unlabelled.
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
            Citation("SwiftUI › accessibilityLabel(_:)",
                     "Use this method to provide an accessibility label for a view that doesn't display text, like an icon. For example, you could use this method to label a button that plays music with the text 'Play'."),
        ],
        fix: """
            In the Identity inspector's Accessibility section, type a short label that says what \
            the control does ("Delete", "Play"). For an image that only decorates, untick \
            Accessibility Enabled instead.
            """,
        limitations: """
            A label set in code (`accessibilityLabel = …` in the view controller) or in a \
            `.strings` file keyed by the object id is not seen. Findings can be turned off or \
            re-graded only in `.a11y-audit.json`: XML has no inline suppression comment.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="del-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="ic_trash_24"/>
                </button>
                ↓<imageView clipsSubviews="YES" userInteractionEnabled="NO" contentMode="scaleAspectFit" image="chart_q3" translatesAutoresizingMaskIntoConstraints="NO" id="chr-iv-001">
                    <rect key="frame" x="16" y="80" width="300" height="100"/>
                    <accessibility key="accessibilityConfiguration">
                        <accessibilityTraits key="traits" image="YES"/>
                        <bool key="isElement" value="YES"/>
                    </accessibility>
                </imageView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="ply-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="play.fill" catalog="system"/>
                    <accessibility key="accessibilityConfiguration" label="btn_play"/>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Player.xib"),
            RuleExample(InterfaceBuilderExample.macOS("""
                ↓<button translatesAutoresizingMaskIntoConstraints="NO" id="shr-bt-001">
                    <rect key="frame" x="20" y="20" width="28" height="28"/>
                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="ShareIcon" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="shr-cl-001">
                        <font key="font" metaFont="system"/>
                    </buttonCell>
                </button>
                """), file: "Window.xib"),
        ],
        nonTriggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="del-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="ic_trash_24"/>
                    <accessibility key="accessibilityConfiguration" label="Delete"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="ply-bt-001">
                    <rect key="frame" x="76" y="16" width="44" height="44"/>
                    <state key="normal" image="play.fill" catalog="system"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="snd-bt-001">
                    <rect key="frame" x="136" y="16" width="80" height="44"/>
                    <state key="normal" title="Send" image="paperplane"/>
                </button>
                <imageView clipsSubviews="YES" userInteractionEnabled="NO" contentMode="scaleAspectFit" image="divider" translatesAutoresizingMaskIntoConstraints="NO" id="div-iv-001">
                    <rect key="frame" x="16" y="80" width="300" height="2"/>
                </imageView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample(InterfaceBuilderExample.macOS("""
                <button translatesAutoresizingMaskIntoConstraints="NO" id="add-bt-001">
                    <rect key="frame" x="20" y="20" width="28" height="28"/>
                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="NSAddTemplate" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="add-cl-001">
                        <font key="font" metaFont="system"/>
                    </buttonCell>
                </button>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="shr-bt-001">
                    <rect key="frame" x="60" y="20" width="28" height="28"/>
                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="ShareIcon" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="shr-cl-001">
                        <font key="font" metaFont="system"/>
                    </buttonCell>
                    <accessibility description="Share"/>
                </button>
                """), file: "Window.xib"),
        ]
    )

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        for view in file.document.views where !view.isHidden && view.accessibility.isElement != false {
            let isImageButton = view.isImageOnly
            let isAccessibleImage = view.kind == "imageView" && view.accessibility.isElement == true
            guard isImageButton || isAccessibleImage else { continue }
            let what = isImageButton ? "image-only \(view.kind)" : "image view exposed to VoiceOver"
            let label = view.accessibility.label.map(AccessibilityLabels.trimmed) ?? ""
            if label.isEmpty {
                if view.imageIsSystem && isImageButton { continue }
                let image = view.image.map { " \"\($0)\"" } ?? ""
                sink.report(view, "\(what) showing\(image) has no accessibility label; VoiceOver reads the image's name or nothing at all",
                            overriddenBy: ["accessibilityLabel", "isAccessibilityElement"])
            } else if let shape = AccessibilityLabelRawIdentifierRule.identifierShape(label), !file.isLocalizedKey(label) {
                sink.report(view, "\(what) has the accessibility label \"\(label)\", \(shape); VoiceOver reads it aloud as written",
                            overriddenBy: ["accessibilityLabel"])
            }
        }
    }
}
