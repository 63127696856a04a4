import AuditModel
import ColorAssets

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

    /// Rules whose findings bear on the label only in part, told apart by the finding's snippet
    /// (a POSIX regular expression, for the database; `bearsOn` decides the same here): a colour
    /// set missing only its increased-contrast variants is no evidence against Dark Interface.
    public var snippetConditions: [String: String] {
        switch self {
        case .darkInterface:
            // color-set-missing-variants' snippet: "<set> missing <appearance>,<appearance>…".
            ["color-set-missing-variants": " missing ([A-Za-z]+,)*\(Appearance.dark.rawValue)(,[A-Za-z]+)*$"]
        default: [:]
        }
    }

    /// Whether a finding of `ruleID` with `snippet` is evidence against the label.
    public func bearsOn(ruleID: String, snippet: String) -> Bool {
        guard rules.contains(ruleID) else { return false }
        guard snippetConditions[ruleID] != nil else { return true }
        guard let marker = snippet.range(of: " missing ", options: .backwards) else { return false }
        return snippet[marker.upperBound...].split(separator: ",").contains { $0 == Appearance.dark.rawValue }
    }

    /// Why a label cannot be judged from source, for those no rule bears on.
    public var notCheckable: String? {
        switch self {
        case .captions: "Captions live in media files and players; no static source check can tell whether they exist."
        case .audioDescriptions: "Audio descriptions are part of video content; no static source check can tell whether they exist."
        default: nil
        }
    }

    /// Platforms Apple does not offer the label on.
    public var unsupportedPlatforms: PlatformSet {
        switch self {
        case .largerText: PlatformSet(.macOS)
        default: PlatformSet()
        }
    }

    /// Apple's caveat, for an app that builds for `platforms` (nil: not known) and for one of
    /// the platforms the label is not offered on; nil for an app it does not concern.
    public func platformNote(for platforms: PlatformSet?) -> String? {
        guard !unsupportedPlatforms.isEmpty, platforms.map({ !$0.isDisjoint(with: unsupportedPlatforms) }) ?? true else { return nil }
        switch self {
        case .largerText: return "Not offered for Mac apps: \"This label isn't supported on Mac.\" (App Store Connect Help)"
        default: return nil
        }
    }

    /// Whether the label can be declared at all for an app that builds only for `platforms`:
    /// not for a Mac-only app's Larger Text. Unknown platforms: offered.
    public func isOffered(on platforms: PlatformSet?) -> Bool {
        guard let platforms, !platforms.isEmpty else { return true }
        return !platforms.isSubset(of: unsupportedPlatforms)
    }
}
