import AuditModel
import InterfaceBuilder
import SwiftSyntax

/// A control whose frame or constraints make it smaller than the platform's hit region: 44x44
/// pt, 60x60 pt on visionOS, and on macOS the 20x20 pt minimum of a drawn control. SwiftUI code
/// and Interface Builder documents alike.
struct HitRegionTooSmallRule: SourceRule, DocumentRule {
    let description = RuleDescription(
        id: "hit-region-too-small",
        title: "Control smaller than the platform's hit region",
        category: .layout,
        platforms: PlatformSet([.iOS, .macOS, .visionOS, .watchOS]),
        kind: .recommendation,
        rationale: """
            A control people cannot hit reliably fails everyone with limited dexterity, and anyone \
            using a pointer, their eyes or a remote. The number is the platform's: a 44x44 pt hit \
            region on iOS, iPadOS and watchOS, 60x60 pt on visionOS. macOS's own controls are \
            drawn at 28x28 pt, so a drawn Mac control is held to Apple's 20x20 pt minimum here and \
            to the 28x28 pt default by control-below-default-size. In SwiftUI the size is the \
            control's innermost `.frame` plus the padding and frames applied after it; in \
            storyboards and xibs it is the control's size constraints, else its frame. System \
            UIKit controls drawn at their own size are held to the minimum control size only, \
            because Apple draws them that way; a UIKit switch is not measured at all (UIKit \
            draws it 51x31 pt whatever its frame says). A SwiftUI control that shows only an SF \
            Symbol, with no frame, padding or content shape on it, is as large as its glyph: on \
            iOS it goes to review with the text size that draws it (outside lists, bars and \
            menus, which lay out their items themselves), and so does a text-only button whose \
            label sets a font of 17 pt or less (a plain `Button("Cancel")` in the text around it \
            is the app's ordinary text button and is left alone). tvOS is focus-driven and not checked.
            """,
        citations: [
            Citation("HIG › Buttons",
                     "As a general rule, a button needs a hit region of at least 44x44 pt — in visionOS, 60x60 pt — to ensure that people can select it easily, whether they use a fingertip, a pointer, their eyes, or a remote."),
            Citation("HIG › Accessibility, Mobility", "Strive to meet the recommended minimum control size for each platform."),
            Citation("WWDC23 › Design for spatial user interfaces",
                     "Interactive elements must have a tap target area with at least 60 points of space, so they can be easily selected. This means that your UI element can be visually smaller, like the standard button, which is 44 points, as long as you add enough space around it."),
        ],
        fix: """
            Grow the tappable area, not necessarily the drawing: in SwiftUI add padding or an outer \
            `.frame(minWidth: 44, minHeight: 44)` with `.contentShape(Rectangle())`; in Interface \
            Builder or UIKit code raise the width and height constraints (or the frame) to the \
            platform's size and keep the image small with content insets. Use `@ScaledMetric` for sizes that should grow \
            with text.
            """,
        limitations: """
            Sizes given by variables are not known and not flagged (a `@ScaledMetric` size scales); \
            a UIKit button made in code is measured only by constant size constraints of its own \
            file that are made active as written (a constraint kept in a variable, given a priority, \
            related to another view, remade, removed or deactivated later is not read; frames set \
            in code and `NSLayoutConstraint(item:…)` are not measured), and only where it is a \
            `UIButton` or a subclass of this file that no class or extension here widens with \
            `point(inside:with:)` or `hitTest(_:with:)` (an outlet is the storyboard's to size), \
            and it is a review (a view around it may take the touches near it); \
            a default `.padding()` has no published amount, so a chain with one is not measured. \
            In storyboards and xibs, a Swift `point(inside:with:)` or `hitTest(_:with:)` override in \
            the control's class, an enclosing view's or an overlapping view's hands the finding to a \
            person; Objective-C overrides and SwiftUI hit-test code are not seen. A visionOS \
            control may be smaller than 60 pt when the space around it completes the target area, \
            so a shortfall on visionOS alone goes to review. Findings in storyboards and xibs can be turned off or re-graded \
            only in `.a11y-audit.json`: XML has no inline suppression comment.
            """,
        triggering: [
            RuleExample("""
                import SwiftUI
                struct Toolbar: View {
                    var body: some View {
                        Button { close() } label: { Image(systemName: "xmark") }↓.frame(width: 28, height: 28)
                    }
                    func close() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // The image is the whole label, so the button is as large as its frame plus padding.
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Button(action: {}) {
                            Image(systemName: "trash")↓.frame(width: 20, height: 20)
                        }
                        .padding(4)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Disabled only while a condition holds: it can be pressed at other times.
            RuleExample("""
                import SwiftUI
                struct Sender: View {
                    let busy: Bool
                    var body: some View {
                        Button(action: {}) {
                            Image(systemName: "paperplane")↓.frame(width: 24, height: 24)
                        }
                        .disabled(busy)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // On the Mac a borderless button is as large as its label.
            RuleExample("""
                import SwiftUI
                struct ListControls: View {
                    var body: some View {
                        Button(action: {}) {
                            Image(systemName: "minus")↓.frame(width: 14, height: 14)
                        }
                        .buttonStyle(.borderless)
                    }
                }
                """, platforms: PlatformSet(.macOS)),
            RuleExample("""
                import SwiftUI
                struct Chip: View {
                    var body: some View {
                        Text("Tag")↓.frame(height: 30).onTapGesture { }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A `Group`'s tap gesture makes the one view of each branch the control.
            RuleExample("""
                import SwiftUI
                struct EditorTabClose: View {
                    let unsaved: Bool
                    var body: some View {
                        Group {
                            if unsaved {
                                Image(systemName: "circle.fill").font(.caption2)↓.frame(width: 18, height: 18)
                            } else {
                                Image(systemName: "xmark")↓.frame(width: 26, height: 26)
                            }
                        }
                        .contentShape(Rectangle())
                        .onTapGesture { close() }
                    }
                    func close() {}
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct Sidebar: View {
                    var body: some View { Button("Add") { }↓.frame(width: 16, height: 16) }
                }
                #endif
                """),
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <objects>
                        <view contentMode="scaleToFill" id="root-vw-001">
                            <rect key="frame" x="0.0" y="0.0" width="393" height="120"/>
                            <subviews>
                                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="cls-bt-001">
                                    <rect key="frame" x="16" y="16" width="30" height="30"/>
                                    <constraints>
                                        <constraint firstAttribute="width" constant="30" id="cls-cw-001"/>
                                        <constraint firstAttribute="height" constant="30" id="cls-ch-001"/>
                                    </constraints>
                                    <state key="normal" image="xmark" catalog="system"/>
                                    <accessibility key="accessibilityConfiguration" label="Close"/>
                                    <connections>
                                        <action selector="close:" destination="-1" eventType="touchUpInside" id="cls-ac-001"/>
                                    </connections>
                                </button>
                                ↓<segmentedControl opaque="NO" contentMode="scaleToFill" segmentControlStyle="plain" selectedSegmentIndex="0" translatesAutoresizingMaskIntoConstraints="NO" id="seg-sc-001">
                                    <rect key="frame" x="60" y="16" width="200" height="22"/>
                                    <segments>
                                        <segment title="Day"/>
                                        <segment title="Week"/>
                                    </segments>
                                </segmentedControl>
                            </subviews>
                        </view>
                    </objects>
                </document>
                """, platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" useAutolayout="YES">
                    <objects>
                        <customView id="c22-O7-iKe">
                            <rect key="frame" x="0.0" y="0.0" width="480" height="60"/>
                            <subviews>
                                ↓<button translatesAutoresizingMaskIntoConstraints="NO" id="rem-bt-001">
                                    <rect key="frame" x="20" y="20" width="16" height="16"/>
                                    <buttonCell key="cell" type="bevel" bezelStyle="regularSquare" image="NSRemoveTemplate" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="rem-cl-001">
                                        <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                        <font key="font" metaFont="system"/>
                                    </buttonCell>
                                </button>
                            </subviews>
                        </customView>
                    </objects>
                </document>
                """, file: "Inspector.xib"),
            // Wired in code through its outlet: a control people operate.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="ComposerBar" id="cmp-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        ↓<button opaque="NO" contentMode="scaleToFill" buttonType="custom" id="snd-bt-001">
                            <rect key="frame" x="350" y="10" width="24" height="24"/>
                            <state key="normal" image="send"/>
                        </button>
                    </subviews>
                    <connections>
                        <outlet property="sendButton" destination="snd-bt-001" id="snd-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "ComposerBar.xib", assets: [
                "ComposerBar.swift": """
                    import UIKit
                    final class ComposerBar: UIView {
                        @IBOutlet var sendButton: UIButton!
                        override func awakeFromNib() {
                            super.awakeFromNib()
                            sendButton.addTarget(self, action: #selector(send), for: .touchUpInside)
                        }
                        @objc func send() {}
                    }
                    """,
            ]),
        ],
        nonTriggering: [
            // Views a UIKit size constraint names that are not such a button: a same-named
            // image view of another type, a loop's views, a subclass declared elsewhere under a
            // `UIButton` annotation, a button an extension widens, an outlet the storyboard
            // sizes; and buttons whose constraints the file removes or deactivates.
            RuleExample("""
                import UIKit
                import SnapKit
                final class ShareSheet: UIView {
                    let icon = UIButton(type: .system)
                    func wire() { icon.addTarget(self, action: #selector(tap), for: .touchUpInside) }
                    @objc func tap() {}
                }
                final class BadgeRow: UIView {
                    let icon = UIImageView()
                    let close: UIButton = ExpandedHitAreaButton(type: .custom)
                    @IBOutlet var done: UIButton!
                    let removed = UIButton(type: .system)
                    let deactivated = UIButton(type: .system)
                    let widened = WidenedButton(type: .system)
                    func layout(_ items: [UIView]) {
                        icon.widthAnchor.constraint(equalToConstant: 16).isActive = true
                        for button in items { button.widthAnchor.constraint(equalToConstant: 8).isActive = true }
                        close.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        done.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        removed.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        deactivated.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        widened.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        close.widthAnchor.constraint(equalToConstant: 24).isActive = true
                        done.heightAnchor.constraint(equalToConstant: 24).isActive = true
                        widened.heightAnchor.constraint(equalToConstant: 24).isActive = true
                        removed.snp.makeConstraints { make in make.size.equalTo(24) }
                        NSLayoutConstraint.activate([deactivated.heightAnchor.constraint(equalToConstant: 24)])
                    }
                    func expand() {
                        removed.snp.removeConstraints()
                        NSLayoutConstraint.deactivate(deactivated.constraints)
                    }
                    @objc func tap() {}
                }
                final class WidenedButton: UIButton {}
                extension WidenedButton {
                    override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
                        bounds.insetBy(dx: -12, dy: -12).contains(point)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // UIKit buttons whose size the file does not settle: a constraint kept to be
            // changed, given a priority, only a minimum, related to another view, remade later,
            // a bar's custom view, a button that widens what can be hit, one with no action, and
            // one as large as the hit region.
            RuleExample("""
                import UIKit
                import SnapKit
                final class WideHitButton: UIButton {
                    override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
                        bounds.insetBy(dx: -10, dy: -10).contains(point)
                    }
                }
                final class Toolbar: UIView {
                    private let stored = UIButton(type: .system)
                    private let prioritised = UIButton(type: .system)
                    private let atLeast = UIButton(type: .system)
                    private let related = UIButton(type: .system)
                    private let remade = UIButton(type: .system)
                    private let barred = UIButton(type: .system)
                    private let widened = WideHitButton(type: .custom)
                    private let badge = UIButton(type: .custom)
                    private let large = UIButton(type: .system)
                    private var storedWidth: NSLayoutConstraint?
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        stored.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        prioritised.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        atLeast.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        related.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        remade.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        barred.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        widened.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        large.addTarget(self, action: #selector(tap), for: .touchUpInside)
                        storedWidth = stored.widthAnchor.constraint(equalToConstant: 20)
                        storedWidth?.isActive = true
                        prioritised.snp.makeConstraints { make in make.size.equalTo(24).priority(.high) }
                        NSLayoutConstraint.activate([
                            atLeast.heightAnchor.constraint(greaterThanOrEqualToConstant: 30),
                            related.widthAnchor.constraint(equalTo: heightAnchor),
                            widened.widthAnchor.constraint(equalToConstant: 24),
                            badge.widthAnchor.constraint(equalToConstant: 16),
                            large.widthAnchor.constraint(equalToConstant: 44),
                            large.heightAnchor.constraint(equalToConstant: 48),
                            barred.widthAnchor.constraint(equalToConstant: 28),
                        ])
                        remade.snp.makeConstraints { make in make.size.equalTo(24) }
                        let item = UIBarButtonItem(customView: barred)
                        _ = item
                    }
                    func expand() { remade.snp.remakeConstraints { make in make.size.equalTo(48) } }
                    required init?(coder: NSCoder) { fatalError() }
                    @objc func tap() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // The group's own frame makes it large enough; a group of two views is not one control's size.
            RuleExample("""
                import SwiftUI
                struct EditorTabClose: View {
                    let unsaved: Bool
                    var body: some View {
                        VStack {
                            Group {
                                if unsaved {
                                    Image(systemName: "circle.fill").frame(width: 18, height: 18)
                                }
                            }
                            .frame(minWidth: 44, minHeight: 44)
                            .contentShape(Rectangle())
                            .onTapGesture { close() }
                            Group {
                                Image(systemName: "xmark").frame(width: 26, height: 26)
                                Text("Close")
                            }
                            .onTapGesture { close() }
                        }
                    }
                    func close() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // A tappable text with no chip of its own is the row's business, a text button in
            // body text the app's ordinary one; a background view (not a colour) may be larger
            // than the text.
            RuleExample("""
                import SwiftUI
                struct RepositoryRow: View {
                    var body: some View {
                        HStack {
                            Text("Details").font(.caption).onTapGesture { open() }
                            Button { open() } label: { Text("Learn more").font(.body.weight(.bold)) }
                            Text("Clone")
                                .font(.system(size: 12))
                                .padding(.vertical, 4)
                                .background { Capsule().fill(Color.blue).frame(height: 44) }
                                .onTapGesture { open() }
                        }
                    }
                    func open() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // Symbol-only controls something sizes: padding, a frame that reaches 44 pt, a bar or
            // a list that lays them out, a bordered style, a large text style, a Mac-only view.
            RuleExample("""
                import SwiftUI
                struct Controls: View {
                    var body: some View {
                        VStack {
                            Button(action: {}) { Image(systemName: "xmark") }.padding()
                            Button(action: {}) { Image(systemName: "plus") }.frame(minWidth: 44, minHeight: 44).contentShape(Rectangle())
                            Button(action: {}) { Image(systemName: "gear") }.buttonStyle(.bordered)
                            Image(systemName: "play.fill").font(.largeTitle).imageScale(.large).onTapGesture {}
                            Button(action: {}) { Label("Add", systemImage: "plus") }
                            List { Button(action: {}) { Image(systemName: "star") } }
                        }
                        .toolbar { Button(action: {}) { Image(systemName: "square.and.arrow.up") } }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // The app's own modifier may size it (`.tappableFrame()` is read nowhere here).
            RuleExample("""
                import SwiftUI
                struct ErrorCard: View {
                    var body: some View {
                        VStack {
                            Text("No connection")
                            Button { } label: { Text("Retry").font(.system(size: 14)) }.tappableFrame()
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A helper's button that this file places in the navigation bar.
            RuleExample("""
                import SwiftUI
                struct History: View {
                    var body: some View {
                        Text("History").navigationBarItems(trailing: exportButton())
                    }
                    func exportButton() -> some View {
                        Button(action: {}) { Image(systemName: "square.and.arrow.up") }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                struct MacControls: View {
                    var body: some View {
                        Button(action: {}) { Image(systemName: "xmark") }.buttonStyle(.plain)
                    }
                }
                """, platforms: PlatformSet(.macOS)),
            // Always disabled: a placeholder nobody can press.
            RuleExample("""
                import SwiftUI
                struct UnlockOptions: View {
                    var body: some View {
                        Button(action: {}) {
                            Image(systemName: "ant").resizable().frame(width: 32, height: 32)
                        }
                        .disabled(true)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A button that nothing wires does nothing when tapped: a read-receipt icon drawn as
            // a button, one with interaction off, one whose outlet code only restyles.
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" userInteractionEnabled="NO" contentMode="scaleToFill" buttonType="custom" id="rcp-bt-001">
                    <rect key="frame" x="16" y="16" width="14" height="14"/>
                    <state key="normal" image="check_read"/>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="custom" id="rcp-bt-002">
                    <rect key="frame" x="40" y="16" width="14" height="14"/>
                    <state key="normal" image="check_sent"/>
                </button>
                <view contentMode="scaleToFill" customClass="MessageCellView" id="msg-vw-001">
                    <rect key="frame" x="0.0" y="40" width="393" height="60"/>
                    <subviews>
                        <button opaque="NO" contentMode="scaleToFill" buttonType="custom" id="rcp-bt-003">
                            <rect key="frame" x="16" y="16" width="14" height="14"/>
                            <state key="normal" image="check_read"/>
                        </button>
                    </subviews>
                    <connections>
                        <outlet property="readReceiptButton" destination="rcp-bt-003" id="rcp-ot-003"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "MessageCell.xib", assets: [
                "MessageCellView.swift": """
                    import UIKit
                    final class MessageCellView: UIView {
                        @IBOutlet var readReceiptButton: UIButton!
                        func show(read: Bool) { readReceiptButton.setImage(UIImage(named: read ? "check_read" : "check_sent"), for: .normal) }
                    }
                    """,
            ]),
            // Menu items, context-menu actions and swipe actions are rows the system draws at
            // its own sizes; a frame in them shapes the row's label.
            RuleExample("""
                import SwiftUI
                struct Attachment: View {
                    var body: some View {
                        Menu {
                            Button { } label: { Image(systemName: "photo").frame(width: 25, height: 25) }
                        } label: {
                            Label("Add", systemImage: "plus")
                        }
                        Text("Draft")
                            .contextMenu {
                                Button("Delete") { }.frame(width: 30, height: 20)
                            }
                            .swipeActions { Button("Pin") { }.frame(height: 20) }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // macOS's native toolbar size is 28x28 pt.
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct Toolbar: View {
                    var body: some View { Button { } label: { Image(systemName: "plus") }.frame(width: 28, height: 28) }
                }
                #endif
                """),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Button(action: {}) {
                            Image(systemName: "trash").frame(width: 20, height: 20)
                        }
                        .padding(12)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "info").frame(width: 20, height: 20).frame(width: 44, height: 44).contentShape(Rectangle()) }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // The label holds more than the framed image: the button is larger than the frame.
            RuleExample("""
                import SwiftUI
                struct Row: View {
                    @ScaledMetric private var side: CGFloat = 24
                    var body: some View {
                        Button { } label: {
                            Image(systemName: "star").frame(width: 20, height: 20)
                            Text("Favorite")
                        }
                        Button("Save") { }.frame(width: side, height: side)
                        Button("Wide") { }.frame(maxWidth: .infinity, minHeight: 44)
                        Button("Full") { }.frame(minWidth: 0, maxWidth: .infinity, minHeight: 44)
                        NavigationLink(destination: Text("Bolus"), isActive: $showsBolus) { EmptyView() }
                            .frame(width: 0, height: 0).opacity(0).accessibilityHidden(true)
                        Image("divider").frame(height: 1)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                struct Tag: View {
                    var body: some View { Text("Tag").frame(height: 30).padding().onTapGesture { } }
                }
                """, platforms: PlatformSet(.iOS)),
            // A native switch is drawn 51x31 pt by UIKit (a stale 51x12 frame too); a 28x28 AppKit
            // toolbar button is the Mac default.
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <objects>
                        <view contentMode="scaleToFill" id="root-vw-001">
                            <rect key="frame" x="0.0" y="0.0" width="393" height="120"/>
                            <subviews>
                                <switch opaque="NO" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" on="YES" translatesAutoresizingMaskIntoConstraints="NO" id="swi-sw-001">
                                    <rect key="frame" x="326" y="20" width="51" height="31"/>
                                </switch>
                                <switch opaque="NO" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" on="YES" translatesAutoresizingMaskIntoConstraints="NO" id="swi-sw-002">
                                    <rect key="frame" x="326" y="70" width="51" height="12"/>
                                </switch>
                                <button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="add-bt-001">
                                    <rect key="frame" x="16" y="16" width="44" height="44"/>
                                    <state key="normal" image="plus" catalog="system"/>
                                </button>
                                <button hidden="YES" opaque="NO" contentMode="scaleToFill" buttonType="system" id="hid-bt-001">
                                    <rect key="frame" x="80" y="16" width="10" height="10"/>
                                </button>
                            </subviews>
                        </view>
                    </objects>
                </document>
                """, platforms: PlatformSet(.iOS), file: "Main.storyboard"),
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" useAutolayout="YES">
                    <objects>
                        <customView id="c22-O7-iKe">
                            <rect key="frame" x="0.0" y="0.0" width="480" height="60"/>
                            <subviews>
                                <button translatesAutoresizingMaskIntoConstraints="NO" id="add-bt-002">
                                    <rect key="frame" x="20" y="20" width="28" height="28"/>
                                    <buttonCell key="cell" type="bevel" bezelStyle="texturedRounded" image="NSAddTemplate" imagePosition="only" alignment="center" imageScaling="proportionallyDown" inset="2" id="add-cl-002">
                                        <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                        <font key="font" metaFont="system"/>
                                    </buttonCell>
                                </button>
                                <button translatesAutoresizingMaskIntoConstraints="NO" id="chk-bt-001">
                                    <rect key="frame" x="60" y="20" width="120" height="18"/>
                                    <buttonCell key="cell" type="check" title="Show hidden files" bezelStyle="regularSquare" imagePosition="left" state="on" inset="2" id="chk-cl-001">
                                        <behavior key="behavior" changeContents="YES" doesNotDimImage="YES" lightByContents="YES"/>
                                        <font key="font" metaFont="system"/>
                                    </buttonCell>
                                </button>
                            </subviews>
                        </customView>
                    </objects>
                </document>
                """, file: "Inspector.xib"),
            // A circular button on a full-row button that sends the same action: a tap that misses
            // the circle does the same thing.
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="custom" translatesAutoresizingMaskIntoConstraints="NO" id="row-bt-005">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="60"/>
                    <connections>
                        <action selector="connect:" destination="-1" eventType="touchUpInside" id="row-ac-005"/>
                    </connections>
                </button>
                <button opaque="NO" contentMode="scaleToFill" buttonType="custom" translatesAutoresizingMaskIntoConstraints="NO" id="con-bt-005">
                    <rect key="frame" x="337" y="10" width="40" height="40"/>
                    <state key="normal" image="power"/>
                    <connections>
                        <action selector="connect:" destination="-1" eventType="touchUpInside" id="con-ac-005"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "ProfileCell.xib"),
            // A bar item's custom view that the scene's controller replaces with another item.
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <scenes>
                        <scene sceneID="aut-sc-001">
                            <objects>
                                <viewController customClass="SocialAuthViewController" id="aut-vc-001" sceneMemberID="viewController">
                                    <view key="view" contentMode="scaleToFill" id="aut-vw-001">
                                        <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                                    </view>
                                    <navigationItem key="navigationItem" id="aut-ni-001">
                                        <barButtonItem key="leftBarButtonItem" style="plain" id="aut-bi-001">
                                            <button key="customView" opaque="NO" contentMode="scaleToFill" buttonType="custom" id="aut-bt-001">
                                                <rect key="frame" x="0.0" y="0.0" width="20" height="20"/>
                                                <state key="normal" image="close"/>
                                                <connections>
                                                    <action selector="close:" destination="aut-vc-001" eventType="touchUpInside" id="aut-ac-001"/>
                                                </connections>
                                            </button>
                                        </barButtonItem>
                                    </navigationItem>
                                </viewController>
                            </objects>
                        </scene>
                    </scenes>
                </document>
                """, platforms: PlatformSet(.iOS), file: "Auth.storyboard", assets: [
                "SocialAuthViewController.swift": """
                    import UIKit
                    final class SocialAuthViewController: UIViewController {
                        override func viewDidLoad() {
                            super.viewDidLoad()
                            navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .close)
                        }
                    }
                    """,
            ]),
        ],
        needsReview: [
            // A UIKit button made in code, sized by constant constraints it is given in the
            // same file: anchors made active, or SnapKit's sides (review: a view around it may
            // take the touches near it).
            RuleExample("""
                import UIKit
                import SnapKit
                final class PlayerBar: UIView {
                    private let closeButton = UIButton(type: .system)
                    let skipButton: UIButton = {
                        let button = UIButton(type: .custom)
                        button.setImage(UIImage(systemName: "forward.fill"), for: .normal)
                        button.addTarget(nil, action: #selector(PlayerBar.skip), for: .touchUpInside)
                        return button
                    }()
                    private let infoButton = UIButton(type: .infoLight)
                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        closeButton.addTarget(self, action: #selector(close), for: .touchUpInside)
                        infoButton.addTarget(self, action: #selector(close), for: .touchUpInside)
                        NSLayoutConstraint.activate([
                            ↓closeButton.widthAnchor.constraint(equalToConstant: 24),
                            closeButton.heightAnchor.constraint(equalTo: closeButton.widthAnchor),
                        ])
                        skipButton.snp.makeConstraints { make in
                            make.top.equalToSuperview()
                            ↓make.width.height.equalTo(30)
                        }
                        ↓infoButton.heightAnchor.constraint(equalToConstant: 22).isActive = true
                    }
                    required init?(coder: NSCoder) { fatalError() }
                    @objc func close() {}
                    @objc func skip() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // A tappable text drawn as a chip (a colour behind its line) with a small font and
            // a little padding; a symbol at `.caption` (SwiftUI's name for caption1).
            RuleExample("""
                import SwiftUI
                struct RepositoryRow: View {
                    var body: some View {
                        HStack {
                            Text("Repository")
                            ↓Image(systemName: "hand.raised").font(.caption).onTapGesture { report() }
                            ↓Text("Clone")
                                .font(.system(size: 12))
                                .padding(.horizontal, 8)
                                .padding(.vertical, 4)
                                .background(Color.blue)
                                .cornerRadius(10)
                                .onTapGesture { clone() }
                        }
                    }
                    func report() {}
                    func clone() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // A symbol-only button no frame sizes: the glyph, at an 11 pt text style, is what can be hit.
            RuleExample("""
                import SwiftUI
                struct PriceRow: View {
                    @State private var showingInfo = false
                    var body: some View {
                        HStack {
                            Text("Price")
                            ↓Image(systemName: "info.circle")
                                .font(.caption2)
                                .onTapGesture { showingInfo.toggle() }
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            RuleExample("""
                import SwiftUI
                struct CopyRow: View {
                    var body: some View {
                        Button(action: copy) {
                            ↓Image(systemName: "doc.on.doc")
                        }
                        .buttonStyle(.plain)
                    }
                    func copy() {}
                }
                """, platforms: PlatformSet(.iOS)),
            // A text-only button the app sets in a small font: its line is what can be hit.
            RuleExample("""
                import SwiftUI
                struct SaveChangesAlert: View {
                    var body: some View {
                        VStack(spacing: 14) {
                            Divider()
                            ↓Button { } label: {
                                Text("Save").font(.system(size: 14, weight: .bold))
                            }
                            Button("Cancel") { }
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A little padding on one side leaves the short side the glyph's.
            RuleExample("""
                import SwiftUI
                struct TitleRow: View {
                    var body: some View {
                        Text("Export").overlay(alignment: .trailing) {
                            Button(action: {}) {
                                ↓Image(systemName: "doc.on.doc").font(.body)
                            }
                            .buttonStyle(.plain)
                            .padding(.trailing, 4)
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // The Mac's default button style draws a bezel around the label: the label's frame is
            // not what can be clicked, unless a view around it (in another file) sets a plain style.
            RuleExample("""
                import SwiftUI
                struct WorkspaceControls: View {
                    var body: some View {
                        HStack {
                            Button(action: {}) {
                                Image(systemName: "plus")↓.frame(height: 16)
                            }
                            Spacer()
                        }
                    }
                }
                """, platforms: PlatformSet(.macOS)),
            // Short of visionOS's 60 pt only: the space around it may complete the target area.
            RuleExample("""
                import SwiftUI
                struct Controls: View {
                    var body: some View {
                        Button("Play") { }↓.frame(width: 44, height: 44)
                    }
                }
                """, platforms: PlatformSet(.visionOS)),
            // The button's class sizes every instance in code.
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" customClass="ENAButton" translatesAutoresizingMaskIntoConstraints="NO" id="ena-bt-008">
                    <rect key="frame" x="16" y="150" width="361" height="30"/>
                    <state key="normal" title="Add entry"/>
                    <connections>
                        <action selector="addEntry:" destination="-1" eventType="touchUpInside" id="ena-ac-008"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "DiaryEditEntries.xib", assets: [
                "ENAButton.swift": """
                    import UIKit
                    class ENAButton: UIButton {
                        override func awakeFromNib() {
                            super.awakeFromNib()
                            heightAnchor.constraint(greaterThanOrEqualToConstant: 50).isActive = true
                        }
                    }
                    """,
            ]),
            // Interaction is off in the document: only code that turns it on makes it a target.
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" userInteractionEnabled="NO" contentMode="scaleToFill" enabled="NO" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="shr-bt-001">
                    <rect key="frame" x="16" y="150" width="24" height="24"/>
                    <state key="normal" image="share"/>
                    <connections>
                        <action selector="share:" destination="-1" eventType="touchUpInside" id="shr-ac-001"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Home.storyboard"),
            // The button's class loads a nib into itself, whose constraints give it its size.
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="custom" customClass="AppLinkButton" translatesAutoresizingMaskIntoConstraints="NO" id="lnk-bt-001">
                    <rect key="frame" x="16" y="150" width="30" height="34"/>
                    <connections>
                        <action selector="openStudent" destination="-1" eventType="primaryActionTriggered" id="lnk-ac-001"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "WrongApp.storyboard", assets: [
                "AppLinkButton.swift": """
                    import UIKit
                    class AppLinkButton: UIButton {
                        required init?(coder: NSCoder) {
                            super.init(coder: coder)
                            loadFromXib()
                        }
                    }
                    """,
            ]),
            // A window toolbar item's view: the toolbar sizes it and may make its label clickable.
            RuleExample("""
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" useAutolayout="YES">
                    <objects>
                        <toolbar implicitIdentifier="0C1D2E3F" autosavesConfiguration="NO" displayMode="iconAndLabel" sizeMode="regular" id="tbr-tb-009">
                            <allowedToolbarItems>
                                <toolbarItem implicitItemIdentifier="5A6B7C8D" label="Add Marker" paletteLabel="Add Marker" sizingBehavior="auto" id="tbr-it-009">
                                    ↓<button key="view" verticalHuggingPriority="750" id="tbr-bt-009">
                                        <rect key="frame" x="27" y="14" width="14" height="16"/>
                                        <buttonCell key="cell" type="bevel" title="Add Marker" bezelStyle="rounded" image="bookmark" catalog="system" imagePosition="only" alignment="center" inset="2" id="tbr-cl-009">
                                            <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                            <font key="font" metaFont="system"/>
                                        </buttonCell>
                                    </button>
                                    <connections>
                                        <action selector="addMarker:" target="-1" id="tbr-ac-009"/>
                                    </connections>
                                </toolbarItem>
                            </allowedToolbarItems>
                        </toolbar>
                    </objects>
                </document>
                """, file: "LogWindow.xib"),
            // The document leaves the button untitled (a sort arrow) and code gives it its title,
            // so the text and not the frame decides its size.
            RuleExample(InterfaceBuilderExample.macOS("""
                <customView customClass="ColumnHeaderView" id="hdr-vw-008">
                    <rect key="frame" x="0.0" y="0.0" width="200" height="24"/>
                    <subviews>
                        ↓<button translatesAutoresizingMaskIntoConstraints="NO" id="srt-bt-008">
                            <rect key="frame" x="8" y="6" width="12" height="12"/>
                            <buttonCell key="cell" type="inline" bezelStyle="inline" image="NSDescendingSortIndicator" imagePosition="trailing" alignment="left" inset="2" id="srt-cl-008">
                                <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                <font key="font" metaFont="system"/>
                            </buttonCell>
                            <connections>
                                <action selector="toggleSort:" target="hdr-vw-008" id="srt-ac-008"/>
                            </connections>
                        </button>
                    </subviews>
                    <connections>
                        <outlet property="sortButton" destination="srt-bt-008" id="srt-ot-008"/>
                    </connections>
                </customView>
                """), file: "ColumnHeaderView.xib", assets: [
                "ColumnHeaderView.swift": """
                    import AppKit
                    final class ColumnHeaderView: NSView {
                        @IBOutlet var sortButton: NSButton!
                        func show(column name: String) {
                            sortButton.title = name
                        }
                        @IBAction func toggleSort(_ sender: Any?) {}
                    }
                    """,
            ]),
            // A frame Xcode left stale: the aspect-ratio constraint makes the button square.
            RuleExample(InterfaceBuilderExample.macOS("""
                ↓<button translatesAutoresizingMaskIntoConstraints="NO" id="rmv-bt-006">
                    <rect key="frame" x="20" y="3" width="20.5" height="15"/>
                    <buttonCell key="cell" type="square" bezelStyle="shadowlessSquare" image="NSRemoveTemplate" imagePosition="only" alignment="center" inset="2" id="rmv-cl-006">
                        <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                        <font key="font" metaFont="system"/>
                    </buttonCell>
                    <constraints>
                        <constraint firstAttribute="width" secondItem="rmv-bt-006" secondAttribute="height" multiplier="1:1" id="rmv-cn-006"/>
                    </constraints>
                    <connections>
                        <action selector="remove:" target="-2" id="rmv-ac-006"/>
                    </connections>
                </button>
                """), file: "Preferences.xib"),
            // The header's class cannot be decoded from a nib (its `init?(coder:)` stops the app):
            // code builds the header, and the xib is not what the app shows.
            RuleExample(InterfaceBuilderExample.iOS("""
                <collectionReusableView opaque="NO" clipsSubviews="YES" multipleTouchEnabled="YES" contentMode="center" customClass="UpdatesHeaderView" id="hdr-vw-007">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <subviews>
                        ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="hdr-bt-007">
                            <rect key="frame" x="300" y="10" width="77" height="24"/>
                            <state key="normal" title="Update All"/>
                            <connections>
                                <action selector="updateAll:" destination="-1" eventType="touchUpInside" id="hdr-ac-007"/>
                            </connections>
                        </button>
                    </subviews>
                </collectionReusableView>
                """), platforms: PlatformSet(.iOS), file: "UpdatesHeaderView.xib", assets: [
                "UpdatesHeaderView.swift": """
                    import UIKit
                    final class UpdatesHeaderView: UICollectionReusableView {
                        let button = UIButton(type: .system)
                        override init(frame: CGRect) {
                            super.init(frame: frame)
                            addSubview(button)
                        }
                        required init?(coder: NSCoder) {
                            fatalError("init(coder:) has not been implemented")
                        }
                    }
                    """,
            ]),
            // Inside a container the document hides: it shows only when code unhides it.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view hidden="YES" contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="dev-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="60"/>
                    <subviews>
                        ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="dev-bt-001">
                            <rect key="frame" x="16" y="16" width="80" height="28"/>
                            <state key="normal" title="Reset"/>
                            <connections>
                                <action selector="reset:" destination="-1" eventType="touchUpInside" id="dev-ac-001"/>
                            </connections>
                        </button>
                    </subviews>
                </view>
                """), platforms: PlatformSet(.iOS), file: "Fulfillment.storyboard"),
            // A full-row button with another action lies under the small one: its code may do the same.
            RuleExample(InterfaceBuilderExample.iOS("""
                <button opaque="NO" contentMode="scaleToFill" buttonType="custom" translatesAutoresizingMaskIntoConstraints="NO" id="row-bt-002">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="64"/>
                    <connections>
                        <action selector="rowTapped:" destination="-1" eventType="touchUpInside" id="row-ac-002"/>
                    </connections>
                </button>
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="custom" translatesAutoresizingMaskIntoConstraints="NO" id="con-bt-002">
                    <rect key="frame" x="339" y="13" width="38" height="38"/>
                    <state key="normal" image="power"/>
                    <connections>
                        <action selector="connect:" destination="-1" eventType="touchUpInside" id="con-ac-002"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "ServerCell.xib"),
            // A view over the button whose class forwards touches to it (`hitTest(_:with:)`).
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="custom" translatesAutoresizingMaskIntoConstraints="NO" id="cls-bt-003">
                    <rect key="frame" x="345" y="30" width="32" height="32"/>
                    <state key="normal" image="close"/>
                    <connections>
                        <action selector="close:" destination="-1" eventType="touchUpInside" id="cls-ac-003"/>
                    </connections>
                </button>
                <view contentMode="scaleToFill" customClass="TapProxyView" translatesAutoresizingMaskIntoConstraints="NO" id="prx-vw-003">
                    <rect key="frame" x="335" y="20" width="52" height="52"/>
                </view>
                """), platforms: PlatformSet(.iOS), file: "Story.xib", assets: [
                "TapProxyView.swift": """
                    import UIKit
                    final class TapProxyView: UIView {
                        weak var targetView: UIView?
                        override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
                            bounds.contains(point) ? targetView : nil
                        }
                    }
                    """,
            ]),
            // The button's own class widens the area that reaches it.
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="custom" customClass="ExpandedHitButton" translatesAutoresizingMaskIntoConstraints="NO" id="exp-bt-004">
                    <rect key="frame" x="16" y="16" width="24" height="24"/>
                    <state key="normal" image="info"/>
                    <connections>
                        <action selector="showInfo:" destination="-1" eventType="touchUpInside" id="exp-ac-004"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "Header.xib", assets: [
                "ExpandedHitButton.swift": """
                    import UIKit
                    class ExpandedHitButton: UIButton {
                        override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
                            bounds.insetBy(dx: -10, dy: -10).contains(point)
                        }
                    }
                    """,
            ]),
            // A bordered style pads the label by an amount the system sets.
            RuleExample("""
                import SwiftUI
                struct Remote: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "backward.fill")↓.frame(width: 18, height: 18) }
                            .buttonStyle(.bordered)
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Shown only when the iPad app runs on the Mac (a flag set from `isMacCatalystApp`).
            RuleExample("""
                import SwiftUI
                struct SideTabs: View {
                    var body: some View {
                        if IS_CATALYST {
                            Button { } label: { Image(systemName: "house")↓.frame(width: 40, height: 40) }
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS), assets: [
                "Platform.swift": """
                    import Foundation
                    let IS_CATALYST = ProcessInfo.processInfo.isMacCatalystApp
                    """,
            ]),
            // A view only code behind the Mac flag constructs (the gate is where it is used).
            RuleExample("""
                import SwiftUI
                struct MacSideTabs: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "bell")↓.frame(width: 36, height: 36) }
                    }
                }
                """, platforms: PlatformSet(.iOS), assets: [
                "Platform.swift": """
                    import Foundation
                    let IS_CATALYST = ProcessInfo.processInfo.isMacCatalystApp
                    """,
                "MainView.swift": """
                    import SwiftUI
                    struct MainView: View {
                        var body: some View {
                            HStack {
                                if IS_CATALYST { MacSideTabs() }
                                Text("Feed")
                            }
                        }
                    }
                    """,
            ]),
            // Two steps away: only the Mac window builds the tabs, and only the flag builds the window.
            RuleExample("""
                import SwiftUI
                struct WindowTabs: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "tray")↓.frame(width: 36, height: 36) }
                    }
                }
                """, platforms: PlatformSet(.iOS), assets: [
                "Flags.swift": """
                    import Foundation
                    let IS_CATALYST = ProcessInfo.processInfo.isMacCatalystApp
                    """,
                "MacWindow.swift": """
                    import SwiftUI
                    struct MacWindow: View {
                        var body: some View { HStack { WindowTabs(); Text("Feed") } }
                    }
                    """,
                "RootView.swift": """
                    import SwiftUI
                    struct RootView: View {
                        var body: some View {
                            if IS_CATALYST { MacWindow() } else { Text("Feed") }
                        }
                    }
                    """,
            ]),
            RuleExample("""
                import SwiftUI
                struct Sidebar: View {
                    var body: some View {
                        if ProcessInfo.processInfo.isMacCatalystApp {
                            Button { } label: { Image(systemName: "gear")↓.frame(width: 32, height: 32) }
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A toolbar item: the navigation bar lays it out.
            RuleExample("""
                import SwiftUI
                struct CaptionEditor: View {
                    var body: some View {
                        NavigationStack {
                            Text("Caption")
                                .toolbar {
                                    ToolbarItem(placement: .cancellationAction) {
                                        Button { } label: { Image(systemName: "xmark.circle.fill")↓.frame(width: 30, height: 30) }
                                    }
                                }
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // The app's own button style draws the label: its `makeBody` pads it.
            RuleExample("""
                import SwiftUI
                struct CircleButtonStyle: ButtonStyle {
                    func makeBody(configuration: Configuration) -> some View {
                        configuration.label.padding(8).background(Circle().fill(.thinMaterial))
                    }
                }
                struct PlayerControls: View {
                    var body: some View {
                        Button { } label: { Image(systemName: "play.fill")↓.frame(width: 30, height: 30) }
                            .buttonStyle(CircleButtonStyle())
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // Only a minimum bounds the height; the content may make it taller.
            RuleExample("""
                import SwiftUI
                struct Popup: View {
                    var body: some View {
                        Button { } label: { Text("Cancel")↓.frame(minWidth: 0, maxWidth: .infinity, minHeight: 30) }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A style helper restyles the button through its outlet: the document's size may not ship.
            RuleExample(InterfaceBuilderExample.iOS("""
                <view contentMode="scaleToFill" customClass="LoginPrologue" id="lgn-vw-001">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="120"/>
                    <subviews>
                        ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="lgn-bt-001">
                            <rect key="frame" x="16" y="16" width="120" height="30"/>
                            <state key="normal" title="Log in"/>
                            <connections>
                                <action selector="logIn:" destination="-1" eventType="touchUpInside" id="lgn-ac-001"/>
                            </connections>
                        </button>
                    </subviews>
                    <connections>
                        <outlet property="loginButton" destination="lgn-bt-001" id="lgn-ot-001"/>
                    </connections>
                </view>
                """), platforms: PlatformSet(.iOS), file: "LoginPrologue.xib", assets: [
                "LoginPrologue.swift": """
                    import UIKit
                    final class LoginPrologue: UIView {
                        @IBOutlet private var loginButton: UIButton!
                        override func awakeFromNib() {
                            super.awakeFromNib()
                            loginButton.applyPrimaryButtonStyle()
                        }
                    }
                    """,
                "UIButton+Styles.swift": """
                    import UIKit
                    extension UIButton {
                        func applyPrimaryButtonStyle() {
                            backgroundColor = .tintColor
                            heightAnchor.constraint(greaterThanOrEqualToConstant: 48).isActive = true
                        }
                    }
                    """,
            ]),
            // A full-width row 1 pt short of 44 under a hairline separator.
            RuleExample(InterfaceBuilderExample.iOS("""
                ↓<button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="row-bt-001">
                    <rect key="frame" x="0.0" y="1" width="393" height="43"/>
                    <state key="normal" title="Add a creator"/>
                    <connections>
                        <action selector="addCreator:" destination="-1" eventType="touchUpInside" id="row-ac-001"/>
                    </connections>
                </button>
                """), platforms: PlatformSet(.iOS), file: "CreatorEdit.xib"),
            // A frame on the label of a Mac `Menu`: AppKit draws the control around it.
            RuleExample("""
                import SwiftUI
                #if os(macOS)
                struct BranchPicker: View {
                    var body: some View {
                        Menu {
                            Button("main") { }
                        } label: {
                            Text("main")↓.frame(height: 13)
                        }
                    }
                }
                #endif
                """),
        ]
    )

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkGlyphSized(file, &sink)
        checkUIKitConstraints(file, &sink)
        for region in SwiftUIHitRegion.measure(file) {
            var missed: [(Platform, Double)] = []
            let platforms = file.platformsForSizes(at: region.frame)
            for platform in platforms.platforms {
                guard let threshold = ControlSizeThreshold.required(platform, file.reference),
                      ControlSizeThreshold.misses(width: region.width, height: region.height, threshold) else { continue }
                missed.append((platform, threshold))
            }
            guard !missed.isEmpty, let member = region.frame.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
            // Nothing says where the code runs and the size meets some platform's figure (a 20 pt
            // Mac button): a person must say which platform it ships on.
            var unsure = !file.platformsAreDeclared(at: region.frame) && platforms == .all && file.context.platforms == nil && missed.count < platforms.platforms.count
            // AppKit draws a SwiftUI `Menu` as a pop-up control; a frame inside its label may not be its size.
            if region.sizesLabelOnly, region.control == "`Menu`", missed.contains(where: { $0.0 == .macOS }) { unsure = true }
            let size = ControlSizeThreshold.size(width: region.width, height: region.height, atLeast: region.atLeast)
            var why = "people with limited dexterity will miss it"
            // Only a minimum bounds the short side: the content may make it larger.
            let shortAtLeast = missed.contains { _, threshold in
                (region.atLeast.width && (region.width ?? .infinity) < threshold) || (region.atLeast.height && (region.height ?? .infinity) < threshold)
            }
            if region.defaultStyledButton, missed.contains(where: { $0.0 == .macOS }) {
                // The Mac's bezel, not the label's frame, is what can be clicked; other platforms
                // draw the default style borderless, so the frame is their hit region.
                if missed.allSatisfy({ $0.0 == .macOS }) {
                    unsure = true
                    why = "on macOS a button with the default style is drawn as a bordered push button whose bezel pads the label, unless a view around it (perhaps in another file) sets a borderless or plain style: measure the drawn button"
                } else {
                    missed.removeAll { $0.0 == .macOS }
                }
            } else if region.systemPadded {
                unsure = true
                why = "the button style pads the label by an amount the system sets: measure the drawn button"
            } else if region.inBar {
                unsure = true
                why = "it is a toolbar item, which the bar lays out and may give a larger touch area: measure it in the running app"
            } else if let style = region.customStyle {
                unsure = true
                why = "the button style `\(InputExcerpt.of(style))` draws the label and may pad or frame it: measure the drawn button"
            } else if shortAtLeast {
                unsure = true
                why = "only a minimum is set, so the content may make it larger: measure it"
            } else if missed.allSatisfy({ ControlSizeThreshold.isNearMissOfWideControl(width: region.fillsWidth ? .infinity : region.width, height: region.height, $0.1) }) {
                unsure = true
                why = ControlSizeThreshold.wideNearMissReason
            } else if missed.allSatisfy({ $0.0 == .visionOS }) {
                unsure = true
                why = ControlSizeThreshold.visionOSSpacingReason
            }
            sink.report(region.frame, at: member.period,
                        "\(region.control) can be hit in \(size), below \(ControlSizeThreshold.thresholds(missed)); \(why)",
                        platforms: PlatformSet(missed.map(\.0)), certainty: unsure ? .review : nil)
        }
    }

    /// UIKit buttons made in code and sized by constant constraints in the same file. Always a
    /// review: a view around the button (perhaps in another file) may take the touches near it,
    /// and code elsewhere may replace the constraints.
    private func checkUIKitConstraints(_ file: SourceFile, _ sink: inout FindingSink) {
        for region in UIKitHitRegion.measure(file) {
            var missed: [(Platform, Double)] = []
            for platform in file.platformsForSizes(at: region.constraint).platforms {
                guard let threshold = ControlSizeThreshold.required(platform, file.reference),
                      ControlSizeThreshold.misses(width: region.width, height: region.height, threshold) else { continue }
                missed.append((platform, threshold))
            }
            guard !missed.isEmpty else { continue }
            let why = missed.allSatisfy({ ControlSizeThreshold.isNearMissOfWideControl(width: region.width, height: region.height, $0.1) })
                ? ControlSizeThreshold.wideNearMissReason
                : missed.allSatisfy({ $0.0 == .visionOS }) ? ControlSizeThreshold.visionOSSpacingReason
                : "its constraints make the button itself the area people can hit, and people with limited dexterity will miss it; "
                    + "check in the running app that no larger view around it takes the same tap"
            sink.report(region.constraint,
                        "`\(region.button)` is constrained to \(Self.uikitSize(region)), "
                            + "below \(ControlSizeThreshold.thresholds(missed)); \(why)",
                        platforms: PlatformSet(missed.map(\.0)), certainty: .review, requiredUse: region.requiredUse)
        }
    }

    /// A side the file does not settle may be pinned in a way it does not read: not "set by the layout".
    private static func uikitSize(_ region: UIKitHitRegion) -> String {
        switch (region.width, region.height) {
        case (let width?, let height?): "\(width.points)x\(height.points) pt"
        case (let width?, nil): "an area \(width.points) pt wide (its height is not settled in this file)"
        case (nil, let height?): "an area \(height.points) pt high (its width is not settled in this file)"
        case (nil, nil): "a size this file does not settle"
        }
    }

    /// Symbol-only controls no frame sizes: the glyph is what can be hit (iOS only, to review).
    private func checkGlyphSized(_ file: SourceFile, _ sink: inout FindingSink) {
        guard let threshold = ControlSizeThreshold.required(.iOS, file.reference) else { return }
        // A widget's or Live Activity's content is laid out and hit-tested by the system.
        guard !file.buildsWidgets else { return }
        for control in GlyphSizedControl.find(file) where file.platformsForSizes(at: control.image).contains(.iOS) {
            let body = file.reference.iosTextStyleSizes["Large (default)"]?["body"] ?? 17
            let font = control.font.map { "drawn at \($0.text) (\($0.points.points) pt\($0.fixed ? "" : " at the default text size"))" }
                ?? "drawn at the text size it inherits (body, \(body.points) pt, unless a view around it in another file sets another)"
            let scale = control.largeScale ? " at the large image scale" : ""
            let padded = max(control.padding.horizontal, control.padding.vertical) > 0
            let across = min(control.padding.horizontal, control.padding.vertical)
            let surround = !padded ? "with no frame, padding or content shape"
                : across == 0 ? "with no frame or content shape and no padding across its short side"
                : "with no frame or content shape and only \(across.points) pt of padding across its short side"
            if control.isText {
                let padding = control.padding.vertical > 0 ? "only \(control.padding.vertical.points) pt of vertical padding in its label" : "no vertical padding in its label"
                sink.report(control.image, at: control.owner ?? control.image,
                            "\(control.control) shows only the text \"\(InputExcerpt.of(control.symbol, limit: 40))\", \(font), with no frame, content shape or \(padding): "
                            + "what can be hit is the text's line, far below \(threshold.points) pt high on iOS; measure it in the running app "
                            + "(a view around it may pad it) or give it `.frame(minHeight: \(threshold.points))` and `.contentShape(Rectangle())`",
                            platforms: PlatformSet(.iOS), certainty: .review)
                continue
            }
            sink.report(control.image,
                        "\(control.control) shows only the SF Symbol \"\(InputExcerpt.of(control.symbol))\", \(font)\(scale), \(surround): "
                        + "what can be hit is the glyph, far below \(threshold.points)x\(threshold.points) pt on iOS; measure it in the running app "
                        + "(a view around it may pad it) or give it `.frame(minWidth: \(threshold.points), minHeight: \(threshold.points))` and `.contentShape(Rectangle())`",
                        platforms: PlatformSet(.iOS), certainty: .review)
        }
    }

    func check(_ file: DocumentFile, _ sink: inout DocumentFindingSink) {
        for (index, view) in file.document.views.enumerated() where InterfaceBuilderHitRegion.isMeasured(view, in: file.document)
            && !InterfaceBuilderHitRegion.isDrawnAtItsOwnSize(view, in: file.document) {
            // A button with no action, segue or outlet does nothing when tapped (a status icon
            // drawn as a button); one with an outlet only if code gives it a target.
            guard let operated = InterfaceBuilderHitRegion.targetRequirement(view, in: file.document) else { continue }
            var missed: [(Platform, Double)] = []
            for platform in file.platforms.platforms {
                guard let threshold = InterfaceBuilderHitRegion.required(view, platform, file.reference),
                      ControlSizeThreshold.misses(width: view.width, height: view.height, threshold) else { continue }
                missed.append((platform, threshold))
            }
            guard let threshold = missed.map(\.1).max() else { continue }
            let around = InterfaceBuilderHitRegion.surroundings(of: index, in: file.document, threshold: threshold)
            // A tap that misses it lands on a larger control doing the same thing.
            if around.sameActionCover != nil { continue }
            let what = view.kind == "button" || file.document.isAppKit ? "" : " (system controls are held to the minimum control size)"
            var why = "people with limited dexterity will miss it"
            var unsure = true
            if missed.allSatisfy({ ControlSizeThreshold.isNearMissOfWideControl(width: view.width, height: view.height, $0.1) }) {
                why = ControlSizeThreshold.wideNearMissReason
            } else if missed.allSatisfy({ $0.0 == .visionOS }) {
                why = ControlSizeThreshold.visionOSSpacingReason
            } else if view.isToolbarItemView {
                why = "it is a toolbar item's view, which the toolbar lays out and sizes (with labels shown, the label can be clicked too): measure it in the running app"
            } else if view.frameContradictsConstraints {
                why = "its frame disagrees with its size constraints, so Auto Layout sizes it otherwise: measure it as laid out"
            } else if !view.isInteractionEnabled {
                why = "the document turns its user interaction off, so it takes no touch until code turns it on: measure it where it does"
            } else if let hidden = around.hiddenAncestor {
                why = "it lies in a \(hidden.kind) the document hides (id \(hidden.id)), which only code shows: measure it where the app shows it"
            } else if let cover = around.otherCover {
                why = "a larger \(cover.kind) (id \(cover.id)) covers it and may do the same when tapped: check what it does"
            } else {
                unsure = false
            }
            sink.report(view, "\(InterfaceBuilderHitRegion.name(view)) is \(ControlSizeThreshold.size(width: view.width, height: view.height)), below \(ControlSizeThreshold.thresholds(missed))\(what); \(why)",
                        platforms: PlatformSet(missed.map(\.0)), certainty: unsure ? .review : nil,
                        // A button the document leaves untitled whose title or image code
                        // sets: its content, and so its size, comes from code.
                        reviewedIf: [FileResult.restyledMarker] + ((view.title ?? "").isEmpty && view.kind == "button" ? ["title", "attributedTitle", "image"] : []),
                        reviewedIfFacts: around.hitTestFacts + InterfaceBuilderHitRegion.rowSelectionFacts(view, in: file.document)
                            // A xib its owner loads into itself and stretches to its host: the
                            // frames are the canvas's, not the screen's.
                            + (InterfaceBuilderHitRegion.isSizedByConstraints(view, in: file.document) ? []
                                : file.document.xibOwnerClass.map { [$0 + "#" + FileResult.loadsNibMarker] } ?? []),
                        requiredUse: operated)
        }
    }
}
