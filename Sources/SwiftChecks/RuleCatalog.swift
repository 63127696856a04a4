import AuditModel

/// Every rule, in the order the reference lists them.
public enum RuleCatalog {
    public static let sourceRules: [any SourceRule] = [
        FixedFontSizeRule(),
        UnusedSuppressionRule(),
        TapGestureMissingTraitRule(),
        CustomToggleMissingTraitRule(),
        GestureWithoutAlternativeRule(),
        AnimationIgnoresReduceMotionRule(),
        AccessibilityTraitsAssignedRule(),
    ]

    public static var descriptions: [RuleDescription] { sourceRules.map(\.description) }
    public static var allRuleIDs: [String] { descriptions.map(\.id) }

    public static func description(of id: String) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }
}
