// Every limit of the onboarding payload formats, with where it comes from.
enum OnboardingLimits {
    /// §5.1.1.6: 27-bit field, but 99999999 and above cannot be typed as 8 digits and 0 is forbidden.
    static let passcodeRange: ClosedRange<UInt32> = 1...99_999_998
    /// §5.1.1.5: a 12-bit discriminator.
    static let maximumLongDiscriminator: UInt16 = 0xFFF
    /// §5.1.4: the manual code keeps the upper 4 bits of the discriminator.
    static let maximumShortDiscriminator: UInt8 = 0xF
    /// The QR code's optional TLV data is a few dozen bytes in practice; refuse codes whose
    /// payload would not fit the largest QR code (version 40, alphanumeric: 4296 characters).
    static let maximumQRCodeCharacters = 4296
}
