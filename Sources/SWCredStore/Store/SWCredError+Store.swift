public import SWCredCore

// Error codes raised by the store (spec/store.md §12, exit codes of spec/cli.md).
extension SWCredError.Code {
    /// An export's output file exists and `--force` was not given (nothing is written). Exit 74,
    /// the I/O failure code: the create (`O_EXCL`) failed with `EEXIST`.
    public static let outputExists = Self(.outputExists)
    /// Update or delete matched nothing; a query found nothing. `errSecItemNotFound` -25300, exit 44.
    public static let itemNotFound = Self(.itemNotFound, status: -25300)
    /// An add or update would duplicate a uniqueness key (a negative entry blocks an add too).
    /// `errSecDuplicateItem` -25299, exit 45.
    public static let duplicateItem = Self(.duplicateItem, status: -25299)
    /// No keychain file where one is required. `errSecNoSuchKeychain` -25294, exit 66.
    public static let storeNotFound = Self(.storeNotFound, status: -25294)
    /// Creating a store where one exists. `errSecDuplicateKeychain` -25296, exit 24.
    public static let storeExists = Self(.storeExists, status: -25296)
    /// Too short, or a wrong magic value. `errSecInvalidKeychain` -25295, exit 21.
    public static let notAStore = Self(.notAStore, status: -25295)
    /// Unknown format version, key source, algorithm id or payload schema. -25295, exit 25.
    public static let unsupportedFormat = Self(.unsupportedFormat, status: -25295)
    /// KDF parameters or payload length outside the caps (exit 21).
    public static let parametersOutOfBounds = Self(.parametersOutOfBounds)
    /// Header shorter than its version requires, or checksum mismatch (exit 21).
    public static let corruptHeader = Self(.corruptHeader)
    /// Header MAC mismatch, wrong key source, or a store rekeyed since it was opened; the message
    /// says which. `errSecAuthFailed` -25293, exit 20.
    public static let wrongKey = Self(.wrongKey, status: -25293)
    /// Length mismatch, AEAD failure, or undecodable plaintext (exit 21).
    public static let corruptPayload = Self(.corruptPayload)
    /// The file's generation is below this account's high-water mark (exit 23).
    public static let rollbackDetected = Self(.rollbackDetected)
    /// The write lock was not acquired before the timeout (exit 22).
    public static let busy = Self(.busy)
    /// The generation changed while the lock was held, or a prepared change named a generation
    /// that is no longer current (exit 26).
    public static let conflict = Self(.conflict)
    /// Key file, secret file or store directory accessible to others or owned by another user (exit 28).
    public static let insecurePermissions = Self(.insecurePermissions)
    /// Key file missing, not a regular file, or the wrong length (exit 66).
    public static let invalidKeyFile = Self(.invalidKeyFile)
}

// `ioFailure` with the OSStatus Apple gives for the errno (store.md §12): one name, so equal to
// ``SWCredError/Code/ioFailure`` (-36); declared once here instead of minted per failure.
extension SWCredError.Code {
    /// `ioFailure` for ENOSPC / EDQUOT: `errSecDskFull` -34.
    static let ioFailureDiskFull = Self(.ioFailure, status: -34)
    /// `ioFailure` for EACCES / EPERM / EROFS: `errSecWrPerm` -61.
    static let ioFailureWritePermission = Self(.ioFailure, status: -61)
}
