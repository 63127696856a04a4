print("a11y-audit")
