import AuditModel
import SwiftSyntax

/// `Image(uiImage:)`, `Image(nsImage:)` and `AsyncImage` shown with no label and not hidden: a
/// picture drawn from an image object or a URL has no name at all, so VoiceOver finds it and says only "image" (and a
/// button whose whole label it is says only "button").
struct ImageWithoutLabelRule: SourceRule {
    let description = RuleDescription(
        id: "image-without-label",
        title: "Image with no accessibility label",
        kind: .recommendation,
        rationale: """
            An image made from a `UIImage` or `NSImage` (a photo, an avatar, a favicon, a QR \
            code, a rendered chart), or loaded from a URL by `AsyncImage`, carries no name \
            SwiftUI could read: unlike `Image("name")`, nothing labels it. Shown as it is, VoiceOver stops on it and says only "image"; as \
            the whole label of a button or link, the control is announced with no name. An image \
            is either meaningful (it needs a description in words) or decorative (it should be \
            hidden).
            """,
        citations: [
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
            Citation("HIG › VoiceOver",
                     "Exclude purely decorative images from VoiceOver. It's unnecessary to describe images that are decorative and don't convey useful or actionable information."),
        ],
        fix: """
            Meaningful image: `.accessibilityLabel("Profile photo of \\(name)")` on the image, or \
            on the button whose label it is. Decorative image: `.accessibilityHidden(true)`. \
            Beside a title, `Label { Text(title) } icon: { Image(uiImage: icon) }`, or group the \
            row with `.accessibilityElement(children: .combine)`.
            """,
        limitations: """
            An image whose `UIImage`/`NSImage` is loaded by name (`UIImage(named:)`, \
            `UIImage(systemName:)`) may carry a name of its own, so it goes to review. An image a \
            helper returns (`func icon() -> Image`) is judged where it is used, by a person. \
            Images kept in a property are judged where they are shown, as with \
            `image-asset-name-spoken`; containers that label, hide or group their children clear \
            the image, and so does a caller in another file that does (the app model). A button \
            whose label also holds text is named by the text and is not reported. \
            `Image(cgImage:…)` always takes a label or is decorative, and is not judged. An \
            `AsyncImage` whose content closure labels or hides the loaded image is clear; a \
            control whose label also calls one of the app's own views (a placeholder that may \
            show text, in another file) goes to review, and so does a picture in a widget or Live \
            Activity (the system decides which of its elements VoiceOver visits).
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                import UIKit
                struct Favicon: View {
                    let favicon: UIImage?
                    var body: some View {
                        ↓Image(uiImage: favicon ?? UIImage())
                            .resizable()
                            .frame(width: 16, height: 16)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Beside its text, but not grouped with it: two elements, one of them nameless.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct StatusRow: View {
                    let icon: UIImage
                    var body: some View {
                        HStack {
                            ↓Image(uiImage: icon)
                            Text("Status")
                        }
                        .accessibilityElement(children: .contain)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // The whole label of a link: the link has no name.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct AvatarLink: View {
                    let avatar: UIImage
                    var body: some View {
                        ↓NavigationLink {
                            Text("Profile")
                        } label: {
                            Image(uiImage: avatar).clipShape(Circle())
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A remote picture as a link's whole label.
            RuleExample("""
                import SwiftUI
                struct Attachment: View {
                    let url: URL?
                    var body: some View {
                        ↓NavigationLink {
                            Text("Post")
                        } label: {
                            AsyncImage(url: url) { image in
                                image.resizable().scaledToFill()
                            } placeholder: {
                                ProgressView()
                            }
                            .frame(width: 74, height: 74)
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                import AppKit
                struct Preferences: View {
                    var body: some View {
                        VStack {
                            ↓Image(nsImage: NSImage())
                            Text("Settings")
                        }
                    }
                }
                """, platforms: PlatformSet(.macOS)),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                import UIKit
                struct Gallery: View {
                    let photo: UIImage
                    let title: String
                    var body: some View {
                        VStack {
                            Image(uiImage: photo).accessibilityLabel("Sunset over the bay")
                            Image(uiImage: photo).accessibilityHidden(true)
                            Image(uiImage: photo).accessibility(label: Text("Sunset"))
                            Label { Text(title) } icon: { Image(uiImage: photo) }
                            HStack { Image(uiImage: photo); Text(title) }.accessibilityElement(children: .combine)
                            Button(action: {}) { HStack { Image(uiImage: photo); Text("Share") } }
                            Button(action: {}) { Image(uiImage: photo) }.accessibilityLabel("Open photo")
                            AsyncImage(url: nil) { image in image.resizable().accessibilityLabel(title) } placeholder: { Color.gray }
                            AsyncImage(url: nil).accessibilityHidden(true)
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Built by a helper that every place in the file shows inside a labelled button.
            RuleExample("""
                import SwiftUI
                struct Comment: View {
                    let url: URL?
                    var body: some View {
                        Button(action: {}) { thumbnail }.accessibilityLabel("Open attachment")
                    }
                    private var thumbnail: some View {
                        AsyncImage(url: url) { image in image.resizable() } placeholder: { Color.gray }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Kept for later: judged where it is shown.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct Thumbnail {
                    let image = Image(uiImage: UIImage())
                }
                """, platforms: PlatformSet(.iOS)),
        ],
        needsReview: [
            // A widget's picture: the system decides whether VoiceOver visits it.
            RuleExample("""
                import SwiftUI
                import WidgetKit
                import UIKit
                struct PhotoWidgetView: View {
                    let photo: UIImage
                    var body: some View {
                        ↓Image(uiImage: photo).resizable().scaledToFill()
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // The app's own placeholder view in the label may show text.
            RuleExample("""
                import SwiftUI
                struct Attachment: View {
                    let url: URL?
                    var body: some View {
                        ↓Button(action: {}) {
                            AsyncImage(url: url) { image in image.resizable() } placeholder: { BlurPlaceholder() }
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Loaded by name: the image object may carry a name of its own.
            RuleExample("""
                import SwiftUI
                import UIKit
                struct Logo: View {
                    var body: some View {
                        ↓Image(uiImage: UIImage(named: "AppLogo") ?? UIImage())
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                import UIKit
                struct Badge {
                    let badge: UIImage
                    func icon() -> Image {
                        ↓Image(uiImage: badge)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkImageOnlyViewLabels(file, &sink)
        for call in file.index.calls(named: ["Image", "AsyncImage"]) {
            guard call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calleeBaseText == "SwiftUI",
                  let argument = call.arguments.first else { continue }
            let shown: String
            var byName = false
            if call.calleeName == "AsyncImage" {
                // Its content closure may label or hide the loaded image itself.
                guard !call.tokens(viewMode: .sourceAccurate).contains(where: { token in
                    ["accessibilityLabel", "accessibilityHidden", "accessibility", "accessibilityElement", "accessibilityRepresentation"]
                        .contains(token.text) && token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period
                }) else { continue }
                shown = "`AsyncImage(\(InputExcerpt.of(argument.sourceText, limit: 40)))`"
            } else {
                guard call.arguments.count == 1, let label = argument.label?.text, label == "uiImage" || label == "nsImage" else { continue }
                shown = "`Image(\(label): \(InputExcerpt.of(argument.expression.sourceText, limit: 40)))`"
                // `UIImage(named:)`, `NSImage(named:)`, `UIImage(systemName:)`: the object may carry a name.
                byName = argument.expression.tokens(viewMode: .sourceAccurate).contains { token in
                    (token.tokenKind == .identifier("named") || token.tokenKind == .identifier("systemName"))
                        && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .colon
                }
            }
            let placement = ImageAssetNameSpokenRule.placement(of: call)
            // Whether the places this file shows the helper that builds it name it: read once.
            let coverage: Coverage = if case .shown = placement { Self.namedWhereUsed(call, file) } else { .none }
            switch placement {
            case .cleared, .combined:
                // A nameless child adds nothing to a combined label.
                continue
            case .returnedBy(let helper):
                sink.report(call, "\(shown) is returned by `\(helper)` with no accessibility label: wherever it is shown without one, VoiceOver says only \"image\"; check each place it is used",
                            certainty: .review)
            case .shown where coverage == .all:
                // Every place this file shows the helper that builds it labels, hides or groups it.
                continue
            case .shown(let control?):
                // A title in the control's label names it; the nameless image adds nothing to it.
                if Self.labelHasText(control, around: call) || Self.hasTitle(control) { continue }
                let name = control.calleeName ?? "Button"
                let role = Self.spokenRole(of: name)
                // A view of the app's own in the label may show text (in another file).
                let custom = Self.customViews(inLabelOf: control, around: call)
                sink.report(call, at: control, "`\(name)` has no accessible name: its label is only \(shown), which has no accessibility label, so VoiceOver announces it as \"\(role)\" and nothing more"
                            + (byName ? " (unless the image object, loaded by name, carries a label of its own: check it)" : "")
                            + (custom.first.map { " (unless `\(InputExcerpt.of($0))`, also in its label, shows text: check it)" } ?? "")
                            + "; label the `\(name)` in words",
                            certainty: byName || !custom.isEmpty || coverage == .some ? .review : nil,
                            reviewIf: ImageAssetNameSpokenRule.enclosingView(of: call).map { ["\($0)@labelled", $0 + FileResult.groupedMarker] } ?? [])
            case .shown(nil):
                let some = coverage == .some
                // In a widget or Live Activity the system decides which elements VoiceOver visits.
                let widget = file.buildsWidgets
                sink.report(call, "\(shown) has no accessibility label and is not hidden: VoiceOver stops on it and says only \"image\""
                            + (byName ? " (unless the image object, loaded by name, carries a label of its own: check it)" : "")
                            + (some ? " where it is shown without one (some of the places that show it label or group it: check the others)" : "")
                            + (widget ? " (in a widget, where the system decides whether VoiceOver visits each element: check it with VoiceOver on the Home Screen)" : "")
                            + "; label it in words, or hide it if it is decorative",
                            certainty: byName || some || widget ? .review : nil,
                            reviewIf: ImageAssetNameSpokenRule.enclosingView(of: call).map { ["\($0)@labelled", $0 + FileResult.groupedMarker] } ?? [])
            }
        }
    }

    /// A control whose whole label is one of the app's own views, which (in its own file, a
    /// fact `imageOnly:Name`) shows nothing but a nameless picture: the control has no name.
    private func checkImageOnlyViewLabels(_ file: SourceFile, _ sink: inout FindingSink) {
        for control in file.index.calls(named: ["Button", "NavigationLink", "Link"]) where control.calledExpression.is(DeclReferenceExprSyntax.self) {
            guard !Self.hasTitle(control), let label = AccessibilityLabels.labelPart(of: control) else { continue }
            let calls = SourceFile.callsInSubtree(of: label)
            let named = calls.compactMap(\.calleeName)
            let custom = named.filter { $0.first?.isUppercase == true && !AccessibilityLabels.systemViews.contains($0) && !Self.notViews.contains($0) }
            guard custom.count == 1, let view = custom.first,
                  !named.contains(where: { ["Text", "Label", "Image", "AsyncImage"].contains($0) }),
                  !named.contains(where: { $0.hasPrefix("accessibility") || $0 == "help" }),
                  !AccessibilityLabels.labelsOrHides(ModifierChain(containing: ExprSyntax(control))),
                  !SwiftUIHitRegion.isSystemDrawnItem(control),
                  !AccessibilityLabels.accessibilityContainers(of: control).contains(where: { container in
                      let chain = ModifierChain(containing: ExprSyntax(container))
                      return AccessibilityLabels.labelsOrHides(chain) || chain.groupsChildren
                  }),
                  !AccessibilityLabels.isInPreview(control),
                  let shown = calls.first(where: { $0.calleeName == view }) else { continue }
            let name = control.calleeName ?? "Button"
            let role = Self.spokenRole(of: name)
            sink.report(shown, at: control,
                        "`\(name)` has no accessible name: its label is only `\(InputExcerpt.of(view))`, which shows nothing but a picture with no accessibility label (`Image(uiImage:)`, `Image(nsImage:)` or `AsyncImage`), so VoiceOver announces it as \"\(role)\" and nothing more; label the `\(name)` in words",
                        requiredUse: [FileResult.imageOnlyPrefix + view])
        }
    }

    enum Coverage { case none, some, all }

    /// Whether the places this file shows the helper (a function or computed property) that
    /// builds `image` label, hide or group what it returns: `.none` when it is not in a helper
    /// or no place does.
    static func namedWhereUsed(_ image: FunctionCallExprSyntax, _ file: SourceFile) -> Coverage {
        guard let helper = file.helperUses(around: Syntax(image)), !helper.uses.isEmpty else { return .none }
        let named = helper.uses.filter { use in
            AccessibilityLabels.accessibilityContainers(of: use).contains { container in
                let chain = ModifierChain(containing: ExprSyntax(container))
                return AccessibilityLabels.labelsOrHides(chain) || chain.groupsChildren
                    || (AccessibilityLabels.labelledControls.contains(container.calleeName ?? "") && labelHasText(container, around: use))
            }
        }.count
        return named == 0 ? .none : named == helper.uses.count ? .all : .some
    }

    /// The argument or closure of `control` that holds `node` (its label, not a link's destination).
    static func part(of control: FunctionCallExprSyntax, holding node: some SyntaxProtocol) -> Syntax {
        var part = Syntax(node)
        while let parent = part.parent, parent.id != control.id { part = parent }
        return part
    }

    /// What VoiceOver says of a control with no name: its kind alone.
    static func spokenRole(of control: String) -> String {
        switch control {
        case "Link", "NavigationLink": "link"
        case "Toggle": "switch button"
        case "Menu": "pop up button"
        default: "button"
        }
    }

    /// Types that are not views, called in a label's code (`URL(string:)`, `Transaction(…)`).
    static let notViews: Set<String> = ["URL", "Transaction", "Animation", "UIImage", "NSImage", "CGSize", "CGFloat", "CGRect",
                                        "Double", "Int", "String", "Date", "Data", "Binding", "Font", "Angle", "UnitPoint", "LinearGradient"]

    /// The app's own views called in the part of `control` that holds `image`.
    static func customViews(inLabelOf control: FunctionCallExprSyntax, around image: FunctionCallExprSyntax) -> [String] {
        part(of: control, holding: image).tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
            guard case .identifier(let name) = token.tokenKind, name.first?.isUppercase == true,
                  token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen,
                  token.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period,
                  !AccessibilityLabels.systemViews.contains(name), !notViews.contains(name) else { return nil }
            return name
        }
    }

    /// Whether the part of `control` that holds `image` (its label closure, not a link's
    /// destination) also shows a `Text` or a `Label`.
    static func labelHasText(_ control: FunctionCallExprSyntax, around image: some SyntaxProtocol) -> Bool {
        part(of: control, holding: image).tokens(viewMode: .sourceAccurate).contains { token in
            (token.tokenKind == .identifier("Text") || token.tokenKind == .identifier("Label"))
                && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
        }
    }

    /// `Button(title) { … }`, `Link(title, destination:)`: a title argument (not a closure).
    static func hasTitle(_ control: FunctionCallExprSyntax) -> Bool {
        guard let first = control.arguments.first, first.label == nil else { return false }
        return !first.expression.is(ClosureExprSyntax.self)
    }
}
