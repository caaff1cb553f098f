internal import FoundationEssentials
package import SWCredCore
package import SWCredSodium
#if canImport(Glibc)
    import Glibc
#endif

/// Limits for reading a password export, applied before the input is read whole.
package struct ImportLimits: Sendable, Hashable {
    /// The largest input, checked from `fstat` before reading a file, and while reading a pipe.
    /// Default 16 MiB: the store's own default file limit, so a larger export could not be stored.
    package var maxInputBytes: Int = 16 << 20
    /// The CSV reader's limits.
    package var csv = CSVLimits()
    /// The longest JSON line, in bytes. Default 64 KiB.
    var maxJSONLineBytes: Int = 64 * 1024

    /// The defaults.
    package init() {}
}

/// One credential read from an export: the site, the account, and where its password is.
package struct ImportedCredential: Sendable, Hashable {
    /// The 1-based line of the row (its first line when a quoted field spans lines).
    package var line: Int
    /// The site (host, port, protocol).
    package var site: ImportedSite
    /// The account (user name); may be empty.
    package var account: String
    /// Where the password is in ``CredentialFile``'s guarded buffer.
    var secret: Range<Int>
}

/// A parsed password export: its credentials, the rows skipped, and every password in one buffer
/// of guarded memory.
///
/// The input is read into guarded memory (``read(path:limits:)``, ``read(descriptor:limits:)``),
/// and each password is decoded straight from it into a second guarded buffer; no password is held
/// in a Swift `String` or array here (JSON lines are the exception: the JSON reader makes a
/// `String`, which is copied into the buffer at once and cannot be wiped). Errors name the line and
/// column of the bad row or field and never a field's content.
package struct CredentialFile: Sendable {
    /// The format read (the detected one for `auto`).
    package let format: CredentialFileFormat
    /// The data rows read, header and blank lines excluded: imported plus skipped.
    package let rows: Int
    /// The credentials to import, in file order.
    package let credentials: [ImportedCredential]
    /// Rows skipped on reading (Bitwarden items that are not logins, non-web URLs): line and why.
    package let skipped: [(line: Int, reason: String)]
    private let secrets: SecureBytes

    /// Calls `body` with the password of `credential`. Do not let the pointer escape.
    package func withPassword<R, E: Error>(
        of credential: ImportedCredential, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try secrets.withUnsafeBytes { (all: UnsafeRawBufferPointer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: all[credential.secret]))
        }
    }

    // MARK: Reading the input

    /// Reads a file into guarded memory, refusing one over ``ImportLimits/maxInputBytes`` from its
    /// `fstat` size before reading.
    /// - Throws: `fileNotFound` (66), `limitExceeded` (27), `malformedInput` (not a regular file),
    ///   `ioFailure`, `resourceExhausted`.
    package static func read(path: String, limits: ImportLimits = ImportLimits()) throws(SWCredError) -> SecureBytes {
        guard let fd = try POSIX.openIfExists(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, step: "import: open") else {
            throw SWCredError(.fileNotFound, "no file at \(path)")
        }
        defer { POSIX.closeQuietly(fd) }
        let info = try POSIX.fstat(fd, step: "import: stat")
        if info.st_mode & S_IFMT == S_IFDIR { throw SWCredError(.malformedInput, "\(path) is a directory") }
        var initialCapacity = 64 * 1024
        if info.st_mode & S_IFMT == S_IFREG {
            guard let size = Int(exactly: info.st_size), size <= limits.maxInputBytes else {
                throw SWCredError(
                    .limitExceeded,
                    "\(path) is \(info.st_size) bytes; the import limit is \(limits.maxInputBytes) bytes")
            }
            // One byte more than fstat said, so that a file of that size is read in one buffer.
            initialCapacity = size + 1
        }
        return try read(descriptor: fd, limits: limits, origin: path, initialCapacity: initialCapacity)
    }

    /// Reads a descriptor (a pipe, standard input) to its end into guarded memory, failing with
    /// `limitExceeded` (27) as soon as more than ``ImportLimits/maxInputBytes`` arrive.
    package static func read(
        descriptor fd: Int32, limits: ImportLimits = ImportLimits(), origin: String = "standard input"
    ) throws(SWCredError) -> SecureBytes {
        try read(descriptor: fd, limits: limits, origin: origin, initialCapacity: 64 * 1024)
    }

    private static func read(
        descriptor fd: Int32, limits: ImportLimits, origin: String, initialCapacity: Int
    ) throws(SWCredError) -> SecureBytes {
        // Grow a guarded buffer by doubling; each old buffer is wiped when released.
        var current = try SecureBytes(capacity: 0) { _ in 0 }
        var capacity = min(max(initialCapacity, 1), limits.maxInputBytes + 1)
        while true {
            let previous = current
            var reachedEnd = false
            current = try SecureBytes(capacity: capacity) { (buffer) throws(SWCredError) -> Int in
                previous.withUnsafeBytes { old in
                    if let base = buffer.baseAddress, let oldBase = old.baseAddress, old.count > 0 {
                        base.copyMemory(from: oldBase, byteCount: old.count)
                    }
                }
                let free = UnsafeMutableRawBufferPointer(rebasing: buffer[previous.count...])
                let n = try POSIX.readFully(fd, into: free, step: "import: read \(origin)")
                reachedEnd = n < free.count
                return previous.count + n
            }
            if reachedEnd { return current }
            guard current.count <= limits.maxInputBytes else {
                throw SWCredError(
                    .limitExceeded, "\(origin) holds more than the import limit of \(limits.maxInputBytes) bytes")
            }
            capacity = min(capacity * 2, limits.maxInputBytes + 1)
            if capacity <= current.count { capacity = current.count + 1 }
        }
    }

    // MARK: Parsing

    /// Parses an export.
    ///
    /// - Parameters:
    ///   - input: the whole input (from ``read(path:limits:)`` or ``read(descriptor:limits:origin:)``).
    ///   - format: the format, or `nil` to detect it from the header.
    ///   - limits: input limits.
    ///   - storeLimits: field sizes of the store (server, account, password), checked per row.
    /// - Returns: the parsed file, its passwords in guarded memory.
    /// - Throws: `malformedInput` (65) naming the line and column of the first bad row or field;
    ///   `limitExceeded` (27) for a CSV limit.
    package static func parse(
        _ input: SecureBytes,
        format: CredentialFileFormat? = nil,
        limits: ImportLimits = ImportLimits(),
        storeLimits: StoreLimits = .default
    ) throws(SWCredError) -> CredentialFile {
        var parser = Parser(limits: limits, storeLimits: storeLimits)
        let secrets = try SecureBytes(capacity: input.count) { (arena) throws(SWCredError) -> Int in
            try input.withUnsafeBytes { (bytes) throws(SWCredError) -> Int in
                try parser.run(bytes, format: format, arena: arena)
            }
        }
        guard let detected = parser.format else {
            throw SWCredError(
                .malformedInput,
                "the input is empty: no header row and no JSON line (an empty swcred export reads with --from jsonl)")
        }
        return CredentialFile(
            format: detected, rows: parser.rows, credentials: parser.credentials, skipped: parser.skipped,
            secrets: secrets)
    }

    /// Parses an export held in ordinary memory (tests, fuzzing): the bytes are copied into
    /// guarded memory first; the caller's copy is not wiped.
    /// - Throws: as ``parse(_:format:limits:storeLimits:)``, and `resourceExhausted`.
    package static func parse(
        copying bytes: [UInt8], format: CredentialFileFormat? = nil, limits: ImportLimits = ImportLimits()
    ) throws(SWCredError) -> CredentialFile {
        try parse(try SecureBytes(copying: bytes), format: format, limits: limits)
    }

    private init(
        format: CredentialFileFormat, rows: Int, credentials: [ImportedCredential],
        skipped: [(line: Int, reason: String)],
        secrets: SecureBytes
    ) {
        self.format = format
        self.rows = rows
        self.credentials = credentials
        self.skipped = skipped
        self.secrets = secrets
    }

    /// The parsing state; passwords go into `arena` (guarded memory) at `used`.
    struct Parser {
        let limits: ImportLimits
        let storeLimits: StoreLimits
        var format: CredentialFileFormat?
        var rows = 0
        var credentials: [ImportedCredential] = []
        var skipped: [(line: Int, reason: String)] = []
        /// The invalid rows' messages (the first ``maximumRowErrors``) and how many there were.
        var rowErrors: [String] = []
        var rowErrorCount = 0
        var used = 0
        static let maximumRowErrors = 20

        init(limits: ImportLimits, storeLimits: StoreLimits) {
            self.limits = limits
            self.storeLimits = storeLimits
        }

        mutating func run(
            _ bytes: UnsafeRawBufferPointer, format requested: CredentialFileFormat?,
            arena: UnsafeMutableRawBufferPointer
        ) throws(SWCredError) -> Int {
            let start = CSVReader.bomLength(bytes)
            var firstByte: UInt8?
            for i in start..<bytes.count where ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
                firstByte = bytes[i]
                break
            }
            guard let firstByte else {
                // Nothing but white space: an empty JSON lines file (what `export` writes for a
                // store without passwords) holds no rows; under auto it names no format.
                if requested == .jsonl { format = .jsonl }
                return 0
            }
            if requested == .jsonl || (requested == nil && firstByte == UInt8(ascii: "{")) {
                format = .jsonl
                try readJSONLines(bytes, from: start, arena: arena)
            } else {
                try readCSV(bytes, requested: requested, arena: arena)
            }
            return used
        }

        // MARK: CSV

        mutating func readCSV(
            _ bytes: UnsafeRawBufferPointer, requested: CredentialFileFormat?, arena: UnsafeMutableRawBufferPointer
        ) throws(SWCredError) {
            var columns: CredentialFileFormat.Columns?
            var width = 0
            try CSVReader.forEachRecord(in: bytes, limits: limits.csv) { (fields) throws(SWCredError) in
                guard let known = columns else {
                    // The header row.
                    let names = fields.map { CSVReader.string($0, in: bytes) }
                    if let requested {
                        guard let found = requested.columns(in: names) else {
                            throw SWCredError(
                                .malformedInput,
                                "line \(fields[0].line): the header is not a \(requested.rawValue) export header (expected \(requested.expectedHeader))"
                            )
                        }
                        format = requested
                        columns = found
                    } else {
                        guard let (detected, found) = detect(names) else {
                            throw SWCredError(
                                .malformedInput,
                                "line \(fields[0].line): the header names no known export format (Safari, Chrome, Firefox, Bitwarden, 1Password); give --from"
                            )
                        }
                        format = detected
                        columns = found
                    }
                    width = fields.count
                    return
                }
                rows += 1
                try collectingRowError { (parser: inout Self) throws(SWCredError) in
                    try parser.readCSVRow(fields, bytes, known: known, width: width, arena: arena)
                }
            }
            if format == nil, let requested { format = requested }
            try throwRowErrors()
        }

        /// One CSV data row.
        mutating func readCSVRow(
            _ fields: [CSVField], _ bytes: UnsafeRawBufferPointer, known: CredentialFileFormat.Columns,
            width: Int, arena: UnsafeMutableRawBufferPointer
        ) throws(SWCredError) {
                let line = fields[0].line
                guard fields.count == width else {
                    throw SWCredError(
                        .malformedInput,
                        "line \(line): the row has \(fields.count) fields; the header has \(width)")
                }
                if let type = known.type {
                    let value = CSVReader.string(fields[type], in: bytes)
                    guard value == "login" else {
                        skipped.append((line, "a Bitwarden \(value.isEmpty ? "untyped" : value) item is not a login"))
                        return
                    }
                }
                let urlField = fields[known.url]
                var urlText = CSVReader.string(urlField, in: bytes)
                if format == .bitwarden, let comma = urlText.firstIndex(of: ",") {
                    // Bitwarden joins several URIs of one login with commas: the first is the site.
                    urlText = String(urlText[..<comma])
                }
                urlText = urlText.trimmingWhitespace()
                let where_ = CSVReader.position(of: urlField, in: bytes)
                let site: ImportedSite
                if urlText.isEmpty {
                    throw SWCredError(.malformedInput, "\(where_) (URL): the URL is empty; a row needs a site")
                }
                switch ImportedSite.parse(urlText) {
                case .site(let found): site = found
                case .notWeb(let scheme):
                    skipped.append((line, "the URL is not a web site (scheme \(scheme):)"))
                    return
                case .invalid(let reason): throw SWCredError(.malformedInput, "\(where_) (URL): \(reason)")
                }
                let accountField = fields[known.username]
                let account = CSVReader.string(accountField, in: bytes)
                try checkAccount(account, at: CSVReader.position(of: accountField, in: bytes))
                let passwordField = fields[known.password]
                let range = try store(
                    count: passwordField.rawCount, at: CSVReader.position(of: passwordField, in: bytes), arena: arena
                ) { out in CSVReader.decode(passwordField, in: bytes, into: out) }
                credentials.append(ImportedCredential(line: line, site: site, account: account, secret: range))
        }

        /// Runs one row's reading; a malformed row (`malformedInput`) is noted and the next row is
        /// read, so that one import reports every invalid row (up to ``maximumRowErrors`` listed).
        /// Other errors (limits, I/O) stop at once.
        mutating func collectingRowError(
            _ body: (inout Self) throws(SWCredError) -> Void
        ) throws(SWCredError) {
            do {
                try body(&self)
            } catch where error.code == .malformedInput {
                rowErrorCount += 1
                if rowErrors.count < Self.maximumRowErrors { rowErrors.append(error.message) }
            }
        }

        /// Throws `malformedInput` listing the invalid rows, when there were any.
        func throwRowErrors() throws(SWCredError) {
            guard rowErrorCount > 0 else { return }
            if rowErrorCount == 1 { throw SWCredError(.malformedInput, rowErrors[0]) }
            let more = rowErrorCount > rowErrors.count ? "; and \(rowErrorCount - rowErrors.count) more" : ""
            throw SWCredError(
                .malformedInput,
                "\(rowErrorCount) rows are invalid; nothing was imported: " + rowErrors.joined(separator: "; ") + more)
        }

        func detect(_ names: [String]) -> (CredentialFileFormat, CredentialFileFormat.Columns)? {
            for candidate in CredentialFileFormat.detectionOrder {
                if let columns = candidate.columns(in: names) { return (candidate, columns) }
            }
            return nil
        }

        func checkAccount(_ account: String, at position: String) throws(SWCredError) {
            guard account.utf8.count <= storeLimits.maxAccountBytes else {
                throw SWCredError(
                    .malformedInput,
                    "\(position) (user name): the user name is \(account.utf8.count) bytes; the limit is \(storeLimits.maxAccountBytes)"
                )
            }
        }

        /// Decodes a password into the arena and checks its size; the password is never in a message.
        mutating func store(
            count: Int, at position: String, arena: UnsafeMutableRawBufferPointer,
            _ write: (UnsafeMutableRawBufferPointer) -> Int
        ) throws(SWCredError) -> Range<Int> {
            precondition(used + count <= arena.count, "password arena overflow")
            let written = write(UnsafeMutableRawBufferPointer(rebasing: arena[used..<(used + count)]))
            guard written > 0 else {
                throw SWCredError(.malformedInput, "\(position) (password): the password is empty")
            }
            guard written <= storeLimits.maxSecretBytes else {
                // Wipe what was written before failing.
                Sodium.memzero(UnsafeMutableRawBufferPointer(rebasing: arena[used..<(used + written)]))
                throw SWCredError(
                    .malformedInput,
                    "\(position) (password): the password is \(written) bytes; the limit is \(storeLimits.maxSecretBytes)"
                )
            }
            let range = used..<(used + written)
            used += written
            return range
        }
    }
}

