import SwiftUI

struct FavoritesView: View {
    @State private var isFavorite = false
    @State private var pulse = false
    @State private var showDetails = false
    let items: [String]

    var body: some View {
        VStack {
            Image(systemName: isFavorite ? "star.fill" : "star")
                .onTapGesture { isFavorite.toggle() } // expect: custom-toggle-missing-trait
            Text("Details")
                .onTapGesture { showDetails = true } // expect: tap-gesture-missing-trait
            ForEach(items, id: \.self) { item in
                Text(item)
                    .onLongPressGesture { remove(item) } // expect: gesture-without-alternative
            }
            Circle()
                .scaleEffect(pulse ? 1.2 : 1)
                .onAppear {
                    withAnimation(.easeInOut.repeatForever()) { pulse = true } // expect: animation-ignores-reduce-motion
                }
        }
    }

    private func remove(_ item: String) {}
}

/// The same interactions, done right: no findings.
struct AccessibleFavoritesView: View {
    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @State private var isFavorite = false
    @State private var pulse = false
    let items: [String]

    var body: some View {
        VStack {
            Toggle(isOn: $isFavorite) { Label("Favorite", systemImage: "star") }
                .toggleStyle(.button)
            ForEach(items, id: \.self) { item in
                Text(item)
                    .onLongPressGesture { remove(item) }
                    .accessibilityAction(named: "Remove") { remove(item) }
                    .contextMenu { Button("Remove", role: .destructive) { remove(item) } }
            }
            Circle()
                .scaleEffect(pulse ? 1.2 : 1)
                .onAppear {
                    withAnimation(reduceMotion ? nil : .easeInOut.repeatForever()) { pulse = true }
                }
                .accessibilityHidden(true)
        }
    }

    private func remove(_ item: String) {}
}
