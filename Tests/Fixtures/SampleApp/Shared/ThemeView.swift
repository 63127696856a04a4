import SwiftUI

/// Uses the catalog's colours by name and by generated symbol.
struct ThemeView: View {
    var body: some View {
        VStack(alignment: .leading) {
            Text("Welcome back")
                .foregroundStyle(Color("Brand"))
            Text("Last order: yesterday")
                .font(.footnote)
                .foregroundStyle(Color("Caption")) // expect: insufficient-contrast
            // 11 pt bold at 3.55:1: meets Apple's table, fails WCAG; the finding states both.
            Text("NEW")
                .font(.system(size: 11, weight: .bold)) // expect: fixed-font-size, text-below-minimum-size
                .foregroundStyle(Color(red: 0.533, green: 0.533, blue: 0.533)) // expect: insufficient-contrast, hard-coded-color-literal
                .background(Color.white)
            // Light grey on white by default; its increased-contrast variant passes.
            Text("Swipe for more")
                .foregroundStyle(Color("Muted")) // expect: contrast-relies-on-increase-contrast
            Text("Offers")
                .foregroundStyle(Color("Brnad")) // expect: color-name-missing
        }
    }
}
