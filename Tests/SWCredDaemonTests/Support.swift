import Foundation
import SWCredAssociation
import SWCredCore
import SWCredStore
import Testing

let appID = "ABCDE12345.com.example.app"
let otherAppID = "ZZZZZ99999.com.example.other"

/// A folder of web roots on disk (`DIR/<host>/.well-known/apple-app-site-association`).
final class Sites: Sendable {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swcred-daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes `json` as `authority`'s file.
    func serve(_ authority: String, _ json: String) throws {
        let folder = root.appendingPathComponent(authority).appendingPathComponent(".well-known")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: folder.appendingPathComponent("apple-app-site-association"))
    }

    /// Removes `authority`'s folder (the site now answers 404).
    func remove(_ authority: String) throws {
        try? FileManager.default.removeItem(at: root.appendingPathComponent(authority))
    }

    var source: DirectoryAssociationSource { DirectoryAssociationSource(root: root.path) }
}

/// A source that counts retrievals and forwards them to a real source.
final class CountingSource: AssociationFileSource, @unchecked Sendable {
    // @unchecked: `requests` is only touched under `lock`.
    private let lock = NSLock()
    private var requests: [AssociationFileRequest] = []
    let inner: any AssociationFileSource

    init(_ inner: any AssociationFileSource) { self.inner = inner }

    var kind: AssociationSourceKind { inner.kind }

    var seen: [AssociationFileRequest] { lock.withLock { requests } }

    func retrieve(_ request: AssociationFileRequest) async throws -> RetrievedAssociationFile {
        lock.withLock { requests.append(request) }
        return try await inner.retrieve(request)
    }
}

func webcredentials(_ apps: [String]) -> String {
    let list = apps.map { "\"\($0)\"" }.joined(separator: ",")
    return
        #"{"webcredentials":{"apps":[\#(list)]},"applinks":{"details":[{"appIDs":[\#(list)],"components":[{"/":"/*"}]}]}}"#
}

func app(_ domains: [String], id: String = appID, developmentSigned: Bool = false) throws -> AppIdentity {
    try AppIdentity(
        entitlements: Entitlements(
            applicationIdentifier: id, associatedDomains: domains, developmentSigned: developmentSigned)
    )
}

func emptyContents(_ clock: TestStoreClock) -> StoreContents {
    StoreContents(creationDate: clock.now())
}
