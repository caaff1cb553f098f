public import Foundation
public import SWCredCore
import SWCredKit

// MARK: - NSError bridging (SWC-2.1)

extension SWCredError {
    /// The `NSError` this error bridges to (SWCredKit's ``SWCredError/errorDomain`` and
    /// ``SWCredError/errorCode``, the message as the localized description, the code's name under
    /// ``SWCredError/codeNameKey``), with the underlying error under `NSUnderlyingErrorKey`.
    ///
    /// Here rather than in SWCredKit because `NSError` is in Foundation but not in
    /// `FoundationEssentials`, and the `swcred` command links only the latter (issue 22).
    public var nsError: NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, Self.codeNameKey: code.name]
        if let underlying {
            info[NSUnderlyingErrorKey] = underlying.error.nsError
        }
        return NSError(domain: errorDomain, code: errorCode, userInfo: info)
    }
}
