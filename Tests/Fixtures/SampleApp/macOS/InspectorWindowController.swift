import AppKit

/// macOS only: Dynamic Type does not exist here, so fixed sizes are not findings by themselves.
final class InspectorWindowController: NSWindowController {
    let titleField = NSTextField(labelWithString: "Inspector")
    let hintField = NSTextField(labelWithString: "Drag items here")

    override func windowDidLoad() {
        super.windowDidLoad()
        titleField.font = NSFont.systemFont(ofSize: 13)
        hintField.font = NSFont.systemFont(ofSize: 11)
        titleField.setAccessibilityLabel("inspector_title_label") // expect: accessibility-label-raw-identifier
    }
}
