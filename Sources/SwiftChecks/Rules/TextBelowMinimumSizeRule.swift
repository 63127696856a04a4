import AuditModel
import SwiftSyntax

/// A literal point size below the platform's recommended minimum text size.
struct TextBelowMinimumSizeRule: SourceRule {
    let description = RuleDescription(
        id: "text-below-minimum-size",
        title: "Text size below the platform's recommended minimum",
        platforms: .all,
        kind: .recommendation, certainty: .review,
        rationale: """
            Apple recommends a minimum text size per platform (iOS/iPadOS 11 pt, macOS 10 pt, \
            visionOS and watchOS 12 pt, tvOS 23 pt) for system and custom fonts alike. Text set \
            smaller is below what Apple says most people can read. The minimum depends on where \
            the code runs: 10 pt is fine on the Mac and too small on iPhone, 11 pt is fine on \
            iPhone and too small on Apple Watch. This is the only size rule that applies to \
            macOS-only code. These are recommendations, not limits the system enforces.
            """,
        citations: [
            Citation("HIG › Accessibility, Vision",
                     "Use recommended defaults for custom type sizes. Each platform has different default and minimum sizes for system-defined type styles to promote readability. If you're using custom type styles, follow the recommended defaults."),
            Citation("HIG › Typography, \"Ensuring legibility\"",
                     "Follow the recommended default and minimum text sizes for each platform — for both custom and system fonts — to ensure your text is legible on all devices"),
        ],
        fix: """
            Use a text style (`.font(.caption)`, `UIFont.preferredFont(forTextStyle: .caption1)`), \
            whose smallest size Apple sets at the platform's minimum, or raise the literal to at \
            least the minimum of every platform the code is built for. A thin custom weight should \
            aim larger still.
            """,
        limitations: """
            Only literal sizes are judged (`12`, `9.5`, `CGFloat(10)`); a size in a variable or \
            constant is not followed. The platforms are the file's (imports, `#if os(…)`, the \
            project's platforms); code shared across platforms is reported for each platform whose \
            minimum it misses. When nothing establishes the platforms (no project platforms, no \
            UIKit/AppKit/WatchKit import, no `#if os(…)`), the code is not assumed to run on tvOS or \
            watchOS: only sizes below every platform's minimum (under 10 pt) are reported. A size \
            of 0 or less means "the default size" to AppKit and to `UIFont(descriptor:size:)`, and \
            is not reported. A font that sizes a symbol (`Image(…).font(…)`, \
            `UIImage.SymbolConfiguration(font:)`) is not text and is not reported.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Footnote: View {
                    var body: some View {
                        Text("Terms apply").font(↓.system(size: 9))
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import UIKit
                let legal = ↓UIFont.systemFont(ofSize: 11)
                """, platforms: PlatformSet([.iOS, .visionOS])),
            RuleExample("""
                import SwiftUI
                #if os(watchOS)
                let complication = ↓Font.system(size: 11, weight: .semibold)
                #else
                let complication = Font.system(size: 11, weight: .semibold)
                #endif
                """, platforms: PlatformSet([.iOS, .watchOS])),
            RuleExample("""
                import AppKit
                let tiny = ↓NSFont.systemFont(ofSize: 9)
                let badge = ↓NSFont(name: "Menlo", size: 8)
                let smaller = ↓NSFont.boldSystemFont(ofSize: 13).withSize(9.5)
                """),
            RuleExample("""
                import SwiftUI
                let a = ↓Font.custom("Avenir", size: 10)
                let b = ↓Font.custom("Avenir", size: 10, relativeTo: .caption)
                let c = ↓Font.custom("Avenir", fixedSize: 10)
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import UIKit
                func style(_ label: UILabel) {
                    label.font = ↓UIFont(name: "Avenir-Book", size: 10)
                    label.font = ↓label.font.withSize(8)
                    label.font = ↓.monospacedDigitSystemFont(ofSize: 10, weight: .regular)
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                let caption = ↓Font.system(size: 20)
                """, platforms: PlatformSet([.iOS, .tvOS])),
            RuleExample("""
                import SwiftUI
                // No project platforms and no platform import: below the minimum everywhere.
                let legal = ↓Font.system(size: 8)
                """),
        ],
        nonTriggering: [
            // `import UIKit` alone does not mean tvOS (23 pt): undeclared UIKit code is judged as iOS.
            RuleExample("""
                import UIKit
                let body = UIFont(name: "Avenir", size: 17)
                let legal = UIFont.systemFont(ofSize: 11)
                """),
            RuleExample("""
                import SwiftUI
                struct Dot: View {
                    var body: some View {
                        Image(systemName: "circle.fill").font(.system(size: 8)).accessibilityLabel("Unread")
                    }
                }
                let symbol = UIImage.SymbolConfiguration(font: UIFont.systemFont(ofSize: 9))
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import AppKit
                let footnote = NSFont.systemFont(ofSize: 10)
                let label = NSFont(name: "Menlo", size: 11)
                """),
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                let caption = Font.system(size: 10)
                #endif
                """),
            RuleExample("""
                import SwiftUI
                let caption = Font.system(size: 11)
                let fine = Font.custom("Avenir", size: 11, relativeTo: .caption2)
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                #if os(watchOS)
                let caption = Font.system(size: 12)
                #endif
                """),
            RuleExample("""
                import SwiftUI
                // Nothing says this runs on tvOS (23 pt minimum): not judged against it.
                let body = Font.system(size: 17)
                let caption = Font.system(size: 11)
                """),
            RuleExample("""
                import UIKit
                let small = UIFont.preferredFont(forTextStyle: .caption2)
                let sized = UIFont(descriptor: small.fontDescriptor, size: 0)
                let system = NSFont.systemFont(ofSize: 0)
                """),
            RuleExample("""
                import SwiftUI
                struct Badge: View {
                    @ScaledMetric(relativeTo: .caption) var size: CGFloat = 13
                    var body: some View { Text("1").font(.system(size: size)) }
                }
                """),
            RuleExample("""
                import UIKit
                let title = UIFont.systemFont(ofSize: 24)
                let tvFriendly = UIFont.boldSystemFont(ofSize: 29).withSize(31)
                """),
        ]
    )

    /// `UIFont`/`NSFont` class methods that take `ofSize:`.
    private static let sizedSystemFonts: Set<String> = [
        "systemFont", "boldSystemFont", "italicSystemFont", "monospacedSystemFont", "monospacedDigitSystemFont",
        "labelFont", "messageFont", "menuFont", "menuBarFont", "titleBarFont", "paletteFont", "toolTipsFont",
        "controlContentFont", "userFont", "userFixedPitchFont",
    ]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: Self.sizedSystemFonts.union(["system", "custom", "withSize", "UIFont", "NSFont", "init"])) {
            guard let (sizeExpression, form) = Self.size(of: call), let size = sizeExpression.numberValue, size > 0 else {
                continue
            }
            if call.sizesSymbolImage { continue }
            let platforms = file.platformsForSizes(at: call)
            let missed = platforms.platforms.filter { platform in
                guard let minimum = file.reference.minimumTextSize[platform] else { return false }
                return size < minimum
            }
            guard !missed.isEmpty else { continue }
            // Nothing says where this code runs (no project platforms, no platform import, no
            // `#if os`): every platform is only a default, and 17 pt body text is not "below
            // tvOS's minimum" in what is most likely an iPhone app. Judge only sizes that are
            // below the minimum everywhere.
            if platforms == .all, file.context.platforms == nil, file.resolver.filePlatforms == .all,
               missed.count < Platform.allCases.count {
                continue
            }
            let minimums = missed.map { platform in
                "\(platform.displayName) \((file.reference.minimumTextSize[platform] ?? 0).points) pt"
            }
            sink.report(call, """
                \(form) sets text at \(size.points) pt, below Apple's recommended minimum text size \
                (\(minimums.joined(separator: ", ")))
                """, platforms: PlatformSet(missed))
        }
    }

    /// The size argument and how the API is written, when `call` makes a font of a given size.
    private static func size(of call: FunctionCallExprSyntax) -> (ExprSyntax, String)? {
        let name = call.calleeName
        let base = call.calleeBaseText
        if name == "system", base == nil || base == "Font", let size = call.argument("size") {
            return (size, "`.system(size:)`")
        }
        if name == "custom", base == nil || base == "Font" {
            if let size = call.argument("size") {
                return (size, call.argument("relativeTo") == nil ? "`Font.custom(_:size:)`" : "`Font.custom(_:size:relativeTo:)`")
            }
            if let size = call.argument("fixedSize") { return (size, "`Font.custom(_:fixedSize:)`") }
        }
        if let name, sizedSystemFonts.contains(name), let size = call.argument("ofSize") {
            switch base {
            case nil: return (size, "`.\(name)(ofSize:)`")
            case "UIFont", "NSFont": return (size, "`\(base ?? "").\(name)(ofSize:)`")
            default: return nil
            }
        }
        if let type = call.initializedTypeName, type == "UIFont" || type == "NSFont", let size = call.argument("size") {
            if call.argument("name") != nil { return (size, "`\(type)(name:size:)`") }
            if call.argument("descriptor") != nil { return (size, "`\(type)(descriptor:size:)`") }
        }
        if name == "withSize", base != nil, call.arguments.count == 1, let size = call.firstUnlabeledArgument {
            return (size, "`.withSize(_:)`")
        }
        return nil
    }
}
