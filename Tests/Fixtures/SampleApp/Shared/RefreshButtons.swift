import SwiftUI

/// The same 28x28 pt toolbar-sized button on macOS, where it is the native size, and on iOS, where it
/// is below the 44x44 pt hit region.
struct RefreshButtons: View {
    @Environment(\.dynamicTypeSize) private var typeSize

    var body: some View {
        let layout = typeSize.isAccessibilitySize ? AnyLayout(VStackLayout(alignment: .leading)) : AnyLayout(HStackLayout())
        layout {
            Text("Courier")
            Text("Alex, arriving by bike")
        }
        #if os(macOS)
        Button { } label: { Image(systemName: "arrow.clockwise") }
            .accessibilityLabel("Refresh")
            .frame(width: 28, height: 28)
        #elseif os(iOS)
        Button { } label: { Image(systemName: "arrow.clockwise") }
            .accessibilityLabel("Refresh")
            .frame(width: 28, height: 28) // expect: hit-region-too-small
        #endif
    }
}
