import Foundation

/// Writes a synthetic but app-shaped Swift corpus: SwiftUI screens, UIKit view controllers, an
/// AppKit window, and the models/networking files that make up most of a real app's Swift (and
/// that the import prefilter skips). Deterministic for a given seed, so runs compare.
struct CorpusGenerator {
    var random: SplitMix
    /// Colour sets written to `App/Assets.xcassets`, and referenced by name from the SwiftUI
    /// screens; 0 writes no catalog and no references.
    var colorSets = 0

    init(seed: UInt64, colorSets: Int = 0) {
        random = SplitMix(seed: seed)
        self.colorSets = colorSets
    }

    mutating func write(to root: URL, files: Int) throws -> (files: Int, bytes: Int) {
        var total = 0
        for set in 0..<colorSets {
            let url = root.appendingPathComponent("App/Assets.xcassets/Palette\(set).colorset/Contents.json")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = colorSet(set)
            try Data(text.utf8).write(to: url)
            total += text.utf8.count
        }
        for index in 0..<files {
            let (folder, text): (String, String)
            switch index % 10 {
            case 0, 1, 2, 3: (folder, text) = ("Screens", swiftUIScreen(index))
            case 4, 5: (folder, text) = ("Controllers", uiKitController(index))
            case 6: (folder, text) = ("Mac", appKitWindow(index))
            default: (folder, text) = ("Models", model(index))
            }
            let url = root.appendingPathComponent("App/\(folder)/File\(index).swift")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            total += text.utf8.count
        }
        return (files, total)
    }

