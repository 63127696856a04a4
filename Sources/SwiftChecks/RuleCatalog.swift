import AuditModel

/// Every rule, in the order the reference lists them.
public enum RuleCatalog {
    public static let sourceRules: [any SourceRule] = [
        FixedFontSizeRule(),
        DynamicTypeSizeCappedRule(),
        LargeContentViewerMissingRule(),
        AccessibilityHiddenControlRule(),
        AccessibilityLabelRawIdentifierRule(),
        AccessibilityLabelNamesTraitRule(),
        AccessibilityLabelEmptyOrEmojiRule(),
        ImageAssetNameSpokenRule(),
        ImageWithoutLabelRule(),
        MessageNotAnnouncedRule(),
        ControlWithoutNameRule(),
        HeadingMissingTraitRule(),
        SFSymbolDefaultLabelRule(),
        TapGestureMissingTraitRule(),
        CustomToggleMissingTraitRule(),
        ControlBlockedNotDisabledRule(),
        GestureWithoutAlternativeRule(),
        AnimationIgnoresReduceMotionRule(),
        AccessibilityTraitsAssignedRule(),
        FontNotAdjustingToContentSizeRule(),
        TextBelowMinimumSizeRule(),
        HardCodedColorLiteralRule(),
        AutoDismissingContentRule(),
        ColorOnlyStatusRule(),
        CustomModalMissingIsModalRule(),
        SheetFocusRestorationRule(),
        InsufficientContrastRule(),
        ContrastReliesOnIncreaseContrastRule(),
        ColorNameMissingRule(),
        UnusedSuppressionRule(),
        HitRegionTooSmallRule(),
        ControlBelowDefaultSizeRule(),
        TextClippedAtLargeSizesRule(),
        LineLimitTruncatesRule(),
        HStackNeverRestacksRule(),
    ]

    /// Rules over Interface Builder documents (storyboards, xibs). The hit-region rules check
    /// SwiftUI and Interface Builder alike and appear in both lists under one id.
    public static let documentRules: [any DocumentRule] = [
        HitRegionTooSmallRule(),
        ControlBelowDefaultSizeRule(),
        InterfaceBuilderImageLabelRule(),
        InterfaceBuilderLabelNamesTraitRule(),
        InterfaceBuilderFixedFontRule(),
        InterfaceBuilderFontNotAdjustingRule(),
        InterfaceBuilderLabelTruncatesRule(),
        InterfaceBuilderHiddenControlRule(),
        InterfaceBuilderControlsTooCloseRule(),
    ]

    /// Rules over the repository's asset catalogs, run once per scan.
    public static let catalogRules: [any CatalogRule] = [
        ColorSetMissingVariantsRule(),
        ColorSetUnreadableRule(),
        ColorSetUnusedRule(),
    ]

    /// Built once: a rule's description carries its examples, which are made on each access.
    public static let descriptions: [RuleDescription] = {
        var seen: Set<String> = []
        return (sourceRules.map(\.description) + documentRules.map(\.description) + catalogRules.map(\.description))
            .filter { seen.insert($0.id).inserted }
    }()
    public static let allRuleIDs: [String] = descriptions.map(\.id)

    public static func description(of id: String) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }
}

/// What the seeds ask for that reading source cannot decide, stated in the rules reference so
/// a clean report is never read as "accessible".
public struct UncheckableTopic: Sendable {
    public let topic: String
    public let why: String
}

extension RuleCatalog {
    public static let beyondStaticAnalysis: [UncheckableTopic] = [
        UncheckableTopic(topic: "Whether a label is accurate",
                         why: "Rules flag labels of the wrong shape (identifiers, trait names, emoji, asset names); only a person can say that \"Share\" is the right word for a control."),
        UncheckableTopic(topic: "Reading order and grouping",
                         why: "VoiceOver reads in the order of the laid-out screen in the active language; that order exists only at run time. Check it with VoiceOver or Accessibility Inspector."),
        UncheckableTopic(topic: "Announcing changes",
                         why: "\"Inform VoiceOver when visible content or layout changes occur\": whether a change is visible and needs a `UIAccessibility.post` depends on the running app."),
        UncheckableTopic(topic: "Colour contrast from Swift alone",
                         why: "`Color(\"Brand\")` carries no ratio: its four variants live in the asset catalog. The colour-asset checks resolve them; literals are flagged by hard-coded-color-literal."),
        UncheckableTopic(topic: "Whether motion conveys meaning",
                         why: "Apple warns against removing animation entirely when it carries meaning; the motion rule asks that Reduce Motion be read, not which alternative to show."),
        UncheckableTopic(topic: "Captions and audio descriptions",
                         why: "They are properties of the media files and their tracks, not of the code that plays them."),
        UncheckableTopic(topic: "Full Keyboard Access and focus traps",
                         why: "Reachability by keyboard depends on the focus engine at run time; test by tabbing through every screen."),
        UncheckableTopic(topic: "Layout at the largest text sizes",
                         why: "Clipping and overlap depend on content and screen size; the layout checks flag fixed frames and line limits, and Xcode's Dynamic Type variants show the rest."),
        UncheckableTopic(topic: "Accessibility Nutrition Labels",
                         why: "A label claims support that Apple's evaluation criteria define on a device; static findings are evidence against a claim, never proof of one."),
    ]
}
