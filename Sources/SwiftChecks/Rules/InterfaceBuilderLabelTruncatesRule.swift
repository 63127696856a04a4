import AuditModel
import InterfaceBuilder

/// A one-line label held to a fixed height: at large text sizes it can only truncate or clip.
struct InterfaceBuilderLabelTruncatesRule: DocumentRule {
    let description = RuleDescription(
        id: "ib-label-truncates",
        title: "One-line label with a fixed height truncates at large text sizes",
        category: .layout,
        platforms: PlatformSet([.iOS, .tvOS, .visionOS]),
        kind: .recommendation,
        rationale: """
            A label limited to one line (`numberOfLines="1"`, UILabel's default) and pinned to a \
            constant height cannot grow: body text triples at the largest accessibility size, so \
            the text is cut off. When the label uses a text style the message gives its size at AX5.
            """,
        citations: [
            Citation("WWDC24 › Get started with Dynamic Type",
                     "Consider setting number of lines on the label to zero in order to allow the text to take as many lines as it needs and avoid truncations."),
            Citation("HIG › Typography",
                     "aim to display as much useful text at the largest accessibility font size as you do at the largest standard font size."),
        ],
        fix: """
            Set Lines to 0 and replace the height constraint with a greater-than-or-equal one (or \
            none), so the label grows with its text.
            """,
        limitations: """
            A height constraint below the label's vertical compression resistance (750 unless \
            set) gives way to the text and is not a fixed height. Labels whose text always fits (a single digit) are still reported; a label that shrinks \
            its text to fit (Autoshrink) is not, nor one with a fixed point size (it never grows). \
            A font code replaces and constraints changed in code are not seen. Findings \
            can be turned off or re-graded only in `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Delivered to the front door" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="sts-lb-001">
                    <rect key="frame" x="16" y="16" width="300" height="21"/>
                    <constraints>
                        <constraint firstAttribute="height" constant="21" id="sts-hc-001"/>
                    </constraints>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ],
        nonTriggering: [
            // A separator dot between two labels, in a fixed 20x20 box.
            RuleExample(InterfaceBuilderExample.iOS("""
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="•" textAlignment="center" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="sep-lb-001">
                    <rect key="frame" x="120" y="12" width="20" height="20"/>
                    <constraints>
                        <constraint firstAttribute="height" constant="20" id="sep-hc-001"/>
                        <constraint firstAttribute="width" constant="20" id="sep-wc-001"/>
                    </constraints>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleFootnote"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                """), platforms: PlatformSet(.iOS), file: "RouteRow.xib"),
            RuleExample(InterfaceBuilderExample.iOS("""
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Delivered to the front door" textAlignment="natural" lineBreakMode="tailTruncation" numberOfLines="0" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="sts-lb-001">
                    <rect key="frame" x="16" y="16" width="300" height="21"/>
                    <constraints>
                        <constraint firstAttribute="height" relation="greaterThanOrEqual" constant="21" id="sts-hc-001"/>
                    </constraints>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Title" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="ttl-lb-001">
                    <rect key="frame" x="16" y="50" width="300" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleHeadline"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" verticalCompressionResistancePriority="1000" text="Delivered by bike" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" adjustsFontForContentSizeCategory="YES" translatesAutoresizingMaskIntoConstraints="NO" id="opt-lb-001">
                    <rect key="frame" x="16" y="110" width="300" height="21"/>
                    <constraints>
                        <constraint firstAttribute="height" priority="500" constant="21" id="opt-hc-001"/>
                    </constraints>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Episode 12" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" translatesAutoresizingMaskIntoConstraints="NO" id="fix-lb-001">
                    <rect key="frame" x="16" y="80" width="300" height="16"/>
                    <constraints>
                        <constraint firstAttribute="height" constant="16" id="fix-hc-001"/>
                    </constraints>
                    <fontDescription key="fontDescription" type="system" pointSize="13"/>
                    <nil key="textColor"/>
                    <nil key="highlightedColor"/>
                </label>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ],
        concernsDynamicType: true
    )

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        guard !file.document.isAppKit else { return }
        for view in file.document.views where view.kind == "label" && view.numberOfLines == 1 && !view.shrinksToFit {
            // Only text that grows can outgrow its height: a fixed point size never does (the
            // fixed font is what ib-fixed-font reports).
            guard let height = view.fixedHeight, let style = view.font?.textStyle else { continue }
            // A "•" or "|" between two labels is a separator glyph: cut off, it loses nothing.
            if let title = view.title, !title.isEmpty, !title.contains(where: { $0.isLetter || $0.isNumber }) { continue }
            var growth = ""
            if let size = file.reference.iosTextStyleSizes["AX5"]?[style] {
                growth = "; its \(style) text is \(size.points) pt at the largest accessibility size (AX5)"
            }
            let text = view.title.map { " \"\($0)\"" } ?? ""
            sink.report(view, "label\(text) is limited to one line and a fixed \(height.points) pt height constraint\(growth), so large text is cut off")
        }
    }
}
