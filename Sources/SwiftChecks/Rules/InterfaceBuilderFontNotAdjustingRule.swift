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
            A label whose font or `adjustsFontForContentSizeCategory` code sets \
            (through an outlet connected to it, or in its `customClass`) is not reported: code \
            replaces what the document says, and the Swift rules judge that code. An outlet is \
            matched by its owner's class and property name; an assignment through another object \
            (`cell.nameLabel.font`) matches any outlet of that name, except UIKit's own \
            `titleLabel`, `textLabel` and the like. An `attributedText` whose attributes set a font \
            (in the assignment, or in the local it names) replaces it too; one without keeps the \
            label's font and does not clear the label. Findings can be turned off or re-graded \
            only in `.a11y-audit.json`.
            """,
        triggering: [
            // Hidden, but in a stack code reaches (here by its tag): code may show it.
            RuleExample(InterfaceBuilderExample.iOS("""
                <stackView opaque="NO" tag="7" contentMode="scaleToFill" axis="vertical" spacing="8" translatesAutoresizingMaskIntoConstraints="NO" id="err-st-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <subviews>
                        ↓<label hidden="YES" opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Could not connect" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="err-lb-001">
                            <rect key="frame" x="0.0" y="0.0" width="200" height="21"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                </stackView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
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
            // Attributed text without a font keeps the document's font.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="TitleView" id="ttl-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        ↓<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Title" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="ttl-lb-001">
                            <rect key="frame" x="16" y="12" width="361" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                    <connections>
                        <outlet property="titleText" destination="ttl-lb-001" id="ttl-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "TitleView.xib", assets: [
                "TitleView.swift": """
                    import UIKit
                    final class TitleView: UIView {
                        @IBOutlet private var titleText: UILabel!
                        func show(_ title: String) {
                            let text = NSAttributedString(string: title, attributes: [.foregroundColor: UIColor.label])
                            titleText.attributedText = text
                        }
                    }
                    """,
            ]),
        ],
        nonTriggering: [
            // Hidden in the document with nothing that could show it (no outlet, tag, class,
            // binding or runtime attribute): never on screen.
            RuleExample(InterfaceBuilderExample.iOS("""
                <stackView hidden="YES" opaque="NO" contentMode="scaleToFill" axis="vertical" spacing="8" translatesAutoresizingMaskIntoConstraints="NO" id="thx-st-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <subviews>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Special thanks to:" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="thx-lb-001">
                            <rect key="frame" x="0.0" y="0.0" width="200" height="21"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                </stackView>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample(InterfaceBuilderExample.iOS("""
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Order 1042" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="ord-lb-001">
                    <rect key="frame" x="16" y="16" width="200" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="+" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="pls-lb-001">
                    <rect key="frame" x="230" y="16" width="12" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
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
            // Code replaces the document's font: through the outlet the owner connects, or in
            // the label's own class. The Swift rules judge that code instead.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="SortBar" id="srt-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Sorted by date" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="srt-lb-001">
                            <rect key="frame" x="16" y="12" width="200" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleCaption1"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="12 notes" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" customClass="CountLabel" translatesAutoresizingMaskIntoConstraints="NO" id="srt-lb-002">
                            <rect key="frame" x="230" y="12" width="120" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleCaption1"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                    <connections>
                        <outlet property="descriptionLabel" destination="srt-lb-001" id="srt-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "SortBar.xib", assets: [
                "SortBar.swift": """
                    import UIKit
                    final class SortBar: UIView {
                        @IBOutlet private var descriptionLabel: UILabel!
                        override func awakeFromNib() {
                            super.awakeFromNib()
                            descriptionLabel.font = .preferredFont(forTextStyle: .caption1)
                            descriptionLabel.adjustsFontForContentSizeCategory = true
                        }
                    }
                    final class CountLabel: UILabel {
                        override func awakeFromNib() {
                            super.awakeFromNib()
                            adjustsFontForContentSizeCategory = true
                        }
                    }
                    """,
            ]),
            // The font is set by the superclass of the cell that owns the outlet.
            RuleExample(InterfaceBuilderExample.iOS("""
                <tableViewCell contentMode="scaleToFill" selectionStyle="default" customClass="NotesFieldCell" id="nts-tc-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="60"/>
                    <tableViewCellContentView key="contentView" opaque="NO" contentMode="center" tableViewCell="nts-tc-001" id="nts-cv-001">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="60"/>
                        <subviews>
                            <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Notes" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="nts-lb-001">
                                <rect key="frame" x="16" y="8" width="200" height="20"/>
                                <fontDescription key="fontDescription" style="UICTFontTextStyleCallout"/>
                                <nil key="textColor"/>
                                <nil key="highlightedColor"/>
                            </label>
                        </subviews>
                    </tableViewCellContentView>
                    <connections>
                        <outlet property="nameLabel" destination="nts-lb-001" id="nts-ot-001"/>
                    </connections>
                </tableViewCell>
                """), platforms: PlatformSet(.iOS), file: "EntryViewer.storyboard", assets: [
                "FieldCells.swift": """
                    import UIKit
                    class FieldCell: UITableViewCell {
                        @IBOutlet var nameLabel: UILabel!
                        func setUp() {
                            nameLabel.font = .preferredFont(forTextStyle: .callout)
                            nameLabel.adjustsFontForContentSizeCategory = true
                        }
                    }
                    final class NotesFieldCell: FieldCell {}
                    """,
            ]),
            // A style helper of the repository, called on the outlet, turns the setting on.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="ErrorView" id="err-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Something went wrong" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="err-lb-001">
                            <rect key="frame" x="16" y="12" width="361" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                    <connections>
                        <outlet property="errorMessage" destination="err-lb-001" id="err-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "ErrorView.xib", assets: [
                "ErrorView.swift": """
                    import UIKit
                    final class ErrorView: UIView {
                        @IBOutlet private var errorMessage: UILabel!
                        override func awakeFromNib() {
                            super.awakeFromNib()
                            errorMessage.applyBodyStyle()
                        }
                    }
                    """,
                "UILabel+Helpers.swift": """
                    import UIKit
                    extension UILabel {
                        func applyBodyStyle() {
                            adjustsFontForContentSizeCategory = true
                            font = .preferredFont(forTextStyle: .body)
                        }
                    }
                    """,
            ]),
            // Code sets an `attributedText` that carries a font: the document's font is replaced.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="NoteContentView" id="not-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Label" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="not-lb-001">
                            <rect key="frame" x="16" y="12" width="361" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                    <connections>
                        <outlet property="label" destination="not-lb-001" id="not-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "NoteContentView.xib", assets: [
                "NoteContentView.swift": """
                    import UIKit
                    final class NoteContentView: UIView {
                        @IBOutlet private var label: UILabel!
                        func setup(with title: String) {
                            label.attributedText = NSAttributedString(string: title, attributes: [.font: UIFont.preferredFont(forTextStyle: .body)])
                        }
                    }
                    """,
            ]),
        ],
        needsReview: [
            // The owning view replaces the text with an attributed string built elsewhere, which
            // may carry its own font: only the code that builds it can say.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="PriceRowView" id="prv-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        ↓<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Price" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="prv-lb-001">
                            <rect key="frame" x="16" y="12" width="361" height="20"/>
                            <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                    </subviews>
                    <connections>
                        <outlet property="priceLabel" destination="prv-lb-001" id="prv-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "PriceRowView.xib", assets: [
                "PriceRowView.swift": """
                    import UIKit
                    final class PriceRowView: UIView {
                        @IBOutlet private var priceLabel: UILabel!
                        func configure(with offer: Offer) {
                            priceLabel.attributedText = offer.formattedPrice
                        }
                    }
                    """,
            ]),
            // An Apple TV storyboard: Apple publishes one size per text style on tvOS.
            RuleExample(InterfaceBuilderExample.tvOS("""
                ↓<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Up Next" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="tvl-lb-001">
                    <rect key="frame" x="80" y="60" width="600" height="46"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                """), platforms: PlatformSet(.tvOS), file: "Shelf.storyboard"),
            // A cell style's own label: UIKit manages it, with quirks only a run can show.
            RuleExample(InterfaceBuilderExample.iOS("""
                <tableViewCell contentMode="scaleToFill" selectionStyle="default" accessoryType="disclosureIndicator" textLabel="lng-lb-001" style="IBUITableViewCellStyleDefault" id="lng-tc-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <tableViewCellContentView key="contentView" opaque="NO" contentMode="center" tableViewCell="lng-tc-001" id="lng-cv-001">
                        <rect key="frame" x="0.0" y="0.0" width="363" height="44"/>
                        <subviews>
                            ↓<label opaque="NO" multipleTouchEnabled="YES" contentMode="left" text="Language" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" id="lng-lb-001">
                                <rect key="frame" x="20" y="0.0" width="335" height="44"/>
                                <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                                <nil key="textColor"/>
                                <nil key="highlightedColor"/>
                            </label>
                        </subviews>
                    </tableViewCellContentView>
                </tableViewCell>
                """), platforms: PlatformSet(.iOS), file: "Preferences.storyboard"),
        ],
        concernsDynamicType: true
    )

    static let kinds: Set<String> = ["label", "textField", "textView"]

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        guard !file.document.isAppKit else { return }
        // The labels of a table cell style (Basic, Subtitle, Right Detail): UIKit lays them out
        // and updates them itself, with known quirks in static tables; a person checks at runtime.
        let cellStyleLabels = Set(file.document.views.filter { $0.kind == "tableViewCell" }
            .flatMap { [$0.attributes["textLabel"], $0.attributes["detailTextLabel"]].compactMap { $0 } })
        for view in file.document.views where Self.kinds.contains(view.kind) && !view.adjustsFontForContentSizeCategory {
            guard let style = view.font?.textStyle else { continue }
            // A lone "/" or "+" between two images is a separator glyph, not text anyone reads.
            if let title = view.title, !title.isEmpty, !title.contains(where: { $0.isLetter || $0.isNumber }) { continue }
            let text = view.title.map { " \"\($0)\"" } ?? ""
            let builtIn = cellStyleLabels.contains(view.id)
            sink.report(view, "\(view.kind)\(text) uses the \(style) text style without \"Automatically Adjusts Font\"; while it is on screen it keeps the size it was loaded or last styled with, and does not follow a text size people change"
                            + (builtIn ? " (it is a table cell style's own label, which UIKit manages: check it by changing the text size)" : ""),
                        certainty: builtIn ? .review : nil, overriddenBy: ["font", "adjustsFontForContentSizeCategory", "attributedText"],
                        reviewedIf: [FileResult.restyledMarker])
        }
    }
}
