import SwiftUI

#if os(visionOS)
/// Ornament controls of the immersive space.
struct ImmersiveControls: View {
    @Binding var isPlaying: Bool

    var body: some View {
        HStack(spacing: 16) {
            Button {
                isPlaying.toggle()
            } label: {
                Label(isPlaying ? "Pause" : "Play", systemImage: isPlaying ? "pause.fill" : "play.fill")
            }
            Text("Now playing")
                .font(.system(size: 20)) // expect: fixed-font-size
        }
        .padding(24)
        .glassBackgroundEffect()
    }
}
#endif
