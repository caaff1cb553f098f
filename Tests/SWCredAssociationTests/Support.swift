import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// Helpers shared by the association tests.
enum TestSupport {
    static let appID = "ABCDE12345.com.example.app"

    /// Parses `json` as an association file; fails the test on a parse error.
    static func file(_ json: String) throws -> AssociationFile {
        try AssociationFile.parse(Array(json.utf8))
    }

    /// The outcome of `url` for `appID` under the rules of `json`.
    static func outcome(_ json: String, _ url: String, appID: String? = TestSupport.appID) throws -> MatchOutcome {
        try ReferenceApplinksMatcher(file: file(json)).match(LinkURL(url), appID: appID).outcome
    }

    /// An applinks file with one detail for ``appID`` holding `components` (JSON array text),
    /// and optional extra `applinks` members (JSON text without braces).
    static func components(_ components: String, extra: String = "", detailExtra: String = "") -> String {
        """
        {"applinks": {\(extra.isEmpty ? "" : extra + ",")
          "details": [{"appIDs": ["\(appID)"], \(detailExtra.isEmpty ? "" : detailExtra + ",") "components": \(components)}]}}
        """
    }

    /// Whether `url` matches a single component object (JSON text) for ``appID``.
    static func matches(_ component: String, _ url: String, extra: String = "") throws -> Bool {
        try outcome(components("[\(component)]", extra: extra), url) == .match
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swcred-assoc-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `root/relative`, creating folders.
    static func write(_ text: String, to relative: String, in root: URL) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
