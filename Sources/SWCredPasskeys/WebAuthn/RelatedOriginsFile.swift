import SWCredAssociation
import SWCredCore

/// What a browser read from an RP ID's `/.well-known/webauthn` (WebAuthn related origins,
/// asset-links.md §2.1): the body, or why it could not be read, and where it came from. A
/// ``PasskeyCaller/relatedOrigin(_:_:)`` caller carries it; the ceremony decides with it
/// (ROR-Q1) when the RP ID is not the origin's host or a registrable suffix of it.
public struct RelatedOriginsFile: Sendable, Hashable {
    /// The RP ID whose file this is.
    public let rpID: String
    /// Where it came from: a path under `--aasa-dir`, or its https URL.
    public let location: String
    /// The body as served, when it was read.
    public let body: [UInt8]?
    /// Why it could not be read (a retrieval rule, ROR-F1…F3), when it was not.
    public let failure: String?
    /// The Public Suffix List used to count registrable origin labels (Debian's `publicsuffix`
    /// data by default).
    public let publicSuffixListPath: String

    /// A file that was read.
    public init(rpID: String, location: String, body: [UInt8], publicSuffixListPath: String) {
        self.rpID = rpID
        self.location = location
        self.body = body
        self.failure = nil
        self.publicSuffixListPath = publicSuffixListPath
    }

    /// A file that could not be read, and why.
    public init(rpID: String, location: String, failure: String, publicSuffixListPath: String) {
        self.rpID = rpID
        self.location = location
        self.body = nil
        self.failure = failure
        self.publicSuffixListPath = publicSuffixListPath
    }
}

extension RelyingPartyID {
    /// The related-origins check (ROR-Q1): whether `origin` may use `rpID`, which is not its
    /// host or a registrable suffix of it, because `file` (the RP ID's `/.well-known/webauthn`)
    /// lists it within the first five registrable origin labels.
    ///
    /// - Throws: `passkeyOriginNotAllowed` (SecurityError, exit 50) with the reason: the file is
    ///   for another RP ID, could not be read (ROR-F*), is malformed (ROR-S1, ROR-F3), does not
    ///   list the origin or lists it after the label limit (ROR-L1); and, failing closed, when the
    ///   Public Suffix List cannot be read.
    package static func authorizeRelatedOrigin(
        _ origin: Origin, rpID: String, file: RelatedOriginsFile
    ) throws(SWCredError) {
        let refuse = { (why: String) in
            PasskeyFailure.originNotAllowed.error(
                "the RP ID \(rpID) is not \(origin.host) or a registrable suffix of it, and \(why)", asApp: false)
        }
        guard file.rpID == rpID else { throw refuse("the related-origins file given is for \(file.rpID)") }
        guard let body = file.body else {
            throw refuse("its related origins cannot be read: \(file.failure ?? "no file") (ROR-F1)")
        }
        let document: RelatedOriginsDocument
        switch RelatedOriginsDocument.parse(body) {
        case .success(let parsed): document = parsed
        case .failure(let failure): throw refuse("\(file.location) is malformed: \(failure)")
        }
        let list: PublicSuffixList
        do {
            list = try PublicSuffixList.load(path: file.publicSuffixListPath)
        } catch {
            throw refuse("its related origins cannot be checked: \(error.message)")
        }
        let caller = RelatedOrigin(scheme: origin.scheme, host: origin.host, port: origin.port)
        let verdict = RelatedOriginsMatcher(publicSuffixes: list).match(caller: caller, in: document)
        guard verdict.isAllowed else {
            throw refuse(RelatedOriginsMatcher.reason(verdict, caller: caller, rpID: rpID, source: file.location))
        }
    }
}
