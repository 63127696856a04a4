import AuditModel
import InterfaceBuilder

/// Two sibling controls closer than the HIG's padding: about 12 pt around bezelled controls,
/// 24 pt around plain icons.
struct InterfaceBuilderControlsTooCloseRule: DocumentRule {
    let description = RuleDescription(
        id: "ib-controls-too-close",
        title: "Adjacent controls in Interface Builder closer than Apple's spacing",
        category: .layout,
        platforms: PlatformSet([.iOS, .macOS]),
        kind: .recommendation, certainty: .review,
        rationale: """
            Controls packed tightly get pressed by mistake, especially with a tremor or a head \
            pointer. Apple suggests about 12 pt of padding around controls with a bezel and about \
            24 pt around plain icons. Sibling controls whose frames face each other across a \
            smaller gap are reported once per pair, naming both.
            """,
        citations: [
            Citation("HIG › Accessibility, Mobility",
                     "Consider spacing between controls as important as size. … In general, it works well to add about 12 points of padding around elements that include a bezel. For elements without a bezel, about 24 points of padding works well around the element's visible edges."),
        ],
        fix: "Increase the spacing constraint between the two controls, or group them in one control (a segmented control, a menu).",
        limitations: """
            Frames, not visible edges, are measured: a plain icon drawn well inside a large frame \
            already carries some padding. AppKit's titled controls keep their system layout and \
            are not measured. visionOS's 60 pt centre-to-centre spacing is not checked. Findings \
            can be turned off or re-graded only in `.a11y-audit.json`.
            """,
        triggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="lik-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="hand.thumbsup" catalog="system"/>
                </button>
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="dis-bt-001">
                    <rect key="frame" x="64" y="16" width="44" height="44"/>
                    <state key="normal" image="hand.thumbsdown" catalog="system"/>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="can-bt-001">
                    <rect key="frame" x="16" y="16" width="120" height="44"/>
                    <buttonConfiguration key="configuration" style="gray" title="Cancel"/>
                </button>
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="sav-bt-001">
                    <rect key="frame" x="16" y="64" width="120" height="44"/>
                    <buttonConfiguration key="configuration" style="filled" title="Save"/>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ],
        nonTriggering: [
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="lik-bt-001">
                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                    <state key="normal" image="hand.thumbsup" catalog="system"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="dis-bt-001">
                    <rect key="frame" x="84" y="16" width="44" height="44"/>
                    <state key="normal" image="hand.thumbsdown" catalog="system"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="can-bt-001">
                    <rect key="frame" x="16" y="90" width="120" height="44"/>
                    <buttonConfiguration key="configuration" style="gray" title="Cancel"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="sav-bt-001">
                    <rect key="frame" x="148" y="90" width="120" height="44"/>
                    <buttonConfiguration key="configuration" style="filled" title="Save"/>
                </button>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Rate" id="rat-lb-001">
                    <rect key="frame" x="16" y="140" width="40" height="21"/>
                    <fontDescription key="fontDescription" style="UICTFontTextStyleBody"/>
                </label>
                """), platforms: PlatformSet(.iOS), file: "Main.storyboard"),
        ]
    )

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        let views = file.document.views
        var bySuperview: [Int: [Int]] = [:]
        for (index, view) in views.enumerated() where InterfaceBuilderHitRegion.isMeasured(view, in: file.document) && view.frame != nil {
            if let superview = view.superview { bySuperview[superview, default: []].append(index) }
        }
        for siblings in bySuperview.values where siblings.count > 1 {
            for (position, later) in siblings.enumerated() {
                for earlier in siblings[..<position] {
                    guard let a = views[earlier].frame, let b = views[later].frame, let gap = Self.gap(a, b) else { continue }
                    let padding = views[earlier].hasBezel && views[later].hasBezel
                        ? file.reference.controlPaddingBezeled : file.reference.controlPaddingPlain
                    guard let padding, gap < padding else { continue }
                    sink.report(views[later], "\(InterfaceBuilderHitRegion.name(views[later])) is \(gap.points) pt from \(InterfaceBuilderHitRegion.name(views[earlier])); Apple suggests about \(padding.points) pt between \(padding == file.reference.controlPaddingBezeled ? "bezelled controls" : "controls without a bezel")",
                                detail: "near \(views[earlier].id)")
                }
            }
        }
    }

    /// The gap between two frames that face each other (side by side or one above the other);
    /// `nil` when they overlap or do not face each other.
    static func gap(_ a: InterfaceBuilderRect, _ b: InterfaceBuilderRect) -> Double? {
        let overlapsVertically = a.y < b.maxY && b.y < a.maxY
        let overlapsHorizontally = a.x < b.maxX && b.x < a.maxX
        if overlapsVertically && !overlapsHorizontally { return max(b.x - a.maxX, a.x - b.maxX) }
        if overlapsHorizontally && !overlapsVertically { return max(b.y - a.maxY, a.y - b.maxY) }
        return nil
    }
}
