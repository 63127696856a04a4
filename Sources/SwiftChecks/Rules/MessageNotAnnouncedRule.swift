import AuditModel
import SwiftSyntax

/// A message a view shows when its code sets it (an error, a result, "Copied") with nothing
/// telling VoiceOver: someone who cannot see it appear does not learn of it.
struct MessageNotAnnouncedRule: SourceRule {
    let description = RuleDescription(
        id: "message-not-announced",
        title: "Message appears without an announcement",
        platforms: PlatformSet([.iOS, .macOS, .visionOS, .watchOS, .tvOS]),
        kind: .recommendation, certainty: .review,
        rationale: """
            An error, a result or a confirmation that appears after an action (a `@State` \
            message the view's own code sets, shown by an `if`) changes the screen where VoiceOver \
            is not: unless the app announces it or moves focus to it, a blind person keeps \
            waiting, or repeats the action. Whether the change matters enough to announce is a \
            person's call, so these are findings to review.
            """,
        citations: [
            Citation("HIG › VoiceOver", "Inform VoiceOver when visible content or layout changes occur."),
        ],
        fix: """
            Announce it where the code sets it: `AccessibilityNotification.Announcement(message).post()` \
            (iOS 17, macOS 14) or `UIAccessibility.post(notification: .announcement, argument: message)`; \
            or move VoiceOver's focus to it with `@AccessibilityFocusState`. An alert \
            (`.alert(…)`) is announced by the system.
            """,
        limitations: """
            Only `@State` properties of the view whose names say they hold a message (error, \
            message, status, result, toast, banner, copied, success, warning, feedback, \
            validation), shown by an `if` whose branch draws a `Text`, and set somewhere in the \
            view's code. A view that announces anything, uses an accessibility focus state, marks \
            text `.updatesFrequently`, or passes the property to `.alert` is trusted. Messages \
            held in a view model, or shown by a view of the app's own, are not followed.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct ExportView: View {
                    @State private var error: String?
                    var body: some View {
                        VStack {
                            ↓if let error {
                                Text(error).foregroundStyle(.red)
                            }
                            Button("Export") { export() }
                        }
                    }
                    func export() {
                        error = "The file could not be written."
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct CopyRow: View {
                    @State private var showCopied = false
                    var body: some View {
                        HStack {
                            Button("Copy") { showCopied = true }
                            ↓if showCopied { Text("Copied") }
                        }
                    }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct Login: View {
                    @State private var errorMessage: String?
                    var body: some View {
                        VStack {
                            if let errorMessage { Text(errorMessage) }
                            Button("Sign in") { signIn() }
                        }
                    }
                    func signIn() {
                        errorMessage = "Wrong password"
                        AccessibilityNotification.Announcement("Wrong password").post()
                    }
                }
                """),
            // The screen's own state: a loading flag, a placeholder, a status set as it appears,
            // a parameter that shadows the property.
            RuleExample("""
                import SwiftUI
                struct Photos: View {
                    @State private var isStatusLoading = true
                    @State private var statusText = ""
                    @State private var message: String?
                    var body: some View {
                        if isStatusLoading { Text("Loading") }
                        if statusText.isEmpty { Text("What's new?") }
                        if let message { Text(message) }
                        Button("Reload") { isStatusLoading = true; statusText = "x" }
                            .onAppear { message = "Pull to refresh" }
                        ForEach(["a"], id: \\.self) { message in
                            if message.isEmpty == false { Text(message) }
                        }
                    }
                    func row(message: String) -> some View { Text(message) }
                }
                """),
            // A message nothing sets after the view appears, and one an alert shows.
            RuleExample("""
                import SwiftUI
                struct Notice: View {
                    @State private var statusText = "Ready"
                    @State private var error: String?
                    var body: some View {
                        if !statusText.isEmpty { Text(statusText) }
                        if let error { Text(error) }
                        Button("Go") { error = "Failed" }
                            .alert(error ?? "", isPresented: .constant(error != nil)) {}
                    }
                }
                """),
        ]
    )

    /// Words in a property's name that say it holds a message to the person.
    static let messageWords = ["error", "message", "status", "result", "toast", "banner", "copied", "success", "warning",
                               "feedback", "validation"]
    /// Code that tells VoiceOver, or lets the system do it: the type is trusted with its messages.
    static let announcing = ["AccessibilityNotification", "UIAccessibility", "NSAccessibility", "accessibilityAnnouncement",
                             "AccessibilityFocusState", "accessibilityFocused", "updatesFrequently", "announcement"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for declaration in file.index.typeDeclarations {
            guard let type = declaration.as(StructDeclSyntax.self) else { continue }
            let names = Self.messageProperties(of: type)
            guard !names.isEmpty else { continue }
            let tokens = type.tokens(viewMode: .sourceAccurate)
            if tokens.contains(where: { Self.announcing.contains($0.text) }) { continue }
            // Passed to an alert: the system announces the alert.
            let alerted = Set(names.filter { name in Self.isAlerted(name, in: type) })
            let assigned = Self.assignedNames(in: type)
            let shadowed = Self.parameterNames(in: type)
            for statement in Self.ifStatements(in: type) {
                guard let name = names.first(where: { Self.conditionReads($0, statement) }), !alerted.contains(name), assigned.contains(name),
                      !shadowed.contains(name), !Self.isPlaceholderCondition(statement, name),
                      // An alert's or dialog's content is announced with it.
                      !statement.enclosingViewCalls.contains(where: { ["alert", "confirmationDialog"].contains($0.calleeName ?? "") }),
                      statement.body.tokens(viewMode: .sourceAccurate).contains(where: { token in
                          token.tokenKind == .identifier("Text") && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
                      }),
                      !AccessibilityLabels.isInPreview(statement) else { continue }
                sink.report(statement, at: statement.ifKeyword,
                            "`\(name)` is shown here once the view's code sets it, and nothing in `\(type.name.text)` tells VoiceOver (an announcement, or focus moved to it): someone who cannot see it appear may not learn of it; check whether it should be announced",
                            certainty: .review)
            }
        }
    }

    /// `@State` properties whose names hold a message word.
    static func messageProperties(of type: StructDeclSyntax) -> [String] {
        type.memberBlock.members.compactMap { member -> [String]? in
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  variable.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.sourceText == "State" }) else { return nil }
            return variable.bindings.compactMap { holdsMessage($0) ? $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text : nil }
                .filter { name in messageWords.contains { name.lowercased().contains($0) } }
        }.flatMap { $0 }
    }

    /// Text, a flag or an error, by its declared type or its first value: not a filter or a
    /// model named `statusFilter` or `result`.
    static func holdsMessage(_ binding: PatternBindingSyntax) -> Bool {
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.lowercased() ?? ""
        // A loading flag or a draft is the screen's own state, not a message.
        if ["loading", "draft", "placeholder", "input", "filter"].contains(where: name.contains) { return false }
        let type = binding.typeAnnotation?.type.sourceText
        let value = binding.initializer?.value
        let isFlag = type == "Bool" || (type == nil && value?.is(BooleanLiteralExprSyntax.self) == true)
        // A flag says a message shows only when its name says which: "showCopied", "errorVisible".
        if isFlag { return ["copied", "toast", "banner", "success", "error"].contains(where: name.contains) }
        if let type {
            return ["String", "String?", "LocalizedStringKey", "LocalizedStringKey?", "Error?", "(any Error)?", "Text?",
                    "AttributedString", "AttributedString?"].contains(type)
        }
        return value?.is(StringLiteralExprSyntax.self) == true || value?.is(NilLiteralExprSyntax.self) == true
    }

    /// Assignments that come from an action or an event, not from the view's first appearance
    /// (`onAppear`, `task`, `init`), which make the message part of the screen as it opens.
    static func isLateAssignment(_ token: TokenSyntax) -> Bool {
        var node = Syntax(token).parent
        while let current = node {
            if current.is(InitializerDeclSyntax.self) { return false }
            if let call = current.as(FunctionCallExprSyntax.self), ["onAppear", "task"].contains(call.calleeName ?? "") { return false }
            if current.kind.isDeclaration && !current.is(VariableDeclSyntax.self) && !current.is(IfConfigDeclSyntax.self) { return true }
            node = current.parent
        }
        return true
    }

    /// Names assigned anywhere in the type's code (`error = …`, `self.error = …`), not in a declaration.
    static func assignedNames(in type: StructDeclSyntax) -> Set<String> {
        var names = Set<String>()
        for token in type.tokens(viewMode: .sourceAccurate) where token.tokenKind == .equal || token.tokenKind == .binaryOperator("=") {
            guard let before = token.previousToken(viewMode: .sourceAccurate), case .identifier(let name) = before.tokenKind,
                  before.parent?.parent?.is(PatternBindingSyntax.self) != true,
                  before.parent?.is(IdentifierPatternSyntax.self) != true, isLateAssignment(token) else { continue }
            names.insert(name)
        }
        return names
    }

    /// Parameters (of functions and closures) that shadow a property: `if` conditions on such
    /// a name may read the parameter.
    static func parameterNames(in type: StructDeclSyntax) -> Set<String> {
        var names = Set<String>()
        for token in type.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let parent = token.parent else { continue }
            if let parameter = parent.as(FunctionParameterSyntax.self), parameter.secondName?.text ?? parameter.firstName.text == name {
                names.insert(name)
            } else if parent.is(ClosureShorthandParameterSyntax.self) || parent.is(ClosureParameterSyntax.self) {
                names.insert(name)
            }
        }
        return names
    }

    /// Whether `name` is an argument of an `.alert(…)` or `.confirmationDialog(…)` in the type.
    static func isAlerted(_ name: String, in type: StructDeclSyntax) -> Bool {
        for token in type.tokens(viewMode: .sourceAccurate) where token.text == "alert" || token.text == "confirmationDialog" {
            // `alert` → its reference → `.alert` (a member access) → the call.
            guard let call = token.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                    ?? token.parent?.parent?.as(FunctionCallExprSyntax.self) else { continue }
            if call.arguments.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == name }) { return true }
        }
        return false
    }

    /// `if name.isEmpty`: a placeholder shown while nothing is there, from the start.
    static func isPlaceholderCondition(_ statement: IfExprSyntax, _ name: String) -> Bool {
        let text = statement.conditions.sourceText
        return text == "\(name).isEmpty" || text == "self.\(name).isEmpty"
    }

    /// Whether the `if`'s conditions read `name` (`if let name`, `if name`, `if name != nil`, `if !name.isEmpty`).
    static func conditionReads(_ name: String, _ statement: IfExprSyntax) -> Bool {
        statement.conditions.tokens(viewMode: .sourceAccurate).contains { $0.text == name }
    }

    static func ifStatements(in type: StructDeclSyntax) -> [IfExprSyntax] {
        final class Collector: SyntaxVisitor {
            var found: [IfExprSyntax] = []
            override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
                found.append(node)
                return .visitChildren
            }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(type.memberBlock)
        return collector.found
    }
}
