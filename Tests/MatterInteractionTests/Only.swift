/// Bytes from a hex string such as "15 28 00 18" (spaces ignored); test support only.
/// The one element of an array that should hold exactly one; nil otherwise. Test support only.
func only<Element>(_ elements: [Element]) -> Element? {
    elements.count == 1 ? elements.first : nil
}
