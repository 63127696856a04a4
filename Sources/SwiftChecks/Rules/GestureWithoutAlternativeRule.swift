import AuditModel
import SwiftSyntax

/// A long press, drag, swipe, pinch, rotation or multi-tap that is the only way to reach an
/// action: people who cannot perform it (Switch Control, Voice Control, VoiceOver, limited
/// dexterity) have no other way in.
struct GestureWithoutAlternativeRule: SourceRule {
    let description = RuleDescription(
        id: "gesture-without-alternative",
        title: "Gesture-only action has no accessible alternative",
        kind: .recommendation, certainty: .review,
        rationale: """
            Anything beyond a single tap (a long press, a drag or swipe, a pinch, a rotation, a \
            double tap, a two-finger tap) is hard or impossible for many people, and assistive \
            technologies cannot perform most of them: Switch Control cannot swipe or long-press, \
            and VoiceOver's activation is a single tap. An action reached only this way needs a \
            second way in: an accessibility action (which VoiceOver, Switch Control and Voice \
            Control all offer), a context menu, or for a value an adjustable action. Single taps \
            are tap-gesture-missing-trait's and custom-toggle-missing-trait's to judge.
            """,
        citations: [
            Citation("HIG › Accessibility",
                     "Offer alternatives to gestures. Make sure your UI's core functionality is accessible through more than one type of physical interaction. Gestures can be less comfortable for people who have limited dexterity, so offer onscreen ways to achieve the same outcome. For example, if you use a swipe gesture to dismiss a view, also make a button available so people can tap or use an assistive device."),
            Citation("Design doc › Accessibility",
                     "Offer a button for every gesture. If a swipe deletes or a long press opens options, give people another way to do it too, such as a visible button or menu."),
            Citation("iOS/macOS accessibility checklist (SwiftUI, UIKit, AppKit)",
                     "Switch Control users cannot perform swipe-to-delete, long-press, or multi-finger gestures. Expose these interactions as .accessibilityAction(named:) custom actions instead — Switch Control presents them as a menu."),
        ],
        fix: """
            Add `.accessibilityAction(named: "Delete") { … }` for each gesture-only action, or a \
            `.contextMenu` with the same commands; for a drag or rotation that sets a value, \
            `.accessibilityAdjustableAction`; for paging, `.accessibilityScrollAction`. In UIKit set \
            `accessibilityCustomActions`, add a `UIContextMenuInteraction`, or override \
            `accessibilityIncrement()`/`accessibilityDecrement()`/`accessibilityScroll(_:)`; in \
            AppKit use `setAccessibilityCustomActions(_:)` or the `accessibilityPerform…` methods. \
            A visible button for the same action is the alternative the HIG asks for first.
            """,
        limitations: """
            A visible button elsewhere on the screen that does the same thing cannot be matched to \
            the gesture statically, so the gesture is still reported: suppress the finding where \
            that is the case. SwiftUI alternatives are looked for in the gesture's own modifier \
            chain; UIKit and AppKit alternatives anywhere in the same type, so one custom action \
            in a view controller clears every recognizer in it. A gesture stored in a computed \
            property is named but not analysed; a computed tap count is not judged.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct PhotoCell: View {
                    var body: some View {
                        Image("photo")
                            .↓onTapGesture(count: 2) { like() }
                            .↓onLongPressGesture { showOptions() }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Card: View {
                    @State private var offset: CGSize = .zero
                    var body: some View {
                        let swipe = DragGesture().onEnded { value in if value.translation.width < -80 { dismiss() } }
                        VStack {
                            CardFace()
                                .offset(offset)
                                .gesture(↓DragGesture().onChanged { offset = $0.translation }.onEnded { _ in dismiss() })
                            CardBack().gesture(↓swipe)
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Scrubber: View {
                    @Binding var position: CGFloat
                    var scrub: some Gesture {
                        DragGesture(minimumDistance: 0).onChanged { position = $0.location.x }
                    }
                    var body: some View {
                        Capsule().frame(height: 8).gesture(↓scrub)
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Canvas: View {
                    var body: some View {
                        Image("map")
                            .accessibilityLabel("Map")
                            .accessibilityAddTraits(.isButton)
                            .simultaneousGesture(↓MagnifyGesture().onChanged { zoom = $0.magnification })
                            .highPriorityGesture(↓RotateGesture().onChanged { angle = $0.rotation })
                            .gesture(↓TapGesture(count: 2).onEnded { reset() })
                            .gesture(↓LongPressGesture().sequenced(before: DragGesture()).onEnded { _ in move() })
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class InboxViewController: UIViewController {
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        let swipe = ↓UISwipeGestureRecognizer(target: self, action: #selector(archive))
                        swipe.direction = .left
                        view.addGestureRecognizer(swipe)
                        view.addGestureRecognizer(↓UILongPressGestureRecognizer(target: self, action: #selector(showOptions)))
                        let zoom = ↓UITapGestureRecognizer(target: self, action: #selector(zoomIn))
                        zoom.numberOfTapsRequired = 2
                        view.addGestureRecognizer(zoom)
                        view.accessibilityLabel = "Inbox"
                    }
                }
                """),
            RuleExample("""
                import AppKit
                final class CanvasView: NSView {
                    func setUp() {
                        addGestureRecognizer(↓NSMagnificationGestureRecognizer(target: self, action: #selector(zoom)))
                        let open = ↓NSClickGestureRecognizer(target: self, action: #selector(openItem))
                        open.numberOfClicksRequired = 2
                        addGestureRecognizer(open)
                    }
                }
                """),
        ],
        nonTriggering: [
            RuleExample("""
                import SwiftUI
                struct Photo: View {
                    @State private var scale = 1.0
                    var body: some View {
                        Image("photo")
                            .scaleEffect(scale)
                            .gesture(MagnificationGesture().onChanged { scale = $0 })
                            .accessibilityZoomAction { action in scale += action.direction == .zoomIn ? 0.5 : -0.5 }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Gallery: View {
                    var body: some View {
                        VStack {
                            TaskRow(task: task)
                                .onLongPressGesture { reschedule(task) }
                                .accessibilityAction(named: "Reschedule") { reschedule(task) }
                            PhotoThumbnail(photo: photo)
                                .onTapGesture(count: 2) { like(photo) }
                                .contextMenu { Button("Like") { like(photo) } }
                            RatingView(rating: $rating)
                                .gesture(DragGesture().onChanged { rating = level(at: $0.location) })
                                .accessibilityAdjustableAction { direction in adjust(direction) }
                            Pager(page: $page)
                                .gesture(DragGesture().onEnded { turn($0) })
                                .accessibilityScrollAction { edge in turn(edge) }
                            Knob(value: $value)
                                .gesture(RotateGesture().onChanged { value = $0.rotation.degrees })
                                .accessibilityActions { Button("Reset") { value = 0 } }
                        }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Traps: View {
                    var body: some View {
                        List {
                            Row().onTapGesture { open() }
                            Row().onTapGesture(count: 1) { open() }
                            Row().gesture(TapGesture().onEnded { open() })
                            Row().highPriorityGesture(DragGesture())
                            Row().swipeActions { Button("Delete", role: .destructive) { delete() } }
                            Row().onLongPressGesture(minimumDuration: 0) { select() }
                        }
                    }
                }
                """),
            RuleExample("""
                import UIKit
                final class MessageCell: UITableViewCell {
                    func setUp() {
                        addGestureRecognizer(UISwipeGestureRecognizer(target: self, action: #selector(archive)))
                        accessibilityCustomActions = [UIAccessibilityCustomAction(name: "Archive") { _ in true }]
                    }
                    @objc func archive() {}
                }
                final class PhotoView: UIImageView {
                    func setUp() {
                        addGestureRecognizer(UILongPressGestureRecognizer(target: self, action: #selector(showMenu)))
                        addInteraction(UIContextMenuInteraction(delegate: self))
                    }
                    @objc func showMenu() {}
                }
                final class DialView: UIView {
                    var value = 0
                    func setUp() { addGestureRecognizer(UIPanGestureRecognizer(target: self, action: #selector(turn))) }
                    override func accessibilityIncrement() { value += 1 }
                    override func accessibilityDecrement() { value -= 1 }
                    @objc func turn() {}
                }
                final class Tile: UIView {
                    func setUp() { addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(open))) }
                    @objc func open() {}
                }
                """),
            RuleExample("""
                import AppKit
                final class CanvasView: NSView {
                    func setUp() { addGestureRecognizer(NSMagnificationGestureRecognizer(target: self, action: #selector(zoom))) }
                    override func accessibilityPerformIncrement() -> Bool { zoomIn(); return true }
                }
                final class IconView: NSView {
                    func setUp() { addGestureRecognizer(NSPressGestureRecognizer(target: self, action: #selector(showInfo))) }
                    override func menu(for event: NSEvent) -> NSMenu? { infoMenu }
                }
                """),
        ]
    )

    static let swiftUIAlternatives: Set<String> = [
        "accessibilityAction", "accessibilityActions", "contextMenu", "accessibilityAdjustableAction", "accessibilityZoomAction",
        "accessibilityScrollAction", "accessibilityRepresentation",
    ]

    static let recognizerTypes: Set<String> = [
        "UILongPressGestureRecognizer", "UIPanGestureRecognizer", "UISwipeGestureRecognizer",
        "UIPinchGestureRecognizer", "UIRotationGestureRecognizer", "UIScreenEdgePanGestureRecognizer",
        "NSPanGestureRecognizer", "NSMagnificationGestureRecognizer", "NSRotationGestureRecognizer",
        "NSPressGestureRecognizer",
    ]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        let types = Self.recognizerTypes.union(RecognizerUse.tapTypes)
        for call in file.index.calls(named: SwiftUIGestureUse.attachingModifiers.union(types)) {
            if let use = SwiftUIGestureUse(call, index: file.index) {
                checkSwiftUI(use, &sink)
            } else if let recognizer = RecognizerUse(call, types: types, file) {
                checkRecognizer(recognizer, file, &sink)
            }
        }
    }

    private func checkSwiftUI(_ use: SwiftUIGestureUse, _ sink: inout FindingSink) {
        guard use.kind == .other, !use.doesNothing else { return }
        let chain = ModifierChain(containing: ExprSyntax(use.modifier))
        if !chain.names.isDisjoint(with: Self.swiftUIAlternatives) { return }
        sink.report(use.modifier, at: use.anchor, """
            \(use.name) on \(chain.root.shortViewDescription) has no alternative: no `.accessibilityAction`, \
            `.contextMenu`, `.accessibilityAdjustableAction` or `.accessibilityScrollAction` in its chain, so \
            people who cannot perform the gesture (Switch Control, Voice Control, VoiceOver) cannot reach its action
            """)
    }

    private func checkRecognizer(_ recognizer: RecognizerUse, _ file: SourceFile, _ sink: inout FindingSink) {
        guard !recognizer.isSingleTap else { return }
        let scope = recognizer.call.enclosingTypeDecl
        let object = ObjectAccessibility(scope: scope, file)
        if object.customActions || object.contextMenu || object.adjustsOrScrolls || object.activates { return }
        var name = "`\(recognizer.type)`"
        if RecognizerUse.tapTypes.contains(recognizer.type) {
            let property = recognizer.type.hasPrefix("NS") ? "numberOfClicksRequired" : "numberOfTapsRequired"
            name += recognizer.taps > 1
                ? " with `\(property) = \(Int(recognizer.taps))`"
                : " with `numberOfTouchesRequired = \(Int(recognizer.touches))`"
        }
        let owner = scope.map { "`\($0.declaredTypeName)`" } ?? "this file"
        sink.report(recognizer.call, """
            \(name) has no alternative: \(owner) sets no accessibility custom actions, context menu, or \
            accessibility increment/decrement/activate/scroll override, so people who cannot perform the \
            gesture (Switch Control, Voice Control, VoiceOver) cannot reach its action
            """)
    }
}
