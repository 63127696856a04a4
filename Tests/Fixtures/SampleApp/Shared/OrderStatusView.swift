import SwiftUI

struct OrderStatusView: View {
    let order: Order
    @State private var showToast = false
    @State private var showReceipt = false
    @State private var confirmCancel = false

    var body: some View {
        ZStack {
            VStack(alignment: .leading, spacing: 8) {
                Text("Order total")
                    .font(.caption2)
                Text("Ref. \(order.id.uuidString)")
                    .font(.custom("Menlo", size: 9, relativeTo: .caption2)) // expect: text-below-minimum-size
                // The accent-coloured title on an orange literal: 1.5:1 in every appearance.
                Button("Receipt") { showReceipt = true } // expect: insufficient-contrast
                    .background(Color(red: 0.96, green: 0.62, blue: 0.04)) // expect: hard-coded-color-literal
                Button("Copy reference") {
                    showToast = true
                    DispatchQueue.main.asyncAfter(deadline: .now() + 2) { showToast = false } // expect: auto-dismissing-content
                }
                Button("Cancel order") { confirmCancel = true }
            }
            if confirmCancel { // expect: custom-modal-missing-is-modal
                Color.black.opacity(0.4)
                    .ignoresSafeArea()
                    .onTapGesture { confirmCancel = false }
                VStack {
                    Text("Cancel this order?")
                    Button("Keep order") { confirmCancel = false }
                }
            }
        }
        .sheet(isPresented: $showReceipt) { Text("Receipt") } // expect: sheet-focus-restoration
    }
}

/// The paid/unpaid dot shown in list rows: colour is its only channel.
struct PaymentDot: View {
    let isPaid: Bool

    var body: some View {
        Circle() // expect: color-only-status
            .fill(isPaid ? Color.green : Color.red)
            .frame(width: 12, height: 12)
    }
}
