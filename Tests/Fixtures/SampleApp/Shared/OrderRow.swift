import SwiftUI

/// A row of the order list. Shared by the iOS, macOS and visionOS targets.
struct OrderRow: View {
    let order: Order
    @ScaledMetric(relativeTo: .body) private var badgeSize: CGFloat = 17

    var body: some View {
        HStack(spacing: 12) {
            Image("hero_banner")
                .resizable()
                .frame(width: 44, height: 44)
            VStack(alignment: .leading) {
                Text(order.items.first ?? "")
                    .font(.headline)
                Text(order.total.formatted())
                    .font(.system(size: 15)) // expect: fixed-font-size
                Text("\(order.items.count)")
                    .font(.system(size: badgeSize))
            }
            Spacer()
            Button { // expect: sf-symbol-default-label
                share()
            } label: {
                Image(systemName: "square.and.arrow.up") // expect: hit-region-too-small
            }
            Button(action: reorder) {
                Label("Reorder", systemImage: "arrow.clockwise")
                    .labelStyle(.iconOnly)
            }
        }
        .accessibilityElement(children: .contain)
    }

    private func share() {}
    private func reorder() {}
}
