// The `swcred-fetch` executable: the same commands as `swcred`, with HTTPS retrieval
// (SWCredRetrievalLive: async-http-client, SwiftNIO, BoringSSL) and the signed-artifact readers
// (SWCredArtifactsCLI: SWCredArtifacts, swift-asn1) installed. `swcred` hands it the command
// lines that fetch or read a signed app; it runs any command line itself.
import SWCredArtifactsCLI
import SWCredCLI
import SWCredRetrieval
import SWCredRetrievalLive

LiveRetrieval.installHTTPS()
ArtifactAppReader.install()
await SWCredProgram.main()
