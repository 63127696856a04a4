import UIKit

// Vendored code: skipped by default, so its problems are not ours to report.
final class FancyButton: UIButton {
    override init(frame: CGRect) {
        super.init(frame: frame)
        titleLabel?.font = UIFont.systemFont(ofSize: 8)
        accessibilityTraits = .button
    }
    required init?(coder: NSCoder) { fatalError() }
}
