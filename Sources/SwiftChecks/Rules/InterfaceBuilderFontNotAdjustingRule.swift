import AuditModel
import InterfaceBuilder

/// A storyboard or xib label, text field or text view with a text style but without
/// "Automatically Adjusts Font": right at launch, deaf to later text-size changes.
struct InterfaceBuilderFontNotAdjustingRule: DocumentRule {
    let description = RuleDescription(
        id: "ib-font-not-adjusting",
        title: "Interface Builder text style without Automatically Adjusts Font",
        category: .layout,
        platforms: PlatformSet([.iOS, .tvOS, .visionOS]),
        kind: .recommendation,
        rationale: """
            A text style picked in Interface Builder gives the right size when the view loads, but \
            unless "Automatically Adjusts Font" is ticked (`adjustsFontForContentSizeCategory="YES"`) \
            the text keeps that size when people change it in Settings or Control Center.
            """,
        citations: [
            Citation("UIKit › Scaling fonts automatically",
                     "the font will initially be the right size, but it won't respond to text-size changes the user makes in Settings or Control Center."),
        ],
        fix: "Tick Dynamic Type \"Automatically Adjusts Font\" in the Attributes inspector.",
        limitations: """
            `adjustsFontForContentSizeCategory = true` set in code is not seen. Findings can be turned \
            off or re-graded only in `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Order 1042" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="ord-lb-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                ↓<textView clipsSubviews="YES" multipleTouchEnabled="YES" contentMode="scaleToFill" text="Notes" textAlignment="natural" translatesAutoresizingMaskIntoConstraints="NO" id="nts-tv-001">
                    <rect key="frame" x="16" y="50" width="300" height="120"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                    <textInputTraits key="textInputTraits" autocapitalizationType="sentences"/>
                </textView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ],
        nonTriggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Order 1042" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="ord-lb-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Fixed" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="fix-lb-001">
                    <rect key="frame" x="16" y="50" width="200" height="21"/>
                    <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ]
    )

    static let kinds: Set<String> = ["label", "textField", "textView"]

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        guard !file.document.isAppKit else { return }
        for view in file.document.views where Self.kinds.contains(view.kind) && !view.adjustsFontForContentSizeCategory {
            guard let style = view.font?.textStyle else { continue }
            let text = view.title.map { " \"\($0)\"" } ?? ""
            sink.report(view, "\(view.kind)\(text) uses the \(style) text style without \"Automatically Adjusts Font\"; it keeps its launch size when people change the text size")
        }
    }
}
