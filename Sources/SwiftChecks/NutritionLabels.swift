import AuditModel

/// Apple's nine Accessibility Nutrition Labels, and which rules produce static evidence against
/// each. A finding of a listed rule blocks the label's claim until fixed; a label no rule bears
/// on cannot be judged from source at all. Evidence, never a claim of support: passing every
/// rule does not mean the label may be declared (Apple's evaluation criteria need a device).
public enum NutritionLabel: String, CaseIterable, Sendable {
    case voiceOver = "VoiceOver"
    case voiceControl = "Voice Control"
    case largerText = "Larger Text"
    case darkInterface = "Dark Interface"
    case differentiateWithoutColor = "Differentiate Without Color Alone"
    case sufficientContrast = "Sufficient Contrast"
    case reducedMotion = "Reduced Motion"
    case captions = "Captions"
    case audioDescriptions = "Audio Descriptions"

    public static let citation = Citation(
        "Fact sheet › Verifying, and declaring it",
        "Apple publishes evaluation criteria for nine features: VoiceOver, Voice Control, Larger Text, Dark Interface, Differentiate Without Color Alone, Sufficient Contrast, Reduced Motion, Captions, Audio Descriptions.")

    /// Rules whose findings are evidence against the label.
    public var rules: [String] {
        switch self {
        case .voiceOver:
            ["accessibility-hidden-control", "accessibility-label-raw-identifier", "accessibility-label-names-trait",
             "accessibility-label-empty-or-emoji", "image-asset-name-spoken", "image-without-label", "control-without-name", "heading-missing-trait", "sf-symbol-default-label", "tap-gesture-missing-trait",
             "custom-toggle-missing-trait", "gesture-without-alternative", "accessibility-traits-assigned",
             "custom-modal-missing-is-modal", "sheet-focus-restoration", "ib-image-control-label", "ib-label-names-trait",
             "ib-control-hidden-from-accessibility"]
        case .voiceControl:
            // Voice Control addresses controls by their names and needs them exposed and targetable.
            ["accessibility-hidden-control", "accessibility-label-raw-identifier", "accessibility-label-empty-or-emoji",
             "image-asset-name-spoken", "image-without-label", "control-without-name", "tap-gesture-missing-trait", "gesture-without-alternative", "ib-image-control-label",
             "ib-control-hidden-from-accessibility", "hit-region-too-small"]
        case .largerText:
            ["fixed-font-size", "dynamic-type-size-capped", "large-content-viewer-missing", "font-not-adjusting-to-content-size",
             "text-below-minimum-size", "text-clipped-at-large-sizes", "line-limit-truncates", "hstack-never-restacks",
             "ib-fixed-font", "ib-font-not-adjusting", "ib-label-truncates"]
        case .darkInterface:
            ["hard-coded-color-literal", "color-set-missing-variants", "insufficient-contrast"]
        case .differentiateWithoutColor:
            ["color-only-status"]
        case .sufficientContrast:
            ["insufficient-contrast", "contrast-relies-on-increase-contrast", "color-set-missing-variants"]
        case .reducedMotion:
            ["animation-ignores-reduce-motion"]
        case .captions, .audioDescriptions:
            []
        }
    }

    /// Why a label cannot be judged from source, for those no rule bears on.
    public var notCheckable: String? {
        switch self {
        case .captions: "Captions live in media files and players; no static source check can tell whether they exist."
        case .audioDescriptions: "Audio descriptions are part of video content; no static source check can tell whether they exist."
        default: nil
        }
    }

    /// Platform caveats Apple states for the label.
    public var platformNote: String? {
        switch self {
        case .largerText: "Not offered for Mac apps: \"This label isn't supported on Mac.\" (App Store Connect Help)"
        default: nil
        }
    }
}