    private mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }

    private mutating func swiftUIScreen(_ index: Int) -> String {
        var body = ""
        let rows = 6 + Int(random.next() % 14)
        for row in 0..<rows {
            body += pick([
                "            Text(\"Row \(row)\").font(.body).foregroundStyle(.secondary)\n",
                "            Text(\"Title \(row)\").font(.system(size: \(10 + row % 9)))\n",
                "            Image(systemName: \"star.fill\").accessibilityHidden(true)\n",
                "            Button { toggle\(row % 3)() } label: { Label(\"Action \(row)\", systemImage: \"bolt\") }\n",
                "            Image(\"hero_banner_\(row)\").resizable().frame(height: 120)\n",
                "            HStack { Circle().fill(isOn ? .green : .red).frame(width: 8, height: 8); Text(\"Status\") }\n",
                "            Rectangle().onTapGesture { selected = \(row) }\n",
                "            Text(\"Detail\").padding().background(Color(red: 0.2, green: 0.3, blue: 0.4))\n",
                "            VStack(alignment: .leading, spacing: 4) { Text(\"A\"); Text(\"B\").font(.caption) }\n",
            ])
        }
        return """
            import SwiftUI

            struct Screen\(index): View {
                @State private var isOn = false
                @State private var selected = 0
                @Environment(\\.dismiss) private var dismiss

                var body: some View {
                    ScrollView {
                        VStack(spacing: 12) {
            \(body)            }
                    }
                    .navigationTitle("Screen \(index)")
            \(colorRows(index))
                    .onAppear { withAnimation(.spring()) { isOn.toggle() } }
                }

                private func toggle0() { isOn.toggle() }
                private func toggle1() { selected += 1 }
                private func toggle2() { dismiss() }
            }

            #Preview { Screen\(index)() }

            """
    }

    /// Text and shapes coloured by the catalog's sets; the same rows whatever `random` says, so
    /// the rest of the corpus does not change with `colorSets`.
    private func colorRows(_ index: Int) -> String {
        guard colorSets > 0 else { return "" }
        let a = (index * 3) % colorSets, b = (index * 3 + 1) % colorSets, c = (index * 3 + 2) % colorSets
        return """
            .overlay {
                        VStack {
                            Text("Tag").foregroundStyle(Color("Palette\(a)")).background(Color("Palette\(b)"))
                            Text("Note").font(.footnote).foregroundStyle(Color("Palette\(c)"))
                            Circle().fill(Color("Palette\(b)")).frame(width: 8, height: 8)
                        }
                    }
            """
    }

    /// Four variants for most sets; every fifth has light and dark only.
    private func colorSet(_ index: Int) -> String {
        func entry(_ gray: Double, _ appearances: String) -> String {
            let value = String(format: "%.3f", gray)
            return """
                { "idiom" : "universal", \(appearances)"color" : { "color-space" : "srgb", "components" : { "red" : "\(value)", "green" : "\(value)", "blue" : "\(value)", "alpha" : "1.000" } } }
                """
        }
        let level = Double(index % 10) / 10
        var entries = [entry(level, ""), entry(1 - level, #""appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ], "#)]
        if index % 5 != 0 {
            entries.append(entry(level / 2, #""appearances" : [ { "appearance" : "contrast", "value" : "high" } ], "#))
            entries.append(entry(1 - level / 2, #""appearances" : [ { "appearance" : "luminosity", "value" : "dark" }, { "appearance" : "contrast", "value" : "high" } ], "#))
        }
        return "{ \"colors\" : [\n" + entries.joined(separator: ",\n") + "\n], \"info\" : { \"author\" : \"xcode\", \"version\" : 1 } }\n"
    }

    private mutating func uiKitController(_ index: Int) -> String {
        var setup = ""
        for row in 0..<(4 + Int(random.next() % 10)) {
            setup += pick([
                "        label\(row % 3).font = UIFont.preferredFont(forTextStyle: .body)\n        label\(row % 3).adjustsFontForContentSizeCategory = true\n",
                "        label\(row % 3).font = UIFont.systemFont(ofSize: \(9 + row % 8))\n",
                "        button.accessibilityLabel = \"Close button\"\n",
                "        view.backgroundColor = UIColor(red: 0.9, green: 0.9, blue: 0.9, alpha: 1)\n",
                "        view.addGestureRecognizer(UILongPressGestureRecognizer(target: self, action: #selector(longPress)))\n",
                "        button.accessibilityTraits = .button\n",
                "        stack.addArrangedSubview(label\(row % 3))\n",
            ])
        }
        return """
            import UIKit

            final class Controller\(index): UIViewController {
                private let label0 = UILabel()
                private let label1 = UILabel()
                private let label2 = UILabel()
                private let button = UIButton(type: .system)
                private let stack = UIStackView()

                override func viewDidLoad() {
                    super.viewDidLoad()
            \(setup)        view.addSubview(stack)
                    stack.translatesAutoresizingMaskIntoConstraints = false
                    NSLayoutConstraint.activate([
                        stack.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16),
                        stack.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -16),
                    ])
                }

                @objc private func longPress() {
                    UIView.animate(withDuration: 0.3) { self.view.alpha = 0.5 }
                }
            }

            """
    }

    private mutating func appKitWindow(_ index: Int) -> String {
        """
        import AppKit

        final class Window\(index): NSWindowController {
            let title = NSTextField(labelWithString: "Title")
            let small = NSTextField(labelWithString: "Small print")

            override func windowDidLoad() {
                super.windowDidLoad()
                title.font = NSFont.systemFont(ofSize: \(pick([13, 9, 11, 17])))
                small.font = NSFont.systemFont(ofSize: \(pick([8, 10, 12])))
                small.setAccessibilityLabel("small_print_label")
            }
        }

        """
    }

    private mutating func model(_ index: Int) -> String {
        var fields = ""
        for field in 0..<(5 + Int(random.next() % 20)) {
            fields += "    var field\(field): \(pick(["String", "Int", "Double", "[String]", "Date?"]))\n"
        }
        return """
            import Foundation

            struct Model\(index): Codable, Hashable {
            \(fields)}

            extension Model\(index) {
                static func load(from data: Data) throws -> Model\(index) {
                    try JSONDecoder().decode(Model\(index).self, from: data)
                }

                func summary() -> String {
                    let parts = [String(describing: field0), String(describing: field1)]
                    return parts.joined(separator: ", ")
                }
            }

            """
    }
}

/// A tiny deterministic generator (SplitMix64), so corpora are identical across runs.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
