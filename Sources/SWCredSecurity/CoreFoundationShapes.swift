public import Foundation

// Linux stand-ins for the CoreFoundation types that Apple's Shared Web Credentials API uses, so
// that login code written against Apple's documentation compiles with only `import Security`
// replaced by `import SWCredSecurity`.
//
// Differences from Darwin (documented in the module overview):
// - `CFString` is `String` (so `"x" as CFString` and `kSecAttrAccount as String` work);
// - `CFArray`, `CFDictionary` and `CFError` are `NSArray`, `NSDictionary` and `NSError`;
// - `CFArrayGetValueAtIndex` returns a non-optional raw pointer to the element object, so Apple's
//   `unsafeBitCast(CFArrayGetValueAtIndex(array, 0), to: CFDictionary.self)` idiom works.
// On Darwin the real CoreFoundation types are used and these declarations are left out.

#if !canImport(Darwin)
/// `OSStatus`: a 32-bit status code (0 is success).
public typealias OSStatus = Int32
/// `CFIndex`.
public typealias CFIndex = Int
/// `CFString`, as a Swift `String` on Linux.
public typealias CFString = String
/// `CFArray`, as an `NSArray` on Linux.
public typealias CFArray = NSArray
/// `CFDictionary`, as an `NSDictionary` on Linux.
public typealias CFDictionary = NSDictionary
/// `CFError`, as an `NSError` on Linux.
public typealias CFError = NSError

/// `CFArrayGetCount`: the number of elements.
public func CFArrayGetCount(_ theArray: CFArray) -> CFIndex {
    theArray.count
}

/// `CFArrayGetValueAtIndex`: a raw pointer to the element object at `idx`, kept alive by the array.
///
/// `idx` must be within `0..<CFArrayGetCount(theArray)` (a programmer error otherwise, as on Darwin).
///
/// Arrays made by this module hold their dictionaries as objects, so the pointer stays valid as
/// long as the array does, as on Darwin. Linux Foundation's plain `NSArray` hands out bridged
/// copies instead; for such an array the element is retained once more and never released (a small
/// leak instead of a dangling pointer).
public func CFArrayGetValueAtIndex(_ theArray: CFArray, _ idx: CFIndex) -> UnsafeRawPointer {
    precondition(idx >= 0 && idx < theArray.count, "CFArrayGetValueAtIndex: index \(idx) out of range")
    if let credentials = theArray as? SharedWebCredentialArray {
        return UnsafeRawPointer(Unmanaged.passUnretained(credentials.dictionary(at: idx)).toOpaque())
    }
    return UnsafeRawPointer(Unmanaged.passRetained(theArray.object(at: idx) as AnyObject).toOpaque())
}

/// The `CFArray` the request's completion receives: dictionaries held as objects, so that
/// `CFArrayGetValueAtIndex` pointers stay valid while the array lives. It bridges to
/// `[[String: Any]]` like any `NSArray`.
///
/// Not `Sendable`, as `NSArray` is not on Linux (Foundation marks that conformance unavailable);
/// like Apple's `CFArray`, it is handed to the completion on the queue that calls it.
public final class SharedWebCredentialArray: NSArray {
    private var dictionaries: [NSDictionary] = []

    /// Creates an array of credential dictionaries.
    public convenience init(dictionaries: [NSDictionary]) {
        self.init()
        self.dictionaries = dictionaries
    }

    public override var count: Int { dictionaries.count }

    public override func object(at index: Int) -> Any { dictionaries[index] }

    /// The dictionary object at `index`.
    public func dictionary(at index: Int) -> NSDictionary { dictionaries[index] }
}

/// `CFErrorGetCode`.
public func CFErrorGetCode(_ err: CFError) -> CFIndex { err.code }
/// `CFErrorGetDomain`.
public func CFErrorGetDomain(_ err: CFError) -> String { err.domain }
/// `CFErrorCopyDescription`.
public func CFErrorCopyDescription(_ err: CFError) -> String { err.localizedDescription }
#endif
