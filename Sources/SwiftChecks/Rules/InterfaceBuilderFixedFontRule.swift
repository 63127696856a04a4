import AuditModel
import InterfaceBuilder

/// A storyboard or xib text view whose font is a point size with no text style.
struct InterfaceBuilderFixedFontRule: DocumentRule {
    static let textKinds: Set<String> = ["label", "textField", "textView", "button"]

    let description = RuleDescription(
        id: "ib-fixed-font",
        title: "Fixed font in Interface Builder does not scale with Dynamic Type",
        category: .layout,
        platforms: PlatformSet([.iOS, .tvOS, .visionOS, .watchOS]),
        kind: .recommendation, certainty: .review,
        rationale: """
            A font chosen in Interface Builder as System, Bold System or a custom face at a point \
            size (`<fontDescription type="system" pointSize="17"/>`) stays that size whatever text \
            size people choose. A text style (`style="UICTFontTextStyleBody"`) scales. macOS has \
            no Dynamic Type, so Mac xibs are not flagged.
            """,
        citations: [
            Citation("UIKit › Scaling fonts automatically", "To add support for Dynamic Type in your app, you use text styles."),
            Citation("WWDC24 › Get started with Dynamic Type",
                     "Instead of providing a fixed font, your app selects one of the system-provided text styles… By using these styles, your app's text can automatically adjust to different sizes that someone may select on their device, but retain the visual hierarchy of your content."),
            Citation("HIG › Typography", "macOS doesn't support Dynamic Type."),
        ],
        fix: """
            In the Attributes inspector choose a text style from the Font menu (Body, Headline, …) \
            and tick Dynamic Type "Automatically Adjusts Font". A custom face needs \
            `UIFontMetrics(forTextStyle:).scaledFont(for:)` in code.
            """,
        limitations: """
            A font replaced in code at run time (`label.font = …` in `viewDidLoad`) is not seen. \
            Findings can be turned off or re-graded only in `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Total" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="tot-lb-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <fontDescription key="fontDescription" type="boldSystem" pointSize="17"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                ↓<textField opaque="NO" contentMode="scaleToFill" contentHorizontalAlignment="left" contentVerticalAlignment="center" borderStyle="roundedRect" placeholder="Email" textAlignment="natural" minimumFontSize="17" translatesAutoresizingMaskIntoConstraints="NO" id="eml-tf-001">
                    <rect key="frame" x="16" y="50" width="300" height="34"/>
                    <fontDescription key="fontDescription" name="Avenir-Book" family="Avenir" pointSize="14"/>
                    <textInputTraits key="textInputTraits" keyboardType="emailAddress"/>
                </textField>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ],
        nonTriggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Total" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="tot-lb-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            // macOS has no Dynamic Type: a fixed size in a Mac xib is not this rule's business.
            RuleExample(InterfaceBuilderExample.macOS("""
                <textField focusRingType="none" horizontalHuggingPriority="251" verticalHuggingPriority="750" translatesAutoresizingMaskIntoConstraints="NO" id="ttl-tf-001">
                    <rect key="frame" x="18" y="160" width="200" height="16"/>
                    <textFieldCell key="cell" lineBreakMode="clipping" title="Inspector" id="ttl-cl-001">
                        <font key="font" metaFont="systemBold" size="13"/>
                        <color key="textColor" name="labelColor" catalog="System" colorSpace="catalog"/>
                        <color key="backgroundColor" name="textBackgroundColor" catalog="System" colorSpace="catalog"/>
                    </textFieldCell>
                </textField>
                """), file: "Inspector.xib"),
        ],
        concernsDynamicType: true
    )

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        guard !file.document.isAppKit else { return }
        for view in file.document.views where Self.textKinds.contains(view.kind) {
            guard let font = view.font, font.isFixedSize, let size = font.pointSize else { continue }
            let face = font.name.map { "custom font \($0)" } ?? "\(font.type ?? "system") font"
            let text = view.title.map { " \"\($0)\"" } ?? ""
            sink.report(view, "\(view.kind)\(text) uses the \(face) at \(size.points) pt with no text style; it will not follow the text size people choose",
                        overriddenBy: ["font", "attributedText"])
        }
    }
}
