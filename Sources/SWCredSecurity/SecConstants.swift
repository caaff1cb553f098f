// Apple's names for the Shared Web Credentials keys and status codes (values from Apple's
// `SecItemConstants.c` and `SecBase.h`).

#if !canImport(Darwin)
/// `kSecAttrServer` (`srvr`): the credential's server.
public let kSecAttrServer: CFString = "srvr"
/// `kSecAttrAccount` (`acct`): the credential's account.
public let kSecAttrAccount: CFString = "acct"
/// `kSecAttrPort` (`port`): the credential's port, when it has one (legacy profile only).
public let kSecAttrPort: CFString = "port"
/// `kSecSharedPassword` (`spwd`): the credential's password.
public let kSecSharedPassword: CFString = "spwd"
/// `kSecClass` (`class`).
public let kSecClass: CFString = "class"
/// `kSecClassInternetPassword` (`inet`).
public let kSecClassInternetPassword: CFString = "inet"
/// `kSecAttrProtocol` (`ptcl`).
public let kSecAttrProtocol: CFString = "ptcl"
/// `kSecAttrAuthenticationType` (`atyp`).
public let kSecAttrAuthenticationType: CFString = "atyp"
/// `kSecAttrAccessGroup` (`agrp`).
public let kSecAttrAccessGroup: CFString = "agrp"
/// `kSecAttrSynchronizable` (`sync`).
public let kSecAttrSynchronizable: CFString = "sync"
/// `kSecAttrLabel` (`labl`).
public let kSecAttrLabel: CFString = "labl"
/// `kSecAttrComment` (`icmt`).
public let kSecAttrComment: CFString = "icmt"
/// `kSecAttrCreator` (`crtr`).
public let kSecAttrCreator: CFString = "crtr"
/// `kSecValueData` (`v_Data`).
public let kSecValueData: CFString = "v_Data"

/// `kCFErrorDomainOSStatus` / `kSecErrorDomain`: `NSOSStatusErrorDomain`.
public let kCFErrorDomainOSStatus: CFString = "NSOSStatusErrorDomain"

/// `errSecSuccess` (0).
public let errSecSuccess: OSStatus = 0
/// `errSecUnimplemented` (−4): add on macOS.
public let errSecUnimplemented: OSStatus = -4
/// `errSecParam` (−50): invalid arguments.
public let errSecParam: OSStatus = -50
/// `errSecAllocate` (−108).
public let errSecAllocate: OSStatus = -108
/// `errSecBadReq` (−909): Password AutoFill disabled.
public let errSecBadReq: OSStatus = -909
/// `errSecAuthFailed` (−25293): the site has not approved the app.
public let errSecAuthFailed: OSStatus = -25293
/// `errSecDuplicateItem` (−25299).
public let errSecDuplicateItem: OSStatus = -25299
/// `errSecItemNotFound` (−25300).
public let errSecItemNotFound: OSStatus = -25300
/// `errSecInteractionNotAllowed` (−25308).
public let errSecInteractionNotAllowed: OSStatus = -25308
/// `errSecInternal` (−26276).
public let errSecInternal: OSStatus = -26276
/// `errSecMissingEntitlement` (−34018).
public let errSecMissingEntitlement: OSStatus = -34018
#endif

/// `ASAuthorizationError.Code.canceled` (1001) in `com.apple.AuthenticationServices.AuthorizationError`.
public let ASAuthorizationErrorCanceled: Int = 1001
/// `ASAuthorizationErrorDomain`.
public let ASAuthorizationErrorDomain: String = "com.apple.AuthenticationServices.AuthorizationError"
