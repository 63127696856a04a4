import SwiftUI

/// Uses the catalog's colours by name and by generated symbol.
struct ThemeView: View {
    var body: some View {
        VStack(alignment: .leading) {
            Text("Welcome back")
                .foregroundStyle(Color("Brand"))
            Text("Last order: yesterday")
                .font(.footnote)
                .foregroundStyle(Color("Caption"))
            Text("Offers")
                .foregroundStyle(Color("Brnad")) // expect: color-name-missing
        }
    }
}
