import UIKit

final class OrderViewController: UIViewController {
    private let titleLabel = UILabel()
    private let priceLabel = UILabel()
    private let closeButton = UIButton(type: .close)
    private let favoriteButton = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        titleLabel.font = UIFont.preferredFont(forTextStyle: .title1) // expect: heading-missing-trait
        titleLabel.adjustsFontForContentSizeCategory = true
        titleLabel.numberOfLines = 0

        priceLabel.font = UIFont.systemFont(ofSize: 15) // expect: fixed-font-size
        let base = UIFont(name: "Avenir-Heavy", size: 17) ?? .systemFont(ofSize: 17)
        titleLabel.font = UIFontMetrics(forTextStyle: .title1).scaledFont(for: base)

        closeButton.accessibilityLabel = "Close"
        closeButton.titleLabel?.font = UIFont.preferredFont(forTextStyle: .body) // expect: font-not-adjusting-to-content-size
        favoriteButton.accessibilityLabel = "❤️" // expect: accessibility-label-empty-or-emoji
        closeButton.isAccessibilityElement = false // expect: accessibility-hidden-control
        view.maximumContentSizeCategory = .accessibilityLarge
        favoriteButton.accessibilityTraits = .selected // expect: accessibility-traits-assigned
        closeButton.accessibilityTraits.insert(.button)
        let swipe = UISwipeGestureRecognizer(target: self, action: #selector(dismissOrder)) // expect: gesture-without-alternative
        view.addGestureRecognizer(swipe)
    }

    @objc private func dismissOrder() { dismiss(animated: true) }
}
