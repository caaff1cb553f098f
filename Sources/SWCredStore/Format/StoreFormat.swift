/// The keychain file format, version 1 (spec/store.md §4). Fixed for format version 1; golden
/// files in `Fixtures/store/` pin it.
///
/// ## File
///
/// `header (165 bytes) ‖ ciphertext (payload length bytes) ‖ tag (16 bytes)`: the file length
/// must be exactly `165 + payload length + 16`.
///
/// ## Header (all integers little-endian)
///
/// | offset | length | field |
/// | --- | --- | --- |
/// | 0 | 8 | magic `SWCREDKC` |
/// | 8 | 2 | format version, 1 |
/// | 10 | 1 | key source: 1 key file, 2 passphrase |
/// | 11 | 1 | KDF: 0 none (key file), 1 Argon2id v1.3 (`crypto_pwhash_ALG_ARGON2ID13`) |
/// | 12 | 8 | opslimit (0 for a key file) |
/// | 20 | 8 | memlimit in bytes (0 for a key file) |
/// | 28 | 16 | salt (zeros for a key file) |
/// | 44 | 1 | AEAD: 1 XChaCha20-Poly1305 IETF |
/// | 45 | 24 | nonce (fresh from `randombytes_buf` on every save) |
/// | 69 | 16 | store id (random at creation, never changes) |
/// | 85 | 8 | generation (1 at creation, +1 per save) |
/// | 93 | 8 | payload length (plaintext bytes, tag excluded) |
/// | 101 | 32 | MAC: BLAKE2b-256 keyed with sub-key 1 over bytes 0..<101 |
/// | 133 | 32 | checksum: unkeyed BLAKE2b-256 over bytes 0..<133 |
///
/// Sub-keys: `crypto_kdf_derive_from_key(32, id, "swcredv1", master)`; id 1 header MAC, id 2
/// payload, id 3 rollback state entry. The master key is the key file's 32 bytes, or 32 bytes of
/// Argon2id output with the header's salt and parameters (never the library's constants).
///
/// Readers check, in order: size from `fstat` (`limitExceeded`), magic (`notAStore`), version
/// (`unsupportedFormat`), header length and checksum (`corruptHeader`), ids (`unsupportedFormat`),
/// caps: opslimit 1–10, memlimit 8 KiB–1 GiB, payload length within the file-size limit
/// (`parametersOutOfBounds`), exact file length (`corruptPayload`), key source (`wrongKey`), KDF,
/// MAC (`wrongKey`), AEAD (`corruptPayload`), rollback mark for a protected store
/// (`rollbackDetected`), payload
/// (`corruptPayload`, `unsupportedFormat` for a newer schema, `limitExceeded` for counts).
///
/// ## Payload, schema 1
///
/// The ciphertext is `crypto_aead_xchacha20poly1305_ietf_encrypt` of the plaintext with sub-key 2,
/// the header's nonce, and the complete 165-byte header as associated data. The plaintext is a
/// canonical binary encoding (integers little-endian, Booleans exactly 0 or 1, strings valid
/// UTF-8 with a u16 length, four-character codes with a u8 length of 0 or 4, dates as i64
/// milliseconds since 1970 within ±2^50, no trailing bytes):
///
/// ```
/// u16 schema (1) · i64 created · u8 autoFill · u8 developerMode · u8 managedDevice
/// u32 item count, then per item:
///   str16 server · str16 account · u16 port · str8 protocol · str8 authType · str16 path
///   str16 securityDomain · str16 label · str16 comment · str8 creator · str16 accessGroup
///   u8 synchronizable · u8 isNegative · i64 created · i64 modified
///   u8 hasSecret (0/1) [· bytes16 secret]
/// u32 record count, then per association record:
///   u8 service (1 webcredentials, 2 applinks, 3 activitycontinuation, 4 appclips, 5 authsrv)
///   str16 appID · str16 host · u16 port (0 = none) · u8 wildcard · u8 modes (bit 0 developer,
///   bit 1 managed) · u8 userApproval · u8 siteApproval (1 unspecified, 2 approved, 3 denied)
///   i64 lastChecked · i64 nextCheck · u32 retryCount
///   u8 hasError [· str16 domain · i64 code · str16 message]
///   u8 source (1 downloaded, 2 builtIn, 3 manual)
///   u8 hasFile [· u8 digest length (≤ 64) · digest · u64 size · i64 retrievedAt]
/// ```
///
/// No padding is added (design freedom not taken): the file size reveals the payload size.
///
/// ## Payload, schema 2 (passkeys)
///
/// Schema 2 is schema 1 with the schema field set to 2 and one section appended after the
/// association records (`PasskeyCodec`):
///
/// ```
/// u32 passkey count (≥ 1), then per passkey:
///   bytes16 credentialID (1–1023) · str16 rpID (1–253) · bytes16 userHandle (1–64)
///   str16 userName (≤ 512) · str16 displayName (≤ 512) · u8 32 · 32-byte P-256 private scalar
///   i64 created · i64 lastUsed
/// ```
///
/// Contents without passkeys are written as schema 1, byte for byte as before, so a store that
/// never held a passkey stays readable by earlier versions; a schema 2 payload with no passkeys
/// is not canonical and is refused (`corruptPayload`). Items and passkeys together count against
/// `maxItems`. Passkeys are unique by (rpID, credentialID) and by (rpID, userHandle).
///
/// ## Payload, schema 3 (store flags)
///
/// Schema 3 is schema 2 with one byte after `managedDevice`: `u8 store flags`, bit 0 rollback
/// protection (store.md §5), every other bit 0; the passkey section is always present (its count
/// may be 0). It is written only when a flag is set, so a store without rollback protection is
/// written as schema 1 or 2, byte for byte as before (and older swcred keeps reading it); a schema 3
/// payload with no flag set is not canonical (`corruptPayload`). The flag is read from the
/// authenticated plaintext before the rollback mark is checked, so only the key can set or clear it.
///
/// ## Payload, schema 4 (sign counts)
///
/// Schema 4 is schema 3's layout (the `u8 store flags` byte after `managedDevice`, the passkey
/// section always present) with one field at the end of every passkey record, after `lastUsed`:
/// `u32 signCount` (little-endian like the rest of the payload; the count last reported,
/// `PasskeySignCount`). In schema 4 the flags byte may be 0 (no flag set) or 1 (rollback
/// protection); every other bit is 0. It is written only when at least one passkey's count is not
/// 0, so contents whose passkeys all have count 0 (every passkey `register` makes) are written as
/// schema 1, 2 or 3, byte for byte as before, and existing stores and the golden files stay valid;
/// a store is upgraded to schema 4 by the first save after a count becomes non-zero (an import at
/// N > 0, then each assertion). A schema 4 payload that a lower schema could hold (every count 0,
/// or no passkey) is not canonical (`corruptPayload`); an older swcred refuses schema 4 as a newer
/// schema (`unsupportedFormat`) and leaves the file as it is.
///
/// ```
/// u16 schema (4) · i64 created · u8 autoFill · u8 developerMode · u8 managedDevice · u8 store flags (0/1)
/// u32 item count … (as schema 1) · u32 record count … (as schema 1)
/// u32 passkey count (≥ 1), then per passkey: the schema 2 record · u32 signCount
/// ```
///
/// ## Decisions (spec/store.md "Design freedom")
///
/// - Header: the fixed little-endian layout above, magic `SWCREDKC`; opslimit and memlimit are
///   64-bit so that hostile values (2^32, 64 GiB) are representable and refused by the caps.
/// - Payload: the canonical binary encoding above, without padding.
/// - Key file: exactly 32 raw bytes (no text form), default `$XDG_CONFIG_HOME/swcred/keychain.key`.
/// - Rollback state: one 40-byte file per store id, `$XDG_STATE_HOME/swcred/<id hex>.state`, with
///   its own `.lock` file, for stores with rollback protection on only (issue 28: off by default).
/// - No backup file is kept (§6 step 8 skipped).
/// - Item and association-record counts above the reader's limits are `limitExceeded` on read
///   (a limit the user can raise), field sizes above the limits `corruptPayload`.
/// - Lock waits back off on the monotonic clock (`ContinuousClock`), blocking the calling
///   thread; the injected ``StoreClock`` only stamps dates.
/// - An opaque per-item identifier is not stored.
package enum StoreFormat {
    /// The format version this library reads and writes.
    package static let version: UInt16 = 1
    /// The AEAD tag length.
    package static let tagLength = 16
    /// The magic value at offset 0.
    package static let magic = "SWCREDKC"
}
