import AuditModel
import SwiftSyntax

/// A sheet, full-screen cover or popover in a view that never manages accessibility focus:
/// someone should check where VoiceOver lands when it closes.
struct SheetFocusRestorationRule: SourceRule {
    let description = RuleDescription(
        id: "sheet-focus-restoration",
        title: "Check VoiceOver focus returns to the trigger when a sheet closes",
        platforms: .all,
        kind: .advisory, certainty: .review,
        rationale: """
            When a sheet, full-screen cover or popover is dismissed, VoiceOver focus should land \
            back on the control that opened it; otherwise a VoiceOver user is dropped at the top \
            of the screen and has to find their place again. SwiftUI usually restores focus for \
            system presentations, but not always (for example when the trigger is rebuilt, moved \
            or removed while the sheet is up). A view that presents one and never uses \
            `@AccessibilityFocusState` has not taken control of it, so a person should verify it \
            with VoiceOver.
            """,
        citations: [
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "When a sheet, alert, or popover is dismissed, VoiceOver focus MUST return to the element that triggered it."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Missing focus restoration: Dismissing sheets without returning VoiceOver focus to the trigger element."),
        ],
        fix: """
            Dismiss the sheet with VoiceOver on and check where focus lands. If it does not return \
            to the trigger, declare `@AccessibilityFocusState private var focusOnTrigger: Bool`, \
            attach `.accessibilityFocused($focusOnTrigger)` to the trigger, and set \
            `focusOnTrigger = true` in the sheet's `onDismiss` (or its `.onDisappear`).
            """,
        limitations: """
            An advisory: only a person running VoiceOver can tell whether focus returns. The view \
            is the enclosing type; focus state managed by a parent view or another file is not seen.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct ProfileView: View {
                    @State private var showSettings = false
                    var body: some View {
                        Button("Settings") { showSettings = true }
                            .↓sheet(isPresented: $showSettings) { Text("Settings") }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Gallery: View {
                    @State private var selected: Photo?
                    @State private var showInfo = false
                    var body: some View {
                        List(photos) { photo in Button(photo.title) { selected = photo } }
                            .↓fullScreenCover(item: $selected) { photo in PhotoDetail(photo: photo) }
                            .toolbar {
                                Button("Info") { showInfo = true }
                                    .↓popover(isPresented: $showInfo) { Text("About") }
                            }
                    }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct ContentView: View {
                    @State private var showSheet = false
                    @AccessibilityFocusState private var focusOnTrigger: Bool
                    var body: some View {
                        Button("Open Settings") { showSheet = true }
                            .accessibilityFocused($focusOnTrigger)
                            .sheet(isPresented: $showSheet, onDismiss: { focusOnTrigger = true }) {
                                Text("Settings")
                            }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                enum Field: Hashable { case name, share }
                struct Editor: View {
                    @AccessibilityFocusState var focus: Field?
                    @State var sharing = false
                    var body: some View {
                        Button("Share") { sharing = true }
                            .sheet(isPresented: $sharing) { Text("Share") }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Confirm: View {
                    @State var asking = false
                    var body: some View {
                        Button("Delete") { asking = true }
                            .alert("Delete?", isPresented: $asking) { Button("Delete", role: .destructive) {} }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                func showSheet(from controller: UIViewController) {
                    let sheet = UIViewController()
                    sheet.sheetPresentationController?.detents = [.medium()]
                    controller.present(sheet, animated: true)
                }
                """),
        ]
    )

    private static let presentations: Set<String> = ["sheet", "fullScreenCover", "popover"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in file.index.calls(named: Self.presentations) {
            guard let name = call.calleeName, Self.presentations.contains(name),
                  call.calledExpression.is(MemberAccessExprSyntax.self),
                  call.argument("isPresented") != nil || call.argument("item") != nil else { continue }
            let type = call.enclosingTypeDecl
            if Self.managesFocus(type, file) { continue }
            let binding = (call.argument("isPresented") ?? call.argument("item"))?.normalizedText ?? ""
            let owner = type.map { "`\($0.declaredTypeName)`" } ?? "this file"
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
            sink.report(call, at: member.declName, """
                `.\(name)` presented from `\(binding)` in \(owner), which declares no @AccessibilityFocusState and \
                never uses .accessibilityFocused: check with VoiceOver that focus returns to the control that \
                opened it when it closes (SwiftUI usually restores focus for system sheets; a person must verify)
                """)
        }
    }

    /// The view declares an `@AccessibilityFocusState` property or attaches `.accessibilityFocused`.
    private static func managesFocus(_ type: Syntax?, _ file: SourceFile) -> Bool {
        if file.index.references("accessibilityFocused", in: type) { return true }
        guard let type else {
            return file.tree.statements.contains { statement in
                statement.item.as(VariableDeclSyntax.self)?.attributes.contains(where: isFocusStateAttribute) == true
            }
        }
        return type.memberDecls.contains { member in
            member.as(VariableDeclSyntax.self)?.attributes.contains(where: isFocusStateAttribute) == true
        }
    }

    private static func isFocusStateAttribute(_ element: AttributeListSyntax.Element) -> Bool {
        element.as(AttributeSyntax.self)?.attributeName.typeName == "AccessibilityFocusState"
    }
}
