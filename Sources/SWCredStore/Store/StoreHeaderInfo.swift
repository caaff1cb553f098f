package import SWCredCore
package import SWCredSodium

/// What the plaintext header of a keychain file says, readable without the key.
///
/// Use it to decide which key source to ask for (a passphrase prompt or a key file) before
/// opening, or to show a store's format and KDF parameters. Nothing here is authenticated until
/// the store is opened with its key: the checksum only tells corruption apart.
package struct StoreHeaderInfo: Sendable, Hashable {
    /// The format version (1).
    let formatVersion: UInt16
    /// `true` for a key-file store, `false` for a passphrase store.
    package let usesKeyFile: Bool
    /// The Argon2id parameters of a passphrase store.
    package let kdfParameters: Argon2idParameters?
    /// The 16-byte store id.
    package let storeID: [UInt8]
    /// The generation counter.
    package let generation: UInt64
    /// The encrypted payload's length in bytes (tag excluded).
    package let payloadLength: UInt64
}

extension StoreHeaderInfo {
    /// Parses the bytes of a whole keychain file (steps 1–5 of spec/store.md §4.6). Never traps on
    /// any input; a fuzzer can call it directly.
    /// - Throws: `notAStore`, `unsupportedFormat`, `corruptHeader`, `parametersOutOfBounds`,
    ///   `corruptPayload` (length mismatch).
    package init(parsing file: [UInt8], limits: StoreLimits = .default) throws(SWCredError) {
        let header = try StoreHeader.parse(file: file, maxFileSize: limits.maxFileSize)
        self.init(header)
    }

    init(_ header: StoreHeader) {
        self.init(
            formatVersion: StoreHeader.formatVersion,
            usesKeyFile: header.keySource == .keyFile,
            kdfParameters: header.kdf == .argon2id13 ? header.keyParameters.argon2 : nil,
            storeID: header.storeID,
            generation: header.generation,
            payloadLength: header.payloadLength
        )
    }
}

extension KeychainStore {
    /// Reads and checks a keychain file's header (steps 1–5 of spec/store.md §4.6) without a key.
    /// - Throws: `storeNotFound`, `limitExceeded`, `notAStore`, `unsupportedFormat`,
    ///   `corruptHeader`, `parametersOutOfBounds`, `corruptPayload` (length mismatch), `ioFailure`.
    package static func inspect(at path: String, limits: StoreLimits = .default) throws(SWCredError) -> StoreHeaderInfo {
        let bytes = try readFile(path, limits: limits)
        return StoreHeaderInfo(try StoreHeader.parse(file: bytes, maxFileSize: limits.maxFileSize))
    }
}
