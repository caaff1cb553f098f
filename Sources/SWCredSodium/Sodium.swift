internal import CSWCredSodium
public import SWCredCore

/// libsodium, initialised once per process.
///
/// `sodium_init()` runs the first time any swcred code touches libsodium, through a lazy static
/// (thread-safe by the Swift runtime). It returns 0 on success and 1 when already initialised;
/// both are fine; -1 is a fatal ``SWCredError/Code/cryptoUnavailable``.
public enum Sodium {
    private static let initResult: Int32 = sodium_init()

    /// Ensures libsodium is initialised.
    /// - Throws: ``SWCredError/Code/cryptoUnavailable`` when `sodium_init` fails.
    public static func ensureInitialized() throws(SWCredError) {
        guard initResult >= 0 else {
            throw SWCredError(.cryptoUnavailable, "libsodium could not be initialised (sodium_init returned \(initResult))")
        }
    }

    /// Fills a new array with `count` random bytes from `randombytes_buf`.
    public static func randomBytes(_ count: Int) throws(SWCredError) -> [UInt8] {
        try ensureInitialized()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { randombytes_buf(base, raw.count) }
        }
        return bytes
    }

    /// A uniform random integer in `0..<upperBound` from `randombytes_uniform` (unbiased by rejection).
    /// - Precondition: `0 < upperBound <= UInt32.max`.
    public static func randomUniform(_ upperBound: UInt32) throws(SWCredError) -> UInt32 {
        precondition(upperBound > 0, "randomUniform needs a positive bound")
        try ensureInitialized()
        return randombytes_uniform(upperBound)
    }
}

extension SWCredError.Code {
    /// `sodium_init` failed, or a libsodium call failed unexpectedly (exit 1).
    public static let cryptoUnavailable = Self("cryptoUnavailable", exitCode: 1)
}
