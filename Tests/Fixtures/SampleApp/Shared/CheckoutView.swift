import SwiftUI

struct CheckoutView: View {
    @State private var accepted = false
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        VStack(spacing: 16) {
            Image("cart_badge_plus") // expect: image-asset-name-spoken
            Text("Review your order")
                .font(.title2)
            Toggle("Accept the terms", isOn: $accepted)
            Button("Pay") { dismiss() }
                .accessibilityLabel("Pay button") // expect: accessibility-label-names-trait
            Button {
                dismiss()
            } label: {
                Image(systemName: "xmark") // expect: hit-region-too-small
            }
            .accessibilityLabel("xmark.circle.fill") // expect: accessibility-label-raw-identifier
            Button("Help") {}
                .accessibilityLabel("cart.checkout.label")
            Image(decorative: "confetti")
            Image("divider_line")
                .accessibilityHidden(true)
        }
        .dynamicTypeSize(...DynamicTypeSize.xxLarge) // expect: dynamic-type-size-capped
    }
}
