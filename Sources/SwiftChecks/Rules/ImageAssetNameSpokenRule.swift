import AuditModel
import SwiftSyntax

/// `Image("asset-name")` with no label and not hidden: SwiftUI uses the name as the image's
/// label, so VoiceOver reads "cart dot badge dot plus" or "badge underscore gold".
struct ImageAssetNameSpokenRule: SourceRule {
    let description = RuleDescription(
        id: "image-asset-name-spoken",
        title: "Image asset name is spoken as its label",
        kind: .recommendation,
        rationale: """
            `Image(_ name:)` uses its name as "the localization key with which to label the \
            image": with no label of its own and not hidden, VoiceOver reads the asset name. \
            In a `Button` whose label is that image, the asset name becomes the button's label. \
            An image is either meaningful (it needs a description in words) or decorative (it \
            should be hidden); the asset name is rarely either.
            """,
        citations: [
            Citation("SwiftUI › Image",
                     "the localization key with which to label the image"),
            Citation("HIG › VoiceOver",
                     "Exclude purely decorative images from VoiceOver. It's unnecessary to describe images that are decorative and don't convey useful or actionable information."),
            Citation("HIG › VoiceOver",
                     "Provide alternative labels for all key interface elements. … System-provided controls have generic labels by default, but you should provide more descriptive labels that convey your app's functionality. Add labels to any custom elements your app defines."),
        ],
        fix: """
            Meaningful image: `Image("cart.badge.plus").accessibilityLabel("Add to cart")`, \
            `Image("x", label: Text("…"))`, or a label on the enclosing button. Decorative image: \
            `Image(decorative: "divider")` or `.accessibilityHidden(true)`. Image beside its \
            title: `Label { Text("Play") } icon: { Image("play") }`. Or add the asset name as a \
            key to the strings tables with a description as its value.
            """,
        limitations: """
            Only `Image("literal")` is judged: images from variables, interpolated names or \
            generated `ImageResource` symbols (`Image(.cart)`) are not, and neither is an image \
            stored in a `let`/`static let` (the place it is shown decides its label; that may be \
            another file). A name the project's strings tables define as a key is not reported: \
            VoiceOver reads the translation. An enclosing container that labels, hides, replaces \
            (`.accessibilityRepresentation`) or groups its children with \
            `.accessibilityElement(children: .ignore)` clears the image; with `.combine` the \
            image's label is merged into the container's, so the asset name is read there and \
            is reported as such, unless it reads as words beside the text. Labels, hiding and grouping applied through a custom \
            `ViewModifier` are not seen. A view of the app's own that shows a `String` property \
            as `Image(name)` with no label (`Icon(name: "tool-keep")`) is judged where it is \
            constructed with a literal, as that `Image` would be there. \
            Decision for `Button { Image("x"); Text("Play") }`: it is reported, since the \
            button's label is built from all of its content, so the asset name is read beside \
            the text; but a `Button` among the items of a `Menu` or `.contextMenu` becomes a \
            system menu action titled by its text, with the image as its icon, so there it is \
            not reported (an item with no text is). An image assigned to a property is judged \
            where it is shown, like one in a `let`. An image in a property or method of its type \
            (`private var cardLabel: some View`) whose every use in that type is under a label or \
            a hide is not reported (private members only: no other file can show them). Images in \
            `#Preview` and `PreviewProvider` code are not reported.
            """,
        triggering: [
            // The app's own views that show their string as `Image(…)` (in another file).
            RuleExample("""
                import SwiftUI
                struct Toolbar: View {
                    var body: some View {
                        HStack {
                            Icon(↓name: "tool-keep", size: 20)
                            CloseButton(↓"ic_close") { dismiss() }
                            Tooltip(↓icon: "status-lock", title: "Locked")
                        }
                    }
                    func dismiss() {}
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            // A segment with only an image: the asset name is all VoiceOver has.
            RuleExample("""
                import SwiftUI
                struct LayoutPicker: View {
                    @State private var layout = 0
                    var body: some View {
                        Picker("Layout", selection: $layout) {
                            ↓Image("grid_icon").tag(0)
                            ↓Image("list_icon").tag(1)
                        }
                        .pickerStyle(.segmented)
                    }
                }
                """),
            // An acronym run into a word that names the asset, not what it shows.
            RuleExample("""
                import SwiftUI
                struct LocationBadge: View {
                    var body: some View {
                        HStack { ↓Image("GPSIcon"); Text("Tracking") }
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Cart: View {
                    var body: some View {
                        Button(action: add) { ↓Image("cart.badge.plus") }
                        // A menu item with no text is titled by nothing but its image.
                        Menu { Button(action: add) { ↓Image("cart.add") } } label: { Text("More") }
                        Button { add() } label: {
                            ↓Image("badge_gold_icon").resizable().frame(width: 24, height: 24)
                        }
                    }
                    func add() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Header: View {
                    var body: some View {
                        HStack {
                            ↓Image("logo-dark")
                            Text("Acme")
                        }
                        ↓Image("hero_banner", bundle: .module).resizable().scaledToFit()
                    }
                }
                """),
            // Combined with its text, the asset name is read as part of the row's one label.
            RuleExample("""
                import SwiftUI
                struct Rating: View {
                    var body: some View {
                        HStack {
                            ↓Image("ic_rating_star")
                            Text("4.5")
                        }
                        .accessibilityElement(children: .combine)
                    }
                }
                """),
            // The button has text, but its label is built from all of its content.
            RuleExample("""
                import SwiftUI
                struct Player: View {
                    var body: some View {
                        Button(action: {}) {
                            HStack {
                                ↓Image("ic_play")
                                Text("Play")
                            }
                        }
                        .padding()
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Card: View {
                    var body: some View {
                        VStack { Text("Title") }
                            .background { ↓Image("card_bg") }
                            .accessibilityElement(children: .contain)
                    }
                }
                """),
            // Presented content and menu items are not reached by the presenting view's modifiers.
            RuleExample("""
                import SwiftUI
                struct Home: View {
                    @State var shown = false
                    var body: some View {
                        VStack { Text("Main") }
                            .accessibilityElement(children: .combine)
                            .sheet(isPresented: $shown) { ↓Image("onboarding_1") }
                        Menu {
                            Button(action: {}) { ↓Image("menu_share") }
                        } label: {
                            Text("More")
                        }
                        .accessibilityLabel("More actions")
                    }
                }
                """),
        ],
        nonTriggering: [
            // A property whose every use is the label of a control that names itself.
            RuleExample("""
                import SwiftUI
                struct ExitNodeCard: View {
                    @State private var expanded = false
                    var body: some View {
                        Button { expanded.toggle() } label: { cardLabel }
                            .accessibilityLabel("Exit node")
                    }
                    private var cardLabel: some View {
                        HStack { Image("direction-sign"); Text("Exit node") }
                    }
                }
                """),
            // Labelled, hidden or titled where used; a symbol, or a component that labels itself.
            RuleExample("""
                import SwiftUI
                struct Toolbar: View {
                    var body: some View {
                        VStack {
                            Icon(name: "tool-keep").accessibilityLabel("Keep")
                            Icon(name: "divider").accessibilityHidden(true)
                            Label { Text("Keep") } icon: { Icon(name: "tool-keep") }
                            Glyph(symbol: "xmark")
                            Tooltip(title: "Locked")
                            ToolbarButton(icon: "nav-back") { back() }
                            Tooltip(icon: "status-lock", title: "Locked").accessibilityElement(children: .ignore).accessibilityLabel("Locked")
                            Badge(name: "badge_gold", title: "Gold member")
                            Button { keep() } label: { Icon(name: "tool-keep") }.accessibilityLabel("Keep")
                        }
                    }
                    func keep() {}
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            // A picker's option: the menu item's title is its text, the image its icon.
            RuleExample("""
                import SwiftUI
                struct DownloadFolderPicker: View {
                    @State private var folder = "downloads"
                    let folders = ["downloads", "custom"]
                    var body: some View {
                        Picker("", selection: $folder) {
                            ForEach(folders, id: \\.self) { name in
                                HStack {
                                    Image("preferences-folder-icon")
                                    Text(name)
                                }
                            }
                        }
                    }
                }
                """),
            // A private property its own file never reads is never shown, whatever other files
            // call their own `replyButton`.
            RuleExample("""
                import SwiftUI
                struct PostActions: View {
                    var body: some View {
                        HStack { Text("Reply") }
                    }
                    private var replyButton: some View {
                        Button { } label: { Image("reply-arrow") }
                    }
                }
                """, assets: [
                "ThreadActions.swift": """
                    import SwiftUI
                    struct ThreadActions: View {
                        var body: some View { replyButton }
                        var replyButton: some View { Button("Reply") { } }
                    }
                    """,
            ]),
            RuleExample("""
                import SwiftUI
                struct Cart: View {
                    var body: some View {
                        Image("cart.badge.plus").accessibilityLabel("Add to cart")
                        Image("divider").accessibilityHidden(true)
                        Image("divider").accessibility(hidden: true)
                        Image(decorative: "divider")
                        Image("hero", label: Text("Mountains at dawn"))
                        Image(systemName: "cart")
                        Image(uiImage: UIImage())
                        Image(name)
                        Image("flag_\\(code)")
                    }
                    let name = "x"
                    let code = "fr"
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Cart: View {
                    var body: some View {
                        Button(action: add) { Image("cart.badge.plus") }
                            .accessibilityLabel("Add to cart")
                        HStack {
                            Image("star")
                            Text("4.5 stars")
                        }
                        .accessibilityElement(children: .combine)
                        HStack {
                            Image("star")
                            Text("4.5")
                        }
                        .accessibilityElement(children: .ignore)
                        .accessibilityLabel("Rated 4.5 stars")
                        VStack { Image("confetti") }.accessibilityHidden(true)
                        // A placeholder that keeps the layout balanced: never drawn, not in the tree.
                        Button { } label: { Image("caret-left") }.hidden()
                        // Menu items are system menu actions: titled by the text, the image is the icon.
                        Menu {
                            Button { add() } label: { HStack { Image("file-pdf"); Text("Documents") } }
                        } label: { Image(systemName: "ellipsis") }
                    }
                    func add() {}
                }
                """),
            RuleExample("""
                import SwiftUI
                struct Rows: View {
                    var body: some View {
                        Label { Text("Play") } icon: { Image("play") }
                        Label {
                            Text("Incognito")
                        } icon: {
                            #if os(macOS)
                            Image("incognito").resizable().frame(width: 16, height: 16)
                            #else
                            Image("incognito")
                            #endif
                        }
                        Label("Cart", image: "cart")
                        ShareLink(item: url, preview: SharePreview("Recipe", image: Image("recipe-card")))
                        TabView {
                            Text("Home").tabItem { Image("home"); Text("Home") }
                        }
                        Toggle(isOn: .constant(true)) { Text("Sound") }
                        Image("chart").accessibilityRepresentation { Text("Sales rose 20%") }
                        Image(systemName: "heart.fill").mask { Image("heart_mask") }
                        Color.red.mask(Image("heart_mask").resizable())
                    }
                }
                """),
            RuleExample("""
                import SwiftUI
                enum Assets {
                    static let logo = Image("logo")
                }
                // A model keeps the image; where it is shown decides its label.
                struct Brand {
                    let headerImage: Image
                    init(custom: Image?) { self.headerImage = custom ?? Image("defaultHeaderImage") }
                }
                #Preview {
                    Image("preview_sample")
                }
                """),
        ],
        needsReview: [
            // SwiftGen's asset-name constants, one or another by a condition; hidden or labelled
            // ones are clear.
            RuleExample("""
                import SwiftUI
                struct GiftBanner: View {
                    let oneForOne: Bool
                    var body: some View {
                        VStack {
                            ↓Image(oneForOne ? Asset.giftHills.name : Asset.subscriptionBackground.name)
                            HStack {
                                ↓Image(Asset.Sparkles.left.name)
                                Text("Gift one, get one")
                            }
                            Image(Asset.sparklesRight.name).accessibilityHidden(true)
                            Image(Asset.crown.name).accessibilityLabel("Premium")
                        }
                    }
                }
                """, platforms: PlatformSet(.iOS)),
            // A brand's name as the brand writes it ("GitHub"), through a link component of the
            // app's own: words, but whether they say what the link does is a person's call.
            RuleExample("""
                import SwiftUI
                struct About: View {
                    var body: some View {
                        HStack {
                            ↓Image("YouTube")
                            Tooltip(↓icon: "GitHub", title: "Source code")
                        }
                    }
                }
                """, assets: ["Components/Components.swift": ViewComponents.exampleComponents]),
            // An acronym and a word, as people write the thing ("QR code"): words, but never translated.
            RuleExample("""
                import SwiftUI
                struct ProfileCard: View {
                    var body: some View {
                        VStack { ↓Image("QRCode").resizable().frame(width: 120, height: 120); Text("Scan to follow") }
                    }
                }
                """),
            // A short acronym alone is spelled out ("G P U"): words, but never translated.
            RuleExample("""
                import SwiftUI
                struct GPUStat: View {
                    let load: Int
                    var body: some View {
                        HStack { ↓Image("GPU"); Text("\\(load)%") }
                    }
                }
                """),
            // The name reads as words: whether they say what the image means is a person's call.
            RuleExample("""
                import SwiftUI
                struct LoopStatus: View {
                    var body: some View { ↓Image("Open Loop") }
                }
                """),
            // A helper that returns the image: a `Label` icon or a hidden row at the call site
            // reads no asset name, a bare button does.
            RuleExample("""
                import SwiftUI
                enum Account {
                    case local, cloud
                    func image() -> Image {
                        switch self {
                        case .local: return ↓Image("accountLocal")
                        case .cloud: return ↓Image("accountCloud")
                        }
                    }
                    var badge: Image { ↓Image("badge_gold") }
                }
                struct Row: View {
                    var body: some View { Account.local.badge }
                }
                """),
            // A view whose callers label it as a whole: its own image may never be read.
            RuleExample("""
                import SwiftUI
                struct PodcastRow: View {
                    let title: String
                    var body: some View {
                        HStack { ↓Image("artwork_placeholder"); Text(title) }
                    }
                }
                """, assets: ["ShowPicker.swift": """
                    import SwiftUI
                    struct ShowPicker: View {
                        var body: some View {
                            PodcastRow(title: "Daily")
                                .accessibilityElement(children: .ignore)
                                .accessibilityLabel("Daily, selected")
                        }
                    }
                    """]),
        ]
    )

    /// Views that pair a title with an icon and read the title (the icon is not spoken), and
    /// modifiers whose content only shapes another view (`.mask { Image("heart") }`).
    private static let titledIconContainers: Set<String> = ["Label", "tabItem", "mask"]
    /// Calls that take an image as a value and do not show it as a view: a mask's shape, the
    /// preview a share sheet draws with its own title.
    private static let imageTakers: Set<String> = ["mask", "SharePreview"]

    func check(_ file: SourceFile, _ sink: inout FindingSink) {
        checkComponentUses(file, &sink)
        for call in file.index.calls(named: "Image") {
            guard call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calleeBaseText == "SwiftUI",
                  let first = call.arguments.first, first.label == nil, call.argument("label") == nil else { continue }
            guard let literal = first.expression.as(StringLiteralExprSyntax.self), let name = ExprSyntax(literal).stringLiteralValue else {
                checkGeneratedAssetName(call, first.expression, &sink)
                continue
            }
            if file.isLocalizedKey(name) { continue }
            let control: String?
            let role: String
            switch Self.placement(of: call) {
            case .cleared:
                continue
            case .returnedBy(let helper):
                // A helper that hands out an `Image` value: where it is shown decides its label
                // (a `Label` icon, a hidden row, a bare button), and that may be another file.
                sink.report(call, "`Image(\"\(name)\")` is returned by `\(helper)`, so VoiceOver reads the asset name \"\(name)\" wherever it is shown without a label; check each place it is used", certainty: .review)
                continue
            case .shown(let owner):
                control = owner?.calleeName
                role = Self.role(shownIn: owner, otherwise: "as the image's label")
            case .combined(let container):
                // A name that reads as words ("star" beside "4.5 stars") joins the text as a word.
                if Self.readsAsWords(name) { continue }
                control = nil
                role = Self.role(combinedBy: container)
            }
            // Named after the app: most likely its logo, which the app's name labels well.
            if file.context.appNames.contains(ProjectContext.normalizedAppName(name)) {
                sink.report(call, "`Image(\"\(name)\")` has no accessibility label: VoiceOver reads the asset name \"\(name)\" \(role), which is the app's name; if the image is the app's logo that is a fine label, otherwise label it in words",
                            certainty: .review)
                continue
            }
            // "Open Loop", "bookmark": the name reads as words; whether they say what the image
            // means (and that they are never translated) is a person's call.
            if Self.readsAsWords(name) {
                sink.report(call, "`Image(\"\(name)\")` has no accessibility label: VoiceOver reads the asset name \"\(name)\" \(role), which reads as words but is never translated and may not say what the image means; check it, and label it in words",
                            certainty: .review)
                continue
            }
            sink.report(call, "`Image(\"\(name)\")` has no accessibility label and is not hidden: VoiceOver reads the asset name \"\(name)\" \(role); label it in words, or hide it if it is decorative",
                        reviewIf: Self.enclosingView(of: call).map { ["\($0)@labelled"] } ?? [])
        }
    }

    /// `Image(Asset.g1g1SparklesLeft.name)`: SwiftGen's constant for an asset's name (its
    /// generated file, skipped as generated, holds the name itself). VoiceOver reads the asset's
    /// name as it would a literal's; what the name says is not known here, so a person checks.
    private func checkGeneratedAssetName(_ call: FunctionCallExprSyntax, _ argument: ExprSyntax, _ sink: inout FindingSink) {
        let branches = TernaryParts(argument)?.branches ?? [argument]
        let names = branches.compactMap(Self.generatedAssetName)
        guard !names.isEmpty, names.count == branches.count else { return }
        let role: String
        switch Self.placement(of: call) {
        case .cleared, .returnedBy: return
        case .shown(let owner): role = Self.role(shownIn: owner, otherwise: "as the image's label")
        case .combined(let container): role = Self.role(combinedBy: container)
        }
        let shown = names.map { "`\($0)`" }.joined(separator: " or ")
        sink.report(call, "`Image(\(InputExcerpt.of(argument.sourceText, limit: 60)))` has no accessibility label and is not hidden: VoiceOver reads the asset's name (SwiftGen's \(shown)) \(role); label it in words, or hide it if it is decorative",
                    certainty: .review, reviewIf: Self.enclosingView(of: call).map { ["\($0)@labelled"] } ?? [])
    }

    /// Where the asset's name is read: in the label of the control around the image, or as
    /// `otherwise` says.
    static func role(shownIn owner: FunctionCallExprSyntax?, otherwise: String) -> String {
        owner?.calleeName.map { "as part of the enclosing `\($0)`'s label" } ?? otherwise
    }

    static func role(combinedBy container: FunctionCallExprSyntax) -> String {
        "as part of the label the enclosing `\(container.calleeName ?? "view")` combines from its children"
    }

    /// `Asset.g1g1SparklesLeft.name`, `Asset.Icons.close.name` → the constant's name.
    static func generatedAssetName(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "name",
              let base = member.base, let path = ExprSyntax.dottedName(base), path.hasPrefix("Asset."),
              let last = path.split(separator: ".").last, path.split(separator: ".").count >= 2 else { return nil }
        return String(last)
    }

    /// `Icon(name: "tool-keep")` where the app's `Icon` shows its `name` as `Image(name)` with no
    /// label (a fact of `Icon`'s file, `ViewComponents.assetImagePrefix`): the same defect as
    /// `Image("tool-keep")` written here, judged by where this use is shown.
    private func checkComponentUses(_ file: SourceFile, _ sink: inout FindingSink) {
        for call in ViewComponents.uses(in: file, prefix: ViewComponents.assetImagePrefix) {
            let type = call.calleeName ?? ""
            for argument in call.arguments where file.context.componentFacts.contains(ViewComponents.assetImagePrefix + type + "." + (argument.label?.text ?? "_")) {
                guard let literal = argument.expression.as(StringLiteralExprSyntax.self),
                      let name = ExprSyntax(literal).stringLiteralValue, !name.isEmpty, !name.contains(" ") || Self.readsAsWords(name),
                      !file.isLocalizedKey(name) else { continue }
                let label = argument.label?.text ?? "_"
                let role: String
                switch Self.placement(of: call) {
                case .cleared, .returnedBy: continue
                case .shown(let owner):
                    // Inside the component the image may be a button's label: the name is read there.
                    role = Self.role(shownIn: owner, otherwise: "where `\(type)` shows it (as the image's label, or as part of the label of a button it draws)")
                case .combined(let container):
                    if Self.readsAsWords(name) { continue }
                    role = Self.role(combinedBy: container)
                }
                let shown = label == "_" ? "its first argument" : "its `\(label)`"
                let uncertain = Self.readsAsWords(name) || file.context.appNames.contains(ProjectContext.normalizedAppName(name))
                sink.report(call, at: argument, "`\(type)` shows \(shown) as an image asset (`Image(…)` with no accessibility label, in `\(type)`'s body), so VoiceOver reads the asset name \"\(name)\" \(role)\(uncertain ? ", which reads as words but is never translated and may not say what the image means; check it" : ""); label the image in `\(type)` (a label parameter) or hide it there if it is decorative",
                            certainty: uncertain ? .review : nil,
                            reviewIf: Self.enclosingView(of: call).map { ["\($0)@labelled"] } ?? [])
            }
        }
    }

    private static func clears(_ chain: ModifierChain) -> Bool { AccessibilityLabels.labelsOrHides(chain) }

    /// Where an `Image` call is shown, as far as its label goes.
    enum Placement {
        /// Labelled, hidden, grouped or given a title by what holds it (a `Label`, a menu item,
        /// a picker option with text), kept for later, or preview code: nothing to report.
        case cleared
        /// Returned by a helper (`func icon() -> Image`): its callers show it.
        case returnedBy(String)
        /// Shown as it is, alone or as part of the label of `control` (a `Button`, a `Link`…).
        case shown(control: FunctionCallExprSyntax?)
        /// A child of `container`, which merges its children's labels into one
        /// (`.accessibilityElement(children: .combine)`) and labels nothing itself.
        case combined(container: FunctionCallExprSyntax)
    }

    static func placement(of call: FunctionCallExprSyntax) -> Placement {
        let chain = ModifierChain(containing: ExprSyntax(call))
        if clears(chain) { return .cleared }
        // `.accessibilityElement()` on the image itself: a new element that drops its label.
        if chain.groupsChildren && !chain.combinesChildren { return .cleared }
        if chain.outermost.parent?.is(InitializerClauseSyntax.self) == true || isAssigned(chain.outermost) { return .cleared }
        if let argument = chain.outermost.parent?.as(LabeledExprSyntax.self),
           let owner = argument.parent?.parent?.as(FunctionCallExprSyntax.self)?.calleeName,
           imageTakers.contains(owner) { return .cleared }
        if AccessibilityLabels.isInPreview(call) { return .cleared }
        var control: FunctionCallExprSyntax?
        var row: FunctionCallExprSyntax?
        for container in AccessibilityLabels.accessibilityContainers(of: call) {
            let containerName = container.calleeName ?? ""
            if titledIconContainers.contains(containerName) { return .cleared }
            // A picker's option (`Picker { HStack { Image(…); Text(name) } }`) becomes a menu
            // item or segment titled by its text, with the image as its icon.
            if containerName == "Picker", isInContent(call, of: container), let row, hasText(row) { return .cleared }
            row = row ?? container
            let containerChain = ModifierChain(containing: ExprSyntax(container))
            if clears(containerChain) { return .cleared }
            if containerChain.groupsChildren {
                // `.combine` merges each child's label into the container's: an asset name is read there.
                return containerChain.combinesChildren ? .combined(container: container) : .cleared
            }
            if control == nil, AccessibilityLabels.labelledControls.contains(containerName),
               container.calledExpression.is(DeclReferenceExprSyntax.self) {
                // A menu's item becomes a system menu action titled by its text, with the
                // image as its icon.
                if containerName == "Button", isMenuItem(container), hasText(container) { return .cleared }
                control = container
            }
        }
        if control == nil, let helper = enclosingImageHelper(of: chain.outermost) { return .returnedBy(helper) }
        if control == nil, isLabelledWhereUsed(call) { return .cleared }
        return .shown(control: control)
    }

    /// `private var cardLabel: some View { HStack { Image("sign"); … } }` whose every use in its
    /// type is under a label or a hide (`Button { … } label: { cardLabel }.accessibilityLabel("Exit
    /// node")`): the label replaces the one VoiceOver would build from the image.
    static func isLabelledWhereUsed(_ call: FunctionCallExprSyntax) -> Bool {
        var current = Syntax(call).parent
        var member: (name: String, declaration: Syntax)?
        while let node = current, member == nil {
            if node.is(MemberBlockSyntax.self) || node.is(SourceFileSyntax.self) { return false }
            // Private: no other file can show it.
            if let variable = node.as(VariableDeclSyntax.self),
               let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                guard isPrivate(variable.modifiers) else { return false }
                member = (name, node)
            } else if let function = node.as(FunctionDeclSyntax.self) {
                guard isPrivate(function.modifiers) else { return false }
                member = (function.name.text, node)
            }
            current = node.parent
        }
        guard let member, member.name != "body", let type = member.declaration.enclosingTypeDecl else { return false }
        var uses = 0
        for token in type.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(member.name) {
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            // Its own declaration's name is a pattern, not a reference; a reference inside it is recursion.
            if member.declaration.position.utf8Offset <= token.position.utf8Offset,
               token.position.utf8Offset < member.declaration.endPosition.utf8Offset { return false }
            var expression = ExprSyntax(reference)
            if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id {
                expression = ExprSyntax(access)
            }
            if let called = expression.parent?.as(FunctionCallExprSyntax.self), called.calledExpression.id == expression.id {
                expression = ExprSyntax(called)
            }
            uses += 1
            guard isUnderLabel(expression) else { return false }
        }
        return uses > 0
    }

    private static func isPrivate(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { ["private", "fileprivate"].contains($0.name.text) }
    }

    /// Whether a label or a hide on the expression or a view around it replaces its children's labels.
    private static func isUnderLabel(_ expression: ExprSyntax) -> Bool {
        if clears(ModifierChain(containing: expression)) { return true }
        for container in AccessibilityLabels.accessibilityContainers(of: expression) {
            let chain = ModifierChain(containing: ExprSyntax(container))
            if clears(chain) { return true }
            if chain.groupsChildren { return !chain.combinesChildren }
        }
        return false
    }

    /// `self.icon = Image("x")`, `icon = custom ?? Image("x")`: a value kept for later, shown
    /// (and labelled or hidden) wherever the property is read, as with a `let` initializer.
    static func isAssigned(_ expression: ExprSyntax) -> Bool {
        var node = Syntax(expression)
        // Through `??` and ternary branches, which are elements of the same sequence.
        while let parent = node.parent {
            if let list = parent.as(ExprListSyntax.self) {
                return list.contains { $0.is(AssignmentExprSyntax.self) }
            }
            guard parent.is(TernaryExprSyntax.self) else { return false }
            node = parent
        }
        return false
    }

    /// A `Button` among the items of a `Menu` or `.contextMenu` (not in a menu's `label:`).
    static func isMenuItem(_ button: FunctionCallExprSyntax) -> Bool {
        var child = Syntax(button)
        var current = child.parent
        while let node = current {
            if let call = node.as(FunctionCallExprSyntax.self), ["Menu", "contextMenu"].contains(call.calleeName ?? "") {
                if let closure = call.trailingClosure, child.id == Syntax(closure).id { return true }
                if let content = call.argument("content"), child.id == Syntax(content).id || child.parent?.id == Syntax(content).id { return true }
                return false
            }
            child = node
            current = node.parent
        }
        return false
    }

    /// Whether `node` lies in the call's trailing closure or `content:` argument (a picker's
    /// options, not its label).
    static func isInContent(_ node: some SyntaxProtocol, of call: FunctionCallExprSyntax) -> Bool {
        let offset = node.position.utf8Offset
        let parts = [call.trailingClosure.map(Syntax.init), call.argument("content").map(Syntax.init)].compactMap { $0 }
        return parts.contains { ($0.position.utf8Offset..<$0.endPosition.utf8Offset).contains(offset) }
    }

    /// The button's label holds a `Text`, which titles the menu item.
    static func hasText(_ button: FunctionCallExprSyntax) -> Bool {
        if let title = button.arguments.first, title.label == nil, title.expression.is(StringLiteralExprSyntax.self) { return true }
        return button.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .identifier("Text") && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
        }
    }

    /// Letters and single spaces only, capitals only at a word's start: `bookmark`, `Open Loop`;
    /// a short acronym alone, which VoiceOver spells (`GPU`, `NFC`); not camel case or
    /// camel case or an acronym with an asset word (`settingsIcon`, `GPSIcon`) or separators (`ic_close`,
    /// `Font-Smaller-24`).
    static func readsAsWords(_ name: String) -> Bool {
        if (2...5).contains(name.count), name.allSatisfy({ $0.isASCII && $0.isUppercase }) { return true }
        if readsAsAcronymAndWord(name) || brandNames.contains(name) { return true }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == " " }), !name.contains("  ") else { return false }
        let characters = Array(name)
        return !zip(characters, characters.dropFirst()).contains { $0.isLetter && $1.isUppercase }
    }

    /// A short acronym and one capitalised word, as people write the thing (`QRCode`, `NFCTag`),
    /// which VoiceOver reads as such ("Q R code"): not a word asset names add (`GPSIcon`).
    static func readsAsAcronymAndWord(_ name: String) -> Bool {
        let characters = Array(name)
        guard characters.allSatisfy({ $0.isASCII && $0.isLetter }),
              let firstLower = characters.firstIndex(where: { $0.isLowercase }), (3...5).contains(firstLower),
              characters[firstLower...].allSatisfy({ $0.isLowercase }) else { return false }
        let word = String(characters[(firstLower - 1)...]).lowercased()
        return word.count >= 3 && !assetWords.contains(word)
    }

    /// Brands whose logos apps show, as the brands write their names: VoiceOver reads them as
    /// the name ("GitHub"), which may well be the right label for the logo, so such an asset name
    /// is for a person to judge. Shape alone cannot tell them from asset identifiers in the same
    /// case (`ChevronRight`, `AppStatusInfo`), which stay findings.
    static let brandNames: Set<String> = [
        "GitHub", "GitLab", "YouTube", "LinkedIn", "PayPal", "WhatsApp", "TikTok", "WeChat", "SoundCloud", "DuckDuckGo",
        "AirDrop", "AirPlay", "AirPods", "FaceTime", "iCloud", "iPhone", "iPad", "iMessage", "CarPlay", "HomeKit", "HealthKit",
        "OpenAI", "ChatGPT", "BitTorrent", "OneDrive", "DropBox", "Dropbox", "Mastodon", "Pixelfed", "Bluesky", "Discord",
        "Reddit", "Twitter", "Facebook", "Instagram", "Telegram", "Signal", "Slack", "Google", "Apple", "Microsoft",
    ]

    /// Words that say what an asset is rather than what it shows.
    private static let assetWords: Set<String> = [
        "icon", "image", "img", "button", "btn", "logo", "asset", "placeholder", "background", "bg", "thumb", "thumbnail",
    ]

    /// The function or computed property whose declared type is `Image` (or `Image?`) and that
    /// returns `expression`, directly or from a branch: its callers show the image.
    static func enclosingImageHelper(of expression: ExprSyntax) -> String? {
        var current = expression.parent
        while let node = current {
            if let function = node.as(FunctionDeclSyntax.self) {
                return isImageType(function.signature.returnClause?.type) ? function.name.text + "()" : nil
            }
            if let binding = node.as(PatternBindingSyntax.self) {
                guard binding.accessorBlock != nil, isImageType(binding.typeAnnotation?.type) else { return nil }
                return binding.pattern.sourceText
            }
            if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
                return isImageType(subscriptDecl.returnClause.type) ? "subscript" : nil
            }
            // A closure or a view builder in between shows the image itself.
            if node.is(ClosureExprSyntax.self) || node.is(FunctionCallExprSyntax.self) { return nil }
            current = node.parent
        }
        return nil
    }

    /// The custom view type whose code shows the image: where its callers label, hide or
    /// ignore its children (`viewsLabelledWhereUsed`), the image may never be read.
    static func enclosingView(of call: FunctionCallExprSyntax) -> String? {
        guard let type = Syntax(call).enclosingTypeDecl, let decl = type.as(StructDeclSyntax.self) else { return nil }
        return decl.name.text
    }

    private static func isImageType(_ type: TypeSyntax?) -> Bool {
        guard var type else { return false }
        if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
        return ["Image", "SwiftUI.Image"].contains(type.sourceText)
    }
}
