import AuditModel
import SwiftSyntax

/// A message, banner or presentation hidden by a timer rather than by the person.
struct AutoDismissingContentRule: SourceRule {
    let description = RuleDescription(
        id: "auto-dismissing-content",
        title: "Content dismissed on a timer",
        platforms: .all,
        kind: .recommendation, certainty: .review,
        rationale: """
            A toast, banner or sheet that hides itself after a delay can be gone before someone \
            using VoiceOver reaches it, or before someone who reads slowly has finished. Apple asks \
            to minimise time-boxed elements and to let people dismiss views with an explicit action.
            """,
        citations: [
            Citation("HIG › Accessibility, Cognitive",
                     "Minimize use of time-boxed interface elements. Views and controls that auto-dismiss on a timer can be problematic for people who need longer to process information, and for people who use assistive technologies that require more time to traverse the interface. Prefer dismissing views with an explicit action."),
            Citation("SwiftUI accessibility guide › Accessibility, Rules",
                     "Don't hide things on a timer. Messages that dismiss themselves can vanish before someone using VoiceOver or reading slowly gets to them. Let people close them."),
        ],
        fix: """
            Give the message a close button (or make it dismiss on tap) and drop the timer; if it \
            must time out, skip the timer while VoiceOver runs \
            (`UIAccessibility.isVoiceOverRunning`, `@Environment(\\.accessibilityVoiceOverEnabled)`) \
            and announce it with `UIAccessibility.post(notification: .announcement, argument:)` / \
            `AccessibilityNotification.Announcement(…).post()`.
            """,
        limitations: """
            Recognised timers: `asyncAfter` closures, block-based `Timer`s, statements after \
            `Task.sleep`/`clock.sleep` in the same block, `withAnimation(….delay(n))` and \
            `UIView.animate(…, delay:)` (animation delays under 1 s are treated as choreography). \
            What is hidden is recognised by name: `show…`/`…Visible`/`isPresented = false`, `isRemoved`/`isDismissed = true`, a \
            toast/banner/message/alert/error… property set to `nil` or `false`, `dismiss()`, \
            `hide…()` calls and `removeFromSuperview()`/`isHidden = true`/`alpha = 0` on a view named \
            like a message. Selector-based timers and Combine delays are not followed. Timers in \
            code that reads a VoiceOver setting are trusted to handle it.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct SaveButton: View {
                    @State private var showToast = false
                    var body: some View {
                        Button("Save") {
                            showToast = true
                            ↓DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                                withAnimation { showToast = false }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct InboxView: View {
                    @State private var banner: String?
                    var body: some View {
                        List { Text("Inbox") }
                            .task(id: banner) {
                                try? await ↓Task.sleep(for: .seconds(3))
                                banner = nil
                            }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct CopiedSheet: View {
                    @Environment(\\.dismiss) private var dismiss
                    var body: some View {
                        Text("Copied").onAppear {
                            Task {
                                try await ↓Task.sleep(nanoseconds: 1_500_000_000)
                                dismiss()
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ToastPresenter {
                    var isBannerVisible = true
                    func showBanner() {
                        isBannerVisible = true
                        ↓Timer.scheduledTimer(withTimeInterval: 3, repeats: false) { [weak self] _ in
                            self?.isBannerVisible = false
                        }
                    }
                    func show(_ toastView: UIView, in window: UIWindow) {
                        window.addSubview(toastView)
                        ↓Timer.scheduledTimer(withTimeInterval: 4, repeats: false) { _ in
                            toastView.removeFromSuperview()
                        }
                        ↓UIView.animate(withDuration: 0.3, delay: 5, options: [], animations: {
                            toastView.alpha = 0
                        })
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct ErrorAlertHost: View {
                    @State var isPresented = true
                    var body: some View {
                        Text("Failed").onAppear {
                            ↓DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(2500), execute: {
                                isPresented = false
                            })
                        }
                    }
                }
                """),
            // The banner's own removal flag, set 2 s after the work it reports finishes.
            RuleExample("""
                import SwiftUI
                struct ProgressBanner: View {
                    @State private var isRemoved = false
                    let finished: Bool
                    var body: some View {
                        Text("Cloning").onChange(of: finished) { _ in
                            ↓DispatchQueue.main.asyncAfter(deadline: .now() + 2.0) {
                                withAnimation { isRemoved = true }
                            }
                        }
                    }
                }
                """),
        ],
        nonTriggering: [
            // `true` for a flag that shows something is not a dismissal.
            RuleExample("""
                import SwiftUI
                struct ProgressBanner: View {
                    @State private var isRefreshed = false
                    @State private var isClosedCaptionOn = false
                    var body: some View {
                        Text("Cloning").onAppear {
                            DispatchQueue.main.asyncAfter(deadline: .now() + 2.0) {
                                isRefreshed = true
                                isClosedCaptionOn = true
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct ContentView: View {
                    @State private var showSheet = false
                    @AccessibilityFocusState private var focusOnTrigger: Bool
                    var body: some View {
                        Button("Open Settings") { showSheet = true }
                            .accessibilityFocused($focusOnTrigger)
                            .sheet(isPresented: $showSheet) {
                                Text("Settings")
                                    .onDisappear {
                                        Task { @MainActor in
                                            try? await Task.sleep(for: .milliseconds(100))
                                            focusOnTrigger = true
                                        }
                                    }
                            }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class FormController {
                    var isEmailFocused = false
                    func announce(_ label: UILabel) {
                        DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
                            UIAccessibility.post(notification: .layoutChanged, argument: label)
                        }
                        DispatchQueue.main.asyncAfter(deadline: .now() + 0.3) { self.isEmailFocused = true }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class ToastPresenter {
                    func schedule(_ toastView: UIView) {
                        Timer.scheduledTimer(withTimeInterval: 4, repeats: false) { _ in
                            guard !UIAccessibility.isVoiceOverRunning else { return }
                            toastView.removeFromSuperview()
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Toast: View {
                    @Environment(\\.accessibilityVoiceOverEnabled) private var voiceOverEnabled
                    @State private var showToast = true
                    var body: some View {
                        Text("Saved").onAppear {
                            guard !voiceOverEnabled else { return }
                            DispatchQueue.main.asyncAfter(deadline: .now() + 3) { showToast = false }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Spinner: View {
                    @State private var isLoading = true
                    @State private var showToast = false
                    var body: some View {
                        ProgressView().task {
                            try? await Task.sleep(for: .seconds(1))
                            isLoading = false
                            showToast = true
                        }
                        Button("Close") { showToast = false }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func fadeOut(_ toastView: UIView) {
                    // Runs after the person tapped Close: a short delay sequences the animation.
                    UIView.animate(withDuration: 0.3, delay: 0.1, options: [], animations: { toastView.alpha = 0 })
                }
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        // Offsets of identifiers that read VoiceOver's state, found once per file rather than
        // once per timer (a file with many timers would otherwise be quadratic).
        var voiceOverReads: [Int]?
        for call in file.index.calls(named: Self.timerCallees) {
            guard let timer = Self.timer(call) else { continue }
            if let seconds = timer.seconds, timer.isAnimationDelay, seconds < 1 { continue }
            let hidden = Self.hiddenContent(in: timer.regions, file, at: call)
            guard let first = hidden.first else { continue }
            if voiceOverReads == nil {
                voiceOverReads = file.index.references.filter { $0.key.lowercased().contains("voiceover") }.flatMap(\.value)
            }
            if let reads = voiceOverReads, timer.scopes.contains(where: { scope in
                let range = scope.offsetRange
                return reads.contains { range.contains($0) }
            }) {
                continue
            }
            let more = hidden.count > 1 ? " (and \(hidden.count - 1) more)" : ""
            sink.report(call, """
                \(first)\(more) runs \(timer.delay) after \(timer.api): content that dismisses itself can vanish before \
                someone using VoiceOver or reading slowly gets to it; let people close it
                """)
        }
    }

    // MARK: - Timers

    private struct DelayedCode {
        let api: String
        let delay: String
        let seconds: Double?
        let isAnimationDelay: Bool
        /// Source ranges whose code runs when the timer fires.
        let regions: [Range<Int>]
        /// Code that may check VoiceOver before the timer is armed or when it fires.
        let scopes: [Syntax]
    }

    private static let timerCallees: Set<String> = ["asyncAfter", "scheduledTimer", "Timer", "sleep", "withAnimation", "animate"]

    private static func timer(_ call: FunctionCallExprSyntax) -> DelayedCode? {
        // Most calls are view modifiers: decide by name before looking at anything else.
        guard let name = call.calleeName, timerCallees.contains(name) else { return nil }
        let base = call.calleeBaseText
        var scopes: [Syntax] = call.closures.map(Syntax.init)
        if let owner = call.enclosingCodeBlockOwner { scopes.append(owner) }
        let regions = call.closures.map(\.offsetRange)

        switch name {
        case "asyncAfter":
            guard !regions.isEmpty else { return nil }
            let (delay, seconds) = delayText(call.argument("deadline") ?? call.argument("wallDeadline"))
            return DelayedCode(api: "`\(base.map { "\($0)." } ?? "")asyncAfter`", delay: delay, seconds: seconds,
                         isAnimationDelay: false, regions: regions, scopes: scopes)
        case "scheduledTimer" where base == "Timer", "Timer" where base == nil:
            guard !regions.isEmpty else { return nil }
            let (delay, seconds) = delayText(call.argument("withTimeInterval") ?? call.argument("timeInterval"))
            return DelayedCode(api: "`Timer`", delay: delay, seconds: seconds, isAnimationDelay: false,
                         regions: regions, scopes: scopes)
        case "sleep" where base == "Task" || base?.lowercased().hasSuffix("clock") == true
            || base?.hasSuffix("Clock()") == true:
            return sleepTimer(call)
        case "withAnimation":
            guard let animation = call.firstUnlabeledArgument, !regions.isEmpty,
                  let delayCall = delayModifier(in: animation) else { return nil }
            let (delay, seconds) = delayText(delayCall.firstUnlabeledArgument)
            return DelayedCode(api: "`withAnimation(….delay(…))`", delay: delay, seconds: seconds, isAnimationDelay: true,
                         regions: regions, scopes: scopes)
        case "animate" where call.argument("delay") != nil:
            guard !regions.isEmpty else { return nil }
            let (delay, seconds) = delayText(call.argument("delay"))
            return DelayedCode(api: "`\(base.map { "\($0)." } ?? "")animate(withDuration:delay:)`", delay: delay,
                         seconds: seconds, isAnimationDelay: true, regions: regions, scopes: scopes)
        default:
            return nil
        }
    }

    /// `try await Task.sleep(…)`: what follows it in the same block runs after the delay.
    private static func sleepTimer(_ call: FunctionCallExprSyntax) -> DelayedCode? {
        guard let statement = call.ancestor(CodeBlockItemSyntax.self),
              let list = statement.parent?.as(CodeBlockItemListSyntax.self) else { return nil }
        let region = statement.endPositionBeforeTrailingTrivia.utf8Offset..<list.endPosition.utf8Offset
        var scopes: [Syntax] = []
        if let block = list.parent { scopes.append(block) }
        if let owner = call.enclosingCodeBlockOwner { scopes.append(owner) }
        let argument = call.argument("nanoseconds") ?? call.argument("for") ?? call.argument("until")
            ?? call.argument("seconds")
        var (delay, seconds) = delayText(argument)
        if call.argument("nanoseconds") != nil, let value = argument?.numberValue {
            seconds = value / 1_000_000_000
            delay = "\((value / 1_000_000_000).points) s"
        }
        return DelayedCode(api: "`\(call.calleeBaseText ?? "Task").sleep`", delay: delay, seconds: seconds,
                     isAnimationDelay: false, regions: [region], scopes: scopes)
    }

    /// The `.delay(n)` call inside an animation expression like `.easeOut.delay(3)`.
    private static func delayModifier(in expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var current: ExprSyntax? = expression
        while let call = current?.as(FunctionCallExprSyntax.self) {
            if call.calleeName == "delay" { return call }
            current = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        }
        return nil
    }

    /// "3 s", "2.5 s" or the expression as written, and the seconds when known.
    private static func delayText(_ expression: ExprSyntax?) -> (String, Double?) {
        guard let expression else { return ("a delay", nil) }
        if let value = expression.numberValue { return ("\(value.points) s", value) }
        if let sequence = expression.as(SequenceExprSyntax.self), let last = sequence.elements.last,
           sequence.elements.count == 3 {
            return delayText(last)
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let name = call.calleeName,
           let value = call.firstUnlabeledArgument?.numberValue {
            let divisor: Double? = switch name {
            case "seconds": 1
            case "milliseconds": 1_000
            case "microseconds": 1_000_000
            case "nanoseconds": 1_000_000_000
            default: nil
            }
            if let divisor { return ("\((value / divisor).points) s", value / divisor) }
        }
        return ("`\(expression.normalizedText)`", nil)
    }

    // MARK: - What is hidden

    private static let showWords: Set<String> = [
        "show", "showing", "shown", "visible", "presented", "presenting", "present", "displayed", "displaying",
    ]
    private static let messageWords: Set<String> = [
        "toast", "banner", "snackbar", "snack", "hud", "message", "msg", "alert", "notice", "notification",
        "popup", "popover", "tooltip", "tip", "error", "success", "confirmation", "overlay", "callout", "flash",
        "info", "status", "prompt", "copied", "saved", "undo", "feedback", "hint", "dialog",
    ]
    /// State that is not content people read: spinners, focus, interaction feedback.
    private static let otherStateWords: Set<String> = [
        "loading", "animating", "animation", "animate", "focus", "focused", "pressed", "highlighted", "highlight",
        "selected", "editing", "recording", "busy", "progress", "spinner", "keyboard", "dragging", "scrolling",
        "expanded", "enabled", "disabled", "playing", "running", "refreshing", "cursor", "caret", "blink",
        "splash", "launch",
    ]
    private static let hideVerbs: Set<String> = ["hide", "dismiss", "remove", "clear", "close"]

    private static func isPresentationFlag(_ name: String) -> Bool {
        let words = Set(identifierWords(name))
        guard words.isDisjoint(with: otherStateWords) else { return false }
        return !words.isDisjoint(with: showWords) || !words.isDisjoint(with: messageWords)
    }

    /// `isRemoved`, `dismissed`, `isClosed`: a flag whose `true` takes the content away.
    private static func isRemovalFlag(_ name: String) -> Bool {
        let words = identifierWords(name)
        return words.count <= 2 && (words.count == 1 || words.first == "is") && ["removed", "dismissed", "closed"].contains(words.last ?? "")
    }

    private static func isMessageName(_ name: String) -> Bool {
        let words = Set(identifierWords(name))
        return words.isDisjoint(with: otherStateWords) && !words.isDisjoint(with: messageWords)
    }

    /// Descriptions of what the code in `regions` hides, in source order.
    private static func hiddenContent(in regions: [Range<Int>], _ file: SourceFile, at call: FunctionCallExprSyntax) -> [String] {
        func inside(_ node: some SyntaxProtocol) -> Bool {
            let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
            return regions.contains { $0.contains(offset) }
        }
        let typeName = call.enclosingTypeDecl?.declaredTypeName ?? ""
        /// `toastView`, `self.bannerView`, or the view itself inside a `ToastView` class.
        func isMessageView(_ object: String) -> Bool {
            if object.isEmpty { return isMessageName(typeName) }
            return isMessageName(String(object.split(separator: ".").last ?? ""))
        }
        var found: [(Int, String)] = []
        for assignment in file.index.assignments where inside(assignment.node) {
            guard assignment.value.count == 1, let value = assignment.value.first,
                  let property = assignment.targetProperty else { continue }
            let text = "`\(assignment.node.normalizedText)`"
            let offset = assignment.node.positionAfterSkippingLeadingTrivia.utf8Offset
            if value.booleanValue == false, isPresentationFlag(property) {
                found.append((offset, text))
            } else if value.booleanValue == true, isRemovalFlag(property), assignment.targetObject.isEmpty || assignment.targetObject == "self" {
                // `isRemoved = true`, `isDismissed = true`: the view's own flag that takes it away.
                found.append((offset, text))
            } else if value.is(NilLiteralExprSyntax.self), isMessageName(property) {
                found.append((offset, text))
            } else if property == "isHidden", value.booleanValue == true, isMessageView(assignment.targetObject) {
                found.append((offset, text))
            } else if property == "alpha", value.numberValue == 0, isMessageView(assignment.targetObject) {
                found.append((offset, text))
            }
        }
        for inner in file.index.calls where inside(inner) {
            guard let name = inner.calleeName else { continue }
            let base = inner.calledExpression.as(MemberAccessExprSyntax.self)?.base
            let object = base.map(Assignment.objectName) ?? ""
            let offset = inner.positionAfterSkippingLeadingTrivia.utf8Offset
            let text = "`\(inner.normalizedText)`"
            if name == "dismiss", object.isEmpty || object == "presentingViewController" {
                found.append((offset, text))
            } else if name == "removeFromSuperview", isMessageView(object) {
                found.append((offset, text))
            } else if let verb = identifierWords(name).first, hideVerbs.contains(verb), isMessageName(name) {
                found.append((offset, text))
            }
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
