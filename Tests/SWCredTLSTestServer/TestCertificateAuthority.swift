import Crypto
public import Foundation
import SwiftASN1
import X509

/// A certificate authority made at test time: a P-256 root and leaf certificates it signs.
///
/// Nothing is read from disk or shipped in the repository: every run makes a fresh key pair, so
/// a test that trusts this root trusts exactly the server the test itself started.
///
/// ```swift
/// let ca = try TestCertificateAuthority()
/// let leaf = try ca.issueLeaf(dnsNames: ["aasa.test"])
/// try ca.writeCertificatePEM(to: directory.appendingPathComponent("ca.pem"))
/// ```
public struct TestCertificateAuthority: Sendable {
    /// The root certificate, PEM encoded (what `--ca-file` is given).
    public let certificatePEM: String
    /// The root's name, for the leaves' issuer field.
    let name: DistinguishedName
    /// The root's signing key.
    let key: Certificate.PrivateKey

    /// A leaf certificate and its private key, both PEM encoded.
    public struct Leaf: Sendable {
        /// The leaf certificate.
        public let certificatePEM: String
        /// The leaf's private key (PKCS#8 / SEC1 PEM as swift-crypto writes it).
        public let privateKeyPEM: String
    }

    /// Makes a new root with a fresh P-256 key.
    ///
    /// - Parameter commonName: the root's subject common name.
    /// - Throws: an X509 or ASN.1 error if the certificate cannot be built (a programmer error).
    public init(commonName: String = "swcred test root") throws {
        let rootKey = P256.Signing.PrivateKey()
        let key = Certificate.PrivateKey(rootKey)
        let name = try DistinguishedName {
            OrganizationName("swcred tests")
            CommonName(commonName)
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
            },
            issuerPrivateKey: key
        )
        self.name = name
        self.key = key
        self.certificatePEM = try certificate.serializeAsPEM().pemString
    }

    /// Issues a server certificate for `dnsNames` (and, optionally, IP addresses).
    ///
    /// - Parameters:
    ///   - dnsNames: the subject alternative DNS names; the first is also the common name.
    ///   - ipAddresses: IPv4 addresses as dotted quads to add as IP subject alternative names.
    ///   - validFor: how long from now the leaf stays valid (negative values make an expired leaf).
    /// - Returns: the leaf certificate and key in PEM form.
    /// - Throws: an X509 or ASN.1 error if the certificate cannot be built (a programmer error).
    public func issueLeaf(
        dnsNames: [String],
        ipAddresses: [String] = [],
        validFor: TimeInterval = 86400
    ) throws -> Leaf {
        let leafKey = P256.Signing.PrivateKey()
        let key = Certificate.PrivateKey(leafKey)
        let subject = try DistinguishedName {
            OrganizationName("swcred tests")
            CommonName(dnsNames.first ?? "localhost")
        }
        var names: [GeneralName] = dnsNames.map { .dnsName($0) }
        for address in ipAddresses {
            let octets = address.split(separator: ".").compactMap { UInt8($0) }
            if octets.count == 4 { names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(octets)))) }
        }
        let now = Date()
        let notAfter = now.addingTimeInterval(validFor)
        let notBefore = min(now.addingTimeInterval(-3600), notAfter.addingTimeInterval(-3600))
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: name,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: self.key
        )
        return Leaf(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            privateKeyPEM: leafKey.pemRepresentation
        )
    }

    /// Writes the root certificate as PEM to `url` (the file `--ca-file` reads).
    public func writeCertificatePEM(to url: URL) throws {
        try Data(certificatePEM.utf8).write(to: url)
    }
}
