import AuditModel
import InterfaceBuilder

/// An Interface Builder accessibility label that names the element's type ("Play button").
struct InterfaceBuilderLabelNamesTraitRule: DocumentRule {
    let description = RuleDescription(
        id: "ib-label-names-trait",
        title: "Interface Builder accessibility label names its trait",
        category: .layout,
        kind: .recommendation,
        rationale: """
            VoiceOver announces a control's type from its traits, so a label that also says \
            "button" or "image" is heard twice ("Play button, button"). The same check as \
            accessibility-label-names-trait, for labels typed into Interface Builder.
            """,
        citations: [
            Citation("SwiftUI › accessibilityLabel(_:)",
                     "Don't include text in the label that repeats information that users already have. For example, don't use the label 'Play button' because a button already has a trait that identifies it as a button."),
        ],
        fix: "Drop the type word from the Label field: \"Play\", not \"Play button\".",
        limitations: """
            Labels set in code or in `.strings` files are not seen here. Findings can be turned off \
            or re-graded only in `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="ply-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="play.fill" catalog="system"/>
                    <accessibility key="accessibilityConfiguration" label="Play button"/>
                </button>
                ↓<imageView clipsSubviews="YES" userInteractionEnabled="NO" contentMode="scaleAspectFit" image="avatar" translatesAutoresizingMaskIntoConstraints="NO" id="avt-iv-001">
                    <rect key="frame" x="16" y="80" width="60" height="60"/>
                    <accessibility key="accessibilityConfiguration" label="Profile image">
                        <bool key="isElement" value="YES"/>
                    </accessibility>
                </imageView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample(InterfaceBuilderExample.macOS("""
                ↓<button translatesAutoresizingMaskIntoConstraints="NO" id="shr-bt-001">
                    <rect key="frame" x="20" y="20" width="28" height="28"/>
                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="ShareIcon" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="shr-cl-001">
                        <font key="font" metaFont="system"/>
                    </buttonCell>
                    <accessibility description="Share button"/>
                </button>
                """), file: "Window.xib"),
        ],
        nonTriggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="ply-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="play.fill" catalog="system"/>
                    <accessibility key="accessibilityConfiguration" label="Play"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="img-bt-001">
                    <rect key="frame" x="76" y="16" width="44" height="44"/>
                    <state key="normal" image="photo.badge.plus" catalog="system"/>
                    <accessibility key="accessibilityConfiguration" label="Add image"/>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ]
    )

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        for view in file.document.views {
            guard let label = view.accessibility.label, !file.isLocalizedKey(label),
                  let word = AccessibilityLabelNamesTraitRule.namedType(in: label) else { continue }
            sink.report(view, "\(view.kind) has the accessibility label \"\(label)\", which names its type (\"\(word)\"); VoiceOver already announces the type from the trait, so it is heard twice")
        }
    }
}
