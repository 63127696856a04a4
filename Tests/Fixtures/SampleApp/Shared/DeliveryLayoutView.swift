import SwiftUI

/// Layout at large text sizes and hit regions, with a clean counterpart for each case.
struct DeliveryLayoutView: View {
    @ScaledMetric(relativeTo: .body) private var rowHeight: CGFloat = 44
    @State private var expanded = false

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            // Built for iOS, macOS and visionOS: too small on iOS and visionOS, the Mac's own size on macOS.
            Button { expanded.toggle() } label: { Image(systemName: "chevron.down") }
                .accessibilityLabel("Show details")
                .frame(width: 28, height: 28) // expect: hit-region-too-small
            Button { expanded.toggle() } label: { Image(systemName: "chevron.up") }
                .accessibilityLabel("Hide details")
                .frame(minWidth: 60, minHeight: 60)

            Text("Arrives today by 6 PM")
                .font(.headline)
                .frame(height: 24) // expect: text-clipped-at-large-sizes
            Text("Arrives today by 6 PM")
                .font(.headline)
                .frame(height: rowHeight)

            Text("Leave at the front door if nobody answers")
                .lineLimit(1) // expect: line-limit-truncates
                .frame(width: 220)
            Text("Leave at the front door if nobody answers")
                .lineLimit(1)
                .minimumScaleFactor(0.6)
                .frame(width: 220)

            HStack { // expect: hstack-never-restacks
                Text("Courier")
                Spacer()
                Text("Alex, arriving by bike")
            }
        }
    }
}
